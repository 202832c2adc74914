/**
 * Time navigation shared by every panel on the time axis (curves, timeline, the event track): the wheel zooms
 * around the frame under the pointer or pans by a tenth of the view, a drag pans the view by the pointer's
 * movement, a scrub puts the playhead on the whole frame under the pointer. Each panel picks which modifier
 * means what; the views these return are always inside the motion (clampView).
 */
import { clampView, xToFrame, zoomView, type TimeAxis } from './timeAxis';

/** The frames in view, start..end (fractional). */
export interface TimeView {
  start: number;
  end: number;
}

/** Wheel zoom per pixel of deltaY: 100 px (one notch) zooms by about 16 %. */
const WHEEL_ZOOM_BASE = 1.0015;

/** The view a wheel zoom makes: around the frame under x, in for a negative deltaY. */
export function wheelZoomView(
  view: TimeView,
  axis: TimeAxis,
  x: number,
  deltaY: number,
  frameCount: number,
): [number, number] {
  return zoomView(view.start, view.end, xToFrame(axis, x), Math.pow(WHEEL_ZOOM_BASE, deltaY), frameCount);
}

/** The view a wheel pan makes: a tenth of the span, later for a positive deltaY (or deltaX, a sideways wheel). */
export function wheelPanView(
  view: TimeView,
  delta: { deltaX: number; deltaY: number },
  frameCount: number,
): [number, number] {
  const shift = (Math.sign(delta.deltaY || delta.deltaX) * (view.end - view.start)) / 10;
  return clampView(view.start + shift, view.end + shift, frameCount);
}

/** The view while dragging: `atPress` moved with the pointer, `dx` px since the press on a plot `plotWidth` px wide. */
export function dragPanView(atPress: TimeView, dx: number, plotWidth: number, frameCount: number): [number, number] {
  const shift = (-dx * (atPress.end - atPress.start)) / Math.max(1, plotWidth);
  return clampView(atPress.start + shift, atPress.end + shift, frameCount);
}

/** The whole frame under x, inside 0..frameCount: where a scrub or a click puts the playhead. */
export function frameUnder(axis: TimeAxis, x: number, frameCount: number): number {
  return Math.max(0, Math.min(frameCount, Math.round(xToFrame(axis, x))));
}
