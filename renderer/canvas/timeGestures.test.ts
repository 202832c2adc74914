import { describe, expect, it } from 'vitest';
import { dragPanView, frameUnder, wheelPanView, wheelZoomView } from './timeGestures';

describe('time gestures', () => {
  const axis = { viewStart: 0, viewEnd: 100, left: 100, right: 1100 };
  const view = { start: 0, end: 100 };

  it('zooms in around the frame under the pointer for a wheel turned away', () => {
    const [s, e] = wheelZoomView(view, axis, 350, -200, 100);
    expect(e - s).toBeLessThan(100);
    // Frame 25 stays under the pointer.
    expect((25 - s) / (e - s)).toBeCloseTo(0.25, 9);
    const [s2, e2] = wheelZoomView(view, axis, 350, 200, 100);
    expect(e2 - s2).toBeGreaterThan(100);
  });

  it('pans a tenth of the view per wheel notch, sideways wheels too, inside the motion', () => {
    expect(wheelPanView({ start: 20, end: 60 }, { deltaX: 0, deltaY: 100 }, 100)).toEqual([24, 64]);
    expect(wheelPanView({ start: 20, end: 60 }, { deltaX: -3, deltaY: 0 }, 100)).toEqual([16, 56]);
    expect(wheelPanView({ start: 0, end: 40 }, { deltaX: 0, deltaY: -100 }, 100)).toEqual([-4, 36]);
  });

  it('drags the view with the pointer: frames under the press follow it', () => {
    // 1000 px for 40 frames: 250 px is 10 frames, dragging right shows earlier frames.
    expect(dragPanView({ start: 40, end: 80 }, 250, 1000, 100)).toEqual([30, 70]);
    expect(dragPanView({ start: 40, end: 80 }, -250, 1000, 100)).toEqual([50, 90]);
    // Clamped at the motion's end without changing the span.
    expect(dragPanView({ start: 40, end: 80 }, -5000, 1000, 100)).toEqual([64, 104]);
  });

  it('scrubs to the nearest whole frame inside the motion', () => {
    expect(frameUnder(axis, 355, 100)).toBe(26);
    expect(frameUnder(axis, 344, 100)).toBe(24);
    expect(frameUnder(axis, 0, 100)).toBe(0);
    expect(frameUnder(axis, 5000, 100)).toBe(100);
  });
});
