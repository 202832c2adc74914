/**
 * Preferences: persisted to localStorage, not undoable, not part of a document.
 */
import { createStore } from 'zustand/vanilla';
import { persist, createJSONStorage, type StateStorage } from 'zustand/middleware';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import type { Tolerances } from './documentStore';
import type { EulerOrder } from '../math/euler';

export interface PreferencesState {
  /** Playback speed multiplier (1 = the motion's fps). */
  playbackSpeed: number;
  loop: boolean;
  /** Curve view layers. */
  showSource: boolean;
  showDecoded: boolean;
  showError: boolean;
  /** Rotate order of the Euler curves; 'auto' picks, per joint, the order farthest from gimbal lock. */
  eulerOrder: EulerOrder | 'auto';
  /** Curves drawn each in -1..1 over the motion (Blender's Normalize): shapes compare whatever their range. */
  curveNormalize: boolean;
  /** Viewport layers. */
  showTrajectory: boolean;
  showTrace: boolean;
  /** The source skeleton drawn as a translucent ghost behind the decoded one. */
  showGhost: boolean;
  /** Faint poses before and after the playhead. */
  showOnionSkin: boolean;
  /** The viewport camera follows the root as the motion plays. */
  followCamera: boolean;
  /** Tolerances a newly opened motion starts with. */
  defaultTolerances: Tolerances;
  /** Timeline rows under collapsible chain headers (spine, arms, legs, other), like an outliner. */
  timelineGrouped: boolean;
  /** The chain groups folded to their header row (renderer/timeline/jointFilter.ts CHAIN_GROUPS). */
  timelineFolded: string[];
  /** The tuning panel's sections folded to their header (renderer/tuner/TuningPanel.tsx TUNING_SECTIONS). */
  tuningFolded: string[];
  /** Panel sizes in CSS px (resizable splits). */
  layout: { tuningWidth: number; curvesHeight: number; timelineHeight: number };

  set(patch: Partial<Omit<PreferencesState, 'set'>>): void;
}

/** Storage that degrades to memory where localStorage is missing (unit tests) or blocked. */
function safeStorage(): StateStorage {
  const memory = new Map<string, string>();
  const ls: Storage | undefined = typeof localStorage !== 'undefined' ? localStorage : undefined;
  return {
    getItem: (k) => {
      try {
        return ls ? ls.getItem(k) : (memory.get(k) ?? null);
      } catch {
        return memory.get(k) ?? null;
      }
    },
    setItem: (k, v) => {
      try {
        if (ls) ls.setItem(k, v);
        else memory.set(k, v);
      } catch {
        memory.set(k, v);
      }
    },
    removeItem: (k) => {
      try {
        if (ls) ls.removeItem(k);
        else memory.delete(k);
      } catch {
        memory.delete(k);
      }
    },
  };
}

export const PLAYBACK_SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4] as const;

export function createPreferencesStore() {
  return createStore<PreferencesState>()(
    persist(
      (set) => ({
        playbackSpeed: 1,
        loop: true,
        showSource: true,
        showDecoded: true,
        showError: true,
        eulerOrder: 'auto',
        curveNormalize: false,
        showTrajectory: true,
        showTrace: true,
        showGhost: true,
        showOnionSkin: false,
        followCamera: true,
        defaultTolerances: { ...DEFAULT_TOLERANCES },
        timelineGrouped: false,
        timelineFolded: [],
        tuningFolded: [],
        layout: { tuningWidth: 330, curvesHeight: 300, timelineHeight: 260 },
        set(patch) {
          set(patch);
        },
      }),
      {
        name: 'actguy.preferences',
        version: 1,
        storage: createJSONStorage(safeStorage),
        partialize: ({ set: _set, ...rest }) => rest,
      },
    ),
  );
}

export const preferencesStore = createPreferencesStore();
