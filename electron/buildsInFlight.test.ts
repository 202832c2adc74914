import { describe, expect, it } from 'vitest';
import type { BuildStatus, ProjectExportStatus } from '../shared/ipc/project';
import { trackBuilds, trackExports } from './buildsInFlight';

const status = (buildId: string, state: BuildStatus['state'], dryRun = false) =>
  ({ buildId, state, dryRun }) as BuildStatus;

describe('builds in flight', () => {
  it('follows the builds the handlers report; the runner decides, and a build it no longer knows is over', async () => {
    const runner = new Map<string, BuildStatus>();
    const handlers = {
      startBuild: async (req: { dryRun?: boolean }) => {
        const s = status(`b${runner.size}`, 'checking', req.dryRun === true);
        runner.set(s.buildId, s);
        return s;
      },
      getBuildStatus: async ({ buildId }: { buildId: string }) => {
        const s = runner.get(buildId);
        if (!s) throw new Error(`no build ${buildId}`);
        return s;
      },
      cancelBuild: async ({ buildId }: { buildId: string }) => {
        const s = runner.get(buildId)!;
        s.state = 'cancelled';
        return s;
      },
    };
    const given = { ...handlers };
    const { handlers: served, inFlight: builds } = trackBuilds(handlers as never);
    // Round 11: the handlers given are left as they are; main serves the ones returned.
    expect(handlers).toEqual(given);
    expect(builds.any).toBe(false);
    await served.startBuild({ dryRun: true } as never);
    expect(builds.any).toBe(false);
    for (let i = 0; i < 3; i++) await served.startBuild({} as never);
    expect(builds.any).toBe(true);
    // b1 finished (the page polled it), b2 was pruned by the runner long after: only b3 still runs.
    runner.get('b1')!.state = 'done';
    await served.getBuildStatus({ buildId: 'b1' });
    runner.delete('b2');
    expect(await builds.running()).toEqual(['b3']);
    await builds.cancel(['b3']);
    expect(runner.get('b3')!.state).toBe('cancelled');
    expect(builds.any).toBe(false);
  });

  // Round 10 (maintainer's read). Mutation that fails: `writing` counted as stoppable (the close asked again after
  // "Stop and close", each time, until the commit ended, saying it stops the build before it writes anything).
  it('a build writing its outputs is not asked about: a cancel no longer stops it, and a quit waits for its commit', async () => {
    const s = status('b0', 'compressing');
    const handlers = {
      startBuild: async () => s,
      getBuildStatus: async () => s,
      cancelBuild: async () => s,
    };
    const { handlers: served, inFlight: builds } = trackBuilds(handlers as never);
    await served.startBuild({} as never);
    expect(builds.any).toBe(true);
    s.state = 'writing';
    expect(await builds.running()).toEqual([]);
    expect(builds.any).toBe(false);
  });

  // Round 10 (maintainer's read). Mutations that fail: an export in `confirm` or `writing` counted as stoppable; a
  // handler left unwrapped (confirm's: the export confirmed is not followed; the dialog's: none is); the dialog's
  // "cancelled" taken for an export.
  it('follows the Export Alls the handlers report while they can be stopped: not waiting for the answer, not writing', async () => {
    const exports = new Map<string, ProjectExportStatus>();
    const made = (state: ProjectExportStatus['state']) => {
      const s = { exportId: `e${exports.size}`, state } as ProjectExportStatus;
      exports.set(s.exportId, s);
      return s;
    };
    const get = async ({ exportId }: { exportId: string }) => exports.get(exportId)!;
    let dialogAnswers = true;
    const handlers = {
      startProjectExport: async () => made('exporting'),
      startProjectExportDialog: async () => (dialogAnswers ? made('exporting') : { status: 'cancelled' as const }),
      getProjectExportStatus: get,
      cancelProjectExport: async (req: { exportId: string }) =>
        Object.assign((await get(req))!, { state: 'cancelled' }),
      confirmProjectExport: async (req: { exportId: string }) =>
        Object.assign((await get(req))!, { state: 'exporting' }),
    };
    const given = { ...handlers };
    const { handlers: served, inFlight: tracked } = trackExports(handlers as never);
    expect(handlers).toEqual(given);
    const call = (member: keyof typeof handlers, arg?: unknown) =>
      (served[member] as (arg: unknown) => Promise<unknown>)(arg);
    expect(tracked.any).toBe(false);
    dialogAnswers = false;
    expect(await call('startProjectExportDialog', {})).toEqual({ status: 'cancelled' });
    expect(tracked.any).toBe(false);
    dialogAnswers = true;
    await call('startProjectExportDialog', {});
    expect(tracked.any).toBe(true);
    // The desktop export waits for the page's answer: nothing of it runs, nothing to stop.
    exports.get('e0')!.state = 'confirm';
    expect(await tracked.running()).toEqual([]);
    expect(tracked.any).toBe(false);
    await call('confirmProjectExport', { exportId: 'e0' });
    await call('startProjectExport', {});
    expect(await tracked.running()).toEqual(['e0', 'e1']);
    // e0 commits its files: past cancelling, and a quit waits for its commit.
    exports.get('e0')!.state = 'writing';
    expect(await tracked.running()).toEqual(['e1']);
    await tracked.cancel(['e1']);
    expect(exports.get('e1')!.state).toBe('cancelled');
    expect(tracked.any).toBe(false);
  });
});
