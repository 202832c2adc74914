/**
 * Export All's work in the app (projectExportHandlers.ts): the motions read and checked as a build reads them, each
 * entry's MSH fitted or GLB encoded, run in a worker thread of the build bundle (buildWorker.ts), never on the main
 * thread, whose event loop serves the window (docs/architecture.md#electron). Main decided before the thread started
 * what it may read and write: the job reads no other file (refused as main refuses it) and makes no file outside
 * its list; it writes nothing at all. Main commits what it hands back.
 */
import type { BuildProblem, ProjectExportFormat } from '../../shared/ipc/project';
import { readBuildInput, type JudgedFile } from '../build/files';
import { exportEntries, readForExport, type ProjectExportEntry } from '../build/projectExport';
import { planProjectExport } from '../build/projectExportParse';
import { exportFailure, readRefusal, type ExportPlanOutline } from '../build/projectExportPlan';
import { projectRedactor } from '../outsideQuotes';
import { quotePath } from '../pathPolicy';
import { toBuildProblem } from '../project/buildProblem';
import { inputsRead } from '../tempFiles';

export interface ProjectExportJob {
  projectPath: string;
  /** The project as the page holds it (edited, unsaved too). */
  projectText: string;
  format: ProjectExportFormat;
  folder: string;
  /**
   * The only files the job may read (main's path policy allowed each), each read only while it is the file judged
   * (build/files.ts readInputFile): a link swapped in since is not followed to another file.
   */
  reads: JudgedFile[];
  /** The only files the job may make (main's path policy allowed each, as the picker's answer granted). */
  writes: string[];
  /** Threads a long motion's MSH fit uses; default: the cores. */
  jobs?: number;
}

/** What the job tells main: `entry` before each entry, then one `done` or `failed`, its end. */
export type ProjectExportJobMessage =
  | { type: 'entry'; done: number; count: number; name: string }
  | {
      type: 'done';
      files: { path: string; bytes: Uint8Array }[];
      entries: ProjectExportEntry[];
      warnings: string[];
      /** The identities of the files the job read (tempFiles.ts inputsRead): the commit's sweep keeps them. */
      inputsRead: string[];
    }
  | { type: 'failed'; errors: BuildProblem[]; warnings: string[] };

/** What main asks first: the plan of an export, from the project text (main's bundle holds no project parser). */
export interface ProjectExportPlanRequest {
  projectPath: string;
  projectText: string;
  format: ProjectExportFormat;
  folder: string;
}

/**
 * The plan's answer: its outline (what main checks against its path policy before the work starts), the motion files
 * it reads with their indexes in the project, and the project text's warnings, told as the build tells them.
 */
export type ProjectExportPlanned =
  | { type: 'planned'; outline: ExportPlanOutline; reads: { path: string; index: number }[]; warnings: string[] }
  | { type: 'failed'; errors: BuildProblem[]; warnings: string[] };

/** The plan of an export as main needs it (the worker's first call); never throws. */
export function planExportJob(req: ProjectExportPlanRequest): ProjectExportPlanned {
  try {
    const planned = planProjectExport(req.projectPath, req.format, req.folder, req.projectText);
    if (!planned.ok)
      return {
        type: 'failed',
        errors: planned.errors.map(toBuildProblem),
        warnings: planned.warnings.map((w) => w.message),
      };
    const { projectFile, format, inputs, entries, writes, motionsOnly, warnings } = planned.plan;
    return {
      type: 'planned',
      outline: { projectFile, format, inputs, entries, writes },
      reads: motionsOnly.motions.map((m) => ({ path: m.mtnPath, index: m.index })),
      warnings: warnings.map(projectRedactor(projectFile)).map((w) => w.message),
    };
  } catch (e) {
    return { type: 'failed', errors: [toBuildProblem(e)], warnings: [] };
  }
}

/** Runs the job, telling `post` each entry as it begins; resolves with its end, never rejects. */
export async function runProjectExportJob(
  job: ProjectExportJob,
  post: (m: ProjectExportJobMessage & { type: 'entry' }) => void,
  readFile: (path: string, as: 'text' | undefined, judged: string | null) => Uint8Array = readBuildInput,
): Promise<ProjectExportJobMessage & { type: 'done' | 'failed' }> {
  const fail = (errors: unknown[], warnings: { message: string }[] = []) => ({
    type: 'failed' as const,
    errors: errors.map(toBuildProblem),
    warnings: warnings.map((w) => w.message),
  });
  try {
    const planned = planProjectExport(job.projectPath, job.format, job.folder, job.projectText);
    if (!planned.ok) return fail(planned.errors, planned.warnings);
    const { plan } = planned;
    const writes = new Set(job.writes);
    const unlisted = plan.writes.filter((p) => !writes.has(p));
    if (unlisted.length)
      return fail(unlisted.map((p) => new Error(`ActGuy refused to write ${quotePath(p)}: the app did not allow it`)));
    const reads = new Map(job.reads.map((r) => [r.path, r.identity]));
    const got = readForExport(plan, (path, as) => {
      const judged = reads.get(path);
      if (judged === undefined) throw new Error(readRefusal(path));
      return readFile(path, as, judged);
    });
    if (!got.ok) return fail(got.errors, got.warnings);
    const made = await exportEntries(plan, got.read, {
      jobs: job.jobs,
      onEntry: (done, count, name) => post({ type: 'entry', done, count, name }),
    });
    if (!made.ok) {
      const told = exportFailure(plan.projectFile, made.errors, got.read.warnings);
      return fail(told.errors, told.warnings);
    }
    const redact = projectRedactor(plan.projectFile);
    return {
      type: 'done',
      files: made.files,
      entries: made.entries,
      warnings: got.read.warnings.map((w) => redact(w).message),
      inputsRead: inputsRead(),
    };
  } catch (e) {
    return fail([e]);
  }
}
