/**
 * Project › Export All as MSH… / Export All as glTF… in the app: every motion and alias of the open project into one
 * folder (electron/build/projectExport.ts, the code of `actguy export-msh --project`), polled for progress like a
 * build, cancellable until its commit, all the files written as one unit or none.
 *
 * The renderer is untrusted: the project text it sends names what is read, and each of those files must be one the
 * path policy allows (the project's own, granted when it was opened); each file written must pass the policy for
 * writing, granted by the save picker's answer for the files beside it in its folder (a link out grants nothing).
 * Both are decided here before any work, from the plan that the export's one worker thread (of the build bundle)
 * makes of the project text first (this bundle holds no project parser: projectExportJob.ts `planExportJob`); the
 * same thread, told what it may read and make, then reads the motions, fits or encodes them, and writes nothing; this
 * thread commits what it hands back. Cancel before the commit terminates the thread, in either turn.
 */
import { randomUUID } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { GltfExportSource } from '../../shared/ipc/interchange';
import type {
  ProjectExportFormat,
  ProjectExportStatus,
  StartProjectExportDialogRequest,
  StartProjectExportRequest,
} from '../../shared/ipc/project';
import { FormatError } from '../../shared/errors';
import type { BuildProblem } from '../../shared/ipc/project';
import { commitOutputsAsync, type CommitOptions } from '../build/commit';
import { judgeFile } from '../build/files';
import { exportFailure, exportOutputFiles, readRefusal, refusedOutputs } from '../build/projectExportPlan';
import type { DialogPort } from '../dialogPort';
import { keepingAwakeDuringTalk, type KeepAwake } from '../keepAwake';
import { pinFoldersOf } from '../fsutil';
import { offeredFileName, requireObject, requirePath, requireString } from '../ipcArgs';
import { keptWorkers, keptWorkerTalks, type KeptWorkers, type OneShotEnd, type WorkerTalk } from '../oneShotWorker';
import { allowDialogAnswer, allowUnlessLinkedOut, type PathPolicy } from '../pathPolicy';
import { toBuildProblem } from '../project/buildProblem';
import { defaultBuildWorkerPath } from '../project/projectHandlers';
import { BUILD_WORKER_KEEP_MS } from '../project/buildRunner';
import type { ProjectExportWorkerJob } from '../project/buildWorker';
import type { ApiHandlersOf } from '../project/types';
import type {
  ProjectExportAllowed,
  ProjectExportJobMessage,
  ProjectExportPlanned,
  ProjectExportRejudged,
} from './projectExportJob';

/** Finished exports kept for a late poll; the oldest goes first. */
const KEPT_EXPORTS = 8;

interface ProjectExportContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  /** How the files are committed; a test seam, the real file system by default. */
  commit?: CommitOptions;
  /**
   * The build bundle's threads an export takes and leaves for the next job (oneShotWorker.ts KeptWorkers): main's are
   * shared with the app's Build, so one idle thread serves both. Default: threads of its own of `workerPath`, kept
   * BUILD_WORKER_KEEP_MS.
   */
  workers?: KeptWorkers;
  /** Without `workers`: the build bundle the work runs in; default buildWorker.cjs beside the running bundle. */
  workerPath?: string;
  /**
   * How an export's thread is had and talked with: by default a thread of `workers` (keptWorkerTalks); a test seam
   * (one that records where the work ran).
   */
  startWorker?: (job: ProjectExportWorkerJob, options: { signal: AbortSignal }) => WorkerTalk;
  /**
   * The build cache of a project (canonical path) as the app's Build takes it (projectHandlers.ts `buildCacheDir`), or
   * null: a glTF of the compressed motions reuses and fills it as a build does. Without it, no cache.
   */
  cacheDirOf?: (projectPath: string) => string | null;
  /** Kept awake while an export's thread works (keepAwake.ts; main's); none by default. */
  keepAwake?: KeepAwake;
}

/** How either turn of an export's thread says it failed (ProjectExportPlanned, ProjectExportJobMessage). */
type TurnFailed = { type: 'failed'; errors: BuildProblem[]; warnings: string[] };

