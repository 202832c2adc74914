import { describe, it, expect } from 'vitest';
import {
  GUTTER,
  clampView,
  fitText,
  frameToX,
  gutterName,
  lockBarLabel,
  tickStep,
  xToFrame,
  zoomView,
} from './timeAxis';

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

describe('gutter labels', () => {
  // About the width of 11 px system-ui: 6 px a character.
  const measure = (s: string) => s.length * 6;
  it('keeps a name whole when it fits beside its figures, however many characters it has', () => {
    // "Root translation" (16 characters) was cut to "Root translati…" by a 15-character rule with room to spare.
    expect(gutterName('Root translation', '45 · 0.50', measure)).toBe('Root translation');
    expect(gutterName('12 LeftHandThumb', '6 · 0.00', measure)).toBe('12 LeftHandThumb');
  });
  it('cuts a wide name with "…" so that it ends before its figures', () => {
    const figures = '1234 · 0.50';
    const room = GUTTER - 12 - measure(figures) - 6;
    const cut = gutterName('21 RightHandMiddleFingerTip', figures, measure);
    expect(cut.endsWith('…')).toBe(true);
    expect(measure(cut)).toBeLessThanOrEqual(room);
    // The longest prefix that fits: one more character would not.
    expect(measure(`${'21 RightHandMiddleFingerTip'.slice(0, cut.length)}…`)).toBeGreaterThan(room);
  });
  it('fits text by drawn width, a wide glyph counting more than a narrow one', () => {
    const wide = (s: string) => [...s].reduce((w, c) => w + (c === 'W' ? 12 : 4), 0);
    expect(fitText('iiiiiiiiii', 40, wide)).toBe('iiiiiiiiii');
    expect(wide(fitText('WWWWWWWWWW', 40, wide))).toBeLessThanOrEqual(40);
    expect(fitText('abc', 0, measure)).toBe('…');
  });
});

describe('lock bar labels', () => {
  const measure = (s: string) => s.length * 6;
  it('cut a name the bar is too narrow for with "…" instead of slicing it at the bar’s edge', () => {
    // A bar of 45 px at 1280x800 showed "LeftFoo" sliced mid-letter.
    expect(lockBarLabel('LeftFoot', 45, measure)).toBe('LeftFo…');
    expect(lockBarLabel('LeftFoot', 48, measure)).toBe('LeftFoot');
  });
  it('draw nothing where not even three letters and "…" fit', () => {
    expect(lockBarLabel('LeftFoot', 20, measure)).toBeNull();
    expect(lockBarLabel('LeftFoot', 24, measure)).toBe('Lef…');
    expect(lockBarLabel('Hip', 18, measure)).toBe('Hip');
  });
});
