/**
 * Round 12 (docs/compression.md#round-12-2026-12-06-the-seams-and-held-out-captures-through-the-cli-and-the-pool): motions
 * nobody tuned on through the real CLI and a project build, checked from the files written. For each motion (a seam
 * case, a held-out capture), each level (0.05 u / 0.5 deg, 0.01 / 0.1, 0.005 / 0.05, and the floor: each kind's
 * precision floor with every joint's rotation overridden at its own) and each mode (refined, classic,
 * skeleton-aware at twice the position tolerance, at the floor at the object-space floor):
 *
 * - the in-process result (compressMotion) keeps the guarantee by the independent decoder, each channel's tolerance
 *   the one asked, the skeleton-aware bound by an independent FK;
 * - `actguy compress` writes the in-process bytes, and the file itself, decoded independently, has every frame that
 *   is not a key within the tolerance asked (per-joint modes);
 * - `actguy build` of a project holding every motion at that level and mode, with `--jobs 1` and `--jobs 2` (a motion
 *   whose MTN is at least 512 KiB goes to the pool in channel shares), each cold in a cache of its own and then again
 *   from the other's cache (every motion a cache hit), writes one .mar, whose every entry is the in-process bytes;
 * - round 13 (docs/compression.md#round-13-2026-12-06-export-msh-export-gltf-and-the-apps-compress-path): the same
 *   project through `actguy export-msh --project` (--jobs 1 and 2 the same files; each entry read by the MSH spec's
 *   sampler and held to the project's tolerances, exportChecks.ts) and `actguy export-gltf --project --compressed
 *   --no-cache` (each GLB's animation the build's MT3 decoded independently); and, given `app`, every run through the
 *   app's handlers (exportMt3 and compressMotion: the CLI's bytes).
 *
 * The unit test (electron/cli/cliSweep.test.ts) runs a few short motions; scripts/cliSweep.ts runs the seam
 * seeds and every held-out capture.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressMotion } from '../../shared/compress/compress';
import { compressRequestForMotion } from '../../shared/compress/request';
import { defaultShell } from '../../shared/compress/objectError';
import { rotationSource } from '../../shared/compress/sources';
import type { CompressOptions } from '../../shared/compress/types';
import { precisionFloor } from '../../shared/compress/unreachable';
import { readMar } from '../../shared/mar/read';
import { normalize4, rotationErrorDeg } from '../../shared/math/quat';
import { decodeS12, encodeS12 } from '../../shared/math/s12';
import { resampleMotion } from '../../shared/motion/resample';
import { cloneMotion, emptyMotion, type Motion } from '../../shared/motion/types';
import { writeMtn } from '../../shared/mtn/write';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { independentErrors } from '../../shared/testing/independentDecode';
import { objectBoundViolations } from '../../shared/testing/independentFk';
import { toleranceMismatches } from '../../shared/testing/toleranceMismatches';
import { createCompressClient } from '../compressClient';
import { createHandlers, type ApiHandlers } from '../handlers';
import { createPathPolicy } from '../pathPolicy';
import { createRecentFilesStore } from '../recentFiles';
import { glbViolations, mshViolations } from './exportChecks';

interface SweepLevel {
  label: string;
  positionTolerance: number;
  rotationToleranceDeg: number;
  offsetTolerance: number;
  /** At the floor: every joint's rotation at its own floor. */
  overrides?: Record<number, number>;
  /** The skeleton-aware bound at this level. */
  objectTolerance: number;
}

export const MODES = ['refined', 'classic', 'skeleton'] as const;
export type SweepMode = (typeof MODES)[number];
export const LEVEL_LABELS = ['0.05', '0.01', '0.005', 'floor'] as const;
/**
 * Round 17: the settings rebuildChecks may change in a project (SweepOptions.settingChanges); round 19 adds a run's
 * playback speed, the project's `resample` and its rate.
 */
export const SETTING_CHANGES = ['position', 'method', 'override', 'speed', 'resample', 'rate'] as const;
export type SettingChange = (typeof SETTING_CHANGES)[number];
/** Round 18: the SE files rebuildChecks may change after round 16's .sev and table (SweepOptions.fileChanges). */
export const FILE_CHANGES = ['sls', 'events'] as const;
export type FileChange = (typeof FILE_CHANGES)[number];

/** A tolerance a project and the CLI accept (> 0) that is still the floor where the floor is 0. */
const positive = (x: number) => Math.max(x, Number.MIN_VALUE);

/** Each joint's rotation floor: the source rounded to s12 at every frame, the worst angle (precisionFloor's rule). */
function jointRotationFloors(m: Motion): number[] {
  const out: number[] = [];
  const stored = new Float64Array(4);
  for (let j = 0; j < m.joints.length; j++) {
    const src = rotationSource(m, j);
    let worst = 0;
    for (let f = 0; f <= m.frameCount; f++) {
      for (let c = 0; c < 4; c++) stored[c] = decodeS12(encodeS12(src[f * 4 + c]));
      normalize4(stored, 0);
      worst = Math.max(worst, rotationErrorDeg(stored, 0, src, f * 4));
    }
    out.push(worst);
  }
  return out;
}

export function levelsOf(m: Motion, labels: readonly string[] = LEVEL_LABELS): SweepLevel[] {
  const fixed = (label: string, p: number, r: number): SweepLevel => ({
    label,
    positionTolerance: p,
    rotationToleranceDeg: r,
    offsetTolerance: p,
    objectTolerance: 2 * p,
  });
  const out: SweepLevel[] = [];
  for (const label of labels) {
    if (label === '0.05') out.push(fixed(label, 0.05, 0.5));
    else if (label === '0.01') out.push(fixed(label, 0.01, 0.1));
    else if (label === '0.005') out.push(fixed(label, 0.005, 0.05));
    else if (label === 'floor') {
      const floor = precisionFloor(m, defaultShell(m));
      const overrides: Record<number, number> = {};
      jointRotationFloors(m).forEach((d, j) => (overrides[j] = positive(d)));
      out.push({
        label,
        positionTolerance: positive(floor.position),
        rotationToleranceDeg: positive(floor.rotationDeg),
        offsetTolerance: positive(floor.offset ?? floor.position),
        overrides,
        objectTolerance: positive(floor.object!),
      });
    } else throw new Error(`cliSweep: no level ${label}`);
  }
  return out;
}

export function optionsOf(name: string, level: SweepLevel, mode: SweepMode): CompressOptions {
  return {
    name,
    positionTolerance: level.positionTolerance,
    rotationToleranceDeg: level.rotationToleranceDeg,
    offsetTolerance: level.offsetTolerance,
    ...(level.overrides ? { rotationToleranceOverridesDeg: level.overrides } : {}),
    ...(mode === 'classic' ? { method: 'classic' as const } : {}),
    ...(mode === 'skeleton' ? { objectTolerance: level.objectTolerance } : {}),
  };
}

/** `actguy compress` flags for the options (String(x): the shortest text that reads back as the same double). */
function compressFlags(o: CompressOptions): string[] {
  const flags = [
    '--pos-tol',
    String(o.positionTolerance),
    '--rot-tol',
    String(o.rotationToleranceDeg),
    '--offset-tol',
    String(o.offsetTolerance),
  ];
  const ov = o.rotationToleranceOverridesDeg;
  if (ov && Object.keys(ov).length)
    flags.push(
      '--joint-rot-tol',
      Object.entries(ov)
        .map(([j, d]) => `${j}=${String(d)}`)
        .join(','),
    );
  if (o.method === 'classic') flags.push('--classic');
  if (o.objectTolerance !== undefined) flags.push('--object-tol', String(o.objectTolerance));
  return flags;
}

