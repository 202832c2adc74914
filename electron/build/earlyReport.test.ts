/**
 * The rebuild's idle time (docs/cache.md): while the pool compresses the motions that changed, the build's own
 * thread makes the report parts of the motions already done, and the report put together from them is byte for
 * byte the one serialized whole.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import {
  assembleBuild,
  motionReportPart,
  prepareBuild,
  type CompressedMotion,
  type PreparedBuild,
} from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { buildProject } from './build';
import { compressMotions } from './compressMotions';
import { inProcessCompressor, type MotionCompressor } from './compressPool';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A project of three motions (two skeletons, one resampled, a name and path with non-ASCII text) in a fresh folder. */
function project(): { dir: string; path: string; prepared: () => PreparedBuild } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-early-'));
  dirs.push(dir);
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'a.mtn'));
  copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(dir, 'b "ü".mtn'));
  copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(dir, 'c.mtn'));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'a', mtn: 'a.mtn', tolerances: { object: 0.5 } },
        { name: 'b', mtn: 'b "ü".mtn', tolerances: { rotationDeg: 2 } },
        { name: 'c', mtn: 'c.mtn', resample: true },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const prepared = () => {
    const parsed = parseProject(readFileSync(path, 'utf8'), path);
    const prep = prepareBuild(parsed.resolved!, (p) => new Uint8Array(readFileSync(p)));
    if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
    return prep.prepared;
  };
  return { dir, path, prepared };
}

/** The in-process compressor, answering only after `turns` turns of the event loop (a pool busy with the motion). */
function slowCompressor(turns: number, answered: { at: number[] }, clock: () => number): MotionCompressor {
  const inner = inProcessCompressor();
  return {
    ...inner,
    async compress(mtn, options, resampleTo) {
      const result = await inner.compress(mtn, options, resampleTo);
      for (let t = 0; t < turns; t++) await new Promise<void>((resolve) => setImmediate(resolve));
      answered.at.push(clock());
      return result;
    },
  };
}

describe("the rebuild's idle time", () => {
  it('the report put together from parts made ahead (all, some or none) is byte for byte the one serialized whole', async () => {
    const p = project();
    const prepared = p.prepared();
    const done = await compressMotions(prepared, {
      compressor: inProcessCompressor(),
      inputBytes: (path) => new Uint8Array(readFileSync(path)),
    });
    if (!done.ok) throw new Error(done.errors.map((e) => e.message).join('\n'));
    const whole = assembleBuild(prepared, done.results);
    if (!whole.ok) throw new Error('assembly failed');
    const reportBytes = (r: ReturnType<typeof assembleBuild>) => (r.ok ? Buffer.from(r.outputs[2].bytes) : undefined);
    expect(reportBytes(whole)!.toString('utf8')).toBe(`${JSON.stringify(whole.report, null, 2)}\n`);
    expect(reportBytes(whole)!.toString('utf8')).toContain('b \\"ü\\".mtn');
    for (const ahead of [[0, 1, 2], [1], [0, 2], []]) {
      const parts = new Map(ahead.map((k) => [k, motionReportPart(prepared, k, done.results[k])]));
      const madeParts = (k: number, result: CompressedMotion) =>
        result === done.results[k] ? parts.get(k) : undefined;
      const assembled = assembleBuild(prepared, done.results, undefined, madeParts);
      expect(reportBytes(assembled), `parts made ahead for ${JSON.stringify(ahead)}`).toEqual(reportBytes(whole));
      expect(assembled.ok && assembled.report).toEqual(whole.report);
    }
  }, 60_000);

  it("while the pool still compresses, the build's thread gets the waiting time (whileWaiting), and none after", async () => {
    const p = project();
    const prepared = p.prepared();
    let now = 0;
    const answered = { at: [] as number[] };
    const calls: number[] = [];
    const done = await compressMotions(prepared, {
      compressor: slowCompressor(20, answered, () => now),
      inputBytes: (path) => new Uint8Array(readFileSync(path)),
      whileWaiting: () => {
        calls.push(++now);
        return true;
      },
    });
    expect(done.ok).toBe(true);
    expect(answered.at).toHaveLength(3);
    // Called while the last compression was pending, never after it answered.
    expect(calls.length).toBeGreaterThan(0);
    expect(Math.max(...calls)).toBeLessThanOrEqual(Math.max(...answered.at) + 1);
  }, 60_000);

  it('a rebuild whose changed motion keeps the pool busy writes the report of a cold build, byte for byte', async () => {
    const p = project();
    const cache = join(p.dir, 'cache');
    const state = join(p.dir, 'state');
    const report = () => readFileSync(join(p.dir, 'out', 'stage.report.json'));
    expect((await buildProject(p.path, { jobs: 1, cacheDir: cache, stateDir: state })).ok).toBe(true);
    const m = readMtn(new Uint8Array(readFileSync(join(p.dir, 'c.mtn'))));
    m.translation[0] += 0.5;
    writeFileSync(join(p.dir, 'c.mtn'), writeMtn(m));
    expect((await buildProject(p.path, { jobs: 1, cacheDir: null })).ok).toBe(true);
    const cold = report();
    const answered = { at: [] as number[] };
    const r = await buildProject(p.path, {
      compressor: slowCompressor(50, answered, () => 0),
      cacheDir: cache,
      stateDir: state,
    });
    expect(r.ok && r.cache).toMatchObject({ hits: 2, misses: 1 });
    expect(answered.at).toHaveLength(1);
    expect(report()).toEqual(cold);
  }, 60_000);

  it('a rebuild that carries motions while the pool is busy makes their entries then, and writes the report of a cold build', async () => {
    // The first motion changed: the other two are carried from the last build, and their report entries (the
    // report's totals and warnings: c's resampling) are made while the pool holds the build (lastBuildUse's idle).
    const p = project();
    const cache = join(p.dir, 'cache');
    // Outside the project's folder: a state folder inside it keeps no record of the last build (docs/cache.md).
    const state = mkdtempSync(join(tmpdir(), 'actguy-early-state-'));
    dirs.push(state);
    const report = () => readFileSync(join(p.dir, 'out', 'stage.report.json'));
    expect((await buildProject(p.path, { jobs: 1, cacheDir: cache, stateDir: state })).ok).toBe(true);
    const m = readMtn(new Uint8Array(readFileSync(join(p.dir, 'a.mtn'))));
    m.translation[0] += 0.5;
    writeFileSync(join(p.dir, 'a.mtn'), writeMtn(m));
    const answered = { at: [] as number[] };
    const r = await buildProject(p.path, {
      compressor: slowCompressor(50, answered, () => 0),
      cacheDir: cache,
      stateDir: state,
    });
    expect(r.ok && r.carried).toBe(2);
    expect(answered.at).toHaveLength(1);
    const carried = report();
    const summary = r.ok ? r.summary : undefined;
    const cold = await buildProject(p.path, { jobs: 1, cacheDir: null });
    expect(cold.ok && cold.summary).toEqual(summary);
    expect(report()).toEqual(carried);
  }, 60_000);
});
