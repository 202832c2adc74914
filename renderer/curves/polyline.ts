/**
 * A curve's polyline with canvas work bounded by pixels, not frames (docs/architecture.md, "Renderer review,
 * round 3"). Where more than one frame falls in a pixel column (a long motion seen whole: 65,535 frames over some
 * 1,700 px), the column's frames are drawn as their first, lowest, highest and last points, in frame order: the
 * line covers exactly the pixels the full polyline would, with at most four points a column. Given the values'
 * min/max pyramid (./minMax.ts, "Renderer review, round 4"), a column's lowest and highest frames are two look-ups,
 * not a read of each of its frames: the trace costs the columns, not the frames.
 */
import type { MinMax } from './minMax';

/** The part of a canvas path this draws with. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

/**
 * Adds the points of frames `from`..`to` (whole frames, `from` <= `to`) at `x(f)`, `y(f)` to the path: the first
 * with `moveTo` (with `lineTo` when `join`, continuing a path already started), the rest with `lineTo`. `x` must
 * grow with the frame. With `values`, the pyramid of the values `y` draws (`y` a monotonic function of them, either
 * way), and `x` linear in the frame, a column's frames are not read one by one.
 */
export function tracePolyline(
  path: PathSink,
  from: number,
  to: number,
  x: (f: number) => number,
  y: (f: number) => number,
  join = false,
  values?: MinMax,
): void {
  if (to < from) return;
  const start = (xx: number, yy: number) => (join ? path.lineTo(xx, yy) : path.moveTo(xx, yy));
  // Two frames a pixel or fewer: every point (a zoomed-in view draws what it always drew).
  if (to - from <= 2 * Math.max(1, x(to) - x(from))) {
    start(x(from), y(from));
    for (let f = from + 1; f <= to; f++) path.lineTo(x(f), y(f));
    return;
  }
  if (values) {
    traceColumns(path, from, to, x, y, start, values);
    return;
  }
  let first = true;
  let col = Math.floor(x(from));
  let f0 = from;
  let lo = from;
  let hi = from;
  let yLo = y(from);
  let yHi = yLo;
  let last = from;
  const flush = () => {
    // The column's first, lowest, highest and last frames, in frame order, each once.
    const points = [f0, lo, hi, last].sort((a, b) => a - b);
    for (let i = 0; i < points.length; i++) {
      if (i > 0 && points[i] === points[i - 1]) continue;
      const f = points[i];
      if (first) {
        start(x(f), y(f));
        first = false;
      } else path.lineTo(x(f), y(f));
    }
  };
  for (let f = from + 1; f <= to; f++) {
    const c = Math.floor(x(f));
    const v = y(f);
    if (c !== col) {
      flush();
      col = c;
      f0 = lo = hi = last = f;
      yLo = yHi = v;
      continue;
    }
    if (v < yLo) {
      yLo = v;
      lo = f;
    }
    if (v > yHi) {
      yHi = v;
      hi = f;
    }
    last = f;
  }
  flush();
}

/** The decimated trace with a pyramid: per pixel column its first and last frames, and two look-ups. */
function traceColumns(
  path: PathSink,
  from: number,
  to: number,
  x: (f: number) => number,
  y: (f: number) => number,
  start: (x: number, y: number) => void,
  values: MinMax,
): void {
  const perPixel = (to - from) / (x(to) - x(from));
  let first = true;
  for (let f0 = from; f0 <= to;) {
    const col = Math.floor(x(f0));
    // The column's last frame: estimated from the slope, then moved to the exact edge (x is linear).
    let last = Math.min(to, Math.max(f0, Math.floor(f0 + (col + 1 - x(f0)) * perPixel)));
    while (last > f0 && Math.floor(x(last)) > col) last--;
    while (last < to && Math.floor(x(last + 1)) === col) last++;
    const points = [f0, values.argMin(f0, last), values.argMax(f0, last), last].sort((a, b) => a - b);
    for (let i = 0; i < points.length; i++) {
      if (i > 0 && points[i] === points[i - 1]) continue;
      const f = points[i];
      if (first) {
        start(x(f), y(f));
        first = false;
      } else path.lineTo(x(f), y(f));
    }
    f0 = last + 1;
  }
}
