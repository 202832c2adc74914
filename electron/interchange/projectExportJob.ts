/**
 * Export All's work in the app (projectExportHandlers.ts), in ONE worker thread of the build bundle (buildWorker.ts)
 * per export, never on the main thread, whose event loop serves the window (docs/architecture.md#electron). The
 * thread first plans the export from the project text (planExportJob: main's bundle holds no project parser) and
 * hands main the plan's outline; main decides from it what the thread may read and make and tells it
 * (ProjectExportAllowed); the thread then reads the motions as a build reads them, fits each MSH or encodes each GLB
 * from the plan it kept (runProjectExportJob): it reads no other file (refused as main refuses it), makes no file
 * outside its list, and writes nothing at all. Main commits what it hands back.
 */
import type { BuildProblem, ProjectExportFormat } from '../../shared/ipc/project';
import { cacheUse } from '../build/buildCache';
import { readBuildInput, ReplacedAfterJudged, type JudgedFile } from '../build/files';
import type { MotionCompressor } from '../build/compressPool';
import { exportEntries, readForExport, type ProjectExportEntry } from '../build/projectExport';
import { planProjectExport } from '../build/projectExportParse';
import { exportFailure, readRefusal, type ExportPlanOutline, type ProjectExportPlan } from '../build/projectExportPlan';
import type { ReadFile } from '../../shared/project/plan';
import { projectRedactor } from '../outsideQuotes';
import { quotePath } from '../pathPolicy';
import { toBuildProblem } from '../project/buildProblem';
import { inputsRead } from '../tempFiles';

/** What main asks the export's thread first: the plan of an export, from the project text. */
export interface ProjectExportRequest {
  projectPath: string;
  /** The project as the page holds it (edited, unsaved too). */
  projectText: string;
  format: ProjectExportFormat;
  folder: string;
  /** glTF: each motion compressed with its project settings, as a build compresses it, then decoded. */
  compressed?: boolean;
  /**
   * With `compressed`: the build cache main chose for the project as for its Build (projectHandlers.ts
   * `buildCacheDir`), reused and filled as a build does (compressMotions); null or absent: none.
   */
  cacheDir?: string | null;
  /** Threads a long motion's MSH fit uses; default: the cores. */
  jobs?: number;
}

/** Main's answer to the plan: the only files the thread may read and make (main's path policy allowed each). */
export interface ProjectExportAllowed {
  /**
   * The only files the work may read (main's path policy allowed each), each read only while it is the file judged
   * (build/files.ts readInputFile): a link swapped in since is not followed to another file.
   */
  reads: JudgedFile[];
  /** As the picker's answer granted them. */
  writes: string[];
}

/**
 * Main's answer to a `replaced` (ProjectExportJobMessage): each of those files judged again as at the start, or null
 * where main judges none again (one was judged as nothing, or it asked before).
 */
export interface ProjectExportRejudged {
  reads: JudgedFile[] | null;
}

/**
 * What the work tells main: `entry` before each entry, then one `done` or `failed`, its end. Before any entry, once,
 * `replaced`: the motions it did not read because another file was at their name than the one main judged (a motion
 * saved over by renaming since), which main judges again (ProjectExportRejudged) before the work reads them again.
 */
export type ProjectExportJobMessage =
  | { type: 'entry'; done: number; count: number; name: string }
  | { type: 'replaced'; paths: string[] }
  | {
      type: 'done';
      files: { path: string; bytes: Uint8Array }[];
      entries: ProjectExportEntry[];
      warnings: string[];
      /** The identities of the files the job read (tempFiles.ts inputsRead): the commit's sweep keeps them. */
      inputsRead: string[];
      /** A glTF of the compressed motions with a usable build cache: how it was used (buildCache.ts cacheUse). */
      cache?: string;
    }
  | { type: 'failed'; errors: BuildProblem[]; warnings: string[] };

/**
 * The plan's answer: its outline (what main checks against its path policy before the work starts), the motion files
 * it reads with their indexes in the project, and the project text's warnings, told as the build tells them.
 */
export type ProjectExportPlanned =
  | { type: 'planned'; outline: ExportPlanOutline; reads: { path: string; index: number }[]; warnings: string[] }
  | { type: 'failed'; errors: BuildProblem[]; warnings: string[] };

const failed = (errors: unknown[], warnings: { message: string }[] = []) => ({
  type: 'failed' as const,
  errors: errors.map(toBuildProblem),
  warnings: warnings.map((w) => w.message),
});

/**
 * The plan of an export (the thread's first turn): main's answer, and the plan itself, which the thread keeps for
 * its work (the project text is parsed once); never throws.
 */
