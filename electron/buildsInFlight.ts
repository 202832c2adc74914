/**
 * The archive builds the window started (dry runs aside), as main sees them pass through the IPC handlers, so that
 * closing the window asks before it stops one (electron/main.ts) instead of ending it with the process without a
 * word. The build runner stays the authority: before asking, each build is looked up again, and finished ones are
 * forgotten.
 */
import type { BuildStatus } from '../shared/ipc/project';
import type { ApiHandlers } from './handlers';

const FINISHED: ReadonlySet<BuildStatus['state']> = new Set(['done', 'failed', 'cancelled']);

interface BuildsInFlight {
  /** Whether a build may still run: when none can, a close needs no look (and stays synchronous). */
  readonly any: boolean;
  /** The ids of the builds still running, asked of the runner now. */
  running(): Promise<string[]>;
  /** Cancels them: a cancelled build writes nothing (its worker is stopped before the commit). */
  cancel(buildIds: readonly string[]): Promise<void>;
}

type BuildHandlers = Pick<ApiHandlers, 'startBuild' | 'getBuildStatus' | 'cancelBuild'>;

/** Wraps the build handlers in place (so the IPC dispatch goes through them) and follows the builds they report. */
export function trackBuilds(handlers: BuildHandlers): BuildsInFlight {
  const ids = new Set<string>();
  const note = (status: BuildStatus): BuildStatus => {
    if (FINISHED.has(status.state)) ids.delete(status.buildId);
    else if (!status.dryRun) ids.add(status.buildId);
    return status;
  };
  const { startBuild, getBuildStatus, cancelBuild } = handlers;
  handlers.startBuild = async (arg) => note(await startBuild(arg));
  handlers.getBuildStatus = async (arg) => note(await getBuildStatus(arg));
  handlers.cancelBuild = async (arg) => note(await cancelBuild(arg));
  // A build the runner no longer knows (pruned long after it finished) is no longer running.
  const ask = async (ask: typeof getBuildStatus, buildId: string): Promise<void> => {
    try {
      note(await ask({ buildId }));
    } catch {
      ids.delete(buildId);
    }
  };
  return {
    get any() {
      return ids.size > 0;
    },
    async running() {
      for (const id of [...ids]) await ask(getBuildStatus, id);
      return [...ids];
    },
    async cancel(buildIds) {
      for (const id of buildIds) await ask(cancelBuild, id);
    },
  };
}
