/**
 * The app's Build uses the record of the last build as `actguy build` does (lastBuildUse.ts, docs/cache.md "Up to
 * date"): a second Build of an unchanged project compresses nothing, writes nothing and says it is up to date; an
 * edited motion makes it build again, carrying the motion that did not change; a record that was edited or lies is
 * checked as the CLI checks it, and the build then runs.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { buildProject } from '../build/build';
import { inProcessCompressor, type MotionCompressor } from '../build/compressPool';
import { readBuildInput } from '../build/files';
import { assetsProjectCopy, testProjectHandlers } from '../testing/projectHarness';
import { runBuildJob } from './buildJob';
import type { BuildJobLauncher } from './buildRunner';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

const OUTPUTS = ['stage.mar', 'stage.sar', 'stage.report.json'];

/**
 * The sample project with two motions (walk, and walk_60 resampled), picked in the app, its builds run in this
 * process with a compressor that counts what it compresses, and the local state in a folder of its own.
 */
async function app() {
  const copy = assetsProjectCopy('actguy-app-last-', { motions: ['walk', 'walk_60'] });
  dirs.push(copy.dir);
  const state = mkdtempSync(join(tmpdir(), 'actguy-app-last-state-'));
  dirs.push(state);
  const inner = inProcessCompressor();
  const counted = { compressed: 0 };
  const compressor: MotionCompressor = {
    jobs: 1,
    compress: (...a) => {
      counted.compressed++;
      return inner.compress(...a);
    },
    verifyOrCompress: (...a) => {
      counted.compressed++;
      return inner.verifyOrCompress(...a);
    },
    close: () => inner.close(),
  };
  const launchBuild: BuildJobLauncher = (req, onMessage) => {
    setTimeout(() => void runBuildJob(req, readBuildInput, onMessage, { compressor, stateDir: state }), 0);
    return () => {};
  };
  const { openPicked, build } = testProjectHandlers({ launchBuild });
  /** `actguy build` of the same project, with the same state folder and counting compressor (electron/build/build.ts). */
  const cliBuild = () => buildProject(copy.project, { jobs: 1, stateDir: state, compressor });
  await openPicked(copy.project);
  const out = (f: string) => join(copy.dir, 'out', f);
  return {
    ...copy,
    state,
    compressor,
    counted,
    cliBuild,
    build: () => build(copy.project, copy.text),
    check: () => build(copy.project, copy.text, true),
    out,
    stamps: () =>
      OUTPUTS.map((f) => {
        const s = statSync(out(f), { bigint: true });
        return [s.ino, s.mtimeNs, s.ctimeNs];
      }),
    record: () => {
      const folder = join(state, 'last-builds');
      const files = readdirSync(folder);
      expect(files).toHaveLength(1);
      return join(folder, files[0]);
    },
    /** Removes the cache's entries (not the folder: its local verdicts stay), so what is not carried is compressed. */
    emptyCache: () => {
      const cache = join(copy.dir, '.actguy-cache');
      for (const f of readdirSync(cache, { recursive: true }).map(String))
        if (f.endsWith('.mt3c')) unlinkSync(join(cache, f));
    },
    editWalk: () => {
      const m = readMtn(new Uint8Array(readFileSync(join(copy.dir, 'walk.mtn'))));
      m.translation[0] += 0.5;
      writeFileSync(join(copy.dir, 'walk.mtn'), writeMtn(m));
    },
  };
}

/** The .mar and .sar a build from nothing (no cache, no record) writes for the project as it is now. */
async function reference(a: Awaited<ReturnType<typeof app>>): Promise<Buffer[]> {
  const outDir = join(a.dir, 'reference');
  mkdirSync(outDir);
  const r = await buildProject(a.project, { jobs: 1, cacheDir: null, outDir, lastBuild: false });
  expect(r.ok).toBe(true);
  return OUTPUTS.slice(0, 2).map((f) => readFileSync(join(outDir, f)));
}

