import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormatError } from '../../shared/errors';
import type { MotionDone } from '../build/compressMotions';
import type { ProjectBuildOptions, ProjectBuildOutcome } from '../build/build';

/** What the mocked buildProject does: report two motions through onProgress, then return this outcome or throw. */
let behaviour: { outcome?: ProjectBuildOutcome; throws?: Error } = {};
vi.mock('../build/build', () => ({
  buildProject: async (_path: string, options: ProjectBuildOptions) => {
    for (const [done, name] of [
      [1, 'walk'],
      [2, 'run'],
    ] as const)
      options.onProgress?.({
        index: done - 1,
        count: 3,
        name,
        result: {} as MotionDone['result'],
        cached: true,
        done,
        etaMs: null,
      });
    if (behaviour.throws) throw behaviour.throws;
    return behaviour.outcome;
  },
}));

const { buildCommand } = await import('./commands/build');

afterEach(() => {
  vi.restoreAllMocks();
  behaviour = {};
});

function capture(): { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${a.join(' ')}\n`));
  return { out, err };
}

describe('actguy build: what it prints', () => {
  it("writes a successful build's warnings, notes and report warnings to stderr in one write, a line each, in order", async () => {
    const { err } = capture();
    const warning = new FormatError('SEV', 'an unknown SE name', { line: 3, column: 5 }, 'walk.sev');
    const summary = {
      totals: { motions: 2, keys: 10, events: 0 },
      outputs: { mar: { path: 'a.mar', bytes: 1 }, sar: { path: 'a.sar', bytes: 1 }, report: 'r.json' },
      warnings: [warning.message, 'walk: resampled from 60 fps', 'run: resampled from 15 fps'],
    } as never;
    behaviour.outcome = {
      ok: true,
      report: summary,
      summary,
      upToDate: false,
      carried: 0,
      written: [],
      warnings: [warning],
      notes: ['an interrupted build was completed'],
      cache: { unusable: 'it is a link' } as never,
    };
    expect(await buildCommand.run(['p.actguy.json', '--quiet'])).toBe(0);
    expect(err).toEqual([
      [
        `warning: ${warning.message}`,
        'note: an interrupted build was completed',
        'note: the build cache was not used: it is a link',
        'warning: walk: resampled from 60 fps',
        'warning: run: resampled from 15 fps',
      ].join('\n'),
    ]);
  });

  // Round 18 (docs/security.md): a project of 1,000 motions that all need resampling printed 1,000 warning lines on
  // every build, up to date or not. Mutation that fails: builtMessages without shownBuildWarnings.
  it("prints at most 100 of a build's warnings, then how many more the report keeps, and every note", async () => {
    const { err } = capture();
    const inputWarnings = Array.from(
      { length: 30 },
      (_, k) => new FormatError('SEV', `an unknown SE name ${k}`, { line: k + 1, column: 1 }, `s${k}.sev`),
    );
    const resampled = Array.from({ length: 1000 }, (_, k) => `m${k}: resampled from 60 fps`);
    const summary = {
      totals: { motions: 1000, keys: 10, events: 0 },
      outputs: { mar: { path: 'a.mar', bytes: 1 }, sar: { path: 'a.sar', bytes: 1 }, report: 'out/r.json' },
      warnings: [...inputWarnings.map((w) => w.message), ...resampled],
    } as never;
    behaviour.outcome = {
      ok: true,
      report: summary,
      summary,
      upToDate: true,
      carried: 0,
      written: [],
      warnings: inputWarnings,
      notes: ['an interrupted build was completed'],
    };
    expect(await buildCommand.run(['p.actguy.json', '--quiet'])).toBe(0);
    expect(err.join('\n').split('\n')).toEqual([
      ...inputWarnings.map((w) => `warning: ${w.message}`),
      'note: an interrupted build was completed',
      ...resampled.slice(0, 70).map((w) => `warning: ${w}`),
      'warning: 930 more warnings not listed (only the first 100 are; the report out/r.json keeps them all)',
    ]);
  });

  // Round 40 (docs/security.md): 10,000 warnings of one received .sev (an event repeated on one frame) were collapsed
  // per file first, so the count said "2 more warnings not listed" of 9,901. Mutation that fails: listedProblems
  // again in builtMessages.
  it("counts every warning not listed, 10,000 of one file's among them", async () => {
    const { err } = capture();
    const inputWarnings = Array.from(
      { length: 10_000 },
      (_, k) => new FormatError('SEV', `two events on frame 5 (${k})`, { line: k + 1, column: 1 }, 'walk.sev'),
    );
    const summary = {
      totals: { motions: 1, keys: 10, events: 0 },
      outputs: { mar: { path: 'a.mar', bytes: 1 }, sar: { path: 'a.sar', bytes: 1 }, report: 'out/r.json' },
      warnings: [...inputWarnings.map((w) => w.message), 'walk_60: resampled from 60 fps'],
    } as never;
    behaviour.outcome = {
      ok: true,
      report: summary,
      summary,
      upToDate: true,
      carried: 0,
      written: [],
      warnings: inputWarnings,
      notes: [],
    };
    expect(await buildCommand.run(['p.actguy.json', '--quiet'])).toBe(0);
    const lines = err.join('\n').split('\n');
    expect(lines).toHaveLength(101);
    expect(lines.slice(0, 100)).toEqual(inputWarnings.slice(0, 100).map((w) => `warning: ${w.message}`));
    expect(lines[100]).toBe(
      'warning: 9901 more warnings not listed (only the first 100 are; the report out/r.json keeps them all)',
    );
  });

  it('says a build was up to date, and how many motions a build carried from the last one, on its summary line', async () => {
    const { out } = capture();
    const summary = {
      totals: { motions: 2, aliases: 0, keys: 10, mtnBytes: 100, mt3Bytes: 20, events: 3 },
      outputs: { mar: { path: 'a.mar', bytes: 64 }, sar: { path: 'a.sar', bytes: 32 }, report: 'r.json' },
      warnings: [],
    };
    const outcome = { ok: true as const, summary, written: [], warnings: [], notes: [] };
    behaviour.outcome = { ...outcome, upToDate: true, carried: 0 };
    expect(await buildCommand.run(['p.actguy.json'])).toBe(0);
    expect(out.join('')).toContain(
      'up to date: 2 motions: a.mar (64 bytes, 10 keys), a.sar (32 bytes, 3 events), report r.json; nothing was written',
    );
    out.length = 0;
    behaviour.outcome = {
      ...outcome,
      upToDate: false,
      carried: 1,
      cache: { hits: 0, misses: 1, rejected: 0, damaged: 0, evicted: 0 } as never,
    };
    expect(await buildCommand.run(['p.actguy.json'])).toBe(0);
    expect(out.join('')).toContain(
      'built 2 motions: a.mar (64 bytes, 10 keys), a.sar (32 bytes, 3 events), report r.json; cache: 0 reused, 0 rejected, 1 compressed; 1 unchanged since the last build\n',
    );
  });

  it('prints the progress a build made before it threw, the lines held back for the next write included', async () => {
    const { out } = capture();
    behaviour.throws = new Error('the disk went away');
    await expect(buildCommand.run(['p.actguy.json'])).rejects.toThrow('the disk went away');
    expect(out).toEqual(['[1/3] walk: from the cache; … left\n', '[2/3] run: from the cache; … left\n']);
  });
});