/** An export's worker that gave no answer (or was refused), in the words the export's dialog shows. */
function workerTrouble(end: Exclude<OneShotEnd<unknown>, { end: 'answer' | 'cancelled' }>): BuildProblem {
  if (end.end === 'refused') return { message: end.message };
  return {
    message:
      end.end === 'failed' && !end.started
        ? `the export's worker did not start: ${end.detail}`
        : `the export's worker stopped unexpectedly (${end.end === 'failed' ? end.detail : end.end})`,
  };
}

type ProjectExportHandlers = ApiHandlersOf<
  | 'startProjectExport'
  | 'startProjectExportDialog'
  | 'getProjectExportStatus'
  | 'cancelProjectExport'
  | 'confirmProjectExport'
>;

/** The names of `paths` (one folder's files) that are there now, whatever they are (a link too: it is replaced). */
async function presentNames(paths: readonly string[]): Promise<string[]> {
  const here = await Promise.all(
    paths.map((p) =>
      lstat(p).then(
        () => true,
        (e: NodeJS.ErrnoException) => e.code !== 'ENOENT' && e.code !== 'ENOTDIR',
      ),
    ),
  );
  return paths.filter((_, k) => here[k]).map((p) => basename(p));
}

const FORMATS: Record<ProjectExportFormat, { what: string; writes: string; extension: string; filter: string }> = {
  msh: {
    what: 'MSH',
    writes: 'every motion gets its .res8, .res19, .nodes.json',
    extension: 'res8',
    filter: 'MSH animation key pool (.res8)',
  },
  gltf: { what: 'glTF', writes: 'every motion gets its .glb', extension: 'glb', filter: 'glTF binary (.glb)' },
};

/** An export as the handlers keep it. */
interface ExportEntry {
  status: ProjectExportStatus;
  controller: AbortController;
  /** Set while it waits in state 'confirm': the page's Export lets it go on. */
  confirmed?: () => void;
  /** Settles once a cancel no longer changes it: at its commit ('writing'), or at its end, however it ended. */
  pastCancel: Promise<void>;
}

