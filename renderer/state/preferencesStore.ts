/**
 * Preferences: persisted to localStorage, not undoable, not part of a document.
 */
import { createStore } from 'zustand/vanilla';
import { persist, type PersistStorage, type StateStorage, type StorageValue } from 'zustand/middleware';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import type { Tolerances } from './documentStore';
import { EULER_ORDERS, type EulerOrder } from '../math/euler';
import { DEFAULT_FOOT_CONTACT_OPTIONS, type FootContactOptions } from '../../shared/sev/footsteps';
import { storedPickerFolders } from './rememberedFolders';
import { IMPORT_FPS_MAX, type GltfExportSource } from '../../shared/ipc/interchange';

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
  /** File > Import's frame rate and scale as last used: a series of takes, today's and tomorrow's, imports alike. */
  importOptions: { fps: number; scale: number };
  /** File > Export MSH's tolerances as last used (renderer/interchange/mshExportOptions.ts). */
  mshExportOptions: { positionTolerance: number; rotationToleranceDeg: number; useJointOverrides: boolean };
  /** File > Export glTF's units as last chosen (0.01: centimetres to metres, 1: as is), offered first; null: none yet. */
  gltfExportScale: 0.01 | 1 | null;
  /**
   * The motion a glTF export wrote last, the source or the compressed one (Export All's choice, or the single export's
   * menu item): Export All as glTF offers it first.
   */
  gltfExportSource: GltfExportSource;
  /** The tuning panel's "Keys per channel" table sorted worst first (else in the motion's channel order). */
  channelSortByError: boolean;
  /** The SEV editor's Audition: events play their sound during playback. */
  auditionEnabled: boolean;
  /** Suggest footsteps' detection settings as last used (renderer/sev/FootstepPanel.tsx). */
  footContactOptions: FootContactOptions;
  /** The curve view's channel (Euler, Quat, Offset): the session store starts with it and keeps it here. */
  curveChannel: 'euler' | 'quat' | 'offset';
  /** The timeline's chain filter (All: null, Legs, Arms, Spine); its text filter is this window's only. */
  timelineChain: 'legs' | 'arms' | 'spine' | null;
  /**
   * By kind of file (a picker's first extension), the workspace folder the browser build's file picker last chose
   * one in ('' the root): the next picker of that kind starts there (renderer/app/pickerFolders.ts).
   */
  pickerFolders: Record<string, string>;

  set(patch: Partial<Omit<PreferencesState, 'set'>>): void;
}

/**
 * Why the last write of the preferences did not reach localStorage (full, blocked), or null when it did (or there
 * is no localStorage to reach: unit tests). The preferences then live on in memory: callers that must tell the user
 * their change will not outlast the window (renderer/tuner/defaultTolerances.ts) read this after setting.
 */
let lastWriteError: string | null = null;

/** See lastWriteError. */
export function preferencesWriteError(): string | null {
  return lastWriteError;
}

/** What the page's stored settings whose write failed are told to: the message bar (renderer/main.tsx). */
let writeFailureListener: ((message: string) => void) | null = null;
/** The stores whose failed write was said: once each per window (each change would say it again). */
const writeFailuresSaid = new Set<string>();

/** Where a failed write of a stored setting is said (renderer/main.tsx: the message bar). */
export function onSettingsWriteFailure(listener: ((message: string) => void) | null): void {
  writeFailureListener = listener;
}

/**
 * A store of settings (`what`: "The preferences", "The panel layout") could not be written (storage full, blocked):
 * its changes last for this window only, which is said once, not left to be found at the next start.
 */
export function settingsWriteFailed(what: string, why: string): void {
  if (writeFailuresSaid.has(what) || !writeFailureListener) return;
  writeFailuresSaid.add(what);
  writeFailureListener(`${what} could not be stored (${why}): changes last for this window only.`);
}

/** The key a damaged stored setting of `key` is kept under when the start writes over it (one text: the newest). */
export function setAsideKey(key: string): string {
  return `${key}.setAside`;
}

