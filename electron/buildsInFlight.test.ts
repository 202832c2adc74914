import { describe, expect, it } from 'vitest';
import type { BuildStatus } from '../shared/ipc/project';
import { trackBuilds } from './buildsInFlight';

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
    const builds = trackBuilds(handlers as never);
    expect(builds.any).toBe(false);
    await (handlers.startBuild as (r: unknown) => Promise<BuildStatus>)({ dryRun: true });
    expect(builds.any).toBe(false);
    for (let i = 0; i < 3; i++) await (handlers.startBuild as (r: unknown) => Promise<BuildStatus>)({});
    expect(builds.any).toBe(true);
    // b1 finished (the page polled it), b2 was pruned by the runner long after: only b3 still runs.
    runner.get('b1')!.state = 'done';
    await handlers.getBuildStatus({ buildId: 'b1' });
    runner.delete('b2');
    expect(await builds.running()).toEqual(['b3']);
    await builds.cancel(['b3']);
    expect(runner.get('b3')!.state).toBe('cancelled');
    expect(builds.any).toBe(false);
  });
});