export function createProjectExportHandlers(ctx: ProjectExportContext): ProjectExportHandlers {
  const { policy, dialogs } = ctx;
  const exports = new Map<string, ExportEntry>();
  /** The export's threads (made at the first export: the bundle's path is looked up then). */
  let talks: ReturnType<typeof keptWorkerTalks> | undefined;
  const startTalk =
    ctx.startWorker ??
    ((job: ProjectExportWorkerJob, options: { signal: AbortSignal }) => {
      talks ??= keptWorkerTalks(
        ctx.workers ?? keptWorkers(ctx.workerPath ?? defaultBuildWorkerPath(), BUILD_WORKER_KEEP_MS),
      );
      return talks.start(job, options);
    });
  // The machine stays awake while a thread works for an export (its plan, its work), not while the export waits for
  // the page's answer: each talk is closed or released by `run`, however the export ends.
  const { keepAwake } = ctx;
  const startWorker = (job: ProjectExportWorkerJob, options: { signal: AbortSignal }): WorkerTalk =>
    keepAwake ? keepingAwakeDuringTalk(startTalk(job, options), keepAwake) : startTalk(job, options);

  const requireFormat = (format: unknown, what: string): ProjectExportFormat => {
    if (format !== 'msh' && format !== 'gltf') throw new Error(`${what}: format must be "msh" or "gltf"`);
    return format;
  };

  /** glTF's source or compressed motion (source when not said); MSH takes neither. */
  const requireGltfSource = (v: unknown, format: ProjectExportFormat): GltfExportSource | undefined => {
    if (format === 'msh') {
      if (v !== undefined) throw new Error('startProjectExport: gltfSource applies to the glTF export only');
      return undefined;
    }
    if (v !== undefined && v !== 'source' && v !== 'compressed')
      throw new Error('startProjectExport: gltfSource must be "source" or "compressed"');
    return v ?? 'source';
  };

  /**
   * `grant`: how a dialog's answer grants each file the export writes (a folder dialog's: each only where it really
   * lies in the folder; a save dialog's: the file named as the user named it). None: the files must be allowed already.
   * `askFirst`: the export waits in state 'confirm', its files named, before any of its work (the desktop app's folder
   * dialog says nothing of them).
   */
  const start = (
    req: StartProjectExportRequest,
    grant?: (path: string) => void,
    askFirst = false,
  ): ProjectExportStatus => {
    const format = requireFormat(req.format, 'startProjectExport');
    const given = requirePath(req.projectPath, 'startProjectExport: projectPath');
    const projectPath = policy.check(given, 'read');
    if (typeof req.projectText !== 'string') throw new Error('startProjectExport: projectText must be a string');
    const gltfSource = requireGltfSource(req.gltfSource, format);
    const folder = dirname(requirePath(req.path, 'startProjectExport: path'));
    const status: ProjectExportStatus = {
      exportId: randomUUID(),
      format,
      ...(gltfSource && { gltfSource }),
      state: 'exporting',
      folder,
      done: 0,
      count: 0,
      current: null,
      written: [],
      errors: [],
      warnings: [],
    };
    const controller = new AbortController();
    // One export waits for its answer at a time: an earlier one left waiting (its page reloaded) is cancelled.
    for (const e of exports.values()) if (e.confirmed) e.controller.abort();
    for (const id of [...exports.keys()].slice(0, Math.max(0, exports.size + 1 - KEPT_EXPORTS)))
      if (!running(exports.get(id)!.status)) exports.delete(id);
    let pastCancel!: () => void;
    const entry: ExportEntry = {
      status,
      controller,
      pastCancel: new Promise<void>((resolve) => (pastCancel = resolve)),
    };
    exports.set(status.exportId, entry);
    const confirmation = askFirst
      ? new Promise<void>((resolve) => {
          entry.confirmed = resolve;
        })
      : undefined;
    const cacheDir = gltfSource === 'compressed' ? (ctx.cacheDirOf?.(projectPath) ?? null) : null;
    // `run` never rejects (it fails the export instead).
    void run(status, controller.signal, req, grant, cacheDir, confirmation, pastCancel).finally(pastCancel);
    return { ...status };
  };

  const running = (s: ProjectExportStatus) => s.state === 'exporting' || s.state === 'confirm';

  const run = async (
    status: ProjectExportStatus,
    signal: AbortSignal,
    req: StartProjectExportRequest,
    grant: ((path: string) => void) | undefined,
    cacheDir: string | null,
    confirmation: Promise<void> | undefined,
    pastCancel: () => void,
  ): Promise<void> => {
    const fail = (errors: BuildProblem[], warnings: string[] = []) => {
      status.current = null;
      status.errors = errors;
      status.warnings = warnings;
      status.state = 'failed';
    };
    /**
     * A turn's answer, or undefined once the export ended with that turn: cancelled, the thread in trouble, or the
     * thread's own failure (status says which).
     */
    const answerOf = <T extends { type: string }>(end: OneShotEnd<T | TurnFailed>): T | undefined => {
      if (end.end === 'cancelled' || signal.aborted) {
        status.current = null;
        status.state = 'cancelled';
        return undefined;
      }
      if (end.end !== 'answer') return void fail([workerTrouble(end)]);
      const value = end.value;
      if (value.type === 'failed') {
        // T never holds 'failed' (each turn's answer type is its success or TurnFailed), so this is the failure.
        const failure = value as TurnFailed;
        return void fail(failure.errors, failure.warnings);
      }
      return value as T;
    };
    let talk: WorkerTalk | undefined;
    try {
      // One thread per export, kept from its plan to its end (and then, its export ended on its own, for the next
      // job): the project text is parsed there, never here (main's bundle holds no project parser). Its first
      // turn plans the export; here, on the main thread, what it may read and write is decided from the plan; its
      // second turn does the work.
      const job: ProjectExportWorkerJob = {
        type: 'export',
        req: {
          projectPath: req.projectPath,
          projectText: req.projectText,
          format: status.format,
          folder: status.folder,
          ...(status.gltfSource === 'compressed' && { compressed: true, cacheDir }),
        },
      };
      // Asking first, the thread only plans, and goes back to be kept while the user reads the files: an export left
      // waiting holds no thread (a Build meanwhile takes the kept one). Its work is another job, planned again.
      talk = startWorker(confirmation ? { ...job, planOnly: true } : job, { signal });
      let planned = answerOf(await talk.next<ProjectExportPlanned>());
      if (!planned) return;
      if (confirmation) {
        if (talk.release) talk.release();
        else talk.close();
        const { writes } = planned.outline;
        // The files as main plans them, and which the folder holds now: the page says so, and nothing goes on (no
        // motion read, no file written) until the user answers there.
        status.planned = { files: writes.map((p) => basename(p)), replaced: await presentNames(writes) };
        status.state = 'confirm';
        // The wait's listener goes with the wait: the export's signal lives on for its work, and with its entry.
        let stopWaiting = (): void => undefined;
        const aborted = new Promise<void>((resolve) => {
          stopWaiting = resolve;
          signal.addEventListener('abort', stopWaiting, { once: true });
        });
        try {
          await Promise.race([confirmation, aborted]);
        } finally {
          signal.removeEventListener('abort', stopWaiting);
        }
        if (signal.aborted) {
          status.state = 'cancelled';
          return;
        }
        status.state = 'exporting';
        talk = startWorker(job, { signal });
        planned = answerOf(await talk.next<ProjectExportPlanned>());
        if (!planned) return;
        // The same text plans the same files; a thread that answers otherwise writes nothing the user was not shown.
        if (planned.outline.writes.join('\0') !== writes.join('\0'))
          return fail([
            { message: "the export's worker planned other files than those you confirmed; nothing was written" },
          ]);
      }
      const { outline, reads } = planned;
      const refused = [
        ...reads
          .filter((m) => !policy.isAllowed(m.path))
          .map(
            (m) =>
              new FormatError(
                'PROJECT',
                `cannot read ${m.path}: ${readRefusal(m.path)}`,
                { where: `motions[${m.index}].mtn` },
                outline.projectFile,
              ),
          ),
        ...refusedOutputs(outline, (path) => {
          grant?.(path);
          policy.check(path, 'write');
        }),
      ];
      if (refused.length)
        return fail(exportFailure(outline.projectFile, refused).errors.map(toBuildProblem), planned.warnings);
      // The folders as checked: the work takes seconds to minutes, and the commit goes nowhere else (docs/security.md).
      const folders = pinFoldersOf(outline.writes);
      talk.send({
        // Each motion's file as it is now, right after the policy allowed it: the worker reads it only while it is that
        // file (a link put at its name in between is not followed elsewhere: docs/security.md, round 43).
        reads: [...new Set(reads.map((m) => m.path))].map((path) => judgeFile(path, policy)),
        writes: outline.writes,
      } satisfies ProjectExportAllowed);
      // Cancel terminates the thread wherever it is (it writes nothing).
      // A motion saved over by renaming since (ActGuy's own Save, most editors) is another file at its name, which the
      // work refuses to read: judged again once, as here before, and read only when the policy allows what is there
      // now; a link to a file it refuses is judged as nothing, and the work fails as before (docs/security.md, round 45).
      const judged = new Set(reads.map((m) => m.path));
      let judgedAgain = false;
      const end = await talk.next<Exclude<ProjectExportJobMessage, { type: 'entry' | 'replaced' }>>((m) => {
        const step = m as ProjectExportJobMessage;
        if (step?.type === 'replaced') {
          // Only motions main judged, and only once: the thread is not trusted to ask more.
          const paths = Array.isArray(step.paths) ? step.paths.filter((p) => judged.has(p)) : [];
          const again = judgedAgain || paths.length === 0 ? [] : paths.map((path) => judgeFile(path, policy));
          judgedAgain = true;
          talk?.send({
            reads: again.length > 0 && again.every((j) => j.identity !== null) ? again : null,
          } satisfies ProjectExportRejudged);
          return true;
        }
        if (step?.type !== 'entry') return false;
        status.done = step.done;
        status.count = step.count;
        status.current = step.name;
        return true;
      });
      const answer = answerOf(end);
      // Its work ended on its own, done or failed: the thread is kept for the next export (it keeps nothing of this
      // one: buildWorker.ts); cancelled or in trouble, it is ended in `finally`.
      if (answer || (end.end === 'answer' && !signal.aborted)) talk.release?.();
      if (!answer) return;
      // Only the files main allowed, each once, are committed, whatever the thread handed back.
      const allowed = new Set(outline.writes);
      const files = answer.files.filter((f) => allowed.delete(f.path));
      if (files.length !== answer.files.length || allowed.size)
        return fail([
          { message: `the export's worker handed back files other than the ${outline.writes.length} allowed` },
        ]);
      // From here Cancel no longer stops it: every file is written, or none.
      status.done = status.count = answer.entries.length;
      status.current = null;
      status.state = 'writing';
      pastCancel();
      const note = await commitOutputsAsync(exportOutputFiles(status.format, files), {
        ...ctx.commit,
        folders,
        keep: answer.inputsRead,
      });
      status.written = answer.entries.map((e) => ({
        name: e.name,
        ...(e.of && { of: e.of }),
        files: e.files.map((path, k) => ({ path, bytes: e.sizes[k] })),
      }));
      status.warnings = [
        ...answer.warnings,
        ...answer.entries.flatMap((e) => e.warnings.map((w) => `${e.name}: ${w}`)),
        ...(note ? [`note: ${note}`] : []),
      ];
      if (answer.cache) status.cache = answer.cache;
      status.state = 'done';
    } catch (e) {
      fail([toBuildProblem(e)]);
    } finally {
      // A refusal, a failure or Cancel: the thread ends here, whichever turn it was in.
      talk?.close();
    }
  };

  const requireExport = (raw: unknown, what: string) => {
    const id = requireString(requireObject<{ exportId: string }>(raw, what).exportId, `${what}: exportId`);
    const found = exports.get(id);
    // Not quoted back: the id is the page's, of any length.
    if (!found) throw new Error(`${what}: no such export (it never began, or it ended and was dropped)`);
    return found;
  };

  return {
    startProjectExport: async (raw) => start(requireObject<StartProjectExportRequest>(raw, 'startProjectExport')),

    startProjectExportDialog: async (raw) => {
      const req = requireObject<StartProjectExportDialogRequest>(raw, 'startProjectExportDialog');
      const format = requireFormat(req.format, 'startProjectExportDialog');
      const projectPath = requirePath(req.projectPath, 'startProjectExportDialog: projectPath');
      // The page names the project: asked of the policy before a dialog starts in its folder (round 44).
      policy.check(projectPath, 'read');
      const f = FORMATS[format];
      const offered = offeredFileName(req.defaultName, `motion.${f.extension}`);
      // A folder dialog where the port has one (the desktop app's): the export writes a folder's worth of files, and
      // naming one of them to choose their folder read as a riddle (tried cold, round 18). Its answer names no file:
      // each file there is the app's name, granted only where it really lies in
      // the folder chosen (a link at `walk.glb` leading out grants nothing: docs/security.md, round 44). It says
      // nothing of the files it writes, so the export asks the page first (askFirst).
      const inFolder = dialogs.chooseFolder !== undefined;
      const chosen = dialogs.chooseFolder
        ? await dialogs
            .chooseFolder({
              title: `Export All as ${f.what}: choose the folder to export into (${f.writes})`,
              buttonLabel: 'Export Here',
              defaultPath: dirname(projectPath),
            })
            .then((folder) => folder && join(folder, offered))
        : await dialogs.chooseFileToSave({
            title: `Export All as ${f.what}: name a file in the folder to export into (${f.writes})`,
            filters: [{ name: f.filter, extensions: [f.extension] }],
            defaultPath: join(dirname(projectPath), offered),
          });
      if (!chosen) return { status: 'cancelled' };
      const { projectText, gltfSource } = req;
      const grant = inFolder
        ? (path: string) => void allowUnlessLinkedOut(policy, dirname(path), path)
        : (path: string) => allowDialogAnswer(policy, chosen, path);
      return start(
        { projectPath, projectText, format, ...(gltfSource && { gltfSource }), path: chosen },
        grant,
        inFolder,
      );
    },

    getProjectExportStatus: async (raw) => ({ ...requireExport(raw, 'getProjectExportStatus').status }),

    cancelProjectExport: async (raw) => {
      const found = requireExport(raw, 'cancelProjectExport');
      found.controller.abort();
      // Before the commit the worker is terminated at once, and the export ends as cancelled; from its commit on, it
      // goes on to its end (all its files or none): either way, answered once the cancel can change nothing more.
      await found.pastCancel;
      return { ...found.status };
    },

    confirmProjectExport: async (raw) => {
      const found = requireExport(raw, 'confirmProjectExport');
      if (found.status.state !== 'confirm' || !found.confirmed)
        throw new Error(`confirmProjectExport: the export is ${found.status.state}, not waiting for an answer`);
      found.confirmed();
      found.confirmed = undefined;
      found.status.state = 'exporting';
      return { ...found.status };
    },
  };
}
