/**
 * Keeps the computer from sleeping while the app does long work the user started and walked away from: an archive
 * build (minutes), a batch of imports, an MSH export of a long capture, an Export All of a project. A laptop that sleeps mid-build resumes it on
 * wake (nothing is lost: the commit is all or nothing), but the user who came back expecting a finished `.mar` finds
 * it still compressing. The display may still turn off (`prevent-app-suspension`, not `prevent-display-sleep`).
 *
 * One blocker is held while any such work runs, counted, and each hold is released exactly once by the work's own
 * end, whatever it is (done, failed, a crashed worker, cancelled, stopped), never by the page: a page that stopped
 * polling a build must not keep the machine awake. Only the worker-backed work is held, not the dialogs around it,
 * so a save dialog left open keeps nothing awake. Quitting releases everything (`releaseAll`, electron/main.ts).
 */
import type { CompressClient } from './compressClient';
import type { ImportRunner } from './interchange/importRunner';
import type { WorkerTalk } from './oneShotWorker';
import { endsBuild, type BuildJobLauncher } from './project/buildRunner';

/** Electron's `powerSaveBlocker`, as much of it as this uses (tests count what it was asked). */
export interface PowerSaveBlockerPort {
  start(type: 'prevent-app-suspension'): number;
  stop(id: number): boolean;
}

export interface KeepAwake {
  /** Holds the blocker until the returned function is called (calling it again does nothing). */
  hold(): () => void;
  /** Releases every hold: the app is quitting. */
  releaseAll(): void;
  /** How many holds are open. */
  readonly holds: number;
}

export function createKeepAwake(blocker: PowerSaveBlockerPort): KeepAwake {
  let holds = 0;
  let blockerId: number | null = null;
  const update = (): void => {
    if (holds > 0 && blockerId === null) blockerId = blocker.start('prevent-app-suspension');
    else if (holds === 0 && blockerId !== null) {
      blocker.stop(blockerId);
      blockerId = null;
    }
  };
  /** Bumped by releaseAll: holds taken before it no longer count when their work ends later. */
  let generation = 0;
  return {
    hold() {
      const mine = generation;
      holds++;
      update();
      let released = false;
      return () => {
        if (released || mine !== generation) return;
        released = true;
        holds--;
        update();
      };
    },
    releaseAll() {
      generation++;
      holds = 0;
      update();
    },
    get holds() {
      return holds;
    },
  };
}

/**
 * A build launcher whose jobs hold the blocker until they report their end (done, failed, up to date: any message
 * but `start` and `progress`, so an end added later releases too), crash, or are stopped.
 */
export function keepingAwakeDuringBuilds(launch: BuildJobLauncher, keepAwake: KeepAwake): BuildJobLauncher {
  return (req, onMessage, onCrash) => {
    const release = keepAwake.hold();
    try {
      const stop = launch(
        req,
        (m) => {
          try {
            onMessage(m);
          } finally {
            if (endsBuild(m)) release();
          }
        },
        (message) => {
          release();
          onCrash(message);
        },
      );
      return () => {
        release();
        return stop();
      };
    } catch (e) {
      // The worker could not even start: nothing runs, nothing stays held.
      release();
      throw e;
    }
  };
}

/** An import runner whose imports hold the blocker until they settle, however they end. */
export function keepingAwakeDuringImports(run: ImportRunner, keepAwake: KeepAwake): ImportRunner {
  return async (req, signal) => {
    const release = keepAwake.hold();
    try {
      return await run(req, signal);
    } finally {
      release();
    }
  };
}

/** Wraps the client's MSH export in place: the blocker is held until the export's answer comes, or its failure. */
export function keepingAwakeDuringMshExports(compress: CompressClient, keepAwake: KeepAwake): CompressClient {
  const exportMsh = compress.exportMsh.bind(compress);
  compress.exportMsh = async (req) => {
    const release = keepAwake.hold();
    try {
      return await exportMsh(req);
    } finally {
      release();
    }
  };
  return compress;
}

/**
 * A talk with a worker thread (Export All's: oneShotWorker.ts WorkerTalk) that holds the blocker until it is closed or
 * its thread released, which its owner does at the job's end, however it ended (projectExportHandlers.ts `finally`).
 * A talk is made for the thread's work only: an Export All waiting for the user's answer holds none.
 */
export function keepingAwakeDuringTalk(talk: WorkerTalk, keepAwake: KeepAwake): WorkerTalk {
  const release = keepAwake.hold();
  const { release: releaseThread } = talk;
  return {
    next: (progress) => talk.next(progress),
    send: (message) => talk.send(message),
    close: () => {
      release();
      talk.close();
    },
    ...(releaseThread && {
      release: () => {
        release();
        releaseThread();
      },
    }),
  };
}
