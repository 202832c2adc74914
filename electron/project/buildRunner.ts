/**
 * Archive builds as the app runs them: each build is a job with an id that
 * the renderer polls (getBuildStatus) for a progress bar, and can cancel. The
 * work runs in a worker thread (buildWorker.ts); the main process writes the
 * outputs only when the worker finished without an error and the build was not
 * cancelled, all at once through commitOutputsAsync (staged temps written in
 * Node's thread pool, a journal, renames), so a failed or cancelled build
 * writes nothing, and the window answers while a large .mar is written.
 */
import { keptWorkers, type KeptWorkers } from '../oneShotWorker';
import { isBundleRefusal } from '../../shared/errors';
import { randomUUID } from 'node:crypto';
import { shownPageId } from '../ipcArgs';
import type { BuildProblem, BuildStatus } from '../../shared/ipc/project';
import { buildOutputFiles, commitOutputsAsync, type CommitOptions, type OutputFile } from '../build/commit';
import { outputStamp, writeLastBuildAsync } from '../build/lastBuild';
import type { FileStamp } from '../build/fileStamp';
import type { FolderPin } from '../fsutil';
import type { JudgedFile } from '../build/files';
import type { BuildJobMessage, BuildJobRequest } from './buildJob';
import type { BuildWorkerJob } from './buildWorker';

/**
 * Runs a job and reports its messages; returns a stop function, which may return a promise that resolves once the
 * stopped job's work has ended (its worker thread gone). Tests inject an in-process runner.
 */
export type BuildJobLauncher = (
  req: BuildJobRequest,
  onMessage: (m: BuildJobMessage) => void,
  onCrash: (message: string) => void,
) => () => void | Promise<void>;

/**
 * Whether a build job's message is its last (done, failed, up to date): any but `start` and `progress`, so that an
 * end added later counts too. The launcher keeps the job's worker from then on, and the sleep blocker lets go.
 */
export function endsBuild(m: BuildJobMessage): boolean {
  return m.type !== 'start' && m.type !== 'progress';
}

/** A build launcher that can also stop its warm worker (the app's quit). */
export interface WarmBuildLauncher extends BuildJobLauncher {
  /** Ends the worker kept warm between builds, if any (a build in progress is stopped by its own stop function). */
  dispose(): Promise<void>;
  /** Build workers started so far (tests: a second build reuses the first one's). */
  readonly started: number;
}

/** How long a build worker waits for the next build before it ends (its threads and memory go back). */
export const BUILD_WORKER_KEEP_MS = 5 * 60_000;

/**
 * Runs each build in buildWorker.cjs, and keeps the worker of a build that ended on its own (done, up to date or
 * failed) for the next one, so that a second Build click pays neither a worker's start nor its compression pool's
 * nor a cold compressor (docs/sound-events.md). The worker keeps no data between builds (buildWorker.ts). A build
 * stopped (Cancel, the window closing) or crashed ends its worker; one kept is ended after its idle time or at
 * dispose(), and never keeps the app from quitting. `workers`: the threads it shares (main.ts: with Export All, one
 * idle thread for both), or the bundle's path for threads of its own, kept BUILD_WORKER_KEEP_MS.
 */
export function workerLauncher(workers: KeptWorkers | string): WarmBuildLauncher {
  const threads = typeof workers === 'string' ? keptWorkers(workers, BUILD_WORKER_KEEP_MS) : workers;
  const launch: BuildJobLauncher = (req, onMessage, onCrash) => {
    const worker = threads.take();
    let finished = false;
    const detach = () => {
      worker.off('message', message);
      worker.off('error', error);
      worker.off('exit', exit);
    };
    const message = (m: BuildJobMessage) => {
      if (endsBuild(m)) {
        finished = true;
        detach();
        threads.keep(worker);
      }
      onMessage(m);
    };
    const error = (e: Error) => {
      detach();
      // A refused bundle's message is the whole of it (a damaged installation, not a build that went wrong).
      if (!finished) onCrash(isBundleRefusal(e) ? e.message : `the build worker failed: ${e.message}`);
      finished = true;
      void worker.terminate();
    };
    const exit = (code: number) => {
      detach();
      if (!finished) onCrash(`the build worker stopped unexpectedly (exit code ${code})`);
      finished = true;
    };
    worker.on('message', message);
    worker.on('error', error);
    worker.on('exit', exit);
    worker.postMessage({ type: 'job', req } satisfies BuildWorkerJob);
    return () => {
      // After its end the worker may be serving the next build: only a build still running is stopped.
      if (finished) return;
      finished = true;
      detach();
      // Resolves once the thread has exited: nothing of the job runs after that (BuildStatus.stopped).
      return worker.terminate().then(
        () => undefined,
        () => undefined,
      );
    };
  };
  return Object.defineProperties(launch, {
    dispose: { value: () => threads.dispose() },
    started: { get: () => threads.started },
  }) as WarmBuildLauncher;
}

