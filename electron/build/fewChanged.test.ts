/**
 * A one-shot rebuild in which only a few small motions are not carried from the last build compresses them on the
 * build's own thread and never starts the pool (fewChanged.ts, docs/cache.md, "A few motions changed"); more
 * motions, or larger ones, a cold build or a budget still go to the pool, and the outputs are those of a cold build.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { buildProject } from './build';
import { builtOk } from '../testing/buildOutcome';
import { inProcessCompressor, type MotionCompressor } from './compressPool';
import { FEW_MOTION_BYTES, FEW_MOTIONS, fewChanged } from './fewChanged';
import type { VerdictStore } from './verdicts';
import type { PreparedBuild } from '../../shared/project/plan';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Frames first..first + count - 1 of `m` (as the bench's sliceMotion). */
function slice(m: Motion, first: number, count: number): Motion {
  const rows = <T extends Float32Array | Uint32Array>(a: T): T => {
    const stride = a.length / (m.frameCount + 1);
    return a.slice(first * stride, (first + count) * stride) as T;
  };
  return {
    ...m,
    frameCount: count - 1,
    translation: rows(m.translation),
    rotation: rows(m.rotation),
    offset: rows(m.offset),
    translationKeyInfo: rows(m.translationKeyInfo),
    jointKeyInfo: rows(m.jointKeyInfo),
  };
}

/**
 * A pool of two jobs that compresses in-process (the same code, unbundled tests have no worker bundle) and logs what
 * it is asked: `start` (with the workers asked for), `compress`, `verify`, `close`.
 */
function loggingPool(log: string[]): MotionCompressor {
  const inner = inProcessCompressor();
  return {
    jobs: 2,
    start: (workers) => void log.push(`start ${workers ?? 'all'}`),
    compress: (mtn, options, resampleTo) => {
      log.push('compress');
      return inner.compress(mtn, options, resampleTo);
    },
    verifyOrCompress: (mtn, options, resampleTo, candidate) => {
      log.push('verify');
      return inner.verifyOrCompress(mtn, options, resampleTo, candidate);
    },
    close: async () => void log.push('close'),
  };
}

/**
 * Four short slices of walk.mtn (m0..m3, each well under FEW_MOTION_BYTES) and one long motion (`big`, over it), in a
 * fresh folder with a cache and a state folder of their own.
 */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'actguy-few-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  const walk = readMtn(new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn'))));
  for (let k = 0; k < 4; k++) writeFileSync(join(dir, `m${k}.mtn`), writeMtn(slice(walk, k * 5, 20)));
  copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(dir, 'big.mtn'));
  expect(readFileSync(join(dir, 'm0.mtn')).length * FEW_MOTIONS).toBeLessThan(FEW_MOTION_BYTES);
  expect(readFileSync(join(dir, 'big.mtn')).length).toBeGreaterThan(FEW_MOTION_BYTES);
  const path = join(dir, 'p.actguy.json');
  const tolerances: Record<string, number> = {};
  const write = () =>
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        motions: [
          ...[0, 1, 2, 3].map((k) => ({
            name: `m${k}`,
            mtn: `m${k}.mtn`,
            tolerances: { rotationDeg: tolerances[`m${k}`] ?? 0.5 },
          })),
          { name: 'big', mtn: 'big.mtn', tolerances: { rotationDeg: tolerances.big ?? 2 } },
        ],
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
      }),
    );
  write();
  return {
    dir,
    path,
    build: async (log: string[]) =>
      builtOk(
        await buildProject(path, {
          jobs: 2,
          cacheDir: join(root, 'cache'),
          stateDir: join(root, 'state'),
          ownPool: loggingPool(log),
        }),
      ),
    /** Rewrites a motion's file with another content (its first frame moved). */
    edit: (name: string) => {
      const file = join(dir, `${name}.mtn`);
      const m = readMtn(new Uint8Array(readFileSync(file)));
      m.translation[0] += 0.5;
      writeFileSync(file, writeMtn(m));
    },
    /** Sets a motion's rotation tolerance (the file stays as it is). */
    tolerance: (name: string, deg: number) => {
      tolerances[name] = deg;
      write();
    },
    outputs: () => ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => readFileSync(join(dir, 'out', f))),
  };
}

/**
 * What a cold build of the project as it is now writes at its outputs' paths (so that the report names the same
 * files), with a fresh cache and state folder.
 */
async function coldOutputs(path: string): Promise<Buffer[]> {
  const fresh = mkdtempSync(join(tmpdir(), 'actguy-few-cold-'));
  dirs.push(fresh);
  builtOk(await buildProject(path, { jobs: 1, cacheDir: join(fresh, 'cache'), stateDir: join(fresh, 'state') }));
  return ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => readFileSync(join(dirname(path), 'out', f)));
}

