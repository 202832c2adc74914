import { describe, expect, it } from 'vitest';
import { PANEL_MIN, VIEWPORT_MIN, WINDOW_CHROME, fitPanelHeights } from './layout';

const panels = (c: number, t: number, s: number) => [
  { wanted: c, min: PANEL_MIN.curves },
  { wanted: t, min: PANEL_MIN.timeline },
  { wanted: s, min: PANEL_MIN.sev },
];

describe('fitPanelHeights', () => {
  it('keeps the saved sizes when the window is tall enough', () => {
    expect(fitPanelHeights(1000, panels(230, 150, 260))).toEqual([230, 150, 260]);
  });

  it('raises a saved size below its minimum (older versions saved a 170 px curve view)', () => {
    expect(fitPanelHeights(1000, panels(170, 150, 260))[0]).toBe(PANEL_MIN.curves);
  });

  it('shrinks the panels in a short window so the viewport keeps its minimum, never below their own', () => {
    const [c, t, s] = fitPanelHeights(800, panels(230, 150, 260));
    expect(c).toBeGreaterThanOrEqual(PANEL_MIN.curves);
    expect(t).toBeGreaterThanOrEqual(PANEL_MIN.timeline);
    expect(s).toBeGreaterThanOrEqual(PANEL_MIN.sev);
    expect(800 - WINDOW_CHROME - (c + t + s)).toBeGreaterThanOrEqual(VIEWPORT_MIN);
    // the panel with the most room above its minimum gives up the most
    expect(260 - s).toBeGreaterThan(230 - c);
  });

  it('returns the minimums when even they do not fit', () => {
    expect(fitPanelHeights(400, panels(500, 500, 500))).toEqual([PANEL_MIN.curves, PANEL_MIN.timeline, PANEL_MIN.sev]);
  });

  it('counts a fixed row (the collapsed SEV header of the tuner-only layout)', () => {
    const free = fitPanelHeights(800, panels(300, 260, 150).slice(0, 2));
    const fixed = fitPanelHeights(800, panels(300, 260, 150).slice(0, 2), 56);
    expect(fixed[0] + fixed[1]).toBe(free[0] + free[1] - 56);
  });
});