export interface BuildRunner {
  /**
   * Starts a build. `refused`: writes the policy refuses, reported by a dry run (Check) as problems of its
   * result, so Check lists exactly what Build would refuse (a build with refused writes is rejected instead).
   */
  start(
    req: BuildJobRequest & {
      dryRun: boolean;
      refused?: BuildProblem[];
      folders?: FolderPin[];
      /**
       * Judges paths again as main judged them at Build (projectHandlers.ts startBuild: the same policy, the same
       * paths): asked once, of the inputs the job found replaced since, and the job run again when each is judged.
       */
      rejudge?: (paths: string[]) => JudgedFile[];
    },
  ): BuildStatus;
  /** Records a build refused before it started (paths the policy does not allow): state 'failed'. */
  reject(errors: BuildProblem[], dryRun: boolean): BuildStatus;
  status(buildId: string): BuildStatus;
  cancel(buildId: string): BuildStatus;
}

/** A build id the runner does not hold, quoted as a page's id is (the page sends it: ipcArgs.ts shownPageId). */
function unknownBuild(id: unknown): Error {
  return new Error(`no build ${shownPageId(id)} (it finished long ago or never started)`);
}

/** Finished builds kept for status queries (the newest ones). */
const KEEP_FINISHED = 20;

export function createBuildRunner(
  launch: BuildJobLauncher,
  write: (files: OutputFile[], options?: CommitOptions) => Promise<string | undefined> = commitOutputsAsync,
): BuildRunner {
  const builds = new Map<string, { status: BuildStatus; started: number; stop: () => void | Promise<void> }>();

  const finished = (s: BuildStatus) => s.state === 'done' || s.state === 'failed' || s.state === 'cancelled';

  const snapshot = (id: string): BuildStatus => {
    const b = builds.get(id);
    if (!b) throw unknownBuild(id);
    const s = b.status;
    return {
      ...s,
      elapsedMs: finished(s) ? s.elapsedMs : Date.now() - b.started,
      motions: s.motions.slice(),
      errors: s.errors.slice(),
    };
  };

  const prune = () => {
    const done = [...builds.entries()].filter(([, b]) => finished(b.status));
    for (const [id] of done.slice(0, Math.max(0, done.length - KEEP_FINISHED))) builds.delete(id);
  };

  const fresh = (dryRun: boolean): BuildStatus => ({
    buildId: randomUUID(),
    dryRun,
    state: 'checking',
    done: 0,
    count: 0,
    current: null,
    motions: [],
    errors: [],
    warnings: [],
    written: [],
    report: null,
    elapsedMs: 0,
  });

  return {
    reject(errors, dryRun) {
      prune();
      const status = { ...fresh(dryRun), state: 'failed' as const, errors };
      builds.set(status.buildId, { status, started: Date.now(), stop: () => {} });
      return snapshot(status.buildId);
    },
    start(req) {
      prune();
      const started = Date.now();
      const status = fresh(req.dryRun);
      const buildId = status.buildId;
      const entry: { status: BuildStatus; started: number; stop: () => void | Promise<void> } = {
        status,
        started,
        stop: () => {},
      };
      let names: string[] = [];
      const refused = req.refused ?? [];
      builds.set(buildId, entry);
      const end = (patch: Partial<BuildStatus>) => {
        Object.assign(status, patch, { current: null, etaMs: null, elapsedMs: Date.now() - started });
      };
      /**
       * The outputs written as one unit, off the main thread (commitOutputsAsync: the temps in Node's thread pool,
       * the lock held meanwhile, the output folders checked again before the renames). A cancel meanwhile changes
       * nothing: the commit goes on to its end (cancel), as a quit waits for it (writesInFlight).
       */
      const commit = async (m: Extract<BuildJobMessage, { type: 'done' }>) => {
        try {
          // A note (an interrupted earlier commit of these outputs was finished first) is shown with the warnings.
          const keep = m.lastBuild;
          let installed: (FileStamp | undefined)[] = [];
          const note = await write(buildOutputFiles(m.outputs, m.report.outputs.report), {
            keep: m.inputsRead,
            folders: req.folders,
            installed: () => {
              if (keep) installed = keep.target.outputs.map(outputStamp);
            },
          });
          // The record of this build, for the next one (an up-to-date one writes nothing); else the old one goes.
          // Written off the main thread too, before the build is done: a build started after it finds the record.
          if (keep) await writeLastBuildAsync(keep.file, keep.target, keep.pending, installed);
          if (typeof note === 'string') status.warnings = [...status.warnings, `note: ${note}`];
          end({
            state: 'done',
            written: m.outputs.map((o) => o.path),
            writtenBytes: m.outputs.map((o) => o.bytes.byteLength),
          });
        } catch (e) {
          end({ state: 'failed', report: null, errors: [{ message: (e as Error).message }] });
        }
      };
      // An input saved over by renaming (ActGuy's own Save, most editors) after Build was pressed is another file at its
      // name, which the job refuses to read: judged again once, as at Build, and read only when the policy allows
      // what is there now (docs/security.md, round 44). A link to a file it refuses is judged as nothing: no rerun.
      let judgedAgain = false;
      const rerunWithReplaced = (replaced: string[] | undefined): boolean => {
        if (judgedAgain || !replaced?.length || !req.rejudge || !req.judged) return false;
        judgedAgain = true;
        const again = req.rejudge(replaced);
        if (again.some((j) => j.identity === null)) return false;
        const now = new Map(again.map((j) => [j.path, j]));
        run(req.judged.map((j) => now.get(j.path) ?? j));
        return true;
      };
      const run = (judged: JudgedFile[] | undefined) => {
        entry.stop = launch(
          {
            projectPath: req.projectPath,
            projectText: req.projectText,
            sevTexts: req.sevTexts,
            cacheDir: req.cacheDir ?? null,
            dryRun: req.dryRun,
            judged,
          },
          (m) => {
            if (status.state === 'cancelled') return;
            switch (m.type) {
              case 'start':
                Object.assign(status, { state: 'compressing', count: m.count, current: m.names[0] ?? null });
                names = m.names;
                return;
              case 'progress': {
                // Motions finish in any order on the pool; the table stays in archive order. A budget build
                // compresses each motion at several scales: the latest result replaces the earlier one.
                const same = status.motions.findIndex((x) => x.index === m.motion.index);
                const at = status.motions.findIndex((x) => x.index > m.motion.index);
                if (same >= 0) status.motions[same] = m.motion;
                else if (at < 0) status.motions.push(m.motion);
                else status.motions.splice(at, 0, m.motion);
                status.done = status.motions.length;
                status.etaMs = m.etaMs;
                status.current = names.find((_, i) => !status.motions.some((x) => x.index === i)) ?? null;
                return;
              }
              case 'failed':
                if (rerunWithReplaced(m.replaced)) return;
                end({ state: 'failed', errors: [...refused, ...m.errors], warnings: m.warnings });
                return;
              case 'upToDate':
                // Nothing to write: the outputs are the last build's, as `actguy build` says (lastBuild.ts).
                status.warnings = m.warnings;
                end({ state: 'done', upToDate: true, unchanged: m.unchanged });
                return;
              case 'done':
                status.warnings = m.warnings;
                status.report = m.report;
                if (req.dryRun) {
                  end(refused.length ? { state: 'failed', errors: refused } : { state: 'done' });
                  return;
                }
                status.state = 'writing';
                void commit(m);
                return;
            }
          },
          (message) => {
            if (!finished(status)) end({ state: 'failed', errors: [{ message }] });
          },
        );
      };
      run(req.judged);
      return snapshot(buildId);
    },
    status: snapshot,
    cancel(buildId) {
      const b = builds.get(buildId);
      if (!b) throw unknownBuild(buildId);
      // A build writing its outputs is past cancelling: its commit runs to the end (all or nothing, as one unit).
      if (!finished(b.status) && b.status.state !== 'writing') {
        const gone = b.stop();
        const status = b.status;
        Object.assign(status, { state: 'cancelled', stopped: false, current: null, elapsedMs: Date.now() - b.started });
        // Stopped once the job's worker has ended (a launcher with nothing to wait for: at once).
        const stopped = () => {
          status.stopped = true;
        };
        void Promise.resolve(gone).then(stopped, stopped);
      }
      return snapshot(buildId);
    },
  };
}
