/**
 * A motion a build carries from the last build's outputs, or one of an up-to-date build, is in use as much as one
 * taken from the cache (docs/cache.md, "Limits"): its cache entry is made recent, so that the size limit evicts the
 * entries no build uses any more first, not those of the motions the user keeps building.
 */
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { buildProject } from './build';
import { builtOk } from '../testing/buildOutcome';
import { openBuildCache } from './buildCache';

const ASSETS = join(__dirname, '..', '..', 'assets');
const DAY_MS = 24 * 3600 * 1000;
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Two motions, `a` (walk.mtn) and `b` (walk_60fps.mtn resampled to 30 fps), in a fresh folder. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'actguy-carry-touch-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  for (const f of ['walk.mtn', 'walk_60fps.mtn']) copyFileSync(join(ASSETS, f), join(dir, f));
  const path = join(dir, 'p.actguy.json');
  const setMotions = (names: ('a' | 'b')[]) =>
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        fps: 30,
        motions: names.map((n) =>
          n === 'a' ? { name: 'a', mtn: 'walk.mtn' } : { name: 'b', mtn: 'walk_60fps.mtn', resample: true },
        ),
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
      }),
    );
  const cache = join(root, 'cache');
  const entries = () =>
    existsSync(cache)
      ? readdirSync(cache, { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.mt3c'))
          .map((f) => join(cache, f))
      : [];
  return {
    dir,
    cache,
    setMotions,
    entries,
    build: async () => builtOk(await buildProject(path, { jobs: 1, cacheDir: cache, stateDir: join(root, 'state') })),
    record: () => {
      const [file, ...more] = readdirSync(join(root, 'state', 'last-builds'));
      expect(more).toEqual([]);
      return join(root, 'state', 'last-builds', file);
    },
    /** Sets the file's times `days` days back. */
    age: (file: string, days: number) => {
      const t = (Date.now() - days * DAY_MS) / 1000;
      utimesSync(file, t, t);
    },
    editA: () => {
      const m = readMtn(new Uint8Array(readFileSync(join(dir, 'walk.mtn'))));
      m.translation[0] += 0.5;
      writeFileSync(join(dir, 'walk.mtn'), writeMtn(m));
    },
  };
}

const recent = (file: string) => Date.now() - lstatSync(file).mtimeMs < DAY_MS / 2;

describe('carried motions keep their cache entries in use', () => {
  it("an eviction after a build that carried a motion keeps that motion's entry and drops one no build uses", async () => {
    const p = project();
    p.setMotions(['b']);
    await p.build();
    const [entryB] = p.entries();
    p.setMotions(['a', 'b']);
    await p.build();
    const [entryA] = p.entries().filter((e) => e !== entryB);
    expect(entryA).toBeDefined();
    // Both used three days ago; an entry no build uses any more, two days ago (one byte: evicted, it frees little).
    p.age(entryA, 3);
    p.age(entryB, 3);
    const stale = join(p.cache, 'ff', `${'f'.repeat(64)}.mt3c`);
    mkdirSync(join(p.cache, 'ff'), { recursive: true });
    writeFileSync(stale, 'x');
    p.age(stale, 2);
    // The last build made its entries recent three days ago, as its record says.
    p.age(p.record(), 3);
    // a changes: compressed, its new entry written; b is carried from the last build's outputs.
    p.editA();
    const again = await p.build();
    expect(again.carried).toBe(1);
    expect(again.cache).toMatchObject({ hits: 0, misses: 1 });
    const [newA] = p.entries().filter((e) => e !== entryA && e !== entryB && e !== stale);
    expect(recent(entryB)).toBe(true);
    // Room for the two entries the project uses now: the least recently used go first.
    openBuildCache(p.cache, { maxBytes: lstatSync(newA).size + lstatSync(entryB).size }).prune();
    expect(existsSync(entryA)).toBe(false);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(entryB)).toBe(true);
    expect(existsSync(newA)).toBe(true);
  }, 60_000);

  it("a build that carries motions within a day of the last build's record leaves their entries alone, and its record keeps that time", async () => {
    const p = project();
    p.setMotions(['b']);
    await p.build();
    const [entryB] = p.entries();
    p.setMotions(['a', 'b']);
    await p.build();
    // The last build made its motions' entries recent half a day ago (b's is older: made recent before that).
    p.age(p.record(), 0.5);
    p.age(entryB, 1.5);
    const bTime = lstatSync(entryB).mtimeMs;
    const recordTime = lstatSync(p.record()).mtimeMs;
    p.editA();
    const carrying = await p.build();
    expect(carrying.carried).toBe(1);
    expect(lstatSync(entryB).mtimeMs).toBe(bTime);
    // The new record says when the entries were last all made recent: the old record's time, not now.
    expect(Math.abs(lstatSync(p.record()).mtimeMs - recordTime)).toBeLessThan(2);
    // A day after that, the next carrying build makes b's entry recent, and its record is of now.
    p.age(p.record(), 1.5);
    p.editA();
    expect((await p.build()).carried).toBe(1);
    expect(recent(entryB)).toBe(true);
    expect(recent(p.record())).toBe(true);
    // A record's time in the future is no proof of anything: the entries are made recent.
    p.age(entryB, 1.5);
    p.age(p.record(), -2);
    p.editA();
    expect((await p.build()).carried).toBe(1);
    expect(recent(entryB)).toBe(true);
  }, 60_000);

  it('an up-to-date build makes the entries of its motions recent once its record is a day old, and marks the record', async () => {
    const p = project();
    p.setMotions(['a', 'b']);
    await p.build();
    const entries = p.entries();
    expect(entries).toHaveLength(2);
    for (const e of entries) p.age(e, 3);
    // Recorded just now, by a build that made its entries recent (aged since, here): no pass over them.
    expect((await p.build()).upToDate).toBe(true);
    expect(entries.map(recent)).toEqual([false, false]);
    // Two days on: the up-to-date build makes them recent, and the record's time says when.
    p.age(p.record(), 2);
    expect((await p.build()).upToDate).toBe(true);
    expect(entries.map(recent)).toEqual([true, true]);
    expect(recent(p.record())).toBe(true);
  }, 60_000);

  it('never follows a link in the place of an entry: its target keeps its time', async () => {
    const p = project();
    p.setMotions(['a', 'b']);
    await p.build();
    const [entry] = p.entries();
    const target = join(p.dir, 'elsewhere.bin');
    writeFileSync(target, 'not an entry');
    p.age(target, 3);
    const targetTime = lstatSync(target).mtimeMs;
    rmSync(entry);
    symlinkSync(target, entry);
    openBuildCache(p.cache).touch(entry.slice(-69, -5));
    expect(lstatSync(target).mtimeMs).toBe(targetTime);
  });
});