/**
 * A stored setting the start could not use in full (`text`, read from `key`): it is kept as found under
 * setAsideKey(key) before the caller writes what it uses over it, so the warning is said at one start, not at every
 * start until a setting changes, and nothing the user had is lost (they can copy it back by hand). Returns the words
 * the warning ends with; `rewrite` is called only once the text is kept (a storage that refuses keeps the damaged
 * text where it was, and the warning then repeats at the next start, saying why).
 */
export function keepDamagedSetting(
  storage: Pick<Storage, 'setItem'>,
  key: string,
  text: string,
  rewrite: () => void,
): string {
  const aside = setAsideKey(key);
  try {
    storage.setItem(aside, text);
  } catch (e) {
    return ` The text as found could not be kept aside (${e instanceof Error ? e.message : String(e)}), so it is left in place.`;
  }
  rewrite();
  return ` The text as found is kept under ${aside}.`;
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
        lastWriteError = null;
      } catch (e) {
        memory.set(k, v);
        lastWriteError = e instanceof Error ? e.message : String(e);
        settingsWriteFailed('The preferences', lastWriteError);
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

/** The key of the preferences in localStorage, and the version of what is stored there. */
export const PREFERENCES_KEY = 'actguy.preferences';
const PREFERENCES_VERSION = 1;

/**
 * What the start found wrong with the stored preferences, in words for the message bar, or null when nothing was:
 * the stored text is not JSON, not ActGuy's preferences of this version, or some values are of the wrong kind. The
 * defaults are used for what was set aside, the text as found is kept under setAsideKey(PREFERENCES_KEY), and the
 * store is written at once with what is used (before 2026-12-04 it was not, and the warning came back at every start
 * until a preference changed).
 */
let readWarning: string | null = null;
/** The stored text the start read (what keepDamagedSetting keeps aside when readWarning is set). */
let readText: string | null = null;

/** See readWarning (renderer/main.tsx says it once at start). */
export function preferencesReadWarning(): string | null {
  return readWarning;
}

function setAsideWarning(what: string): string {
  return `The saved preferences (${PREFERENCES_KEY} in this window's storage) could not be used: ${what}. Their defaults are used instead.`;
}

/**
 * The preferences' storage: JSON over safeStorage, where what is read back is checked before zustand sees it (the
 * wrapper of the version and the state; mergeStoredPreferences checks each value). Text that does not parse, or a
 * wrapper of another kind or version, is set aside with a warning (readWarning) instead of silently.
 */
function checkedStorage(raw: StateStorage): PersistStorage<Preferences> {
  return {
    getItem(name) {
      readWarning = null;
      const text = raw.getItem(name) as string | null;
      readText = text;
      if (text === null) return null;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        readWarning = setAsideWarning('the text is not JSON');
        return null;
      }
      const w = v as Record<string, unknown> | null;
      const isObject = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
      if (!isObject(w) || w!.version !== PREFERENCES_VERSION || !isObject(w!.state)) {
        readWarning = setAsideWarning(`not preferences of version ${PREFERENCES_VERSION}`);
        return null;
      }
      return w as unknown as StorageValue<Preferences>;
    },
    setItem(name, value) {
      raw.setItem(name, JSON.stringify(value));
    },
    removeItem(name) {
      raw.removeItem(name);
    },
  };
}

/** Largest footstep detection value kept from storage (frames or units; the panel's fields never need more). */
const FOOT_OPTION_MAX = 100_000;

export const PLAYBACK_SPEEDS = [0.1, 0.25, 0.5, 1, 2, 4] as const;

type Preferences = Omit<PreferencesState, 'set'>;

const isFiniteAtLeast = (v: unknown, min: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min;

/** Tolerances as stored, when every value is one the compressor takes (checkTolerances); else undefined. */
function storedTolerances(v: unknown): Tolerances | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const t = v as Record<string, unknown>;
  if (![t.positionTolerance, t.rotationToleranceDeg, t.offsetTolerance].every((x) => isFiniteAtLeast(x, 0)))
    return undefined;
  if (t.method !== undefined && t.method !== 'classic' && t.method !== 'refined') return undefined;
  if ([t.objectTolerance, t.shell].some((x) => x !== undefined && !(isFiniteAtLeast(x, 0) && x > 0))) return undefined;
  return {
    positionTolerance: t.positionTolerance as number,
    rotationToleranceDeg: t.rotationToleranceDeg as number,
    offsetTolerance: t.offsetTolerance as number,
    ...(t.method !== undefined ? { method: t.method as Tolerances['method'] } : {}),
    ...(t.objectTolerance !== undefined ? { objectTolerance: t.objectTolerance as number } : {}),
    ...(t.shell !== undefined ? { shell: t.shell as number } : {}),
  };
}