/**
 * What a written MT3 breaks, read from its bytes alone: a frame that is not a key of its channel over the tolerance
 * the options ask of it (per-joint modes; the skeleton-aware mode's channel tolerances are its own), or NaN.
 */
export function fileViolations(m: Motion, bytes: Uint8Array, o: CompressOptions): string[] {
  const bad: string[] = [];
  const ind = independentErrors(m, bytes);
  const check = (where: string, errors: number[], frames: Uint16Array, tol: number) => {
    const keys = new Set(frames);
    for (let t = 0; t <= m.frameCount; t++) {
      if (Number.isNaN(errors[t])) bad.push(`${where}: frame ${t} decodes to NaN`);
      else if (o.objectTolerance === undefined && !keys.has(t) && !(errors[t] <= tol + 1e-9))
        bad.push(`${where}: frame ${t} is not a key and has error ${errors[t]} over ${tol}`);
    }
  };
  check('translation', ind.root, ind.mt3.root.frames, o.positionTolerance);
  for (let j = 0; j < m.joints.length; j++) {
    check(
      `rotation ${j}`,
      ind.rot[j],
      ind.mt3.rotations[j].frames,
      o.rotationToleranceOverridesDeg?.[j] ?? o.rotationToleranceDeg,
    );
    if (ind.off && ind.mt3.offsets) check(`offset ${j}`, ind.off[j], ind.mt3.offsets[j].frames, o.offsetTolerance);
  }
  return bad;
}

/** The frames first..first+frames of a motion (a short clip of a long capture). */
export function clipMotion(m: Motion, first: number, frames: number): Motion {
  const N = Math.min(frames, m.frameCount - first);
  const J = m.joints.length;
  const c = emptyMotion(N, m.joints, m.fps);
  c.flags = m.flags;
  c.waistJoint = m.waistJoint;
  c.headerReserved = m.headerReserved;
  c.translation.set(m.translation.subarray(first * 4, (first + N + 1) * 4));
  c.translationKeyInfo.set(m.translationKeyInfo.subarray(first * 4, (first + N + 1) * 4));
  c.rotation.set(m.rotation.subarray(first * J * 4, (first + N + 1) * J * 4));
  c.offset.set(m.offset.subarray(first * J * 4, (first + N + 1) * J * 4));
  c.jointKeyInfo.set(m.jointKeyInfo.subarray(first * J * 4, (first + N + 1) * J * 4));
  return c;
}

export interface SweepCase {
  /** A motion name (docs/formats.md 2.6): the MT3's name hash and the project's entry. */
  name: string;
  motion: Motion;
}

interface SweepOptions {
  /** The built CLI (dist/cli/actguy.cjs). */
  cli: string;
  /** A scratch folder of its own. */
  dir: string;
  levels?: readonly string[];
  modes?: readonly SweepMode[];
  /** Progress (the script); the test passes none. */
  log?: (line: string) => void;
  /** The app's compress path (appCompressPath): each run exported and compressed through the handlers too. */
  app?: AppCompressPath;
  /**
   * Round 14: each motion's single-motion exports too (singleExports): `actguy export-msh` (--jobs 1 and 2), `actguy
   * export-gltf` of the source and of each mode's MT3, and, given `app`, the app's Export MSH and Export glTF.
   */
  exports?: boolean;
  /** The projects (the four builds, `export-msh --project`, `export-gltf --project`); default true. */
  project?: boolean;
  /**
   * Round 15: each level's project rebuilt where its cold builds left their outputs (rebuildChecks): unchanged (up to
   * date), after one motion file changed (carried and compressed), and against a cold build of the changed project.
   */
  rebuilds?: boolean;
  /**
   * Round 16: with `rebuilds`, each case's project also lists a .sev per case and SE tables, and after the motion file
   * changed three more changes are rebuilt the same way (rebuildChecks): a motion's setting, a .sev event, an SE
   * table's code.
   */
  rebuildChanges?: boolean;
  /**
   * Round 17: which settings the rebuilds change, each in turn (rebuildChecks, with `rebuildChanges`): the first
   * run's position tolerance (round 16's), a run's method (classic to refined, or refined to classic) and a run's
   * per-joint rotation override; round 19's run's playback speed, the project's `resample` set (at the motions' own
   * rate) and the project's rate (doubled, every motion resampled to it: last, after the file changes). Default
   * `['position']` (round 16's; the unit test's run time does not grow); the script passes all six.
   */
  settingChanges?: readonly SettingChange[];
  /**
   * Round 18: which SE-file changes the rebuilds make after round 16's (rebuildChecks, with `rebuildChanges`): the
   * .sls's code (`sls`) and an event added to a .sev (`events`, so its entry counts one more). Default none (the unit
   * test's run time does not grow); the script passes both.
   */
  fileChanges?: readonly FileChange[];
  /** The projects' `export-msh --project` and `export-gltf --project` (round 13); default true. */
  projectExports?: boolean;
}

export interface SweepCounts {
  compressions: number;
  cliRuns: number;
  builds: number;
  entries: number;
  /** Motions whose MTN is at least 512 KiB (compressed off the CLI's thread, and in channel shares with 2 jobs). */
  long: number;
  /** Runs through the app's handlers (exportMt3 and compressMotion). */
  appRuns: number;
  /** Project entries exported as MSH (`export-msh --project`, with --jobs 1 and 2) and decoded. */
  mshEntries: number;
  /** Project entries exported as glTF of the compressed motion (`export-gltf --project --compressed`) and read. */
  glbEntries: number;
  /** Round 14: single-motion `actguy export-msh` runs (each with --jobs 1 and 2) whose files were decoded. */
  mshMotions: number;
  /** MSH exports refused at the format's u16 limits (the CLI's, with each job count, and the app's). */
  mshRefused: number;
  /** `actguy export-gltf` of a source .mtn and of a written MT3 (with --skeleton), each GLB read. */
  gltfFiles: number;
  /** The app's Export MSH and Export glTF (source and compressed) compared with the CLI's files. */
  appExports: number;
  /** Round 15: builds into the outputs of an earlier build (rebuildChecks), and a cold build of the changed project. */
  rebuilds: number;
  /** Of those, the builds that found their outputs up to date (nothing written). */
  upToDate: number;
  /** Motions the rebuilds after a change carried from the last build's outputs. */
  carried: number;
}

/** Counts of nothing run yet, the start of a sweep's (and the script's total over its sweeps). */
export function noSweepCounts(): SweepCounts {
  return {
    compressions: 0,
    cliRuns: 0,
    builds: 0,
    entries: 0,
    long: 0,
    appRuns: 0,
    mshEntries: 0,
    glbEntries: 0,
    mshMotions: 0,
    mshRefused: 0,
    gltfFiles: 0,
    appExports: 0,
    rebuilds: 0,
    upToDate: 0,
    carried: 0,
  };
}

/**
 * The app's compress path as the renderer calls it: the main process's handlers (createHandlers, as the loopback
 * transport and Electron serve them) over a real compress client, whose export of a long motion runs on the build's
 * pool in channel shares. `run` opens a case's .mtn through openMotion (once), then for a run's options calls
 * exportMt3 (the file written) and compressMotion with the bytes asked for, and returns both files.
 */
