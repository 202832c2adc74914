/**
 * A whole project exported as MSH animation or glTF (`actguy export-msh --project`, `export-gltf --project`, the
 * app's Project > Export All as MSH… / glTF…; docs/interchange.md, "Whole project"). Every motion of the project, and
 * every alias under its own name, as the build reads them (resampled where the project asks, each motion's own
 * tolerances and per-joint overrides), one output set per entry named after it in one folder:
 * `<name>.res8`, `<name>.res19`, `<name>.nodes.json`, or `<name>.glb`. Each set is the bytes the single export of
 * that motion writes with the same settings (shared/msh/files.ts, shared/interchange/gltf/export.ts).
 *
 * Everything is committed as ONE unit by the build's commit (commit.ts: the journal, the lock, the backups): all
 * the new files or, on any failure before the commit point (a motion that fails to read, Ctrl+C, the app's Cancel),
 * none of them and no temp. An output that is an input of the project, or an existing file that is not such an
 * export's, is refused before any work (projectExportPlan.ts). The app runs the work here (readForExport,
 * exportEntries) in a worker thread and commits on its main thread (interchange/projectExportHandlers.ts); the CLI runs
 * all of it in its process (exportProject).
 */
import { resolve as resolvePath, relative, dirname, isAbsolute } from 'node:path';
import { existsSync } from 'node:fs';
import { FormatError } from '../../shared/errors';
import { exportSizeProblem } from './glbBudget';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import type { MshExportOptions, MshNodeFit } from '../../shared/msh/export';
import { fitMsh, mshFilesOfFit, type MshExportFiles } from '../../shared/msh/files';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import { readMt3 } from '../../shared/mt3/read';
import type { Motion } from '../../shared/motion/types';
import {
  prepareBuild,
  type CompressedMotion,
  type PreparedBuild,
  type PreparedMotion,
  type ReadFile,
} from '../../shared/project/plan';
import { pinFoldersOf } from '../fsutil';
import { projectRedactor } from '../outsideQuotes';
import { defaultCacheDir, pathsInsideCache } from './build';
import { openBuildCache, type CacheStats } from './buildCache';
import { commitOutputs, type CommitOptions } from './commit';
import { compressMotions, fileStamp, recordingReader } from './compressMotions';
import {
  answerPoolRequest,
  compressorFor,
  defaultJobs,
  defaultPoolWorkerPath,
  mshFitsInShares,
  SHARE_MIN_MTN_BYTES,
  workerCompressor,
  type MotionCompressor,
  type PoolCompressor,
} from './compressPool';
import { readBuildInput } from './files';
import type { FileStamp } from './fileStamp';
import { openVerdictStore } from './verdicts';
import { planProjectExport } from './projectExportParse';
import {
  exportFailure,
  exportOutputFiles,
  refusedOutputs,
  type ProjectExportFailure,
  type ProjectExportPlan,
} from './projectExportPlan';

export type { ProjectExportFormat };

/** How the entries are made (exportEntries): by the CLI in its own process, by the app in a worker thread. */
interface ProjectExportWork {
  /** Threads a long motion's MSH fit uses (`--jobs`); default: the cores. */
  jobs?: number;
  /** Told before each entry is exported (the CLI's and the app's progress). */
  onEntry?: (done: number, total: number, name: string) => void;
  /** Awaited before each entry and before the commit: the CLI's Ctrl+C is handled there (cli/interrupt.ts). */
  checkpoint?: () => Promise<void>;
  /**
   * glTF: the scale and the bone mesh, as `export-gltf --scale`, `--no-mesh` take them (default 1, with the mesh), and
   * `compressed` (`--compressed`): each motion compressed with its project settings as a build compresses it, then
   * decoded (what the game plays), rather than the source motion.
   */
  glb?: { scale: number; boneMesh: boolean; compressed?: boolean };
  /** What compresses the motions of a compressed glTF; default: a pool of `jobs` threads (the CLI's), closed after. */
  compressor?: MotionCompressor;
  /**
   * A compressed glTF's build cache, used as `actguy build` uses it (compressMotions: every entry verified before
   * reuse, or known verified by this user's local verdicts): `dir` the cache folder (null: none), `stateDir` the
   * verdicts' folder (default defaultStateDir()). Default: none.
   */
  cache?: { dir: string | null; stateDir?: string };
}