/** The on/off preferences, each read back only as a boolean. */
export const PREFERENCE_BOOLEANS = [
  'loop',
  'showSource',
  'showDecoded',
  'showError',
  'curveNormalize',
  'showTrajectory',
  'showTrace',
  'showGhost',
  'showOnionSkin',
  'followCamera',
  'timelineGrouped',
  'channelSortByError',
  'auditionEnabled',
] as const;

/**
 * The preferences read back from storage, each value checked against its kind: what localStorage holds is input
 * (another version of the app, a hand edit, a damaged profile), and one wrong type there (a `null` list, a string
 * width) would break every start. A value that does not fit keeps the current (default) one and its key is added to
 * `setAside` (the start names them in a warning); unknown keys are dropped.
 */
export function mergeStoredPreferences(
  stored: unknown,
  current: PreferencesState,
  setAside: string[] = [],
): PreferencesState {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return current;
  const s = stored as Record<string, unknown>;
  const out: Preferences & { set: PreferencesState['set'] } = { ...current };
  // Every known key the store holds, less those whose value is taken below: what is set aside, said in a warning.
  const took = new Set<string>();
  const taken = (k: keyof Preferences) => took.add(k);
  for (const k of PREFERENCE_BOOLEANS)
    if (typeof s[k] === 'boolean') {
      out[k] = s[k] as boolean;
      taken(k);
    }
  if ((PLAYBACK_SPEEDS as readonly unknown[]).includes(s.playbackSpeed)) {
    out.playbackSpeed = s.playbackSpeed as number;
    taken('playbackSpeed');
  }
  if (s.eulerOrder === 'auto' || (EULER_ORDERS as readonly unknown[]).includes(s.eulerOrder)) {
    out.eulerOrder = s.eulerOrder as PreferencesState['eulerOrder'];
    taken('eulerOrder');
  }
  const tolerances = storedTolerances(s.defaultTolerances);
  if (tolerances) {
    out.defaultTolerances = tolerances;
    taken('defaultTolerances');
  }
  for (const k of ['timelineFolded', 'tuningFolded'] as const) {
    const v = s[k];
    if (Array.isArray(v) && v.length <= 64 && v.every((x) => typeof x === 'string' && x.length <= 64)) {
      out[k] = [...new Set(v as string[])];
      taken(k);
    }
  }
  // The dialogs' last values: what their fields accept (importOptions.ts parseImportOptions, mshExportOptions.ts).
  const imp = s.importOptions as Record<string, unknown> | null | undefined;
  if (
    typeof imp === 'object' &&
    imp !== null &&
    isFiniteAtLeast(imp.fps, 0) &&
    imp.fps > 0 &&
    imp.fps <= IMPORT_FPS_MAX &&
    isFiniteAtLeast(imp.scale, 0) &&
    imp.scale > 0
  ) {
    out.importOptions = { fps: imp.fps, scale: imp.scale };
    taken('importOptions');
  }
  const msh = s.mshExportOptions as Record<string, unknown> | null | undefined;
  if (
    typeof msh === 'object' &&
    msh !== null &&
    isFiniteAtLeast(msh.positionTolerance, 0) &&
    isFiniteAtLeast(msh.rotationToleranceDeg, 0) &&
    typeof msh.useJointOverrides === 'boolean'
  ) {
    out.mshExportOptions = {
      positionTolerance: msh.positionTolerance,
      rotationToleranceDeg: msh.rotationToleranceDeg,
      useJointOverrides: msh.useJointOverrides,
    };
    taken('mshExportOptions');
  }
  // null is what the store writes before the first glTF export
  if (s.gltfExportScale === 0.01 || s.gltfExportScale === 1 || s.gltfExportScale === null) {
    out.gltfExportScale = s.gltfExportScale;
    taken('gltfExportScale');
  }
  if (s.gltfExportSource === 'source' || s.gltfExportSource === 'compressed') {
    out.gltfExportSource = s.gltfExportSource;
    taken('gltfExportSource');
  }
  if (s.curveChannel === 'euler' || s.curveChannel === 'quat' || s.curveChannel === 'offset') {
    out.curveChannel = s.curveChannel;
    taken('curveChannel');
  }
  if (
    s.timelineChain === null ||
    s.timelineChain === 'legs' ||
    s.timelineChain === 'arms' ||
    s.timelineChain === 'spine'
  ) {
    out.timelineChain = s.timelineChain;
    taken('timelineChain');
  }
  const pickerFolders = storedPickerFolders(s.pickerFolders);
  if (pickerFolders) {
    out.pickerFolders = pickerFolders;
    taken('pickerFolders');
  }
  const foot = s.footContactOptions as Record<string, unknown> | null | undefined;
  const footKeys = Object.keys(DEFAULT_FOOT_CONTACT_OPTIONS) as (keyof FootContactOptions)[];
  if (
    typeof foot === 'object' &&
    foot !== null &&
    footKeys.every((k) => isFiniteAtLeast(foot[k], 0) && (foot[k] as number) <= FOOT_OPTION_MAX)
  ) {
    out.footContactOptions = Object.fromEntries(footKeys.map((k) => [k, foot[k]])) as unknown as FootContactOptions;
    taken('footContactOptions');
  }
  const layout = s.layout as Record<string, unknown> | null | undefined;
  if (typeof layout === 'object' && layout !== null) {
    const size = (v: unknown, fallback: number) => (isFiniteAtLeast(v, 0) && v <= 100_000 ? v : fallback);
    out.layout = {
      tuningWidth: size(layout.tuningWidth, current.layout.tuningWidth),
      curvesHeight: size(layout.curvesHeight, current.layout.curvesHeight),
      timelineHeight: size(layout.timelineHeight, current.layout.timelineHeight),
    };
    // each size of the wrong kind keeps its default; the others are taken
    const { tuningWidth, curvesHeight, timelineHeight } = out.layout;
    if (
      tuningWidth === layout.tuningWidth &&
      curvesHeight === layout.curvesHeight &&
      timelineHeight === layout.timelineHeight
    )
      taken('layout');
  }
  for (const k of Object.keys(s)) if (k in current && k !== 'set' && !took.has(k)) setAside.push(k);
  return out;
}

