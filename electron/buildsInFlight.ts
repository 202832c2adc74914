/**
 * The work the window started that a close would end with the process: archive builds (dry runs aside) and Export
 * Alls, as main sees them pass through the IPC handlers, so that closing the window asks before it stops one
 * (electron/main.ts, closeQuestions.ts) instead of ending it without a word. The build runner and the export handlers
 * stay the authority: before asking, each is looked up again, and those no longer stoppable are forgotten.
 *
 * Stoppable is what a cancel stops before it writes anything. Not a finished one, nor one `writing` (its commit is
 * one unit that a cancel does not stop, and a quit waits for it: writeTurns.ts writesInFlight), nor an Export All in
 * `confirm` (it waits for the page's answer, and nothing of it runs: the page's question goes with the page).
 */
import type { BuildStatus, ProjectExportStatus } from '../shared/ipc/project';
import type { ApiHandlers } from './handlers';

/** Builds or Export Alls the window started, as a close asks about them. */
export interface WorkInFlight {
  /** Whether one may still run: when none can, a close needs no look (and stays synchronous). */
  readonly any: boolean;
  /** The ids of those still stoppable, asked of their runner now. */
  running(): Promise<string[]>;
  /** Cancels them: a cancelled build or export writes nothing (its worker is stopped before the commit). */
  cancel(ids: readonly string[]): Promise<void>;
}

/**
 * Follows the ids `note` is told of: kept while `stoppable`, forgotten otherwise, and forgotten when the runner no
 * longer knows one (pruned long after it finished).
 */
function follow<S>(
  idOf: (status: S) => string,
  stoppable: (status: S) => boolean,
  get: (id: string) => Promise<S>,
  stop: (id: string) => Promise<S>,
): { note(status: S): S; inFlight: WorkInFlight } {
  const ids = new Set<string>();
  const note = (status: S): S => {
    if (stoppable(status)) ids.add(idOf(status));
    else ids.delete(idOf(status));
    return status;
  };
  const ask = async (ask: (id: string) => Promise<S>, id: string): Promise<void> => {
    try {
      note(await ask(id));
    } catch {
      ids.delete(id);
    }
  };
  return {
    note,
    inFlight: {
      get any() {
        return ids.size > 0;
      },
      async running() {
        for (const id of [...ids]) await ask(get, id);
        return [...ids];
      },
      async cancel(cancelIds) {
        for (const id of cancelIds) await ask(stop, id);
      },
    },
  };
}

const BUILD_STOPPABLE: ReadonlySet<BuildStatus['state']> = new Set(['checking', 'compressing']);

type BuildHandlers = Pick<ApiHandlers, 'startBuild' | 'getBuildStatus' | 'cancelBuild'>;

/**
 * The build and Export All handlers as main serves them (tracked), and the work they started that a close asks about
 * (inFlight). The handlers given are left as they are: main composes what it serves on IPC from them and these.
 */
interface Tracked<H> {
  /** The same handlers, each noting the status it answers before it answers it. */
  readonly handlers: H;
  readonly inFlight: WorkInFlight;
}

/** The build handlers, following the builds they report. */
export function trackBuilds(handlers: BuildHandlers): Tracked<BuildHandlers> {
  const { note, inFlight } = follow<BuildStatus>(
    (s) => s.buildId,
    (s) => !s.dryRun && BUILD_STOPPABLE.has(s.state),
    (buildId) => handlers.getBuildStatus({ buildId }),
    (buildId) => handlers.cancelBuild({ buildId }),
  );
  return {
    handlers: {
      startBuild: async (arg) => note(await handlers.startBuild(arg)),
      getBuildStatus: async (arg) => note(await handlers.getBuildStatus(arg)),
      cancelBuild: async (arg) => note(await handlers.cancelBuild(arg)),
    },
    inFlight,
  };
}

type ExportHandlers = Pick<
  ApiHandlers,
  | 'startProjectExport'
  | 'startProjectExportDialog'
  | 'getProjectExportStatus'
  | 'cancelProjectExport'
  | 'confirmProjectExport'
>;

/** The Export All handlers, following the exports they report, as trackBuilds the builds. */
export function trackExports(handlers: ExportHandlers): Tracked<ExportHandlers> {
  const { note, inFlight } = follow<ProjectExportStatus>(
    (s) => s.exportId,
    (s) => s.state === 'exporting',
    (exportId) => handlers.getProjectExportStatus({ exportId }),
    (exportId) => handlers.cancelProjectExport({ exportId }),
  );
  return {
    handlers: {
      startProjectExport: async (arg) => note(await handlers.startProjectExport(arg)),
      startProjectExportDialog: async (arg) => {
        const started = await handlers.startProjectExportDialog(arg);
        // The dialog cancelled: no export.
        return 'exportId' in started ? note(started) : started;
      },
      getProjectExportStatus: async (arg) => note(await handlers.getProjectExportStatus(arg)),
      cancelProjectExport: async (arg) => note(await handlers.cancelProjectExport(arg)),
      confirmProjectExport: async (arg) => note(await handlers.confirmProjectExport(arg)),
    },
    inFlight,
  };
}