interface ProjectExportOptions extends ProjectExportWork {
  /** Commit options (a test's failing file system). */
  commit?: CommitOptions;
  /** Told the written paths once they are committed (the CLI's Ctrl+C). */
  onCommitted?: (paths: string[]) => void;
}

/** One exported entry: a motion, or an alias under its own name (`of` its target). */
export interface ProjectExportEntry {
  name: string;
  of?: string;
  files: string[];
  /** Each file's size, in the order of `files`, and their sum. */
  sizes: number[];
  bytes: number;
  /** The MSH fit's warnings (a tolerance the precision cannot meet). */
  warnings: string[];
}

type ProjectExportOutcome =
  | {
      ok: true;
      entries: ProjectExportEntry[];
      written: string[];
      note?: string;
      warnings: FormatError[];
      /** A compressed glTF's use of the build cache, when it had one. */
      cache?: CacheStats;
    }
  | ProjectExportFailure;

/** The plan's motions as the build reads them, and the warnings so far (the project text's, then the inputs'). */
interface ReadForExport {
  prepared: PreparedBuild;
  /** Each file's bytes as read, and its stamp when it held still while read (recordingReader, as a build's). */
  bytesOf: (path: string) => Uint8Array | undefined;
  stampOf: (path: string) => FileStamp | undefined;
  warnings: FormatError[];
}

/** Reads and checks the plan's motions as a build does (prepareBuild), each file through `readFile`. */
export function readForExport(
  plan: ProjectExportPlan,
  readFile: ReadFile = readBuildInput,
): { ok: true; read: ReadForExport } | ProjectExportFailure {
  const recorded = recordingReader(readFile, fileStamp);
  const prep = prepareBuild(plan.motionsOnly, recorded.read);
  const warnings = [...plan.warnings, ...(prep.ok ? prep.prepared.warnings : prep.warnings)];
  if (!prep.ok) return exportFailure(plan.projectFile, prep.errors, warnings);
  const { bytesOf, stampOf } = recorded;
  return { ok: true, read: { prepared: prep.prepared, bytesOf, stampOf, warnings } };
}

/**
 * Makes every entry's files from the motions read (the MSH fits, the GLBs): the work of the export, which the app runs
 * in a worker thread. A motion that fails is returned as the error, naming its file.
 */
export async function exportEntries(
  plan: ProjectExportPlan,
  read: ReadForExport,
  options: ProjectExportWork = {},
): Promise<
  | { ok: true; files: { path: string; bytes: Uint8Array }[]; entries: ProjectExportEntry[]; cache?: CacheStats }
  | { ok: false; errors: FormatError[] }
