import { describe, expect, it } from 'vitest';
import { HALF_LINE, planGutter, thinTickLabels, type GutterBands } from './gutterLabels';

/** The band layout CurvePainter.paint computes for a canvas of height h (kept in step with it). */
function bands(h: number, showError = true): GutterBands {
  const RULER_H = 20;
  const KEY_BAND_H = 16;
  const errH = showError ? Math.max(48, Math.round(h * 0.26)) : 0;
  const errBottom = h - 4;
  const errTop = errBottom - errH;
  const keyTop = (showError ? errTop - 6 : h - 2) - KEY_BAND_H;
  return { height: h, rulerH: RULER_H, plotTop: RULER_H + 8, keyTop, keyH: KEY_BAND_H, errTop, errBottom, showError };
}

function labelYs(p: ReturnType<typeof planGutter>): number[] {
  return [
    p.frameY,
    ...p.componentYs,
    ...(p.hintY === null ? [] : [p.hintY]),
    ...(p.keysY === null ? [] : [p.keysY]),
    ...p.errorLines.map((l) => l.y),
  ];
}

describe('planGutter', () => {
  it('never lets two labels overlap or leave the canvas, at any height', () => {
    for (let h = 90; h <= 500; h++) {
      for (const n of [1, 3, 4]) {
        for (const showError of [true, false]) {
          const p = planGutter(bands(h, showError), n, true);
          const ys = labelYs(p);
          for (let i = 1; i < ys.length; i++)
            expect(ys[i] - ys[i - 1], `h=${h} n=${n} err=${showError} ${ys}`).toBeGreaterThanOrEqual(2 * HALF_LINE);
          for (const y of ys) expect(y + HALF_LINE, `h=${h}`).toBeLessThanOrEqual(h);
        }
      }
    }
  });

  it('the old squeezed project layout (canvas ~123 px): values stay, secondary labels give way', () => {
    const p = planGutter(bands(123), 3, true);
    expect(p.componentYs).toHaveLength(3);
    expect(p.hintY).toBeNull();
    // The error readout fits in what is left; the header shares the value line.
    expect(p.errorLines.map((l) => l.line)[0]).toBe('headerValue');
    expect(p.errorLines.every((l) => l.y + HALF_LINE <= 123)).toBe(true);
  });

  it('at the minimum curve panel height everything primary is shown, quaternions included', () => {
    const p = planGutter(bands(152), 4, true);
    expect(p.componentYs).toHaveLength(4);
    expect(p.errorLines.map((l) => l.line)).toContain('tol');
    expect(p.errorLines.some((l) => l.line === 'value' || l.line === 'headerValue')).toBe(true);
  });

  it('a tall canvas shows every label in the usual places', () => {
    const p = planGutter(bands(260), 3, true);
    expect(p.componentYs).toEqual([46, 62, 78]);
    expect(p.hintY).toBe(94);
    expect(p.keysY).not.toBeNull();
    expect(p.errorLines.map((l) => l.line)).toEqual(['header', 'value', 'tol', 'max']);
  });

  it('without error values only the header is listed', () => {
    expect(planGutter(bands(260), 3, false).errorLines.map((l) => l.line)).toEqual(['header']);
  });
});

describe('thinTickLabels', () => {
  it('drops ticks that would touch the previous one or leave the range', () => {
    const ticks = [0, 5, 11, 30, 35, 60, 200].map((y) => ({ y }));
    expect(thinTickLabels(ticks, 0, 100).map((t) => t.y)).toEqual([0, 30, 60]);
  });
});
