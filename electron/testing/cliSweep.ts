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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { emptyMotion, type Motion } from '../../shared/motion/types';
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
  dispose(): Promise<void>;
}

export function appCompressPath(o: {
  workspace: string;
  workerPath: string;
  pool: { workerPath: string; jobs: number };
}): AppCompressPath {
  const client = createCompressClient({ workerPath: o.workerPath, pool: o.pool });
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
    dialogs: { chooseFileToOpen: async () => null, chooseFileToSave: async () => null, confirm: async () => false },
  });
  const opened = new Map<string, { id: string; motion: Motion }>();
  let revision = 0;
  return {
    async run(dir, c, opts, out) {
      const path = join(dir, `${c.name}.mtn`);
      let doc = opened.get(path);
      if (!doc) {
        const r = await handlers.openMotion({ path });
        if (r.status !== 'opened') throw new Error(`the app did not open ${path}: ${r.status}`);
        doc = { id: r.motion.documentId, motion: c.motion };
        opened.set(path, doc);
      }
      const req = {
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
      };
      await handlers.exportMt3({ path: join(dir, out), compress: req });
      const exported = new Uint8Array(readFileSync(join(dir, out)));
      const answer = await handlers.compressMotion({ ...req, revision: ++revision, includeBytes: true });
      if (answer.status !== 'done' || !answer.bytes) throw new Error(`compressMotion answered ${answer.status}`);
      return { exported, answered: answer.bytes };
    },
    dispose: () => client.dispose(),
  };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

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
  const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [o.cli, ...args], { cwd: o.dir, encoding: 'utf8', maxBuffer: 64 << 20 });
    return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
  };
  mkdirSync(o.dir, { recursive: true });
  const fps = cases[0].motion.fps;
  for (const c of cases) {
    if (c.motion.fps !== fps) throw new Error('runCliSweep: every case at one rate');
    const mtn = writeMtn(c.motion);
    if (mtn.byteLength >= 512 * 1024) counts.long++;
    writeFileSync(join(o.dir, `${c.name}.mtn`), mtn);
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
    for (const [k, [what, jobs, cache, hits]] of builds.entries()) {
      const outDir = `build${li}.${k}`;
      const run = cli('build', pfile, '-o', outDir, '--jobs', jobs, '--cache', cache, '--json');
      counts.builds++;
      if (run.rc !== 0) {
        bad.push(`${label}: build ${what} exited ${run.rc}: ${run.err.trim()}`);
        continue;
      }
      const doc = JSON.parse(run.out) as { cache: { hits: number } | null };
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
    for (const jobs of ['1', '2']) {
      const outDir = `msh${li}.${jobs}`;
      const run = cli('export-msh', '--project', pfile, '-o', outDir, '--jobs', jobs, '--quiet');
      if (run.rc !== 0) {
        bad.push(`${label}: export-msh --project --jobs ${jobs} exited ${run.rc}: ${run.err.trim()}`);
        continue;
      }
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
    {
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
    o.log?.(`${fps} fps, ${label}: ${runs.length} runs, ${bad.length} problems so far`);
  }
  return { bad, counts };
}