export function planExportJob(req: ProjectExportRequest): { answer: ProjectExportPlanned; plan?: ProjectExportPlan } {
  try {
    const planned = planProjectExport(req.projectPath, req.format, req.folder, req.projectText);
    if (!planned.ok) return { answer: failed(planned.errors, planned.warnings) };
    const { plan } = planned;
    const { projectFile, format, inputs, entries, writes, motionsOnly, warnings } = plan;
    return {
      answer: {
        type: 'planned',
        outline: { projectFile, format, inputs, entries, writes },
        reads: motionsOnly.motions.map((m) => ({ path: m.mtnPath, index: m.index })),
        warnings: warnings.map(projectRedactor(projectFile)).map((w) => w.message),
      },
      plan,
    };
  } catch (e) {
    return { answer: failed([e]) };
  }
}

/** Reads `path` only while it is the file main judged (`judged`: its identity then, null when it was missing). */
type JudgedReader = (path: string, as: 'text' | undefined, judged: string | null) => Uint8Array;

/**
 * How the work reads a motion's file: only one main listed, through `readFile`; any other is refused as main
 * refuses it. The one place the export's thread reads an input.
 */
function allowedReader(
  reads: Map<string, string | null>,
  replaced: Set<string>,
  readFile: JudgedReader = readBuildInput,
): ReadFile {
  return (path, as) => {
    const judged = reads.get(path);
    if (judged === undefined) throw new Error(readRefusal(path));
    try {
      return readFile(path, as, judged);
    } catch (e) {
      if (e instanceof ReplacedAfterJudged) replaced.add(path);
      throw e;
    }
  };
}

/**
 * The work of the export planned (the thread's second turn), within what main allowed, telling `post` each entry as
 * it begins; resolves with its end, never rejects. `compressor`: the thread's pool, for a glTF of the compressed
 * motions.
 */
export async function runProjectExportJob(
  plan: ProjectExportPlan,
  req: Pick<ProjectExportRequest, 'compressed' | 'jobs' | 'cacheDir'>,
  allowed: ProjectExportAllowed,
  post: (m: ProjectExportJobMessage & { type: 'entry' }) => void,
  options: {
    readFile?: JudgedReader;
    compressor?: MotionCompressor;
    stateDir?: string;
    /** Asks main to judge these motions again (a `replaced` message), at most once; undefined: none was. */
    rejudge?: (paths: string[]) => Promise<JudgedFile[] | undefined>;
  } = {},
): Promise<ProjectExportJobMessage & { type: 'done' | 'failed' }> {
  try {
    const writes = new Set(allowed.writes);
    const unlisted = plan.writes.filter((p) => !writes.has(p));
    if (unlisted.length)
      return failed(
        unlisted.map((p) => new Error(`ActGuy refused to write ${quotePath(p)}: the app did not allow it`)),
      );
    const reads = new Map(allowed.reads.map((r) => [r.path, r.identity]));
    const replaced = new Set<string>();
    let got = readForExport(plan, allowedReader(reads, replaced, options.readFile));
    // A motion saved over by renaming since main judged it is judged again once, as a Build's input is
    // (docs/security.md, round 45): every motion is read before any entry is made, so nothing is thrown away.
    if (!got.ok && replaced.size > 0 && options.rejudge) {
      const again = await options.rejudge([...replaced]);
      if (again) {
        for (const j of again) if (replaced.has(j.path)) reads.set(j.path, j.identity);
        got = readForExport(plan, allowedReader(reads, new Set(), options.readFile));
      }
    }
    if (!got.ok) return failed(got.errors, got.warnings);
    const made = await exportEntries(plan, got.read, {
      jobs: req.jobs,
      ...(req.compressed && {
        glb: { scale: 1, boneMesh: true, compressed: true },
        compressor: options.compressor,
        cache: { dir: req.cacheDir ?? null, stateDir: options.stateDir },
      }),
      onEntry: (done, count, name) => post({ type: 'entry', done, count, name }),
    });
    if (!made.ok) {
      const told = exportFailure(plan.projectFile, made.errors, got.read.warnings);
      return failed(told.errors, told.warnings);
    }
    const redact = projectRedactor(plan.projectFile);
    return {
      type: 'done',
      files: made.files,
      entries: made.entries,
      warnings: got.read.warnings.map((w) => redact(w).message),
      inputsRead: inputsRead(),
      ...(made.cache && !made.cache.unusable && { cache: cacheUse(made.cache) }),
    };
  } catch (e) {
    return failed([e]);
  }
}
