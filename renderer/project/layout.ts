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
const DEFAULTS: ProjectLayout = { projectWidth: 250, sevHeight: 290, curvesHeight: 170, timelineHeight: 170 };

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