> {
  const { prepared, bytesOf } = read;
  const byIndex = new Map(prepared.motions.map((p) => [p.resolved.index, p]));
  const source = (p: PreparedMotion) => sourceName(plan.motionsOnly.projectFile, p.resolved.mtnPath);
  const largest = Math.max(0, ...prepared.motions.map((p) => bytesOf(p.resolved.mtnPath)?.byteLength ?? 0));
  const compressed = options.glb?.compressed && plan.format === 'gltf';
  const cacheDir = compressed ? options.cache?.dir : undefined;
  if (cacheDir) {
    // As a build refuses them (build.ts filesInsideCache): the cache prunes its folder as its own.
    const named = [...plan.inputs, ...plan.writes.map((path) => ({ path, role: 'a file of the export' }))];
    const inside = pathsInsideCache(named, cacheDir, plan.projectFile);
    if (inside.length) return { ok: false, errors: inside };
  }
  // Every file is made in memory before the commit: their sum is bounded before any is made or fitted (glbBudget.ts).
  const tooLarge = exportSizeProblem(
    plan.projectFile,
    plan.format,
    plan.entries.map((e) => {
      const joints = byIndex.get(e.motion)?.joints ?? [];
      return {
        name: e.name,
        frames: (byIndex.get(e.motion)?.frameCount ?? 0) + 1,
        joints: joints.length,
        nameChars: joints.reduce((n, j) => n + j.name.length, 0),
      };
    }),
  );
  if (tooLarge) return { ok: false, errors: [tooLarge] };
  const fitter = plan.format === 'msh' ? mshFitter(options.jobs ?? defaultJobs(), largest) : undefined;
  const decoded = compressed ? compressedMotions(read, options) : undefined;
  const files: { path: string; bytes: Uint8Array }[] = [];
  const entries: ProjectExportEntry[] = [];
  const made = (e: ProjectExportPlan['entries'][number], bytes: Uint8Array[], warnings: string[]) => {
    files.push(...bytes.map((b, i) => ({ path: e.files[i], bytes: b })));
    const sizes = bytes.map((b) => b.byteLength);
    entries.push({
      name: e.name,
      ...(e.of && { of: e.of }),
      files: e.files,
      sizes,
      bytes: sizes.reduce((a, b) => a + b, 0),
      warnings,
    });
  };
  try {
    const fitted = new Map<PreparedMotion, ReturnType<typeof fitMsh>>();
    for (const [k, e] of plan.entries.entries()) {
      await options.checkpoint?.();
      options.onEntry?.(k, plan.entries.length, e.name);
      const motion = byIndex.get(e.motion);
      // prepareBuild returns every motion of a project it accepts: one missing is this code's mistake.
      if (!motion) throw new Error(`the export has no motion ${e.motion} for ${e.name}`);
      const r = motion.resolved;
      try {
        if (plan.format === 'gltf') {
          const glb = motionToGlb(decoded ? await decoded.of(motion) : motion.motion, {
            animationName: e.name,
            scale: options.glb?.scale ?? 1,
            boneMesh: options.glb?.boneMesh ?? true,
          });
          made(e, [glb], []);
          continue;
        }
        const mshOptions: MshExportOptions = {
          positionTolerance: r.positionTolerance,
          rotationToleranceDeg: r.rotationToleranceDeg,
          rotationToleranceOverridesDeg: motion.rotationOverridesDeg,
        };
        let fit = fitted.get(motion);
        if (!fit) {
          // The pool fits the file as read: a resampled motion is fitted here, from the motion the game plays.
          const raw = motion.resampledFrom ? undefined : bytesOf(r.mtnPath);
          const shares = raw && fitter ? await fitter.fits(raw, mshOptions, motion.joints.length) : null;
          fit = fitMsh(motion.motion, mshOptions, shares ?? undefined);
          fitted.set(motion, fit);
        }
        const m: MshExportFiles = mshFilesOfFit(fit, { source: source(motion), baseName: e.name });
        made(e, [m.res8, m.res19, new TextEncoder().encode(m.nodesJson)], m.warnings);
      } catch (err) {
        if (err instanceof FormatError) return { ok: false, errors: [err.file ? err : err.withFile(r.mtnPath)] };
        throw err;
      }
    }
  } finally {
    await fitter?.close();
    await decoded?.close(entries.length === plan.entries.length);
  }
  return { ok: true, files, entries, ...(decoded?.cache && { cache: decoded.cache }) };
}

/**
 * The motions of a glTF of the compressed motions: each compressed with its project settings as a build compresses
 * it, by the build's own stage (compressMotions: compressOptionsFor, resampled first where the project says, from the
 * file as read; with a cache, each entry verified before reuse as a build's), then decoded onto the motion as the
 * single export decodes it (glbExportJob.ts): the skeleton, rate and names of the motion the game plays. An alias
 * takes its target's. `close(complete)`: the pool closed, and after a complete export the stage's end awaited (its
 * local verdicts saved).
 */
function compressedMotions(
  read: ReadForExport,
  options: ProjectExportWork,
): { of(motion: PreparedMotion): Promise<Motion>; close(complete: boolean): Promise<void>; cache?: CacheStats } {
  const { prepared } = read;
  const own = options.compressor ? undefined : compressorFor(options.jobs ?? defaultJobs());
  const compressor = (options.compressor ?? own)!;
  const dir = options.cache?.dir;
  const cache = dir ? openBuildCache(dir) : undefined;
  const verdicts = cache && !cache.stats.unusable ? openVerdictStore(cache.dir, options.cache?.stateDir) : undefined;
  const results = prepared.motions.map(() => {
    let resolve!: (m: CompressedMotion) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<CompressedMotion>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // Awaited in the entries' order; one that fails before its turn is told then (or not at all, after another's).
    promise.catch(() => {});
    return { promise, resolve, reject };
  });
  const ended = compressMotions(prepared, {
    compressor,
    cache,
    verdicts,
    inputBytes: read.bytesOf,
    inputStamp: read.stampOf,
    onMotion: (m) => results[m.index].resolve(m.result),
  }).then(
    (r) => {
      // A motion that failed is told by its file (compressMotions names each); those finished are resolved already.
      if (!r.ok)
        prepared.motions.forEach((p, k) =>
          results[k].reject(r.errors.find((e) => e.file === p.resolved.mtnPath) ?? r.errors[0]),
        );
    },
    (e: unknown) => results.forEach((r) => r.reject(e)),
  );
  return {
    of: async (p) => decodeMt3ToMotion(readMt3((await results[prepared.motions.indexOf(p)].promise).bytes), p.motion),
    close: async (complete) => {
      await own?.close();
      if (complete) await ended;
    },
    ...(cache && { cache: cache.stats }),
  };
}