interface AppCompressPath {
  run(
    dir: string,
    c: SweepCase,
    opts: CompressOptions,
    out: string,
  ): Promise<{ exported: Uint8Array; answered: Uint8Array }>;
  /**
   * Round 14: File > Export MSH as the renderer calls it (exportMshDialog, the save dialog answering `prefix`.res8 in
   * `dir`) with the options' tolerances and overrides: the three files written and the export's warnings.
   */
  exportMsh(dir: string, c: SweepCase, opts: CompressOptions, prefix: string): Promise<MshFilesRead>;
  /**
   * Round 14: File > Export glTF as the renderer calls it (exportGltfDialog, the dialog answering `out` in `dir`), of
   * the source motion or, given options, of the motion they compress to: the GLB written and the document's name.
   */
  exportGltf(
    dir: string,
    c: SweepCase,
    opts: CompressOptions | null,
    out: string,
  ): Promise<{ glb: Uint8Array; name: string }>;
  dispose(): Promise<void>;
}

/** An MSH export's three files as written, and its warnings (`node J (NAME): ...`). */
interface MshFilesRead {
  res8: Uint8Array;
  res19: Uint8Array;
  nodes: Uint8Array;
  warnings: string[];
}

const readMshFiles = (dir: string, prefix: string, warnings: string[]): MshFilesRead => {
  const [res8, res19, nodes] = ['res8', 'res19', 'nodes.json'].map(
    (x) => new Uint8Array(readFileSync(join(dir, `${prefix}.${x}`))),
  );
  return { res8, res19, nodes, warnings };
};

