import { describe, it, expect } from 'vitest';
import { clampView, frameToX, tickStep, xToFrame, zoomView } from './timeAxis';

describe('time axis', () => {
  const axis = { viewStart: 10, viewEnd: 110, left: 100, right: 1100 };
  it('maps frames to x and back', () => {
    expect(frameToX(axis, 10)).toBe(100);
    expect(frameToX(axis, 60)).toBe(600);
    expect(xToFrame(axis, frameToX(axis, 37.5))).toBeCloseTo(37.5, 12);
  });
  it('zooms around the frame under the pointer and stays inside the motion', () => {
    const [s, e] = zoomView(0, 100, 25, 0.5, 100);
    expect(e - s).toBeCloseTo(50, 12);
    expect((25 - s) / (e - s)).toBeCloseTo(0.25, 12);
    const [s2, e2] = zoomView(0, 100, 50, 0.001, 100);
    expect(e2 - s2).toBe(4);
    const [s3, e3] = zoomView(0, 100, 50, 100, 100);
    expect(s3).toBeLessThanOrEqual(0);
    expect(e3).toBeGreaterThanOrEqual(100);
  });
  it('clamps a panned view without changing its span', () => {
    expect(clampView(-50, 0, 100)).toEqual([-5, 45]);
    expect(clampView(90, 140, 100)).toEqual([55, 105]);
  });
  it('picks readable tick steps', () => {
    expect(tickStep({ viewStart: 0, viewEnd: 100, left: 0, right: 1000 })).toBe(10);
    expect(tickStep({ viewStart: 0, viewEnd: 600, left: 0, right: 600 })).toBe(100);
  });
});