/**
 * Exports every motion and alias of the project at `projectPath` into `outDir` in this process (the CLI); on any
 * error writes nothing and returns every error, each naming its file and place. A lock or journal the commit would
 * refuse is thrown before any work, as `actguy build` throws it.
 */
export async function exportProject(
  projectPath: string,
  format: ProjectExportFormat,
  outDir: string,
  options: ProjectExportOptions = {},
): Promise<ProjectExportOutcome> {
  const planned = planProjectExport(projectPath, format, outDir);
  if (!planned.ok) return planned;
  const { plan } = planned;
  const got = readForExport(plan);
  if (!got.ok) return got;
  const { warnings } = got.read;
  const refused = refusedOutputs(plan);
  if (refused.length) return exportFailure(plan.projectFile, refused, warnings);
  // The folder as checked: the fits take seconds to minutes, and the commit goes nowhere else (docs/security.md).
  const folders = pinFoldersOf(plan.writes);
  // The build's cache beside the project unless told (`--cache DIR`, `--no-cache`), as `actguy build` takes it.
  const cache = {
    ...options.cache,
    dir: options.cache?.dir === undefined ? defaultCacheDir(plan.projectFile) : options.cache.dir,
  };
  const made = await exportEntries(plan, got.read, { ...options, cache });
  if (!made.ok) return exportFailure(plan.projectFile, made.errors, warnings);
  await options.checkpoint?.();
  const note = commitOutputs(exportOutputFiles(format, made.files), { ...options.commit, folders });
  options.onCommitted?.(plan.writes);
  const redact = projectRedactor(plan.projectFile);
  return {
    ok: true,
    entries: made.entries,
    written: plan.writes,
    ...(note && { note }),
    warnings: warnings.map(redact),
    ...(made.cache && { cache: made.cache }),
  };
}

/**
 * The motion file as a .nodes.json records it: its path from the project's folder (what `actguy export-msh` records
 * when run there), never the user's absolute folders.
 */
function sourceName(projectFile: string, mtnPath: string): string {
  const from = dirname(resolvePath(projectFile));
  const rel = relative(from, resolvePath(mtnPath));
  return (isAbsolute(rel) ? mtnPath : rel).split('\\').join('/');
}

/**
 * A long motion's MSH node fits in `jobs` shares on worker threads (the pool of `actguy build`, docs/compression.md
 * "Jobs"), or null to fit every node on this thread: one job, a motion under SHARE_MIN_MTN_BYTES, no worker bundle
 * beside the running one, or a share that failed (whose error the one-thread fit then reports). The files are those
 * of one thread either way. One pool serves every motion of a project; `largest` (the largest .mtn, bytes) decides
 * whether one is started at all.
 */
export function mshFitter(
  jobs: number,
  largest: number,
): {
  fits(mtn: Uint8Array, options: MshExportOptions, nodes: number): Promise<MshNodeFit[] | null>;
  close(): Promise<void>;
} {
  const workerPath = defaultPoolWorkerPath();
  let pool: PoolCompressor | undefined;
  if (jobs >= 2 && largest >= SHARE_MIN_MTN_BYTES && existsSync(workerPath)) {
    pool = workerCompressor(workerPath, jobs, answerPoolRequest);
    pool.start!();
  }
  return {
    fits: (mtn, options, nodes) =>
      pool && mtn.byteLength >= SHARE_MIN_MTN_BYTES
        ? mshFitsInShares(pool, mtn, options, nodes)
        : Promise.resolve(null),
    close: async () => {
      await pool?.close();
    },
  };
}