export function appCompressPath(o: {
  workspace: string;
  workerPath: string;
  pool: { workerPath: string; jobs: number };
}): AppCompressPath {
  const client = createCompressClient({ workerPath: o.workerPath, pool: o.pool });
  // What the next save dialog answers (the renderer's Export dialogs ask main's, as Electron does).
  let saveAnswer: string | null = null;
  const handlers: ApiHandlers = createHandlers({
    appInfo: {
      version: '0.0.0-sweep',
      samplePath: join(o.workspace, 'none.mtn'),
      startupPath: join(o.workspace, 'none.mtn'),
      transport: 'loopback',
      nativeDialogs: false,
      platform: process.platform,
      workspaceRoot: o.workspace,
    },
    policy: createPathPolicy(),
    recent: createRecentFilesStore(null),
    compress: client,
    dialogs: {
      chooseFileToOpen: async () => null,
      chooseFileToSave: async () => {
        const path = saveAnswer;
        saveAnswer = null;
        return path;
      },
      confirm: async () => false,
    },
  });
  const opened = new Map<string, { id: string; name: string; motion: Motion }>();
  const open = async (dir: string, c: SweepCase) => {
    const path = join(dir, `${c.name}.mtn`);
    let doc = opened.get(path);
    if (!doc) {
      const r = await handlers.openMotion({ path });
      if (r.status !== 'opened') throw new Error(`the app did not open ${path}: ${r.status}`);
      doc = { id: r.motion.documentId, name: r.motion.name, motion: c.motion };
      opened.set(path, doc);
    }
    return doc;
  };
  let revision = 0;
  const requestOf = (doc: { id: string; motion: Motion }, opts: CompressOptions) => ({
    ...compressRequestForMotion(doc.motion, doc.id, ++revision, {
      positionTolerance: opts.positionTolerance,
      rotationToleranceDeg: opts.rotationToleranceDeg,
      offsetTolerance: opts.offsetTolerance,
      ...(opts.method ? { method: opts.method } : {}),
      ...(opts.objectTolerance !== undefined ? { objectTolerance: opts.objectTolerance } : {}),
    }),
    ...(opts.rotationToleranceOverridesDeg
      ? { rotationToleranceOverridesDeg: opts.rotationToleranceOverridesDeg }
      : {}),
    name: opts.name,
  });
  return {
    async run(dir, c, opts, out) {
      const doc = await open(dir, c);
      const req = requestOf(doc, opts);
      await handlers.exportMt3({ path: join(dir, out), compress: req });
      const exported = new Uint8Array(readFileSync(join(dir, out)));
      const answer = await handlers.compressMotion({ ...req, revision: ++revision, includeBytes: true });
      if (answer.status !== 'done' || !answer.bytes) throw new Error(`compressMotion answered ${answer.status}`);
      return { exported, answered: answer.bytes };
    },
    async exportMsh(dir, c, opts, prefix) {
      const doc = await open(dir, c);
      saveAnswer = join(dir, `${prefix}.res8`);
      const r = await handlers.exportMshDialog({
        documentId: doc.id,
        positionTolerance: opts.positionTolerance,
        rotationToleranceDeg: opts.rotationToleranceDeg,
        rotationToleranceOverridesDeg: opts.rotationToleranceOverridesDeg,
        defaultName: `${prefix}.res8`,
      });
      if (r.status !== 'exported') throw new Error(`the app's Export MSH answered ${r.status}`);
      return readMshFiles(dir, prefix, r.export.warnings);
    },
    async exportGltf(dir, c, opts, out) {
      const doc = await open(dir, c);
      saveAnswer = join(dir, out);
      const r = await handlers.exportGltfDialog({
        documentId: doc.id,
        source: opts ? 'compressed' : 'source',
        mtnBytes: writeMtn(doc.motion),
        ...(opts ? { compress: requestOf(doc, opts) } : {}),
        scale: 1,
        defaultName: out,
      });
      if (r.status !== 'exported') throw new Error(`the app's Export glTF answered ${r.status}`);
      return { glb: new Uint8Array(readFileSync(join(dir, out))), name: doc.name };
    },
    dispose: () => client.dispose(),
  };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

type CliRun = (...args: string[]) => { rc: number; out: string; err: string };

/** What the single-motion export checks share with the sweep: the CLI, its folder, the app, what broke and ran. */
interface ExportContext {
  cli: CliRun;
  dir: string;
  app?: AppCompressPath;
  bad: string[];
  counts: SweepCounts;
}

/**
 * The refusals of an MSH export at the format's u16 limits (shared/msh/export.ts: the frame map's words past
 * anim_map_start's u16, or more than 65535 keys), in the words both say ("more than ...").
 */
const MSH_U16_REFUSAL =
  /more than \d+ (animated nodes at \d+ frames: their map words pass anim_map_start's u16|keys: the u16 frame map)[^\n]*/;

/** Whether a motion could pass either u16 limit at all: only where joints x frames reaches 0xFFFF. */
const mayPassMshLimits = (m: Motion) => m.joints.length * (m.frameCount + 1) >= 0xffff;

/** The tolerance flags `actguy export-msh` takes for the options (positions, rotations, per-joint overrides). */
function mshFlags(o: CompressOptions): string[] {
  const flags = compressFlags(o);
  const at = flags.indexOf('--joint-rot-tol');
  return [...flags.slice(0, 4), ...(at < 0 ? [] : flags.slice(at, at + 2))];
}

/**
 * Round 14: one motion at one level as a user exports it alone, per MSH-ANIM.md: `actguy export-msh NAME.mtn` with
 * --jobs 1 and 2 (a long motion's nodes fitted in shares) writes the same three files, which read by the spec's
 * sampler keep every frame that is not a key within the tolerance asked and name every key over it
 * (exportChecks.ts mshViolations); the app's Export MSH writes those files and warnings; at the format's u16 limits
 * both refuse, in the same words with either job count.
 */
async function motionExports(c: SweepCase, opts: CompressOptions, li: number, where: string, x: ExportContext) {
  const { cli, bad, counts } = x;
  const mtn = `${c.name}.mtn`;
  const folders = ['1', '2', 'app'].map((k) => `msh${li}.${k}`);
  for (const f of folders) mkdirSync(join(x.dir, f), { recursive: true });
  const runs = ['1', '2'].map((jobs, k) => ({
    jobs,
    run: cli('export-msh', mtn, '-o', join(folders[k], c.name), ...mshFlags(opts), '--jobs', jobs, '--quiet'),
  }));
  let app: MshFilesRead | Error | undefined;
  if (x.app)
    try {
      app = await x.app.exportMsh(x.dir, c, opts, join(folders[2], c.name));
    } catch (e) {
      app = e as Error;
    }
  const refusal = (text: string) => MSH_U16_REFUSAL.exec(text)?.[0];
  if (runs.every((r) => r.run.rc !== 0) && refusal(runs[0].run.err) && mayPassMshLimits(c.motion)) {
    // The format's limit, not a fault; the words the same whatever --jobs, and the app's the CLI's.
    const words = refusal(runs[0].run.err)!;
    counts.mshRefused += 2;
    if (refusal(runs[1].run.err) !== words)
      bad.push(`${where}: export-msh --jobs 2 refused as "${refusal(runs[1].run.err)}", --jobs 1 as "${words}"`);
    if (app === undefined) return;
    if (!(app instanceof Error)) bad.push(`${where}: the app's Export MSH wrote what actguy export-msh refused`);
    else if (refusal(app.message) !== words)
      bad.push(`${where}: the app's Export MSH refused as "${app.message}", the CLI as "${words}"`);
    else counts.mshRefused++;
    return;
  }
  const written: MshFilesRead[] = [];
  for (const [k, { jobs, run }] of runs.entries()) {
    if (run.rc !== 0) {
      bad.push(`${where}: actguy export-msh --jobs ${jobs} exited ${run.rc}: ${run.err.trim()}`);
      continue;
    }
    const warned = run.err
      .split('\n')
      .filter((l) => l.startsWith(`warning: ${mtn}: `))
      .map((l) => l.slice(`warning: ${mtn}: `.length));
    written.push(readMshFiles(x.dir, join(folders[k], c.name), warned));
  }
  if (written.length === 0) return;
  const [first] = written;
  const sameFiles = (a: MshFilesRead, b: MshFilesRead) =>
    same(a.res8, b.res8) && same(a.res19, b.res19) && same(a.nodes, b.nodes);
  if (written.length === 2 && !sameFiles(first, written[1]))
    bad.push(`${where}: actguy export-msh --jobs 2 wrote other files than --jobs 1`);
  if (written.length === 2 && written[1].warnings.join('\n') !== first.warnings.join('\n'))
    bad.push(`${where}: actguy export-msh --jobs 2 warned otherwise than --jobs 1`);
  counts.mshMotions++;
  const text = Buffer.from(first.nodes).toString('utf8');
  for (const v of mshViolations(c.motion, first.res8, first.res19, text, opts, first.warnings))
    bad.push(`${where} (actguy export-msh): ${v}`);
  if (app instanceof Error) bad.push(`${where}: the app's Export MSH threw ${app.message}`);
  else if (app) {
    counts.appExports++;
    if (!sameFiles(app, first)) bad.push(`${where}: the app's Export MSH wrote other files than actguy export-msh`);
    if (app.warnings.join('\n') !== first.warnings.join('\n'))
      bad.push(`${where}: the app's Export MSH warned otherwise than actguy export-msh`);
  }
}

/** Round 14: the source motion as glTF (the same at every level): `actguy export-gltf NAME.mtn` and the app's bytes. */
async function sourceGltf(c: SweepCase, where: string, x: ExportContext) {
  const { cli, bad, counts } = x;
  const run = cli('export-gltf', `${c.name}.mtn`, '-o', `${c.name}.source.glb`, '--quiet');
  if (run.rc !== 0) return void bad.push(`${where}: actguy export-gltf of the source exited ${run.rc}: ${run.err}`);
  counts.gltfFiles++;
  if (!x.app) return;
  try {
    const got = await x.app.exportGltf(x.dir, c, null, `${c.name}.source.app.glb`);
    counts.appExports++;
    if (!same(got.glb, new Uint8Array(readFileSync(join(x.dir, `${c.name}.source.glb`)))))
      bad.push(`${where}: the app's Export glTF of the source wrote other bytes than actguy export-gltf`);
  } catch (e) {
    bad.push(`${where}: the app's Export glTF of the source threw ${(e as Error).message}`);
  }
}

/**
 * Round 14: the MT3 `actguy compress` wrote (`mt3File`, whose bytes are `want`) as glTF, by `actguy export-gltf
 * MT3 --skeleton NAME.mtn --name NAME_compressed` (what the app names it) and by the app's Export glTF of the
 * compressed motion: the same bytes, whose animation is that MT3 decoded independently (exportChecks.ts).
 */
async function compressedGltf(
  c: SweepCase,
  opts: CompressOptions,
  mt3File: string,
  want: Uint8Array,
  li: number,
  where: string,
  x: ExportContext,
) {
  const { cli, bad, counts } = x;
  let app: { glb: Uint8Array; name: string } | undefined;
  if (x.app)
    try {
      app = await x.app.exportGltf(x.dir, c, opts, `${opts.name}.${li}.app.glb`);
      counts.appExports++;
    } catch (e) {
      bad.push(`${where}: the app's Export glTF of the compressed motion threw ${(e as Error).message}`);
    }
  const out = `${opts.name}.${li}.glb`;
  const name = `${app?.name ?? c.name}_compressed`;
  const run = cli('export-gltf', mt3File, '--skeleton', `${c.name}.mtn`, '-o', out, '--name', name, '--quiet');
  if (run.rc !== 0) return void bad.push(`${where}: actguy export-gltf of the MT3 exited ${run.rc}: ${run.err}`);
  counts.gltfFiles++;
  const glb = new Uint8Array(readFileSync(join(x.dir, out)));
  for (const v of glbViolations(c.motion, want, glb)) bad.push(`${where} (actguy export-gltf of the MT3): ${v}`);
  if (app && !same(app.glb, glb))
    bad.push(`${where}: the app's Export glTF of the compressed motion wrote other bytes than actguy export-gltf`);
}

/** What `actguy build --json` says of a build that the rebuild checks read (docs/cli.md, "--json"). */
interface BuildDoc {
  upToDate: boolean;
  written: unknown[];
  cache: { hits: number; misses: number } | null;
  carried: number;
  motions: unknown[] | null;
}

/**
 * The case's motion with one input changed: the root's x on frame 0 halved (1 where it is 0), the same frame count,
 * skeleton and key flags, so the project still takes it (and its MTN bytes differ: halving changes every finite x
 * but 0).
 */
export function changedMotion(m: Motion): Motion {
  const c = cloneMotion(m);
  c.translation[0] = c.translation[0] === 0 ? 1 : c.translation[0] / 2;
  return c;
}

/** Writes a file as an editor saves it: a new file renamed over the old (another inode, so another stamp). */
function saveOver(path: string, bytes: Uint8Array) {
  writeFileSync(`${path}.new`, bytes);
  renameSync(`${path}.new`, path);
}

interface RebuildContext {
  cli: CliRun;
  dir: string;
  bad: string[];
  counts: SweepCounts;
  cases: SweepCase[];
  runs: { c: SweepCase; mode: SweepMode; opts: CompressOptions }[];
  /** The in-process bytes of every run at this level. */
  expected: Map<string, Uint8Array>;
  pfile: string;
  li: number;
  label: string;
  /** `--jobs 1 cold`'s --json document (its outputs in build<li>.0, its cache cache<li>.1). */
  cold: BuildDoc;
  /** Round 16: the setting, .sev and SE-table changes too (the project lists the sweep's .sev files and tables). */
  changes: boolean;
  /** Round 17: the settings changed in turn (SweepOptions.settingChanges). */
  settings: readonly SettingChange[];
  /** Round 18: the SE-file changes after round 16's (SweepOptions.fileChanges). */
  files: readonly FileChange[];
}

/** A project entry as the sweep writes it (the parts rebuildChecks changes). */
interface ProjectEntry {
  tolerances: { position: number; method?: 'classic' };
  rotationOverridesDeg?: Record<number, number>;
  speed?: number;
}

/** Round 16: the SE tables a sweep project lists with `rebuildChanges` (one name in each), and each case's .sev. */
const SWEEP_SLS = 'sweep.sls';
const SWEEP_SE_DEFINE = 'sweep_se_define.h';
const sweepSls = (code: number) => `SE_SWEEP_A 0x${code.toString(16).padStart(4, '0')}\n`;
const sweepSeDefine = (code: number) => `#define SE_SWEEP_B 0x${code.toString(16).padStart(4, '0')}\n`;
/**
 * Two sounds, one from each table; an event of the first on frame 0, of `last` on the last frame, and with `middle`
 * (round 18) one of the second on the middle frame between them.
 */
const sweepSev = (m: Motion, last: 0 | 1, middle = false) =>
  `sev 1\nse 0 SE_SWEEP_A\nse 1 SE_SWEEP_B\nevent 0 0 -\n` +
  (middle ? `event ${m.frameCount >> 1} 1 -\n` : '') +
  `event ${m.frameCount} ${last} -\n`;

/**
 * Round 15 (docs/compression.md#round-15-2026-12-06-up-to-date-rebuilds-and-the-exports-on-the-rest-of-the-data): a
 * level's project rebuilt as a user rebuilds it, where its earlier builds left their outputs, their records (the last
 * build, docs/cache.md "Up to date") and the local verdicts of their cache folders in the state folder:
 *
 * 1. `--jobs 2` into `--jobs 1 cold`'s outputs with its cache, nothing changed: up to date, nothing written (the
 *    .mar's stamp as it was), the cold build's bytes and report figures;
 * 2. the last case's .mtn saved over with one value changed (changedMotion), the same rebuild: not up to date, every
 *    motion of the other cases carried from the last build's outputs, the changed one's runs compressed (no cache
 *    hit);
 * 3. a cold build of the changed project in outputs and a cache of its own: the rebuild's .mar, .sar and report
 *    figures byte for byte, each entry of the changed motion its in-process bytes (which keep the guarantee), every
 *    other the entry it was;
 * 4. `--jobs 1` into `--jobs 2 from the --jobs 1 cache`'s outputs with that cache: the others carried, the changed
 *    runs cache hits (step 2 wrote them), the cold bytes;
 * 5. step 1's rebuild once more: up to date, the cold bytes.
 *
 * The .mtn is then saved back as it was, for the next level.
 */
function rebuildChecks(x: RebuildContext) {
  const { cli, dir, bad, counts, runs, expected, pfile, li, label } = x;
  const read = (outDir: string) => ({
    mar: new Uint8Array(readFileSync(join(dir, outDir, 'r12.mar'))),
    sar: new Uint8Array(readFileSync(join(dir, outDir, 'r12.sar'))),
  });
  const stampOf = (outDir: string) => {
    const s = statSync(join(dir, outDir, 'r12.mar'), { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}`;
  };
  const build = (what: string, outDir: string, jobs: string, cache: string) => {
    const run = cli('build', pfile, '-o', outDir, '--jobs', jobs, '--cache', cache, '--json');
    counts.rebuilds++;
    if (run.rc !== 0) return void bad.push(`${label}: ${what} exited ${run.rc}: ${run.err.trim()}`);
    const doc = JSON.parse(run.out) as BuildDoc;
    if (doc.upToDate) counts.upToDate++;
    counts.carried += doc.carried;
    return { doc, ...read(outDir) };
  };
  const figures = (d: BuildDoc) => JSON.stringify(d.motions);
  const coldFiles = read(`build${li}.0`);
  // 1. Nothing changed.
  const before = stampOf(`build${li}.0`);
  const unchanged = build('the rebuild with nothing changed', `build${li}.0`, '2', `cache${li}.1`);
  if (unchanged) {
    const what = `${label}: the rebuild with nothing changed`;
    if (!unchanged.doc.upToDate) bad.push(`${what} was not up to date`);
    if (unchanged.doc.written.length) bad.push(`${what} wrote ${unchanged.doc.written.length} files`);
    if (stampOf(`build${li}.0`) !== before) bad.push(`${what} touched the .mar`);
    if (!same(unchanged.mar, coldFiles.mar) || !same(unchanged.sar, coldFiles.sar))
      bad.push(`${what} left other outputs than the cold build's`);
    if (figures(unchanged.doc) !== figures(x.cold)) bad.push(`${what} reported other motions than the cold build`);
  }
  // 2. One motion file changed.
  const c = x.cases[x.cases.length - 1];
  const path = join(dir, `${c.name}.mtn`);
  const original = new Uint8Array(readFileSync(path));
  const changed = changedMotion(c.motion);
  const changedMtn = writeMtn(changed);
  if (same(changedMtn, original)) return void bad.push(`${label}: ${c.name}'s changed motion writes the same MTN`);
  const want = new Map(expected);
  let changedRuns = 0;
  for (const r of runs) {
    if (r.c !== c) continue;
    changedRuns++;
    const where = `${c.name} ${label} ${r.mode} (changed)`;
    try {
      const got = compressMotion(changed, r.opts);
      counts.compressions++;
      want.set(r.opts.name, got.bytes);
      for (const v of [
        ...guaranteeViolations(changed, got),
        ...toleranceMismatches(changed, r.opts, got),
        ...objectBoundViolations(changed, got),
      ])
        bad.push(`${where} (in-process): ${v}`);
    } catch (e) {
      want.delete(r.opts.name);
      bad.push(`${where}: in-process compression threw ${(e as Error).message}`);
    }
  }
  saveOver(path, changedMtn);
  // Round 16: what the other changes put back (the project's text, the .sev, the SE table), for the next level.
  const restore: (() => void)[] = [];
  try {
    const others = runs.length - changedRuns;
    const rebuilt = build(`the rebuild after ${c.name}.mtn changed`, `build${li}.0`, '2', `cache${li}.1`);
    const cold = build('the cold build of the changed project', `build${li}.changed`, '1', `cache${li}.changed`);
    const fromCache = build(`the other rebuild after ${c.name}.mtn changed`, `build${li}.2`, '1', `cache${li}.1`);
    const again = build(`the rebuild after the rebuild`, `build${li}.0`, '1', `cache${li}.1`);
    if (!cold) return;
    type Built = typeof cold;
    const expect = (
      what: string,
      r: Built | undefined,
      upToDate: boolean,
      carried: number,
      hits: number,
      coldOf: Built = cold,
    ) => {
      if (!r) return;
      const where = `${label}: ${what}`;
      if (r.doc.upToDate !== upToDate) bad.push(`${where} was ${r.doc.upToDate ? '' : 'not '}up to date`);
      if (r.doc.carried !== carried) bad.push(`${where} carried ${r.doc.carried} motions, not ${carried}`);
      if (!upToDate && (r.doc.cache?.hits ?? -1) !== hits)
        bad.push(`${where}: ${r.doc.cache?.hits} cache hits, not ${hits}`);
      if (!same(r.mar, coldOf.mar)) bad.push(`${where} wrote another .mar than the cold build of the changed project`);
      if (!same(r.sar, coldOf.sar)) bad.push(`${where} wrote another .sar than the cold build of the changed project`);
      if (figures(r.doc) !== figures(coldOf.doc))
        bad.push(`${where} reported other motions than the cold build of the changed project`);
    };
    expect('the cold build of the changed project', cold, false, 0, 0);
    expect(`the rebuild after ${c.name}.mtn changed`, rebuilt, false, others, 0);
    expect(`the other rebuild after ${c.name}.mtn changed`, fromCache, false, others, changedRuns);
    expect('the rebuild after the rebuild', again, true, 0, 0);
    // Round 19: after the rate change, every motion as the build resamples it (once a case).
    let rateTo: number | undefined;
    const resampled = new Map<SweepCase, Motion>();
    const motionOf = (rc: SweepCase) => {
      const m = rc === c ? changed : rc.motion;
      if (rateTo === undefined) return m;
      if (!resampled.has(rc)) resampled.set(rc, resampleMotion(m, rateTo));
      return resampled.get(rc)!;
    };
    const entriesOf = (built: Built, optsOf: (i: number) => CompressOptions, tag: string) => {
      const mar = readMar(built.mar);
      runs.forEach(({ c: rc, mode }, i) => {
        const opts = optsOf(i);
        const entry = mar.entries[i]?.bytes;
        const where = `${rc.name} ${label} ${mode}${rc === c ? ' (changed)' : ''}${tag}`;
        if (!entry) return void bad.push(`${where}: no .mar entry in the changed project's build`);
        const w = want.get(opts.name);
        if (w && !same(entry, w)) bad.push(`${where}: the changed project's .mar entry is not the in-process bytes`);
        for (const v of fileViolations(motionOf(rc), entry, opts))
          bad.push(`${where} (the changed project's .mar entry): ${v}`);
      });
    };
    entriesOf(cold, (i) => runs[i].opts, '');
    if (!x.changes) return;
    // Round 16: three more changes on top of that one, each rebuilt as above (into build<li>.0 from cache<li>.1, a
    // cold build of its own, build<li>.2 from cache<li>.1, build<li>.0 again) and held to its cold build's bytes.
    const scenario = (
      what: string,
      tag: string,
      changedRuns: number,
      optsOf: (i: number) => CompressOptions,
      sarChanges: boolean,
      firstHits = 0,
    ) => {
      const last = read(`build${li}.0`);
      const r1 = build(`the rebuild after ${what}`, `build${li}.0`, '2', `cache${li}.1`);
      const cold2 = build(`the cold build after ${what}`, `build${li}.${tag}`, '1', `cache${li}.${tag}`);
      const r2 = build(`the other rebuild after ${what}`, `build${li}.2`, '1', `cache${li}.1`);
      const r3 = build(`the rebuild after the rebuild after ${what}`, `build${li}.0`, '1', `cache${li}.1`);
      if (!cold2) return;
      expect(`the cold build after ${what}`, cold2, false, 0, 0, cold2);
      expect(`the rebuild after ${what}`, r1, false, runs.length - changedRuns, firstHits, cold2);
      expect(`the other rebuild after ${what}`, r2, false, runs.length - changedRuns, changedRuns, cold2);
      expect(`the rebuild after the rebuild after ${what}`, r3, true, 0, 0, cold2);
      // The change must reach the outputs it decides, or the rebuild proved nothing.
      if (sarChanges && same(cold2.sar, last.sar)) bad.push(`${label}: ${what} left the .sar as it was`);
      entriesOf(cold2, optsOf, ` (after ${what})`);
    };
    // The settings, each in turn on top of the last (the project's text saved over): the project's entry and the
    // run's options changed alike, the run compressed in-process at its new options and held to the guarantee.
    const ptext = readFileSync(join(dir, pfile), 'utf8');
    restore.push(() => saveOver(join(dir, pfile), new TextEncoder().encode(ptext)));
    const pdoc = JSON.parse(ptext) as { motions: ProjectEntry[]; fps: number; resample?: boolean };
    const current = runs.map((r) => r.opts);
    const optsOf = (i: number) => current[i];
    /** Run i compressed in-process at `opts` on its motion as the project now has it, held to the guarantee. */
    const compressRun = (i: number, opts: CompressOptions, what: string) => {
      const m = motionOf(runs[i].c);
      try {
        const got = compressMotion(m, opts);
        counts.compressions++;
        want.set(opts.name, got.bytes);
        for (const v of [
          ...guaranteeViolations(m, got),
          ...toleranceMismatches(m, opts, got),
          ...objectBoundViolations(m, got),
        ])
          bad.push(`${runs[i].c.name} ${label} ${runs[i].mode} (${what}, in-process): ${v}`);
      } catch (e) {
        want.delete(opts.name);
        bad.push(`${runs[i].c.name} ${label} (${what}): in-process compression threw ${(e as Error).message}`);
      }
    };
    const saveProject = () => saveOver(join(dir, pfile), new TextEncoder().encode(JSON.stringify(pdoc)));
    const changeSetting = (
      i: number,
      what: string,
      tag: string,
      edit: (entry: ProjectEntry, opts: CompressOptions) => CompressOptions,
    ) => {
      const opts = edit(pdoc.motions[i], current[i]);
      current[i] = opts;
      compressRun(i, opts, what);
      saveProject();
      scenario(`${opts.name}'s ${what}`, tag, 1, optsOf, false);
    };
    // Round 16: the first run's position tolerance doubled.
    if (x.settings.includes('position'))
      changeSetting(0, 'position tolerance changed', 'setting', (entry, o) => {
        entry.tolerances.position *= 2;
        return { ...o, positionTolerance: 2 * o.positionTolerance };
      });
    // Round 17: a run's method, classic to refined or refined to classic (the first such run; the skeleton-aware
    // runs keep theirs).
    const methodRun = runs.findIndex((r) => r.mode === 'classic');
    const flipped = methodRun >= 0 ? methodRun : runs.findIndex((r) => r.mode === 'refined');
    if (x.settings.includes('method') && flipped >= 0)
      changeSetting(flipped, 'method changed', 'method', (entry, o) => {
        const { method, ...rest } = o;
        if (method === 'classic') {
          delete entry.tolerances.method;
          return rest;
        }
        entry.tolerances.method = 'classic';
        return { ...rest, method: 'classic' };
      });
    // Round 17: a per-joint rotation override of the last case's last run that is not skeleton-aware (the motion
    // changed above): joint 0's doubled where the level has overrides (the floor, so still at or above it), else
    // one of half the level's rotation tolerance put on joint 0.
    let overrideRun = -1;
    runs.forEach((r, i) => {
      if (r.mode !== 'skeleton') overrideRun = i;
    });
    if (x.settings.includes('override') && overrideRun >= 0)
      changeSetting(overrideRun, "joint 0's rotation override changed", 'override', (entry, o) => {
        const was = o.rotationToleranceOverridesDeg?.[0];
        const deg = was !== undefined ? 2 * was : o.rotationToleranceDeg / 2;
        entry.rotationOverridesDeg = { ...entry.rotationOverridesDeg, 0: deg };
        return { ...o, rotationToleranceOverridesDeg: { ...o.rotationToleranceOverridesDeg, 0: deg } };
      });
    // Round 19: the first run's playback speed (1 to 1.5): its entry is not carried (its report figures change),
    // and both rebuilds find it in the cache (its motion and options are the last build's).
    if (x.settings.includes('speed')) {
      pdoc.motions[0].speed = 1.5;
      saveProject();
      scenario(`${runs[0].opts.name}'s speed changed`, 'speed', 1, optsOf, false, 1);
    }
    // Round 19: the project's `resample` set, every motion at the project's rate already: the motions and options
    // are the last build's, so every run is found in the cache by both rebuilds; none is carried (the motion as
    // the project resolves it changed).
    if (x.settings.includes('resample')) {
      pdoc.resample = true;
      saveProject();
      scenario("the project's resample set", 'resample', runs.length, optsOf, false, runs.length);
    }
    // A .sev event: the first case's last event plays the other sound (the same slot and event counts).
    const c0 = x.cases[0];
    const sevPath = join(dir, `${c0.name}.sev`);
    restore.push(() => saveOver(sevPath, new TextEncoder().encode(sweepSev(c0.motion, 1))));
    saveOver(sevPath, new TextEncoder().encode(sweepSev(c0.motion, 0)));
    scenario(`${c0.name}.sev changed`, 'sev', 0, optsOf, true);
    // An SE table: SE_SWEEP_B's code in se_define.h.
    const tablePath = join(dir, SWEEP_SE_DEFINE);
    restore.push(() => saveOver(tablePath, new TextEncoder().encode(sweepSeDefine(0x200))));
    saveOver(tablePath, new TextEncoder().encode(sweepSeDefine(0x201)));
    scenario(`${SWEEP_SE_DEFINE} changed`, 'table', 0, optsOf, true);
    // Round 18: the other SE table, SE_SWEEP_A's code in the .sls (every run carried, the .sar changed).
    if (x.files.includes('sls')) {
      const slsPath = join(dir, SWEEP_SLS);
      restore.push(() => saveOver(slsPath, new TextEncoder().encode(sweepSls(0x100))));
      saveOver(slsPath, new TextEncoder().encode(sweepSls(0x101)));
      scenario(`${SWEEP_SLS} changed`, 'sls', 0, optsOf, true);
    }
    // Round 18: an event added to the first case's .sev: its .mar entries count one more, so its runs are not
    // carried but found in the cache by both rebuilds (the motion and options are those of the last build).
    if (x.files.includes('events')) {
      const c0Runs = runs.filter((r) => r.c === c0).length;
      saveOver(sevPath, new TextEncoder().encode(sweepSev(c0.motion, 0, true)));
      scenario(`${c0.name}.sev's events counted one more`, 'events', c0Runs, optsOf, true, c0Runs);
    }
    // Round 19, last (every motion twice the frames after it): the project's rate doubled, every motion resampled to
    // it (`resample` set, if the change above did not), so nothing carried, every run compressed again in-process
    // at its options on the resampled motion.
    if (x.settings.includes('rate')) {
      rateTo = 2 * pdoc.fps;
      pdoc.fps = rateTo;
      pdoc.resample = true;
      runs.forEach((_, i) => compressRun(i, current[i], `the rate changed to ${rateTo} fps`));
      saveProject();
      scenario(`the project's rate changed to ${rateTo} fps`, 'rate', runs.length, optsOf, false);
    }
  } finally {
    saveOver(path, original);
    for (const r of restore.reverse()) r();
  }
}

/** The project entry and MT3 name of a case in a mode: `NAME.MODE` (at most 31 characters). */
const entryName = (c: SweepCase, mode: SweepMode) => `${c.name}.${mode}`;

/**
 * Runs every check on `cases` (all at one rate, the project's): per level, each case in each mode in-process and
 * through `actguy compress`, then one project holding every case in every mode built four ways. Returns what broke,
 * and what ran.
 */
export async function runCliSweep(
  cases: SweepCase[],
  o: SweepOptions,
): Promise<{ bad: string[]; counts: SweepCounts }> {
  const bad: string[] = [];
  const counts = noSweepCounts();
  const modes = o.modes ?? MODES;
  const cli: CliRun = (...args: string[]) => {
    const r = spawnSync(process.execPath, [o.cli, ...args], { cwd: o.dir, encoding: 'utf8', maxBuffer: 64 << 20 });
    return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
  };
  mkdirSync(o.dir, { recursive: true });
  const changes = o.rebuilds === true && o.rebuildChanges === true;
  const fps = cases[0].motion.fps;
  for (const c of cases) {
    if (c.motion.fps !== fps) throw new Error('runCliSweep: every case at one rate');
    const mtn = writeMtn(c.motion);
    if (mtn.byteLength >= 512 * 1024) counts.long++;
    writeFileSync(join(o.dir, `${c.name}.mtn`), mtn);
    if (changes) writeFileSync(join(o.dir, `${c.name}.sev`), sweepSev(c.motion, 1));
  }
  if (changes) {
    writeFileSync(join(o.dir, SWEEP_SLS), sweepSls(0x100));
    writeFileSync(join(o.dir, SWEEP_SE_DEFINE), sweepSeDefine(0x200));
  }
  const levels = new Map(cases.map((c) => [c.name, levelsOf(c.motion, o.levels)]));
  const levelCount = levels.get(cases[0].name)!.length;
  for (let li = 0; li < levelCount; li++) {
    const label = levels.get(cases[0].name)![li].label;
    const expected = new Map<string, Uint8Array>();
    const runs: { c: SweepCase; mode: SweepMode; opts: CompressOptions }[] = [];
    for (const c of cases)
      for (const mode of modes) {
        const opts = optionsOf(entryName(c, mode), levels.get(c.name)![li], mode);
        runs.push({ c, mode, opts });
        const where = `${c.name} ${label} ${mode}`;
        let r;
        try {
          r = compressMotion(c.motion, opts);
        } catch (e) {
          bad.push(`${where}: in-process compression threw ${(e as Error).message}`);
          continue;
        }
        counts.compressions++;
        expected.set(opts.name, r.bytes);
        for (const v of [
          ...guaranteeViolations(c.motion, r),
          ...toleranceMismatches(c.motion, opts, r),
          ...objectBoundViolations(c.motion, r),
        ])
          bad.push(`${where} (in-process): ${v}`);
        const out = `${opts.name}.${li}.mt3`;
        const run = cli(
          'compress',
          `${c.name}.mtn`,
          '-o',
          out,
          ...compressFlags(opts),
          '--no-tuning',
          '--name',
          opts.name,
          '--quiet',
        );
        counts.cliRuns++;
        if (run.rc !== 0) {
          bad.push(`${where}: actguy compress exited ${run.rc}: ${run.err.trim()}`);
          continue;
        }
        const written = new Uint8Array(readFileSync(join(o.dir, out)));
        if (!same(written, r.bytes)) bad.push(`${where}: actguy compress wrote other bytes than the in-process path`);
        for (const v of fileViolations(c.motion, written, opts)) bad.push(`${where} (actguy compress's file): ${v}`);
        if (o.app) {
          try {
            const app = await o.app.run(o.dir, c, opts, `${opts.name}.${li}.app.mt3`);
            counts.appRuns++;
            if (!same(app.exported, written)) bad.push(`${where}: the app's exportMt3 wrote other bytes than the CLI`);
            if (!same(app.answered, written))
              bad.push(`${where}: the app's compressMotion answered other bytes than the CLI`);
          } catch (e) {
            bad.push(`${where}: the app's compress path threw ${(e as Error).message}`);
          }
        }
        if (o.exports) {
          const ctx = { cli, dir: o.dir, app: o.app, bad, counts };
          if (mode === modes[0]) await motionExports(c, opts, li, `${c.name} ${label}`, ctx);
          if (mode === modes[0] && li === 0) await sourceGltf(c, `${c.name} ${label}`, ctx);
          await compressedGltf(c, opts, out, r.bytes, li, where, ctx);
        }
      }
    if (o.project === false) {
      o.log?.(`${fps} fps, ${label}: ${runs.length} runs, ${bad.length} problems so far`);
      continue;
    }
    // One project of every case in every mode at this level, built four ways.
    const project = {
      version: 1,
      fps,
      motions: runs.map(({ c, mode, opts }) => {
        const lv = levels.get(c.name)![li];
        return {
          name: opts.name,
          mtn: `${c.name}.mtn`,
          ...(changes ? { sev: `${c.name}.sev` } : {}),
          tolerances: {
            position: lv.positionTolerance,
            rotationDeg: lv.rotationToleranceDeg,
            offset: lv.offsetTolerance,
            ...(mode === 'classic' ? { method: 'classic' } : {}),
            ...(mode === 'skeleton' ? { object: lv.objectTolerance } : {}),
          },
          ...(lv.overrides ? { rotationOverridesDeg: lv.overrides } : {}),
        };
      }),
      ...(changes ? { seTables: { sls: SWEEP_SLS, seDefine: SWEEP_SE_DEFINE } } : {}),
      outputs: { mar: 'out/r12.mar', sar: 'out/r12.sar' },
    };
    const pfile = `p${li}.actguy.json`;
    writeFileSync(join(o.dir, pfile), JSON.stringify(project));
    // [what, jobs, cache folder, every motion a cache hit]
    const builds: [string, string, string, boolean][] = [
      ['--jobs 1 cold', '1', `cache${li}.1`, false],
      ['--jobs 2 cold', '2', `cache${li}.2`, false],
      ['--jobs 2 from the --jobs 1 cache', '2', `cache${li}.1`, true],
      ['--jobs 1 from the --jobs 2 cache', '1', `cache${li}.2`, true],
    ];
    const mars: Uint8Array[] = [];
    const sars: Uint8Array[] = [];
    const docs: BuildDoc[] = [];
    for (const [k, [what, jobs, cache, hits]] of builds.entries()) {
      const outDir = `build${li}.${k}`;
      const run = cli('build', pfile, '-o', outDir, '--jobs', jobs, '--cache', cache, '--json');
      counts.builds++;
      if (run.rc !== 0) {
        bad.push(`${label}: build ${what} exited ${run.rc}: ${run.err.trim()}`);
        continue;
      }
      const doc = JSON.parse(run.out) as BuildDoc;
      docs.push(doc);
      const wantHits = hits ? runs.length : 0;
      if (doc.cache?.hits !== wantHits)
        bad.push(`${label}: build ${what}: ${doc.cache?.hits} cache hits, not ${wantHits}`);
      mars.push(new Uint8Array(readFileSync(join(o.dir, outDir, 'r12.mar'))));
      sars.push(new Uint8Array(readFileSync(join(o.dir, outDir, 'r12.sar'))));
      if (!same(mars[mars.length - 1], mars[0])) bad.push(`${label}: build ${what} wrote another .mar than the first`);
      if (!same(sars[sars.length - 1], sars[0])) bad.push(`${label}: build ${what} wrote another .sar than the first`);
    }
    if (mars.length === 0) continue;
    const mar = readMar(mars[0]);
    runs.forEach(({ c, mode, opts }, i) => {
      const entry = mar.entries[i]?.bytes;
      counts.entries++;
      const where = `${c.name} ${label} ${mode}`;
      if (!entry) return void bad.push(`${where}: no .mar entry`);
      const want = expected.get(opts.name);
      if (want && !same(entry, want)) bad.push(`${where}: the .mar entry is not the in-process bytes`);
      for (const v of fileViolations(c.motion, entry, opts)) bad.push(`${where} (the .mar entry): ${v}`);
    });
    // The project exported as MSH, with one job and two (a long motion's nodes fitted in shares): the same files,
    // each entry's decoded by the MSH spec's sampler and held to the project's tolerances.
    const msh: Uint8Array[][] = [];
    const refusals: string[] = [];
    for (const jobs of o.projectExports === false ? [] : ['1', '2']) {
      const outDir = `msh${li}.${jobs}`;
      const run = cli('export-msh', '--project', pfile, '-o', outDir, '--jobs', jobs, '--quiet');
      if (run.rc !== 0) {
        // At the format's u16 limits (round 13: 01_01.bvh whole at 120 fps), a refusal, in the same words whatever
        // --jobs (round 14), and only where a motion of the project could pass them.
        const words = MSH_U16_REFUSAL.exec(run.err)?.[0];
        if (words && cases.some((c) => mayPassMshLimits(c.motion))) {
          counts.mshRefused++;
          if (msh.length) bad.push(`${label}: export-msh --project --jobs ${jobs} refused what --jobs 1 wrote`);
          if (refusals.length && refusals[0] !== words)
            bad.push(
              `${label}: export-msh --project --jobs ${jobs} refused as "${words}", --jobs 1 as "${refusals[0]}"`,
            );
          refusals.push(words);
        } else bad.push(`${label}: export-msh --project --jobs ${jobs} exited ${run.rc}: ${run.err.trim()}`);
        continue;
      }
      if (refusals.length) bad.push(`${label}: export-msh --project --jobs ${jobs} wrote what --jobs 1 refused`);
      const files = runs.flatMap(({ opts }) =>
        ['res8', 'res19', 'nodes.json'].map(
          (x) => new Uint8Array(readFileSync(join(o.dir, outDir, `${opts.name}.${x}`))),
        ),
      );
      if (msh.length && !files.every((f, i) => same(f, msh[0][i])))
        bad.push(`${label}: export-msh --project --jobs ${jobs} wrote other files than --jobs 1`);
      msh.push(files);
      if (msh.length > 1) continue;
      runs.forEach(({ c, mode, opts }, i) => {
        counts.mshEntries++;
        const warned = run.err
          .split('\n')
          .filter((l) => l.startsWith(`warning: ${opts.name}: `))
          .map((l) => l.slice(`warning: ${opts.name}: `.length));
        for (const v of mshViolations(
          c.motion,
          files[3 * i],
          files[3 * i + 1],
          Buffer.from(files[3 * i + 2]).toString('utf8'),
          opts,
          warned,
        ))
          bad.push(`${c.name} ${label} ${mode} (export-msh --project): ${v}`);
      });
    }
    // The project exported as glTF of the compressed motions, compressing again (no cache): each GLB's animation is
    // the motion the build's entry decodes to.
    if (o.projectExports !== false) {
      const outDir = `glb${li}`;
      const run = cli(
        'export-gltf',
        '--project',
        pfile,
        '-o',
        outDir,
        '--compressed',
        '--no-cache',
        '--no-mesh',
        '--quiet',
      );
      if (run.rc !== 0) bad.push(`${label}: export-gltf --project --compressed exited ${run.rc}: ${run.err.trim()}`);
      else
        for (const { c, mode, opts } of runs) {
          counts.glbEntries++;
          const want = expected.get(opts.name);
          if (!want) continue;
          const glb = new Uint8Array(readFileSync(join(o.dir, outDir, `${opts.name}.glb`)));
          for (const v of glbViolations(c.motion, want, glb))
            bad.push(`${c.name} ${label} ${mode} (export-gltf --project --compressed): ${v}`);
        }
    }
    if (o.rebuilds && mars.length === builds.length)
      rebuildChecks({
        cli,
        dir: o.dir,
        bad,
        counts,
        cases,
        runs,
        expected,
        pfile,
        li,
        label,
        cold: docs[0],
        changes,
        settings: o.settingChanges ?? ['position'],
        files: o.fileChanges ?? [],
      });
    o.log?.(`${fps} fps, ${label}: ${runs.length} runs, ${bad.length} problems so far`);
  }
  return { bad, counts };
}
