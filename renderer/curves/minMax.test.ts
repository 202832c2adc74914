import { afterEach, describe, expect, it } from 'vitest';
import { minMaxOf, pyramidsBuilt } from './minMax';
import type { CurveSeries } from './series';
import { GUTTER, type TimeAxis } from '../canvas/timeAxis';
import { documentStore } from '../state/documentStore';
import type { Motion } from '../../shared/motion/types';
import { painterParts, waveSeries, wavyCurve, type PainterParts } from '../testing/curvePainterParts';

/**
 * The curve view's paint reads pixels' worth of values, not the motion's frames (docs/architecture.md, "Renderer
 * review, round 4"): it repaints at every frame of playback, and found its value range, each curve's decimated
 * points and the error curve's top by reading every frame.
 */

describe('minMaxOf', () => {
  it('finds the lowest and highest value of any range, as a read of every frame does', () => {
    const v = wavyCurve(5000);
    const mm = minMaxOf(v);
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let t = 0; t < 400; t++) {
      const a = rnd(v.length);
      const b = t < 5 ? a : a + rnd(v.length - a);
      let lo = a;
      let hi = a;
      for (let f = a; f <= b; f++) {
        if (v[f] < v[lo]) lo = f;
        if (v[f] > v[hi]) hi = f;
      }
      expect(v[mm.argMin(a, b)], `${a}..${b}`).toBe(v[lo]);
      expect(v[mm.argMax(a, b)], `${a}..${b}`).toBe(v[hi]);
      expect(mm.argMin(a, b)).toBeGreaterThanOrEqual(a);
      expect(mm.argMax(a, b)).toBeLessThanOrEqual(b);
    }
    // One pyramid an array.
    const built = pyramidsBuilt();
    expect(minMaxOf(v)).toBe(mm);
    expect(pyramidsBuilt()).toBe(built);
  });
});

/** A 2D context whose methods do nothing (property writes are kept). */
function nullContext(): CanvasRenderingContext2D {
  const props: Record<string | symbol, unknown> = {};
  return new Proxy(props, {
    get: (t, k) => (k in t ? t[k] : () => {}),
    set: (t, k, v) => {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}

/** The array, with each read of a frame's value counted. */
function counted(a: Float64Array, reads: { n: number }): Float64Array {
  return new Proxy(a, {
    get: (t, k) => {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads.n++;
      const v = (t as unknown as Record<string | symbol, unknown>)[k];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

function paint(p: PainterParts, series: CurveSeries, axis: TimeAxis): void {
  p.paintValues(nullContext(), series, [], null, axis, 30, 900, true, true);
  p.paintErrors(nullContext(), series, axis, 930, 1070);
}

describe('the curve painter on a long motion', () => {
  afterEach(() => documentStore.setState({ motion: null }));

  it('repaints a 65,535-frame motion seen whole reading at most a few values a pixel column a curve', () => {
    const frames = 65_535;
    documentStore.setState({ motion: { frameCount: frames } as Motion });
    const reads = { n: 0 };
    const series = waveSeries(frames, 1, (v) => counted(v, reads));
    const p = painterParts();
    const axis: TimeAxis = { viewStart: 0, viewEnd: frames, left: GUTTER, right: 1910 };
    // The first paint builds each curve's pyramid: every frame read once.
    paint(p, series, axis);
    // The playhead moved: the same curves and view painted again.
    reads.n = 0;
    paint(p, series, axis);
    const columns = 1910 - GUTTER + 2;
    // Six curves, four points a column each; the error curve twice; a key dot a column on the three decoded curves.
    expect(reads.n).toBeLessThanOrEqual(6 * 4 * columns + 2 * 4 * columns + 3 * columns + 100);
    // Zoomed in to 600 frames: every frame in view, as before.
    reads.n = 0;
    paint(p, series, { ...axis, viewStart: 1000, viewEnd: 1600 });
    expect(reads.n).toBeGreaterThan(6 * 600);
  });

  it('fits the value range to an edit: a new result with new values is ranged anew, the old one as it was', () => {
    const frames = 16_383;
    documentStore.setState({ motion: { frameCount: frames } as Motion });
    const reads = { n: 0 };
    const p = painterParts();
    const axis: TimeAxis = { viewStart: 0, viewEnd: frames, left: GUTTER, right: 1910 };
    const before = waveSeries(frames, 1, (v) => counted(v, reads));
    paint(p, before, axis);
    const hi0 = Number(p.surface.canvas.dataset.valueHi);
    const lo0 = Number(p.surface.canvas.dataset.valueLo);
    // The edit's result: the same source, decoded curves with an overshoot at frame 5,001 (new arrays, as a new
    // result brings).
    const overshoot = (i: number) => {
      const d = wavyCurve(frames, 1);
      d[5001] = 400 + i;
      return d;
    };
    const after = { ...before, components: before.components.map((c, i) => ({ ...c, decoded: overshoot(i) })) };
    paint(p, after, axis);
    expect(Number(p.surface.canvas.dataset.valueHi)).toBeGreaterThan(402);
    // Back to the first result (an undo): its range again.
    paint(p, before, axis);
    expect(Number(p.surface.canvas.dataset.valueHi)).toBe(hi0);
    expect(Number(p.surface.canvas.dataset.valueLo)).toBe(lo0);
  });
});