describe("the app's Build and the record of the last build", () => {
  it('a second Build of an unchanged project is up to date: nothing compressed or written, and its status says so', async () => {
    const a = await app();
    const first = await a.build();
    expect(first.state).toBe('done');
    expect(first.upToDate).toBeUndefined();
    expect(first.written).toHaveLength(3);
    expect(a.counted.compressed).toBe(2);
    const stamps = a.stamps();
    const second = await a.build();
    expect(second).toMatchObject({ state: 'done', upToDate: true, written: [], motions: [], report: null, errors: [] });
    // What it left as it was, with the sizes the first build wrote (the dialog shows them, marked unchanged).
    expect(second.unchanged).toEqual(first.written.map((path, i) => ({ path, bytes: first.writtenBytes![i] })));
    expect(a.counted.compressed).toBe(2);
    expect(a.stamps()).toEqual(stamps);
  }, 60_000);

  // Round 18 (docs/security.md): an up-to-date Build showed only the warnings about its inputs, not the motions' own
  // (walk_60 resampled, unmet tolerances) that the build of its outputs showed and that `actguy build` prints when up
  // to date. Mutation that fails: buildJob.ts posting prepared.warnings alone with 'upToDate'.
  it('an up-to-date Build shows the warnings the build of its outputs showed, as `actguy build` prints them', async () => {
    const a = await app();
    const first = await a.build();
    expect(first.state).toBe('done');
    expect(first.warnings.some((w) => w.startsWith('walk_60: resampled from 60 fps'))).toBe(true);
    const second = await a.build();
    expect(second).toMatchObject({ state: 'done', upToDate: true });
    expect(second.warnings).toEqual(first.warnings);
  }, 60_000);

  // One record, one check (lastBuildUse) for both: a project built by either is up to date for the other.
  // Both halves failed before 2026-12-03: the app's Build planned the project without its absolute file
  // (projectFileAbsolute, which the CLI sets), so their plan digests differed. Mutation that fails: buildJob.ts taking
  // parsed.resolved again instead of projectAsBuilt.
  it("a project built by `actguy build` is up to date for the app's Build, and one built by the app for `actguy build`", async () => {
    const a = await app();
    const cli = await a.cliBuild();
    expect(cli).toMatchObject({ ok: true, upToDate: false });
    expect(a.counted.compressed).toBe(2);
    const stamps = a.stamps();
    expect(await a.build()).toMatchObject({ state: 'done', upToDate: true, written: [] });
    expect(a.counted.compressed).toBe(2);
    expect(a.stamps()).toEqual(stamps);

    a.editWalk();
    const appBuilt = await a.build();
    expect(appBuilt.state).toBe('done');
    expect(appBuilt.upToDate).toBeUndefined();
    const after = a.stamps();
    const compressed = a.counted.compressed;
    expect(await a.cliBuild()).toMatchObject({ ok: true, upToDate: true, written: [] });
    expect(a.counted.compressed).toBe(compressed);
    expect(a.stamps()).toEqual(after);
  }, 60_000);

  // One record whatever the spelling of the project's path: `actguy build` with a path relative to the working folder,
  // or through a symbolic link to its folder, keys and plans the same build as the absolute path the app's Build
  // sends. Failed before 2026-12-03 (round 16): the CLI keeps the paths the project names relative to the working
  // folder (for its messages), and the plan digest and the verdicts' file records held them as spelled, so a relative
  // build was never up to date for an absolute one nor for the app. Mutations that fail (each run): lastBuild.ts
  // planDigest digesting prepared.project as is (not projectAsKeyed); lastBuildTarget taking resolve() (not keyPath:
  // the linked folder); verdicts.ts keying file records by the path as given (fileKey returning it).
  it("`actguy build` with a relative path, then an absolute one, then the app's Build: one record, the second and third up to date", async () => {
    const a = await app();
    const cwd = process.cwd();
    let relative;
    try {
      process.chdir(dirname(a.dir));
      relative = await buildProject(join(basename(a.dir), basename(a.project)), {
        jobs: 1,
        stateDir: a.state,
        compressor: a.compressor,
      });
    } finally {
      process.chdir(cwd);
    }
    expect(relative).toMatchObject({ ok: true, upToDate: false });
    expect(a.counted.compressed).toBe(2);
    const stamps = a.stamps();
    const absolute = await a.cliBuild();
    expect(absolute).toMatchObject({ ok: true, upToDate: true, written: [] });
    // The summary it prints names the outputs as this build spells them, not as the relative one did.
    expect(absolute.ok && absolute.summary.outputs.mar.path).toBe(a.out('stage.mar'));
    expect(await a.build()).toMatchObject({ state: 'done', upToDate: true, written: [] });
    expect(a.counted.compressed).toBe(2);
    expect(a.stamps()).toEqual(stamps);
    // Through a link to the project's folder: the same project, the same record.
    const link = join(a.state, 'link-to-project');
    symlinkSync(a.dir, link, 'dir');
    const linked = await buildProject(join(link, basename(a.project)), {
      jobs: 1,
      stateDir: a.state,
      compressor: a.compressor,
    });
    expect(linked).toMatchObject({ ok: true, upToDate: true, written: [] });
    expect(a.counted.compressed).toBe(2);
    a.record();
  }, 60_000);

  it('an edited motion makes the next Build run: the other motion is carried with its figures, and the outputs are those of a build from nothing', async () => {
    const a = await app();
    const first = await a.build();
    expect((await a.build()).upToDate).toBe(true);
    a.editWalk();
    a.emptyCache();
    const compressedBefore = a.counted.compressed;
    const again = await a.build();
    expect(again.state).toBe('done');
    expect(again.upToDate).toBeUndefined();
    expect(again.written).toHaveLength(3);
    // Only the edited motion was compressed: walk_60 came from the last build's outputs.
    expect(a.counted.compressed - compressedBefore).toBe(1);
    const carried = again.motions.find((m) => m.name === 'walk_60')!;
    const before = first.motions.find((m) => m.name === 'walk_60')!;
    expect(carried).toMatchObject({
      cached: true,
      totalKeys: before.totalKeys,
      mt3Bytes: before.mt3Bytes,
      mtnBytes: before.mtnBytes,
    });
    // Its errors as its entry in the last build's report gives them (4 significant digits), not zeros.
    expect(carried.maxRotationErrorDeg).toBeGreaterThan(0);
    expect(carried.maxRotationErrorDeg).toBeCloseTo(before.maxRotationErrorDeg, 3);
    expect(carried.maxPositionError).toBeCloseTo(before.maxPositionError, 3);
    expect(again.report?.motions.find((m) => m.name === 'walk_60')).toEqual(
      first.report?.motions.find((m) => m.name === 'walk_60'),
    );
    expect(OUTPUTS.slice(0, 2).map((f) => readFileSync(a.out(f)))).toEqual(await reference(a));
    expect((await a.build()).upToDate).toBe(true);
  }, 60_000);

  // Each edit of the record keeps its digests and stamps: only what it says is changed, as a hostile one would.
  /** What the tests change in a record (lastBuild.ts writes it). */
  interface RecordDoc {
    plan: string;
    code: string;
    parts: unknown[];
    summary: { outputs: { mar: { path: string; bytes: number } }; totals: { motions: number }; warnings: string[] };
  }
  /** Another plan: not up to date, so what the record says of each motion decides what is carried. */
  const otherPlan = (doc: RecordDoc) => (doc.plan = doc.plan.replace(/^./, (c: string) => (c === '0' ? '1' : '0')));
  const lies: [string, (doc: RecordDoc) => void, number][] = [
    ['says another plan', otherPlan, 0],
    ['names other outputs in its summary', (doc) => (doc.summary.outputs.mar.path = '/etc/passwd'), 0],
    ['gives the .mar another size in its summary', (doc) => (doc.summary.outputs.mar.bytes += 1), 0],
    ['counts other motions in its summary', (doc) => (doc.summary.totals.motions += 1), 0],
    ['holds a control character in a warning', (doc) => doc.summary.warnings.push('\u001b[2J'), 2],
    ['was made by other code', (doc) => (doc.code = `${doc.code}-other`), 2],
    [
      "puts each motion's part where the other's lies",
      (doc) => {
        otherPlan(doc);
        doc.parts.reverse();
      },
      2,
    ],
    [
      "says a motion's report entry lies a byte further (nothing is carried)",
      (doc) => {
        otherPlan(doc);
        (doc.parts[1] as number[])[1] += 1;
      },
      2, // readCarriedAhead takes all or nothing
    ],
  ];
  for (const [what, lie, compressed] of lies)
    it(`a record that ${what} is not taken for this build: the Build runs and writes what a build from nothing writes`, async () => {
      const a = await app();
      await a.build();
      const file = a.record();
      const doc = JSON.parse(readFileSync(file, 'utf8')) as RecordDoc;
      lie(doc);
      writeFileSync(file, JSON.stringify(doc));
      a.emptyCache();
      const compressedBefore = a.counted.compressed;
      const again = await a.build();
      expect(again.state).toBe('done');
      expect(again.upToDate).toBeUndefined();
      expect(again.written).toHaveLength(3);
      // What is not carried is compressed (the cache was emptied): a record whose parts still hold carries both.
      expect(a.counted.compressed - compressedBefore).toBe(compressed);
      expect(OUTPUTS.slice(0, 2).map((f) => readFileSync(a.out(f)))).toEqual(await reference(a));
      expect((await a.build()).upToDate).toBe(true);
    }, 60_000);

  it('a record cut short is none: the Build runs, and the next one is up to date', async () => {
    const a = await app();
    await a.build();
    const file = a.record();
    writeFileSync(file, readFileSync(file).subarray(0, 100));
    const again = await a.build();
    expect(again.state).toBe('done');
    expect(again.upToDate).toBeUndefined();
    expect(again.written).toHaveLength(3);
    expect((await a.build()).upToDate).toBe(true);
  }, 60_000);

  it('a check (dry run) neither takes the record nor replaces it: it reports every motion', async () => {
    const a = await app();
    await a.build();
    const file = a.record();
    const record = readFileSync(file);
    const stamp = statSync(file, { bigint: true }).mtimeNs;
    const check = await a.check();
    expect(check).toMatchObject({ state: 'done', written: [] });
    expect(check.upToDate).toBeUndefined();
    expect(check.motions.map((m) => m.name)).toEqual(['walk', 'walk_60']);
    expect(readFileSync(file)).toEqual(record);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(stamp);
    expect((await a.build()).upToDate).toBe(true);
  }, 60_000);
});
