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
 * export's, is refused before any work.
 */
import { resolve as resolvePath, join, relative, dirname, isAbsolute } from 'node:path';
import { existsSync } from 'node:fs';
import { FormatError } from '../../shared/errors';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import type { MshExportOptions, MshNodeFit } from '../../shared/msh/export';
import { fitMsh, mshFilesOf, mshFilesOfFit, type MshExportFiles } from '../../shared/msh/files';
import { normalizePath } from '../../shared/project/paths';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { prepareBuild, type PreparedMotion, type ReadFile } from '../../shared/project/plan';
import type { ResolvedProject } from '../../shared/project/types';
import { parseProject } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { pinFoldersOf, TEXT_LIMIT } from '../fsutil';
import { projectRedactor } from '../outsideQuotes';
import { findOutputClashes, type RolePath } from '../pathIdentity';
import { projectAsBuilt } from './build';
import {
  commitOutputs,
  commitOutputsAsync,
  journalRefusedBeforeBuild,
  otherKindProblem,
  outputFolderProblem,
  type CommitOptions,
  type OutputFile,
  type OutputKind,
} from './commit';
import { lockRefusedBeforeBuild } from './commitLock';
import {
  answerPoolRequest,
  defaultJobs,
  defaultPoolWorkerPath,
  mshFitsInShares,
  SHARE_MIN_MTN_BYTES,
  workerCompressor,
  type PoolCompressor,
} from './compressPool';
import { readBuildInput, readInputFile } from './files';
import { mshOutputKind } from './mshOutputKinds';

export type { ProjectExportFormat };

/** What a refusal to replace a file in the export's folder tells the user to do. */
const INSTEAD = 'move that file away or export into another folder';

/** The first bytes of every GLB ActGuy writes: the magic, then its JSON chunk opening with the asset's generator. */
const GLB_GENERATOR = '"generator":"ActGuy motion exporter"';

/**
 * An existing `.glb` in the export's folder is replaced only when it is one ActGuy wrote (its asset's generator):
 * a folder of the user's own glTF files keeps them.
 */
const ACTGUY_GLB_KIND: OutputKind = {
  name: 'a glTF file ActGuy exported',
  told: `those start "glTF" and name ${GLB_GENERATOR} in their JSON`,
  headBytes: 256,
  accepts: (head) => {
    if (head.length < 20 || new TextDecoder().decode(head.subarray(0, 4)) !== 'glTF') return false;
    return new TextDecoder().decode(head.subarray(20)).includes(GLB_GENERATOR);
  },
  instead: INSTEAD,
};

interface ProjectExportOptions {
  /** Threads a long motion's MSH fit uses (`--jobs`); default: the cores. */
  jobs?: number;
  /** Told before each entry is exported (the CLI's and the app's progress). */
  onEntry?: (done: number, total: number, name: string) => void;
  /** Awaited before each entry and before the commit: the CLI's Ctrl+C is handled there (cli/interrupt.ts). */
  checkpoint?: () => Promise<void>;
  /** Told once every entry is exported, right before the commit (which Cancel no longer stops). */
  onCommitStart?: () => void;
  /** Aborted: the export stops before the next entry and before the commit; nothing is written. */
  signal?: AbortSignal;
  /** Write the temps off the main thread (the app); the CLI commits synchronously, as `actguy build` does. */
  async?: boolean;
  /** Commit options (a test's failing file system). */
  commit?: CommitOptions;
  /** Told the written paths once they are committed (the CLI's Ctrl+C). */
  onCommitted?: (paths: string[]) => void;
  /** The paths the caller may write (the app's PathPolicy); refused with what it throws. */
  checkWrite?: (path: string) => void;
  /** The project text to use instead of the file (the app's edited, unsaved project). */
  projectText?: string;
  /** How inputs are read (the app refuses what its path policy does not allow); default readBuildInput. */
  readFile?: ReadFile;
  /**
   * MSH: fit every motion's nodes on worker threads, none on this one (the app's main process, whose event loop serves
   * the window); a resampled motion is still fitted here.
   */
  offThread?: boolean;
  /** glTF: the scale and the bone mesh, as `export-gltf --scale`, `--no-mesh` take them (default 1, with the mesh). */
  glb?: { scale: number; boneMesh: boolean };
}

