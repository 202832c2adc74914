/**
 * Export All's work in the app (projectExportHandlers.ts): the motions read and checked as a build reads them, each
 * entry's MSH fitted or GLB encoded, run in a worker thread of the build bundle (buildWorker.ts), never on the main
 * thread, whose event loop serves the window (docs/architecture.md#electron). Main decided before the thread started
 * what it may read and write: the job reads no other file (refused as main refuses it) and makes no file outside
 * its list; it writes nothing at all. Main commits what it hands back.
 */
import type { BuildProblem, ProjectExportFormat } from '../../shared/ipc/project';
import { readBuildInput } from '../build/files';
import { exportEntries, readForExport, type ProjectExportEntry } from '../build/projectExport';
import { exportFailure, planProjectExport, readRefusal } from '../build/projectExportPlan';
import { projectRedactor } from '../outsideQuotes';
import { quotePath } from '../pathPolicy';
import { toBuildProblem } from '../project/buildProblem';
import { inputsRead } from '../tempFiles';
import type { ReadFile } from '../../shared/project/plan';

export interface ProjectExportJob {
  projectPath: string;
  /** The project as the page holds it (edited, unsaved too). */
  projectText: string;
  format: ProjectExportFormat;
  folder: string;
  /** The only files the job may read (main's path policy allowed each). */
  reads: string[];
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

/** Runs the job, telling `post` each entry as it begins; resolves with its end, never rejects. */
export async function runProjectExportJob(
  job: ProjectExportJob,
  post: (m: ProjectExportJobMessage & { type: 'entry' }) => void,
  readFile: ReadFile = readBuildInput,
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
    const reads = new Set(job.reads);
    const got = readForExport(plan, (path, as) => {
      if (!reads.has(path)) throw new Error(readRefusal(path));
      return readFile(path, as);
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