describe('a rebuild where a few small motions changed', () => {
  it('compresses them on its own thread and never starts the pool; the outputs are those of a cold build', async () => {
    const p = project();
    const cold: string[] = [];
    await p.build(cold);
    // A cold build starts the pool at once and compresses every motion there.
    expect(cold[0]).toBe('start all');
    expect(cold.filter((l) => l === 'compress')).toHaveLength(5);

    p.edit('m1');
    const one: string[] = [];
    const r = await p.build(one);
    expect(r.upToDate).toBe(false);
    expect(r.carried).toBe(4);
    expect(one).toEqual(['close']);

    // Two small ones, and two compression settings: still this thread.
    p.edit('m2');
    p.edit('m3');
    const two: string[] = [];
    expect((await p.build(two)).carried).toBe(3);
    expect(two).toEqual(['close']);
    p.tolerance('m0', 1);
    p.tolerance('m1', 1);
    const settings: string[] = [];
    expect((await p.build(settings)).carried).toBe(3);
    expect(settings).toEqual(['close']);
    // (A cold build rewrites the outputs, so that the next build could carry nothing: compared last.)
    expect(p.outputs()).toEqual(await coldOutputs(p.path));
  });

  it('starts the pool early for more changed files than a few, or a large one', async () => {
    const p = project();
    await p.build([]);
    p.edit('m0');
    p.edit('m1');
    p.edit('m2');
    const three: string[] = [];
    expect((await p.build(three)).carried).toBe(2);
    // Started as prepareBuild meets the third file the verdicts do not know; the three compressed there.
    expect(three).toEqual(['start 3', 'compress', 'compress', 'compress', 'close']);

    p.edit('big');
    const big: string[] = [];
    expect((await p.build(big)).carried).toBe(4);
    expect(big).toEqual(['start 1', 'compress', 'close']);
    expect(p.outputs()).toEqual(await coldOutputs(p.path));
  });

  it('uses the pool for more motions than a few, or a large one, that are not carried though their files are known', async () => {
    const p = project();
    await p.build([]);
    for (const name of ['m0', 'm1', 'm2']) p.tolerance(name, 2);
    const three: string[] = [];
    expect((await p.build(three)).carried).toBe(2);
    expect(three).toEqual(['compress', 'compress', 'compress', 'close']);

    p.tolerance('big', 1);
    const big: string[] = [];
    expect((await p.build(big)).carried).toBe(4);
    expect(big).toEqual(['compress', 'close']);
    expect(p.outputs()).toEqual(await coldOutputs(p.path));
  });

  it('uses the pool for a small file that the project resamples into a long motion (round 37)', async () => {
    const p = project();
    // m0 at 1 fps: 20 frames of 23 joints, about 25 KB, that the project resamples to 570 frames at 30 fps (646 KB as
    // an MTN). A received 212 KB file resampled from 0.0102 fps to 57,000 frames was compressed on the build's thread
    // for 16 s, a Ctrl+C meanwhile waiting for it.
    const file = join(p.dir, 'm0.mtn');
    const m = readMtn(new Uint8Array(readFileSync(file)));
    m.fps = 1;
    writeFileSync(file, writeMtn(m));
    const json = JSON.parse(readFileSync(p.path, 'utf8'));
    json.motions[0].resample = true;
    writeFileSync(p.path, JSON.stringify(json));
    expect(readFileSync(file).length).toBeLessThan(FEW_MOTION_BYTES / 8);
    await p.build([]);
    p.edit('m0');
    const log: string[] = [];
    const r = await p.build(log);
    expect(r.carried).toBe(4);
    expect(r.report?.motions[0]).toMatchObject({ frameCount: 570, resampledFrom: { fps: 1, frameCount: 19 } });
    expect(log).toEqual(['compress', 'close']);
    // Another motion as small on disk that is played as it is stays on this thread.
    p.edit('m1');
    const small: string[] = [];
    expect((await p.build(small)).carried).toBe(4);
    expect(small).toEqual(['close']);
  });

  it('uses the pool when nothing can be carried (no record of the last build)', async () => {
    const p = project();
    await p.build([]);
    rmSync(join(p.dir, '..', 'state', 'last-builds'), { recursive: true });
    p.edit('m0');
    const log: string[] = [];
    const r = await p.build(log);
    expect(r.carried).toBe(0);
    // Four motions from the cache on their verdicts, the changed one on the pool (started lazily: not early).
    expect(log).toEqual(['compress', 'close']);
  });
});

describe('fewChanged', () => {
  const verdicts = {} as VerdictStore;
  const oneMotion = (budget?: { marBytes: number }) =>
    ({
      project: { budget },
      motions: [{ resolved: { mtnPath: '/p/a.mtn' }, frameCount: 2, joints: [] }],
    }) as unknown as PreparedBuild;
  const small = () => ({ size: 1000, mtimeNs: '1', ctimeNs: '1', ino: '1', dev: '1' });

  it('keeps the pool for a budget (each motion compressed at several settings), a cold build and one job', () => {
    const pool = loggingPool([]);
    expect(fewChanged(pool, verdicts, () => undefined).compressorFor(oneMotion(), undefined, small)).not.toBe(pool);
    expect(
      fewChanged(pool, verdicts, () => undefined).compressorFor(oneMotion({ marBytes: 1 << 20 }), undefined, small),
    ).toBe(pool);
    const log: string[] = [];
    const cold = fewChanged(loggingPool(log), undefined, () => undefined);
    expect(log).toEqual(['start all']);
    expect(cold.compressorFor(oneMotion(), undefined, small).start).toBeDefined();
    const single = { ...loggingPool([]), jobs: 1 };
    expect(fewChanged(single, verdicts, () => undefined).compressorFor(oneMotion(), undefined, small)).toBe(single);
  });

  it('takes a motion whose size is not known (its file changed while read) as large', () => {
    const pool = loggingPool([]);
    expect(fewChanged(pool, verdicts, () => undefined).compressorFor(oneMotion(), undefined, () => undefined)).toBe(
      pool,
    );
  });
});
