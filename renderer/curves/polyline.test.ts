import { afterEach, describe, expect, it } from 'vitest';
import { tracePolyline, type PathSink } from './polyline';
import { GUTTER, type TimeAxis } from '../canvas/timeAxis';
import { documentStore } from '../state/documentStore';
import type { Motion } from '../../shared/motion/types';
import { painterParts, waveSeries, wavyCurve } from '../testing/curvePainterParts';

/**
 * The curve view's canvas work scales with pixels, not frames (docs/architecture.md, "Renderer review, round 3"):
 * a 65,535-frame motion seen whole at 1920x1080 drew 65,536 points a curve at every repaint, and the playhead
 * repaints the view at every animation frame of playback.
 */

function record(): PathSink & { points: [number, number][]; moves: number } {
  const points: [number, number][] = [];
  const r = {
    points,
    moves: 0,
    moveTo: (x: number, y: number) => {
      r.moves++;
      points.push([x, y]);
    },
    lineTo: (x: number, y: number) => void points.push([x, y]),
  };
  return r;
}

/** Each pixel column's lowest and highest y, of points or of every frame. */
function columns(points: readonly (readonly [number, number])[]): Map<number, [number, number]> {
  const m = new Map<number, [number, number]>();
  for (const [x, y] of points) {
    const c = Math.floor(x);
    const r = m.get(c);
    m.set(c, r ? [Math.min(r[0], y), Math.max(r[1], y)] : [y, y]);
  }
  return m;
}

describe('tracePolyline', () => {
  it('draws a 65,535-frame curve over 1,700 px with at most four points a column, covering what every frame covers', () => {
    const frames = 65_535;
    const v = wavyCurve(frames);
    const x = (f: number) => 100 + (f / frames) * 1700;
    const y = (f: number) => 500 - v[f];
    const r = record();
    tracePolyline(r, 0, frames, x, y);
    expect(r.moves).toBe(1);
    expect(r.points.length).toBeLessThanOrEqual(4 * 1701);
    const every = Array.from({ length: frames + 1 }, (_, f) => [x(f), y(f)] as const);
    expect(columns(r.points)).toEqual(columns(every));
    // In frame order: x never goes back.
    for (let i = 1; i < r.points.length; i++) expect(r.points[i][0]).toBeGreaterThanOrEqual(r.points[i - 1][0]);
    expect(r.points[0]).toEqual([x(0), y(0)]);
    expect(r.points[r.points.length - 1]).toEqual([x(frames), y(frames)]);
  });

  it('draws every frame where frames are wider than half a pixel, and continues a path when asked', () => {
    const v = wavyCurve(200);
    const x = (f: number) => f * 10;
    const r = record();
    tracePolyline(r, 50, 150, x, (f) => v[f]);
    expect(r.points).toEqual(Array.from({ length: 101 }, (_, k) => [x(50 + k), v[50 + k]]));
    const joined = record();
    tracePolyline(
      joined,
      0,
      65_535,
      (f) => f / 100,
      () => 0,
      true,
    );
    expect(joined.moves).toBe(0);
  });
});

/** A 2D context that counts the calls made on it (property writes are kept). */
function countingContext(): { ctx: CanvasRenderingContext2D; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const props: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(props, {
    get: (t, k) =>
      k in t
        ? t[k]
        : (..._args: unknown[]) => {
            calls[String(k)] = (calls[String(k)] ?? 0) + 1;
          },
    set: (t, k, v) => {
      t[k] = v;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
}

function paintCalls(frames: number): { curves: Record<string, number>; keys: Record<string, number> } {
  documentStore.setState({ motion: { frameCount: frames } as Motion });
  const series = waveSeries(frames);
  const painter = painterParts();
  const axis: TimeAxis = { viewStart: 0, viewEnd: frames, left: GUTTER, right: 1910 };
  const curves = countingContext();
  painter.paintValues(curves.ctx, series, [], null, axis, 30, 900, true, true);
  painter.paintErrors(curves.ctx, series, axis, 930, 1070);
  const keys = countingContext();
  painter.paintKeys(keys.ctx, series, axis, 910, 30);
  return { curves: curves.calls, keys: keys.calls };
}

describe('the curve painter on a long motion', () => {
  afterEach(() => documentStore.setState({ motion: null }));

  it('draws 65,535 frames, as 16,383, with at most four points a pixel column a curve at 1920 px', () => {
    const long = paintCalls(65_535);
    const shorter = paintCalls(16_383);
    const width = 1910 - GUTTER;
    const points = (k: Record<string, number>) => (k.lineTo ?? 0) + (k.moveTo ?? 0);
    // Six curves (three components, source and decoded) and the error curve twice (its fill and its line).
    expect(points(long.curves)).toBeLessThanOrEqual(8 * 4 * (width + 2) + 16);
    // The same bound at a quarter of the frames: the points follow the pixels (every frame drew 524,288 points).
    expect(points(shorter.curves)).toBeLessThanOrEqual(8 * 4 * (width + 2) + 16);
    // The automatic keys (16,383 of them): one diamond a pixel at most.
    expect(long.keys.fill).toBeLessThanOrEqual(width + 10);
  });
});
