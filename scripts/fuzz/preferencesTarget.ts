/**
 * Fuzz target `preferences`: the app's preferences as the renderer keeps them in localStorage under
 * `actguy.preferences` (renderer/state/preferencesStore.ts), written by another version of the app, a hand edit or
 * a damaged profile. Each input is the stored text, served by a localStorage stand-in to the real store, which reads
 * it as it starts (zustand's persist, then mergeStoredPreferences).
 *
 * Judged: any throw is a crash; every value the store starts with must be of its kind (booleans, a listed playback
 * speed and rotation order, tolerances the compressor takes, import and export options in the dialogs' ranges,
 * folded-section lists of at most 64 short names, once each, panel sizes of 0..100000 px) and survive its own
 * storage: stored as the store stores it and read by a fresh store, the same preferences. A value that does not fit
 * falls back to the default without a word (preferences are not a document; nothing is lost but a setting), so an
 * input is accepted when some stored value was kept, rejected when the store starts with its defaults.
 */
import { IMPORT_FPS_MAX } from '../../shared/ipc/interchange';
import { createPreferencesStore, PLAYBACK_SPEEDS, PREFERENCE_BOOLEANS } from '../../renderer/state/preferencesStore';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';

const KEY = 'actguy.preferences';
const TOKENS = ['1e309', '-0', '0', '2', '0.25', '1001', '100001', 'null', '"auto"', '"XYZ"', '"legs"', '2.0'];
const STRINGS = [
  'auto',
  'XYZ',
  'ZXY',
  'legs',
  'arms',
  'quat',
  'euler',
  'classic',
  'refined',
  '__proto__',
  'x'.repeat(65),
];

export type Prefs = ReturnType<ReturnType<typeof createPreferencesStore>['getState']>;

/** A store started on `stored` (null: nothing stored), and what it wrote (the picker-folders target's too). */
export function startOn(stored: string | null): { state: Prefs; written: Map<string, string> } {
  const written = new Map<string, string>();
  const storage = {
    getItem: (k: string) => (k === KEY ? stored : null),
    setItem: (k: string, v: string) => void written.set(k, v),
    removeItem: (k: string) => void written.delete(k),
  };
  const g = globalThis as { localStorage?: unknown };
  const before = g.localStorage;
  const error = console.error;
  g.localStorage = storage;
  // zustand says on the console that a stored state of another version cannot be migrated: not a finding.
  console.error = () => undefined;
  try {
    return { state: createPreferencesStore().getState(), written };
  } finally {
    console.error = error;
    g.localStorage = before;
  }
}

/** The preferences as the store persists them (its partialize). */
export const stored = (s: Prefs) => {
  const { set: _set, ...rest } = s;
  return rest;
};

function seeds(): Uint8Array[] {
  const { state } = startOn(null);
  const changed = {
    ...stored(state),
    playbackSpeed: 0.25,
    loop: false,
    eulerOrder: 'ZXY',
    defaultTolerances: { ...state.defaultTolerances, method: 'classic', objectTolerance: 2, shell: 40 },
    timelineFolded: ['legs', 'arms'],
    tuningFolded: ['overrides'],
    layout: { tuningWidth: 400, curvesHeight: 250, timelineHeight: 300 },
    importOptions: { fps: 60, scale: 0.01 },
    gltfExportScale: 0.01,
    curveChannel: 'quat',
    timelineChain: 'legs',
  };
  return [changed, stored(state)].map((s) => new Uint8Array(Buffer.from(JSON.stringify({ state: s, version: 1 }))));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const finiteAtLeast = (v: unknown, min: number) => typeof v === 'number' && Number.isFinite(v) && v >= min;

function check(s: Prefs): void {
  for (const k of PREFERENCE_BOOLEANS) must(typeof s[k] === 'boolean', `${k} is ${String(s[k])}`);
  must((PLAYBACK_SPEEDS as readonly number[]).includes(s.playbackSpeed), `playbackSpeed ${s.playbackSpeed}`);
  must(typeof s.eulerOrder === 'string' && /^(auto|[XYZ]{3})$/.test(s.eulerOrder), `eulerOrder ${s.eulerOrder}`);
  const t = s.defaultTolerances;
  must(
    [t.positionTolerance, t.rotationToleranceDeg, t.offsetTolerance].every((v) => finiteAtLeast(v, 0)),
    `defaultTolerances ${JSON.stringify(t)}`,
  );
  for (const k of ['objectTolerance', 'shell'] as const)
    must(t[k] === undefined || (finiteAtLeast(t[k], 0) && t[k]! > 0), `defaultTolerances.${k} ${t[k]}`);
  for (const k of ['timelineFolded', 'tuningFolded'] as const) {
    const list = s[k];
    must(
      Array.isArray(list) && list.length <= 64 && list.every((x) => typeof x === 'string' && x.length <= 64),
      `${k} ${JSON.stringify(list).slice(0, 100)}`,
    );
    must(new Set(list).size === list.length, `${k} lists a section twice`);
  }
  const { fps, scale } = s.importOptions;
  must(
    finiteAtLeast(fps, 0) && fps > 0 && fps <= IMPORT_FPS_MAX && finiteAtLeast(scale, 0) && scale > 0,
    'importOptions',
  );
  const m = s.mshExportOptions;
  must(
    finiteAtLeast(m.positionTolerance, 0) &&
      finiteAtLeast(m.rotationToleranceDeg, 0) &&
      typeof m.useJointOverrides === 'boolean',
    `mshExportOptions ${JSON.stringify(m)}`,
  );
  must([null, 0.01, 1].includes(s.gltfExportScale), `gltfExportScale ${s.gltfExportScale}`);
  must(['euler', 'quat', 'offset'].includes(s.curveChannel), `curveChannel ${s.curveChannel}`);
  must([null, 'legs', 'arms', 'spine'].includes(s.timelineChain), `timelineChain ${s.timelineChain}`);
  for (const v of Object.values(s.footContactOptions)) must(finiteAtLeast(v, 0) && v <= 100_000, `foot option ${v}`);
  for (const v of Object.values(s.layout)) must(finiteAtLeast(v, 0) && v <= 100_000, `layout size ${v}`);
}

function run(input: Uint8Array): Outcome {
  const text = Buffer.from(input).toString('utf8');
  let state: Prefs;
  try {
    state = startOn(text).state;
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  check(state);
  const again = startOn(JSON.stringify({ state: stored(state), version: 1 })).state;
  must(JSON.stringify(stored(again)) === JSON.stringify(stored(state)), 'the preferences kept read back as others');
  const defaults = JSON.stringify(stored(startOn(null).state));
  return JSON.stringify(stored(state)) === defaults ? 'rejected' : 'accepted';
}

export const preferencesTarget: FuzzTarget = {
  name: 'preferences',
  ext: 'json',
  seeds,
  mutate,
  run,
};