export function createPreferencesStore() {
  const raw = safeStorage();
  const store = createStore<PreferencesState>()(
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
        importOptions: { fps: 30, scale: 1 },
        mshExportOptions: {
          positionTolerance: DEFAULT_TOLERANCES.positionTolerance,
          rotationToleranceDeg: DEFAULT_TOLERANCES.rotationToleranceDeg,
          useJointOverrides: true,
        },
        gltfExportScale: null,
        gltfExportSource: 'source',
        channelSortByError: true,
        auditionEnabled: true,
        footContactOptions: { ...DEFAULT_FOOT_CONTACT_OPTIONS },
        curveChannel: 'euler',
        timelineChain: null,
        pickerFolders: {},
        set(patch) {
          set(patch);
        },
      }),
      {
        name: PREFERENCES_KEY,
        version: PREFERENCES_VERSION,
        storage: checkedStorage(raw),
        partialize: ({ set: _set, ...rest }) => rest,
        merge: (stored, current) => {
          const setAside: string[] = [];
          const out = mergeStoredPreferences(stored, current, setAside);
          if (setAside.length)
            readWarning = setAsideWarning(
              `${setAside.join(', ')} ${setAside.length === 1 ? 'is' : 'are'} of the wrong kind`,
            );
          return out;
        },
      },
    ),
  );
  // localStorage is read synchronously: the store is hydrated here. What it set aside is kept, and the store written
  // with what it uses (persist writes the whole store on any setState).
  if (readWarning !== null && readText !== null && typeof localStorage !== 'undefined')
    readWarning += keepDamagedSetting(localStorage, PREFERENCES_KEY, readText, () => store.setState({}));
  return store;
}

export const preferencesStore = createPreferencesStore();
