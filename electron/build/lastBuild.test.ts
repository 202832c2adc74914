/**
 * The record of a project's last build (lastBuild.ts, docs/cache.md "Up to date"): a build with nothing to do writes
 * nothing, and any change to what decides the outputs (a motion file, a setting, a SEV, an SE table, a warning, an
 * output touched, a commit journal beside them, the record itself) makes the build run in full and write exactly
 * what a build from nothing writes.
 */
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { buildProject } from './build';
import { builtOk } from '../testing/buildOutcome';
import { parseLastBuild } from './lastBuild';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

const OUTPUTS = ['stage.mar', 'stage.sar', 'stage.report.json'];

interface Settings {
  fps?: number;
  speed?: number;
  rotationDeg?: number;
  aliasSpeed?: number;
}

/** The sample's walk (with its SEV and the SE tables), a resampled 60 fps walk and an alias, in a fresh folder. */
function project(settings: Settings = {}) {
  const root = mkdtempSync(join(tmpdir(), 'actguy-last-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  for (const f of ['walk.mtn', 'walk.sev', 'walk_60fps.mtn', 'default.sls', 'se_define.h'])
    copyFileSync(join(ASSETS, f), join(dir, f));
  const path = join(dir, 'p.actguy.json');
  const write = (s: Settings) =>
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        fps: s.fps ?? 30,
        motions: [
          {
            name: 'walk',
            mtn: 'walk.mtn',
            sev: 'walk.sev',
            resample: true,
            tolerances: { rotationDeg: s.rotationDeg ?? 0.5 },
          },
          { name: 'walk_60', mtn: 'walk_60fps.mtn', resample: true, speed: s.speed ?? 2 },
        ],
        aliases: [{ name: 'walk_slow', target: 'walk', speed: s.aliasSpeed ?? 0.5 }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
      }),
    );
  write(settings);
  const cache = join(root, 'cache');
  const state = join(root, 'state');
  const out = (f: string) => join(dir, 'out', f);
  return {
    root,
    dir,
    path,
    state,
    out,
    setProject: write,
    build: async (o: { stateDir?: string; outDir?: string; cacheDir?: string | null } = {}) =>
      builtOk(await buildProject(path, { jobs: 1, cacheDir: cache, stateDir: state, ...o })),
    outputs: () => OUTPUTS.map((f) => readFileSync(out(f))),
    stamps: () =>
      OUTPUTS.map((f) => {
        const s = statSync(out(f), { bigint: true });
        return [s.ino, s.mtimeNs, s.ctimeNs];
      }),
    records: () => {
      try {
        return readdirSync(join(state, 'last-builds')).map((f) => join(state, 'last-builds', f));
      } catch {
        return [];
      }
    },
  };
}

/**
 * Changes a byte of `file` (a motion: its first translation) and sets its size and times back exactly as they were
 * (`touch -r` from a copy of its times, to the nanosecond), in place or by a rename over it: only the ctime, or the
 * inode, says it changed.
 */
function rewriteKeepingTimes(file: string, how: 'in place' | 'renamed over'): void {
  const before = statSync(file, { bigint: true });
  const times = `${file}.times`;
  writeFileSync(times, '');
  expect(spawnSync('touch', ['-r', file, times]).status).toBe(0);
  const bytes = readFileSync(file);
  let changed: Uint8Array;
  if (file.endsWith('.mtn')) {
    const m = readMtn(new Uint8Array(bytes));
    m.translation[0] += 0.5;
    changed = writeMtn(m);
  } else {
    changed = Buffer.from(bytes);
    changed[changed.length - 1] ^= 0xff;
  }
  if (how === 'in place') writeFileSync(file, changed);
  else {
    writeFileSync(`${file}.new`, changed);
    renameSync(`${file}.new`, file);
  }
  expect(spawnSync('touch', ['-r', times, file]).status).toBe(0);
  rmSync(times);
  const after = statSync(file, { bigint: true });
  // What a check of size and mtime alone sees: nothing.
  expect([after.size, after.mtimeNs]).toEqual([before.size, before.mtimeNs]);
  expect(readFileSync(file).equals(bytes)).toBe(false);
}

