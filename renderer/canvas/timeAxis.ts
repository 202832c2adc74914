/**
 * The time axis shared by the curve view and the timeline: both draw frames
 * viewStart..viewEnd over the same horizontal span right of a gutter of the
 * same width, so a frame sits at the same x in both panels.
 */
import { COLORS } from '../theme';

/** Width of the label gutter left of the time axis, CSS px. */
export const GUTTER = 168;
/**
 * `text` as it fits in `maxWidth` px (`measure` gives a string's drawn width): whole when it fits, else cut with "…"
 * at the longest prefix that fits. The gutter's labels are cut by their drawn width, not a count of characters, so a
 * name that fits ("Root translation" beside its figures) is never cut and a wide one never runs into the figures.
 */
export function fitText(text: string, maxWidth: number, measure: (s: string) => number): string {
  if (measure(text) <= maxWidth) return text;
  let lo = 0;
  let hi = text.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(`${text.slice(0, mid)}…`) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/**
 * A gutter row's name as drawn left of its right-aligned `figures` (empty: none): the room between the gutter's 6 px
 * margins, less the figures and a 6 px gap, filled by fitText.
 */
export function gutterName(name: string, figures: string, measure: (s: string) => number): string {
  const room = GUTTER - 12 - (figures ? measure(figures) + 6 : 0);
  return fitText(name, room, measure);
}

/**
 * A lock bar's label in `room` px: the joint's name, cut with "…" where it does not fit, or null where not even its
 * first three letters and "…" would (a bare "…" or one letter names nothing).
 */
export function lockBarLabel(name: string, room: number, measure: (s: string) => number): string | null {
  const fitted = fitText(name, room, measure);
  if (fitted === name) return name;
  return fitted.length - 1 >= Math.min(3, name.length) ? fitted : null;
}

/** Right padding so frame N's marker is not clipped. */
export const RIGHT_PAD = 12;
/** Height of the frame ruler, CSS px. */
export const RULER_H = 20;

export interface TimeAxis {
  viewStart: number;
  viewEnd: number;
  /** Plot x range in CSS px. */
  left: number;
  right: number;
}

export function frameToX(a: TimeAxis, frame: number): number {
  return a.left + ((frame - a.viewStart) / (a.viewEnd - a.viewStart)) * (a.right - a.left);
}

export function xToFrame(a: TimeAxis, x: number): number {
  return a.viewStart + ((x - a.left) / (a.right - a.left)) * (a.viewEnd - a.viewStart);
}

/** A "nice" tick spacing in frames for about `pixelsPerTick` px between ticks. */
export function tickStep(a: TimeAxis, pixelsPerTick = 60): number {
  const framesPerPx = (a.viewEnd - a.viewStart) / Math.max(1, a.right - a.left);
  const raw = framesPerPx * pixelsPerTick;
  const pow = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  for (const m of [1, 2, 5, 10]) if (pow * m >= raw) return Math.max(1, pow * m);
  return Math.max(1, pow * 10);
}

/** Draws the frame ruler at y 0..RULER_H. */
export function drawRuler(ctx: CanvasRenderingContext2D, a: TimeAxis, frameCount: number, width: number): void {
  ctx.fillStyle = COLORS.gutterBg;
  ctx.fillRect(0, 0, width, RULER_H);
  ctx.strokeStyle = COLORS.gridMajor;
  ctx.beginPath();
  ctx.moveTo(0, RULER_H - 0.5);
  ctx.lineTo(width, RULER_H - 0.5);
  ctx.stroke();
  const step = tickStep(a);
  const minor = step >= 5 ? step / 5 : 1;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = COLORS.textDim;
  const first = Math.max(0, Math.ceil(a.viewStart / minor) * minor);
  for (let f = first; f <= Math.min(frameCount, a.viewEnd); f += minor) {
    const x = Math.round(frameToX(a, f)) + 0.5;
    if (x < a.left - 1) continue;
    const major = Math.abs(f / step - Math.round(f / step)) < 1e-6;
    ctx.strokeStyle = major ? COLORS.textDim : COLORS.gridMajor;
    ctx.beginPath();
    ctx.moveTo(x, major ? RULER_H - 8 : RULER_H - 4);
    ctx.lineTo(x, RULER_H);
    ctx.stroke();
    if (major) ctx.fillText(String(Math.round(f)), x + 3, 7);
  }
}

/** Draws vertical grid lines at the ruler's major ticks over y0..y1. */
export function drawTimeGrid(
  ctx: CanvasRenderingContext2D,
  a: TimeAxis,
  frameCount: number,
  y0: number,
  y1: number,
): void {
  const step = tickStep(a);
  ctx.strokeStyle = COLORS.gridLine;
  ctx.beginPath();
  for (let f = Math.max(0, Math.ceil(a.viewStart / step) * step); f <= Math.min(frameCount, a.viewEnd); f += step) {
    const x = Math.round(frameToX(a, f)) + 0.5;
    if (x < a.left) continue;
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y1);
  }
  ctx.stroke();
}

/** A faint line over y0..y1 at the frame under the pointer; nothing when no frame is hovered. */
export function drawHoverLine(
  ctx: CanvasRenderingContext2D,
  a: TimeAxis,
  frame: number | null,
  y0: number,
  y1: number,
): void {
  if (frame === null) return;
  const x = Math.round(frameToX(a, frame)) + 0.5;
  // A frame outside the view (hovered in another panel) would land on the row labels.
  if (x < a.left - 1 || x > a.right + 1) return;
  ctx.strokeStyle = 'rgba(255,255,255,0.18)';
  ctx.beginPath();
  ctx.moveTo(x, y0);
  ctx.lineTo(x, y1);
  ctx.stroke();
}

/** Draws the playhead line over y0..y1 with a handle in the ruler. */
export function drawPlayhead(ctx: CanvasRenderingContext2D, a: TimeAxis, frame: number, y1: number): void {
  const x = Math.round(frameToX(a, frame)) + 0.5;
  if (x < a.left - 1 || x > a.right + 1) return;
  ctx.strokeStyle = COLORS.playhead;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x, 0);
  ctx.lineTo(x, y1);
  ctx.stroke();
  // A small handle in the lower half of the ruler, so the frame numbers above stay readable.
  ctx.fillStyle = COLORS.playhead;
  ctx.beginPath();
  ctx.moveTo(x - 5, RULER_H - 11);
  ctx.lineTo(x + 5, RULER_H - 11);
  ctx.lineTo(x + 5, RULER_H - 6);
  ctx.lineTo(x, RULER_H - 1);
  ctx.lineTo(x - 5, RULER_H - 6);
  ctx.closePath();
  ctx.fill();
}

/** Zooms the view around `frame` by `factor` (< 1 zooms in), clamped to the motion. */
export function zoomView(
  start: number,
  end: number,
  frame: number,
  factor: number,
  frameCount: number,
): [number, number] {
  const minSpan = 4;
  const maxSpan = frameCount + 20;
  const span = Math.min(maxSpan, Math.max(minSpan, (end - start) * factor));
  // Keep the frame under the pointer where it is on screen.
  const u = (frame - start) / (end - start);
  const s = frame - u * span;
  return clampView(s, s + span, frameCount);
}

/** Keeps a view inside -10..N+10 without changing its span when possible. */
export function clampView(start: number, end: number, frameCount: number): [number, number] {
  const span = end - start;
  const lo = -Math.min(10, span * 0.1);
  const hi = frameCount + Math.min(10, span * 0.1);
  if (span >= hi - lo) return [lo, hi];
  if (start < lo) return [lo, lo + span];
  if (end > hi) return [hi - span, hi];
  return [start, end];
}
