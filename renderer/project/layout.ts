/**
 * Sizes of the project column and the SEV editor row, and the curve/timeline
 * heights used while a project is open (the SEV editor takes room from them,
 * so they keep their own sizes and the tuner-only layout is left as the user set it).
 * Persisted in localStorage like the other preferences.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';

export interface ProjectLayout {
  projectWidth: number;
  sevHeight: number;
  curvesHeight: number;
  timelineHeight: number;
}

const KEY = 'actguy.projectLayout';
const DEFAULTS: ProjectLayout = { projectWidth: 250, sevHeight: 260, curvesHeight: 230, timelineHeight: 150 };

/**
 * Smallest heights (px, whole panel including its header) at which each bottom panel stays usable. The curve
 * view needs room for the ruler, three or four value rows, the key band and the error band with its readout
 * (renderer/curves/gutterLabels.ts drops secondary labels below that, but the curves themselves need height).
 */
export const PANEL_MIN = { curves: 220, timeline: 110, sev: 150 } as const;
/** The 3D viewport keeps at least this height (px) when the window is short; the bottom panels shrink first. */
export const VIEWPORT_MIN = 200;
/** Height (px) of everything that is not a resizable row: menu bar, status bar, splitters (estimated generously). */
export const WINDOW_CHROME = 26 + 24 + 4 * 5;

/**
 * The heights to show for the bottom panels in a window `windowHeight` px tall. Each wanted height is raised to
 * its minimum (sizes saved by older versions may be smaller), then, when the panels and the viewport's minimum do
 * not fit, every panel gives up room in proportion to what it has above its minimum. The user's saved sizes are not
 * changed, so enlarging the window brings them back. When even the minimums do not fit, the minimums are returned.
 */
export function fitPanelHeights(windowHeight: number, panels: readonly { wanted: number; min: number }[], fixed = 0): number[] {
  const wanted = panels.map((p) => Math.max(p.min, Math.round(p.wanted)));
  const budget = windowHeight - WINDOW_CHROME - VIEWPORT_MIN - fixed;
  const excess = wanted.reduce((a, b) => a + b, 0) - budget;
  if (excess <= 0) return wanted;
  const slack = wanted.map((w, i) => w - panels[i].min);
  const totalSlack = slack.reduce((a, b) => a + b, 0);
  if (totalSlack <= 0) return wanted;
  const share = Math.min(1, excess / totalSlack);
  return wanted.map((w, i) => Math.floor(w - slack[i] * share));
}

function load(): ProjectLayout {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<ProjectLayout>;
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS) as (keyof ProjectLayout)[]) if (typeof v[k] === 'number' && Number.isFinite(v[k])) out[k] = v[k]!;
    return out;
  } catch {
    return { ...DEFAULTS };
  }
}

export const projectLayoutStore = createStore<ProjectLayout & { set(patch: Partial<ProjectLayout>): void }>()((set, get) => ({
  ...load(),
  set(patch) {
    set(patch);
    const { projectWidth, sevHeight, curvesHeight, timelineHeight } = get();
    try {
      localStorage.setItem(KEY, JSON.stringify({ projectWidth, sevHeight, curvesHeight, timelineHeight }));
    } catch {
      // storage unavailable: sizes last for this session
    }
  },
}));

export function useProjectLayout(): ProjectLayout & { set(patch: Partial<ProjectLayout>): void } {
  return useStore(projectLayoutStore);
}