/** What a build from nothing (no cache, no record) writes for the project as it is now, in another folder. */
async function reference(p: ReturnType<typeof project>): Promise<Buffer[]> {
  const outDir = join(p.root, `reference-${Math.random().toString(36).slice(2)}`);
  builtOk(await buildProject(p.path, { jobs: 1, cacheDir: null, outDir }));
  const bytes = OUTPUTS.map((f) => readFileSync(join(outDir, f)));
  rmSync(outDir, { recursive: true, force: true });
  return bytes;
}

/** The report with the outputs' folder taken out (a reference build writes elsewhere). */
function comparable(files: Buffer[]): unknown[] {
  return files.map((b, k) => {
    if (k < 2) return b;
    const r = JSON.parse(b.toString('utf8'));
    delete r.outputs;
    return r;
  });
}

describe('the record of the last build', () => {
  it('an unchanged rebuild is up to date: it writes nothing, leaves the outputs as they were and says what they hold', async () => {
    const p = project();
    const first = await p.build();
    expect(first.upToDate).toBe(false);
    expect(p.records()).toHaveLength(1);
    const stamps = p.stamps();
    const bytes = p.outputs();
    const second = await p.build();
    expect(second.upToDate).toBe(true);
    expect(second.written).toEqual([]);
    expect(second.report).toBeUndefined();
    expect(second.summary).toEqual(first.summary);
    expect(p.stamps()).toEqual(stamps);
    expect(p.outputs()).toEqual(bytes);
  }, 60_000);

  // Each change below must make the next build run in full and write what a build from nothing writes, and the
  // build after it is up to date again.
  // The last number: how many of the two motions the next build carries from the last build's outputs (their own
  // part of the outputs decided as before), the rest being looked up in the cache or compressed.
  const changes: [string, (p: ReturnType<typeof project>) => void, number][] = [
    [
      'a motion file with other content (same size)',
      (p) => {
        const m = readMtn(new Uint8Array(readFileSync(join(p.dir, 'walk.mtn'))));
        m.translation[0] += 0.5;
        writeFileSync(join(p.dir, 'walk.mtn'), writeMtn(m));
      },
      1,
    ],
    ['a compression setting in the project', (p) => p.setProject({ rotationDeg: 1 }), 1],
    ['a playback speed (only the report changes)', (p) => p.setProject({ speed: 1.5 }), 1],
    ["the project's rate (both motions resampled to it)", (p) => p.setProject({ fps: 60 }), 0],
    [
      'a SEV event added (the entry counts one more)',
      (p) => appendFileSync(join(p.dir, 'walk.sev'), '\nevent 40 2 -\n'),
      1,
    ],
    [
      'a SE slot added to a SEV (the entry counts one more)',
      (p) => appendFileSync(join(p.dir, 'walk.sev'), '\nse 3 SE_CLOTH_SWISH\n'),
      1,
    ],
    ["an alias's playback speed (only the report's alias line changes)", (p) => p.setProject({ aliasSpeed: 0.25 }), 2],
    [
      'a SEV event moved (only the .sar changes)',
      (p) => {
        const f = join(p.dir, 'walk.sev');
        writeFileSync(f, readFileSync(f, 'utf8').replace('event 5 0 17', 'event 6 0 17'));
      },
      2,
    ],
    [
      'an SE code in se_define.h (only the .sar changes)',
      (p) => {
        const f = join(p.dir, 'se_define.h');
        const text = readFileSync(f, 'utf8');
        const changed = text.replace(/(#define\s+SE_FOOT_L_CONC\s+)0x0200u/, '$10x0300u');
        expect(changed).not.toBe(text);
        writeFileSync(f, changed);
      },
      2,
    ],
    [
      'a line of the SE table the build skips (only the warnings change)',
      (p) => {
        // A name listed again with its own code: the table is the same, the build warns about the line.
        const f = join(p.dir, 'default.sls');
        const line = readFileSync(f, 'utf8')
          .split('\n')
          .find((l) => /^[A-Z]/.test(l))!;
        appendFileSync(f, `\n${line}\n`);
      },
      2,
    ],
    [
      'the .sar touched (same times set again; the .mar and the report still carry)',
      (p) => utimesSync(p.out('stage.sar'), statSync(p.out('stage.sar')).atime, statSync(p.out('stage.sar')).mtime),
      2,
    ],
    [
      'an output replaced by other bytes of the same size',
      (p) => {
        const b = readFileSync(p.out('stage.mar'));
        b[b.length - 1] ^= 0xff;
        writeFileSync(p.out('stage.mar'), b);
      },
      0,
    ],
    ['an output removed', (p) => unlinkSync(p.out('stage.report.json')), 0],
    // Round 27: a rewrite whose size and mtime are set back (`touch -r`, as `touch -d` would) still changes the file's
    // ctime, or its inode when renamed over it; both are in the stamp. Mutations that fail: sameStamp without the ctime
    // (the first and third are taken as up to date), without the ctime and the inode (the second too).
    [
      'a motion file rewritten in place with its size and mtime set back',
      (p) => rewriteKeepingTimes(join(p.dir, 'walk.mtn'), 'in place'),
      1,
    ],
    [
      'a motion file replaced by a rename with its size and mtime set back',
      (p) => rewriteKeepingTimes(join(p.dir, 'walk.mtn'), 'renamed over'),
      1,
    ],
    [
      'the .mar rewritten in place with its size and mtime set back',
      (p) => rewriteKeepingTimes(p.out('stage.mar'), 'in place'),
      0,
    ],
    [
      'the record says another plan',
      (p) => {
        const [file] = p.records();
        const doc = JSON.parse(readFileSync(file, 'utf8'));
        doc.plan = doc.plan.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
        writeFileSync(file, JSON.stringify(doc));
      },
      2,
    ],
    [
      'the record was made by other code',
      (p) => {
        const [file] = p.records();
        const doc = JSON.parse(readFileSync(file, 'utf8'));
        doc.code = `${doc.code}-other`;
        writeFileSync(file, JSON.stringify(doc));
      },
      0,
    ],
    [
      'the local verdicts know a motion file, by its stamp, as other content',
      (p) => {
        const dir = join(p.state, 'cache-verdicts');
        const file = join(dir, readdirSync(dir)[0]);
        const doc = JSON.parse(readFileSync(file, 'utf8'));
        const row =
          doc.files[join(p.dir, 'walk.mtn')] ?? doc.files[Object.keys(doc.files).find((k) => k.endsWith('walk.mtn'))!];
        row[5] = row[5].replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
        writeFileSync(file, JSON.stringify(doc));
      },
      1,
    ],
    ['the record cut short', (p) => writeFileSync(p.records()[0], readFileSync(p.records()[0]).subarray(0, 100)), 0],
  ];
  for (const [what, change, carried] of changes)
    it(`${what}: the next build runs in full (carrying ${carried} motion${carried === 1 ? '' : 's'}) and writes what a build from nothing writes`, async () => {
      const p = project();
      await p.build();
      expect((await p.build()).upToDate).toBe(true);
      change(p);
      const again = await p.build();
      expect(again.upToDate).toBe(false);
      expect(again.carried).toBe(carried);
      expect(again.written).toHaveLength(3);
      const expected = await reference(p);
      expect(comparable(p.outputs())).toEqual(comparable(expected));
      // The build's report, carried entries included, is the one a build from nothing makes.
      const { motions, totals, warnings } = JSON.parse(expected[2].toString('utf8'));
      expect(again.report).toMatchObject({ motions, totals, warnings });
      expect((await p.build()).upToDate).toBe(true);
    }, 60_000);

  // A record whose parts do not hold for the outputs it names carries nothing: the build takes every motion from the
  // cache and writes what a build from nothing writes.
  const wrongParts: [string, (part: unknown[], k: number, all: unknown[][]) => void][] = [
    ["each motion's entry where the other's lies", (part, k, all) => (part[1] = all[1 - k][1])],
    ['an entry one byte further', (part) => (part[1] = (part[1] as number) + 1)],
    ['other key counts', (part) => (part[3] = (part[3] as number) + 1)],
    ['other motion file sizes', (part) => (part[4] = (part[4] as number) + 2)],
    ['an unmet tolerance that is not in the report', (part) => (part[5] = ['LeftFoot: not reachable'])],
  ];
  for (const [what, wrong] of wrongParts)
    it(`a record with ${what} carries nothing`, async () => {
      const p = project({ speed: 1.5 });
      await p.build();
      const [file] = p.records();
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      const original = doc.parts.map((x: unknown[]) => [...x]);
      doc.parts.forEach((part: unknown[], k: number) => wrong(part, k, original));
      writeFileSync(file, JSON.stringify(doc));
      p.setProject({ speed: 2 }); // not up to date, and both motions as they were: both would be carried
      const again = await p.build();
      expect(again.carried).toBe(0);
      expect(again.cache).toMatchObject({ hits: 2 });
      expect(comparable(p.outputs())).toEqual(comparable(await reference(p)));
    }, 60_000);

  it('a record whose summary says what this build does not (other paths, sizes, counts, warnings, control characters) is not up to date', async () => {
    const p = project();
    // A line the build skips, with a warning found while reading the inputs (the summary's first).
    appendFileSync(join(p.dir, 'se_define.h'), '\n#define SE_SKIPPED (1 +\n');
    const first = await p.build();
    type Summary = typeof first.summary;
    // Each lie keeps every digest and stamp of the record as the last build wrote it: only the text an up-to-date
    // build prints differs.
    const lies: [string, (s: Summary) => unknown][] = [
      ['mar path', (s) => ({ ...s, outputs: { ...s.outputs, mar: { ...s.outputs.mar, path: '/etc/passwd' } } })],
      ['sar bytes', (s) => ({ ...s, outputs: { ...s.outputs, sar: { ...s.outputs.sar, bytes: 1 } } })],
      ['report path', (s) => ({ ...s, outputs: { ...s.outputs, report: 'elsewhere.json' } })],
      ['motions', (s) => ({ ...s, totals: { ...s.totals, motions: 1e15 } })],
      ['aliases', (s) => ({ ...s, totals: { ...s.totals, aliases: 0 } })],
      ['first warning', (s) => ({ ...s, warnings: ['all is well', ...s.warnings.slice(1)] })],
      // A terminal's title set, and U+009B (a CSI): the tool escapes every control character it prints.
      ['escape in a warning', (s) => ({ ...s, warnings: [...s.warnings, '\u001b]0;owned\u0007'] })],
      ['CSI in a path', (s) => ({ ...s, outputs: { ...s.outputs, report: `${s.outputs.report}\u009b2J` } })],
    ];
    expect(first.warnings.length).toBe(1);
    const upToDate: [string, boolean][] = [];
    for (const [what, lie] of lies) {
      expect((await p.build()).upToDate).toBe(true);
      const [record] = p.records();
      const doc = JSON.parse(readFileSync(record, 'utf8'));
      writeFileSync(record, JSON.stringify({ ...doc, summary: lie(doc.summary) }));
      const r = await p.build();
      upToDate.push([what, r.upToDate]);
      expect(r.summary).toEqual(first.summary);
    }
    expect(upToDate).toEqual(lies.map(([what]) => [what, false]));
    const doc = JSON.parse(readFileSync(p.records()[0], 'utf8'));
    const parts = doc.parts.map((x: unknown[] | null) => x && [...x.slice(0, 5), ['\u001b[2J']]);
    expect(parseLastBuild(JSON.stringify({ ...doc, parts }))).toBeUndefined();
  }, 120_000);

  it("a record that swaps the entries of two motions with the same figures carries neither (each entry's head names its motion)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'actguy-last-twins-'));
    dirs.push(root);
    // The state and cache folders outside the project's (a state folder inside it keeps no record).
    const dir = join(root, 'project');
    mkdirSync(dir);
    copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
    const path = join(dir, 'p.actguy.json');
    const write = (fps: number) =>
      writeFileSync(
        path,
        JSON.stringify({
          version: 1,
          fps,
          // The same file and settings: MT3s of the same size, report entries that differ only in index, name and hash.
          motions: [
            { name: 'twin_a', mtn: 'walk.mtn', resample: true },
            { name: 'twin_b', mtn: 'walk.mtn', resample: true },
          ],
          outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
        }),
      );
    write(30);
    const options = { jobs: 1, cacheDir: join(root, 'cache'), stateDir: join(root, 'state') };
    builtOk(await buildProject(path, options));
    const [record] = readdirSync(join(root, 'state', 'last-builds')).map((f) => join(root, 'state', 'last-builds', f));
    const doc = JSON.parse(readFileSync(record, 'utf8'));
    expect(doc.parts[0].slice(2)).toEqual(doc.parts[1].slice(2));
    [doc.parts[0][1], doc.parts[1][1]] = [doc.parts[1][1], doc.parts[0][1]];
    writeFileSync(record, JSON.stringify(doc));
    // Not up to date (the .sar is not as the record left it), and both motions as they were: both would be carried.
    utimesSync(join(dir, 'out', 'stage.sar'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const again = builtOk(await buildProject(path, options));
    expect(again.carried).toBe(0);
    expect(again.cache).toMatchObject({ hits: 2 });
    const report = JSON.parse(readFileSync(join(dir, 'out', 'stage.report.json'), 'utf8'));
    expect(report.motions.map((m: { name: string }) => m.name)).toEqual(['twin_a', 'twin_b']);
  }, 60_000);

  it('a commit journal planted beside the outputs is never skipped over: the build goes to the commit, which refuses it', async () => {
    const p = project();
    await p.build();
    const bytes = p.outputs();
    const journal = `${p.out('stage.mar')}.actguy-commit`;
    writeFileSync(
      journal,
      JSON.stringify({
        tool: 'actguy commit',
        version: 1,
        state: 'back',
        outputs: [p.out('stage.mar')],
        entries: [{ path: p.path, temp: null, backup: null }],
      }),
    );
    await expect(buildProject(p.path, { jobs: 1, cacheDir: join(p.root, 'cache'), stateDir: p.state })).rejects.toThrow(
      `refused the commit journal ${journal}`,
    );
    expect(p.outputs()).toEqual(bytes);
  }, 60_000);

  it('keeps no record in a state folder inside the project folder or the cache folder', async () => {
    for (const inside of ['project', 'cache'] as const) {
      const p = project();
      const stateDir = join(inside === 'project' ? p.dir : join(p.root, 'cache'), 'state');
      await p.build({ stateDir });
      const second = await p.build({ stateDir });
      expect(second.upToDate).toBe(false);
      expect(second.cache).toMatchObject({ hits: 2 });
    }
  }, 60_000);

  // Round 26 (root only, as CI runs: only root can give a file to another user). A state folder all may write
  // (ACTGUY_STATE_DIR under /tmp) let another user leave a record that says a build is up to date. Mutations that
  // fail: readLastBuild without `usersOwn` (the third build is up to date); makeStateFolder without its owner check
  // (a record is written into the other user's folder).
  it.skipIf(process.getuid?.() !== 0)(
    "a record another user owns is not read, and none is written into another user's folder",
    async () => {
      const p = project();
      await p.build();
      expect((await p.build()).upToDate).toBe(true);
      const [record] = p.records();
      chownSync(record, 65534, 65534);
      expect((await p.build()).upToDate).toBe(false);
      // That build wrote the user's own record in its place.
      expect(lstatSync(record).uid).toBe(0);
      rmSync(record);
      chownSync(dirname(record), 65534, 65534);
      expect((await p.build()).upToDate).toBe(false);
      expect(p.records()).toEqual([]);
    },
    60_000,
  );

  // Round 30: a state folder of before round 27 (0777, made under a umask of 0) let another user swap or plant the
  // user's records. One the user owns is made 0700 (and its records used as before); one another user owns, the state
  // folder itself included, keeps no record. Mutations that fail: lastBuildPlace without its look at the folders (the
  // folders stay 0777; the state folder given to 65534 is read and written); stateFolderProblem without its fchmod.
  it.runIf(process.platform !== 'win32')(
    "the state folders of before, writable by others, are made the user's alone; another user's keeps no record",
    async () => {
      const p = project();
      await p.build();
      const [record] = p.records();
      const folders = [dirname(dirname(record)), dirname(record)];
      for (const folder of folders) chmodSync(folder, 0o777);
      expect((await p.build()).upToDate).toBe(true);
      for (const folder of folders) expect((statSync(folder).mode & 0o7777).toString(8), folder).toBe('700');
      if (process.getuid?.() !== 0) return;
      chownSync(folders[0], 65534, 65534);
      expect((await p.build()).upToDate).toBe(false);
      const before = statSync(record, { bigint: true });
      expect((await p.build()).upToDate).toBe(false);
      expect(statSync(record, { bigint: true }).ctimeNs).toBe(before.ctimeNs);
    },
    60_000,
  );

  // Round 27: what may stand in the record's place. Each is not read (not a plain file within 32 MiB, or a link), never
  // blocks the build (a FIFO is opened without waiting), and the build's own record replaces it by a rename: the file a
  // link or a hard link leads to keeps its bytes. Mutations that fail: writeLastBuild writing the record in place
  // (writeFileSync: the hard link's other name and the link's target are overwritten); readLastBuild without its limit
  // (a good record padded past 32 MiB is read and the build taken as up to date); readStampedNoFollow opening without
  // O_NOFOLLOW (the link to a good record is followed, up to date). The FIFO goes last: written in place, it blocks.
  it.runIf(process.platform !== 'win32')(
    'a record that is a FIFO, a link, a hard link or past its limit is not read, never blocks, and is replaced, not written through',
    async () => {
      const p = project();
      await p.build();
      const [record] = p.records();
      /** The record as the last build left it: the one a build that read it would take as up to date. */
      let good = readFileSync(record);
      const elsewhere = join(p.root, 'elsewhere.json');
      const plants: [string, () => void][] = [
        [
          'a link to a good record',
          () => {
            writeFileSync(elsewhere, good);
            symlinkSync(elsewhere, record);
          },
        ],
        [
          'a hard link of a file elsewhere',
          () => {
            writeFileSync(elsewhere, 'the user’s own file');
            linkSync(elsewhere, record);
          },
        ],
        [
          'a good record padded past 32 MiB',
          () => {
            // JSON.parse takes trailing white space: what keeps it unread is its size alone.
            writeFileSync(record, Buffer.concat([good, Buffer.alloc(32 * 1024 * 1024 + 1 - good.length, 0x20)]));
          },
        ],
        ['a FIFO', () => expect(spawnSync('mkfifo', [record]).status).toBe(0)],
      ];
      for (const [what, plant] of plants) {
        good = readFileSync(record);
        rmSync(record, { force: true });
        rmSync(elsewhere, { force: true });
        plant();
        const held = existsSync(elsewhere) ? readFileSync(elsewhere) : undefined;
        const again = await p.build();
        expect(again.upToDate, what).toBe(false);
        expect(lstatSync(record).isFile(), what).toBe(true);
        expect(lstatSync(record).nlink, what).toBe(1);
        if (held) expect(readFileSync(elsewhere).equals(held), what).toBe(true);
        expect((await p.build()).upToDate, what).toBe(true);
      }
    },
    120_000,
  );

  it('a build into another folder (-o) or without the cache is not taken for the recorded one', async () => {
    const p = project();
    await p.build();
    const outDir = join(p.root, 'elsewhere');
    const elsewhere = await p.build({ outDir });
    expect(elsewhere.upToDate).toBe(false);
    expect(readFileSync(join(outDir, 'stage.mar'))).toEqual(readFileSync(p.out('stage.mar')));
    expect((await p.build({ cacheDir: null })).upToDate).toBe(false);
    // The build without the cache replaced the outputs: the record no longer holds for them.
    expect((await p.build()).upToDate).toBe(false);
    expect((await p.build()).upToDate).toBe(true);
  }, 60_000);

  it('reads a record of any other shape as none, and never throws on one', async () => {
    const p = project();
    await p.build();
    const text = readFileSync(p.records()[0], 'utf8');
    expect(parseLastBuild(text)).toBeDefined();
    const doc = JSON.parse(text);
    const variants: unknown[] = [
      { ...doc, tool: 'actguy cache verdicts' },
      { ...doc, version: 1 },
      { ...doc, parts: doc.parts.slice(1) },
      { ...doc, parts: doc.parts.map((x: unknown[]) => [...x.slice(0, 5), [7]]) },
      { ...doc, parts: doc.parts.map((x: unknown[]) => [x[0], x[1], 1, ...x.slice(3)]) },
      { ...doc, inputs: [...doc.inputs, doc.inputs[0]].map((k: string, i: number) => (i === 0 ? k.toUpperCase() : k)) },
      { ...doc, inputs: doc.inputs.map(() => 7) },
      { ...doc, outputs: doc.outputs.slice(0, 2) },
      { ...doc, outputs: doc.outputs.map((o: unknown[]) => [o[0], -1, ...o.slice(2)]) },
      { ...doc, outputs: doc.outputs.map((o: unknown[]) => [o[0], o[1], 12, ...o.slice(3)]) },
      { ...doc, summary: { ...doc.summary, totals: { ...doc.summary.totals, keys: 1.5 } } },
      { ...doc, summary: { ...doc.summary, warnings: [3] } },
      { ...doc, summary: null },
      [],
      null,
    ];
    for (const v of variants) expect(parseLastBuild(JSON.stringify(v))).toBeUndefined();
    // Every byte flipped in turn: parsed or not, never a throw.
    for (let i = 0; i < text.length; i += 7) {
      const bad = `${text.slice(0, i)}${String.fromCharCode(text.charCodeAt(i) ^ 0x21)}${text.slice(i + 1)}`;
      expect(() => parseLastBuild(bad)).not.toThrow();
    }
  }, 60_000);
});