/** One exported entry: a motion, or an alias under its own name (`of` its target). */
interface ProjectExportEntry {
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
  | { ok: true; entries: ProjectExportEntry[]; written: string[]; note?: string; warnings: FormatError[] }
  | { ok: false; errors: FormatError[]; warnings: FormatError[]; cancelled?: true };

interface Planned {
  name: string;
  of?: string;
  motion: PreparedMotion;
  files: string[];
}

/** The file names of entry `name` in `dir`. */
function projectExportFiles(format: ProjectExportFormat, dir: string, name: string): string[] {
  if (format === 'gltf') return [join(dir, `${name}.glb`)];
  const f = mshFilesOf(join(dir, name));
  return [f.res8, f.res19, f.nodes];
}

/**
 * Exports every motion and alias of the project at `projectPath` into `outDir`; on any error writes nothing and
 * returns every error, each naming its file and place. A lock or journal the commit would refuse is thrown before
 * any work, as `actguy build` throws it.
 */
export async function exportProject(
  projectPath: string,
  format: ProjectExportFormat,
  outDir: string,
  options: ProjectExportOptions = {},
): Promise<ProjectExportOutcome> {
  const projectFile = normalizePath(projectPath);
  const redact = projectRedactor(projectFile);
  const fail = (errors: FormatError[], warnings: FormatError[] = []): ProjectExportOutcome & { ok: false } => ({
    ok: false,
    errors: errors.map(redact),
    warnings: warnings.map(redact),
  });
  let text: string;
  try {
    text = options.projectText ?? decodeUtf8Text(readInputFile(projectFile, TEXT_LIMIT), 'PROJECT', projectFile);
  } catch (e) {
    if (e instanceof FormatError) return fail([e]);
    return fail([new FormatError('PROJECT', `cannot read the project file: ${(e as Error).message}`, {}, projectFile)]);
  }
  const parsed = parseProject(text, projectFile);
  if (!parsed.resolved) return fail(parsed.errors);
  const project = projectAsBuilt(parsed.resolved, projectFile);
  // The motions alone: a .sev or an SE table shapes no MSH or glTF, so a problem in one does not stop the export.
  const motionsOnly: ResolvedProject = {
    ...project,
    motions: project.motions.map((m) => ({ ...m, sevPath: undefined })),
    slsPath: undefined,
    seDefinePath: undefined,
  };
  const bytesOf = new Map<string, Uint8Array>();
  const prep = prepareBuild(motionsOnly, (path, as) => {
    const bytes = (options.readFile ?? readBuildInput)(path, as);
    bytesOf.set(path, bytes);
    return bytes;
  });
  const warnings = [...(parsed.warnings ?? []), ...(prep.ok ? prep.prepared.warnings : prep.warnings)];
  if (!prep.ok) return fail(prep.errors, warnings);
  const { prepared } = prep;
  const dir = normalizePath(outDir);
  const planned: Planned[] = [
    ...prepared.motions.map((p) => ({
      name: p.resolved.name,
      motion: p,
      files: projectExportFiles(format, dir, p.resolved.name),
    })),
    ...prepared.aliases.map((a) => ({
      name: a.resolved.name,
      of: a.resolved.target,
      motion: prepared.motions.find((p) => p.resolved.index === a.resolved.targetIndex)!,
      files: projectExportFiles(format, dir, a.resolved.name),
    })),
  ];
  const paths = planned.flatMap((e) => e.files);
  const located = (problem: string) => new FormatError('PROJECT', problem, { where: 'export folder' }, projectFile);

  // Never onto an input of the project, however spelled (a link, another letter case), nor two outputs one file.
  const inputs: RolePath[] = [
    { path: projectFile, role: 'the project file' },
    ...project.motions.flatMap((m) => [
      { path: m.mtnPath, role: `motions[${m.index}].mtn` },
      ...(m.sevPath ? [{ path: m.sevPath, role: `motions[${m.index}].sev` }] : []),
    ]),
    ...(project.slsPath ? [{ path: project.slsPath, role: 'seTables.sls' }] : []),
    ...(project.seDefinePath ? [{ path: project.seDefinePath, role: 'seTables.seDefine' }] : []),
  ];
  const clashes = findOutputClashes(
    inputs,
    planned.flatMap((e) => e.files.map((path) => ({ path, role: `${e.name}'s ${fileEnding(path)}` }))),
  );
  if (clashes.length) return fail(clashes.map(located), warnings);
  const files = (path: string): Pick<OutputFile, 'path' | 'kind'> => ({
    path,
    kind: format === 'gltf' ? ACTGUY_GLB_KIND : mshOutputKind(path, INSTEAD),
  });
  const refused: string[] = [];
  for (const path of paths) {
    try {
      options.checkWrite?.(path);
    } catch (e) {
      refused.push((e as Error).message);
      continue;
    }
    const problem = outputFolderProblem(resolvePath(path), path) ?? otherKindProblem(files(path));
    if (problem) refused.push(problem);
  }
  if (refused.length) return fail(refused.map(located), warnings);
  const journal = journalRefusedBeforeBuild(paths);
  if (journal) throw journal;
  const lock = lockRefusedBeforeBuild(paths);
  if (lock) throw lock;
  // The folder as checked: the fits take seconds to minutes, and the commit goes nowhere else (docs/security.md).
  const folders = pinFoldersOf(paths);

  const cancelled: ProjectExportOutcome = { ...fail([], warnings), cancelled: true };
  const source = (p: PreparedMotion) => sourceName(project.projectFile, p.resolved.mtnPath);
  const largest = Math.max(0, ...prepared.motions.map((p) => bytesOf.get(p.resolved.mtnPath)?.byteLength ?? 0));
  const fitter = format === 'msh' ? mshFitter(options.jobs ?? defaultJobs(), largest, options.offThread) : undefined;
  const out: OutputFile[] = [];
  const entries: ProjectExportEntry[] = [];
  try {
    const fitted = new Map<PreparedMotion, ReturnType<typeof fitMsh>>();
    for (const [k, e] of planned.entries()) {
      await options.checkpoint?.();
      if (options.signal?.aborted) return cancelled;
      options.onEntry?.(k, planned.length, e.name);
      const r = e.motion.resolved;
      try {
        if (format === 'gltf') {
          const glb = motionToGlb(e.motion.motion, {
            animationName: e.name,
            scale: options.glb?.scale ?? 1,
            boneMesh: options.glb?.boneMesh ?? true,
          });
          out.push({ path: e.files[0], bytes: glb, kind: ACTGUY_GLB_KIND });
          entries.push({
            name: e.name,
            ...(e.of && { of: e.of }),
            files: e.files,
            sizes: [glb.byteLength],
            bytes: glb.byteLength,
            warnings: [],
          });
          continue;
        }
        const mshOptions: MshExportOptions = {
          positionTolerance: r.positionTolerance,
          rotationToleranceDeg: r.rotationToleranceDeg,
          rotationToleranceOverridesDeg: e.motion.rotationOverridesDeg,
        };
        let fit = fitted.get(e.motion);
        if (!fit) {
          // The pool fits the file as read: a resampled motion is fitted here, from the motion the game plays.
          const raw = e.motion.resampledFrom ? undefined : bytesOf.get(r.mtnPath);
          const shares = raw && fitter ? await fitter.fits(raw, mshOptions, e.motion.joints.length) : null;
          if (options.signal?.aborted) return cancelled;
          fit = fitMsh(e.motion.motion, mshOptions, shares ?? undefined);
          fitted.set(e.motion, fit);
        }
        const m: MshExportFiles = mshFilesOfFit(fit, { source: source(e.motion), baseName: e.name });
        const nodes = new TextEncoder().encode(m.nodesJson);
        out.push(
          ...[m.res8, m.res19, nodes].map((bytes, i) => ({
            path: e.files[i],
            bytes,
            kind: mshOutputKind(e.files[i], INSTEAD),
          })),
        );
        entries.push({
          name: e.name,
          ...(e.of && { of: e.of }),
          files: e.files,
          sizes: [m.res8.byteLength, m.res19.byteLength, nodes.byteLength],
          bytes: m.res8.byteLength + m.res19.byteLength + nodes.byteLength,
          warnings: m.warnings,
        });
      } catch (err) {
        if (err instanceof FormatError) return fail([err.file ? err : err.withFile(r.mtnPath)], warnings);
        throw err;
      }
    }
  } finally {
    await fitter?.close();
  }
  await options.checkpoint?.();
  if (options.signal?.aborted) return cancelled;
  options.onCommitStart?.();
  const commitOptions: CommitOptions = { ...options.commit, folders };
  const note = options.async ? await commitOutputsAsync(out, commitOptions) : commitOutputs(out, commitOptions);
  options.onCommitted?.(paths);
  return { ok: true, entries, written: paths, ...(note && { note }), warnings: warnings.map(redact) };
}

function fileEnding(path: string): string {
  const m = /\.(res8|res19|nodes\.json|glb)$/.exec(path);
  return m ? `.${m[1]}` : path;
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
 * whether one is started at all. `offThread`: every motion, however short, on `jobs` workers and none on this thread.
 */
export function mshFitter(
  jobs: number,
  largest: number,
  offThread = false,
): {
  fits(mtn: Uint8Array, options: MshExportOptions, nodes: number): Promise<MshNodeFit[] | null>;
  close(): Promise<void>;
} {
  const workerPath = defaultPoolWorkerPath();
  let pool: PoolCompressor | undefined;
  const least = offThread ? 0 : SHARE_MIN_MTN_BYTES;
  if ((offThread || jobs >= 2) && largest >= least && existsSync(workerPath)) {
    // Off this thread: no share of its own (workerCompressor's localJob), every share on a worker.
    pool = offThread ? workerCompressor(workerPath, jobs) : workerCompressor(workerPath, jobs, answerPoolRequest);
    pool.start!();
  }
  return {
    fits: (mtn, options, nodes) =>
      pool && mtn.byteLength >= least ? mshFitsInShares(pool, mtn, options, nodes) : Promise.resolve(null),
    close: async () => {
      await pool?.close();
    },
  };
}
