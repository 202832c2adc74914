/**
 * The local verdicts remember each motion file's header (docs/cache.md, "Local verdicts"): a rebuild reads
 * no unchanged motion file, a changed one is read and recompressed, and a memo that does not hold for the
 * very file (another identity, another reader, a tampered record) is ignored, never used and never fatal.
 */
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { buildProject } from './build';
import { builtOk } from '../testing/buildOutcome';
import { readInputFile } from './files';
import { parseVerdicts } from './verdicts';
import { COMPRESSOR_IDENTITY, decodeEntry } from './buildCache';
import { readMt3 } from '../../shared/mt3/read';
import { gvStrCode } from '../../shared/strcode';
import { inProcessCompressor, type MotionCompressor } from './compressPool';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A project of two copies of walk.mtn (motions a and b), its cache and its local state in a fresh folder. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-memo-'));
  dirs.push(dir);
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'a.mtn'));
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'b.mtn'));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'a', mtn: 'a.mtn' },
        { name: 'b', mtn: 'b.mtn' },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const cache = join(dir, 'cache');
  const state = join(dir, 'state');
  const outputs = () => ['stage.mar', 'stage.sar'].map((f) => readFileSync(join(dir, 'out', f)));
  /** A build with the cache; `mtnReads` lists the motion files it read (by file name). */
  // What a rebuild does with the memo and the cache: the record of the last build (lastBuild.ts) is off, or an
  // unchanged rebuild would do nothing at all.
  const build = async (o: { onProgress?: () => void; compressor?: MotionCompressor } = {}) => {
    const mtnReads: string[] = [];
    const readFile = (p: string) => {
      if (p.endsWith('.mtn')) mtnReads.push(p.slice(dir.length + 1));
      return readInputFile(p);
    };
    const r = await buildProject(path, {
      jobs: 1,
      cacheDir: cache,
      stateDir: state,
      readFile,
      onProgress: o.onProgress,
      compressor: o.compressor,
      lastBuild: false,
    });
    return { r, mtnReads };
  };
  const reference = async () => {
    builtOk(await buildProject(path, { jobs: 1, cacheDir: null }));
    return outputs();
  };
  const verdictFile = () => join(state, 'cache-verdicts', readdirSync(join(state, 'cache-verdicts'))[0]);
  return { dir, path, cache, state, build, reference, outputs, verdictFile };
}

/** Writes a copy of `file` with one translation value changed: same size, other content. */
function changeMotion(file: string, to = file): void {
  const m = readMtn(new Uint8Array(readFileSync(file)));
  m.translation[0] += 0.5;
  writeFileSync(to, writeMtn(m));
}

describe('the motion memo of the local verdicts', () => {
  it('an unchanged rebuild reads no motion file and writes the same outputs', async () => {
    const p = project();
    const first = await p.build();
    expect(builtOk(first.r).cache).toMatchObject({ misses: 2 });
    expect(first.mtnReads.sort()).toEqual(['a.mtn', 'b.mtn']);
    const built = p.outputs();
    const second = await p.build();
    expect(builtOk(second.r).cache).toMatchObject({ hits: 2, verified: 0 });
    expect(second.mtnReads).toEqual([]);
    expect(p.outputs()).toEqual(built);
    // The report's figures come from the memo and the entries: the same as the build that read the files.
    expect(builtOk(second.r).report!.motions.map((m) => [m.frameCount, m.joints])).toEqual(
      builtOk(first.r).report!.motions.map((m) => [m.frameCount, m.joints]),
    );
  }, 60_000);

  it('a changed motion is read again and recompressed; the unchanged one is not read', async () => {
    const p = project();
    await p.build();
    changeMotion(join(p.dir, 'b.mtn'));
    const reference = await p.reference();
    const rebuilt = await p.build();
    expect(builtOk(rebuilt.r).cache).toMatchObject({ hits: 1, misses: 1 });
    expect(rebuilt.mtnReads).toEqual(['b.mtn']);
    expect(p.outputs()).toEqual(reference);
    expect((await p.build()).mtnReads).toEqual([]);
  }, 60_000);

  it("a changed motion goes to the compressor before the unchanged ones' entries are read (the two overlap)", async () => {
    const p = project();
    await p.build();
    // a and b weigh the same and a comes first: b goes first only because a, whose verdict is known, waits.
    changeMotion(join(p.dir, 'b.mtn'));
    let finished = 0;
    const finishedAtCompress: number[] = [];
    const inner = inProcessCompressor();
    const compressor: MotionCompressor = {
      ...inner,
      compress: (mtn, options, resampleTo) => {
        finishedAtCompress.push(finished);
        return inner.compress(mtn, options, resampleTo);
      },
    };
    const rebuilt = await p.build({ compressor, onProgress: () => finished++ });
    expect(builtOk(rebuilt.r).cache).toMatchObject({ hits: 1, misses: 1 });
    expect(finishedAtCompress).toEqual([0]);
    expect(finished).toBe(2);
  }, 60_000);

  it('a memo of another file identity is not used: a file renamed over the motion with its size and mtime is read again', async () => {
    const p = project();
    const a = join(p.dir, 'a.mtn');
    // Whole seconds, so that the replacement can be given exactly the same mtime.
    utimesSync(a, 1_700_000_000, 1_700_000_000);
    await p.build();
    const before = statSync(a);
    changeMotion(a, join(p.dir, 'a.new'));
    utimesSync(join(p.dir, 'a.new'), 1_700_000_000, 1_700_000_000);
    renameSync(join(p.dir, 'a.new'), a);
    expect(statSync(a).size).toBe(before.size);
    expect(statSync(a).mtimeMs).toBe(before.mtimeMs);
    const reference = await p.reference();
    const rebuilt = await p.build();
    expect(rebuilt.mtnReads).toEqual(['a.mtn']);
    expect(builtOk(rebuilt.r).cache).toMatchObject({ hits: 1, misses: 1 });
    expect(p.outputs()).toEqual(reference);
  }, 60_000);

  it('a tampered or foreign memo is ignored: the motion is read and checked again and the build is right', async () => {
    const p = project();
    const reference = await p.reference();
    await p.build();
    const doc = JSON.parse(readFileSync(p.verdictFile(), 'utf8'));
    const aKey = Object.keys(doc.files).find((k) => k.endsWith('a.mtn'))!;
    const row: unknown[] = doc.files[aKey];
    expect(row).toHaveLength(8);
    const [reader, fps, frames, skeleton] = row[7] as [string, number, number, number];
    const joints: unknown[][] = doc.skeletons[skeleton];
    const header = (h: unknown) => JSON.stringify({ ...doc, files: { ...doc.files, [aKey]: [...row.slice(0, 7), h] } });
    // Both motions share the skeleton: b's memo stays good, so b.mtn is not read.
    const skeletonOfA = (js: unknown) =>
      JSON.stringify({
        ...doc,
        skeletons: [...doc.skeletons, js],
        files: { ...doc.files, [aKey]: [...row.slice(0, 7), [reader, fps, frames, doc.skeletons.length]] },
      });
    const variants = [
      header(['another reader', fps, frames, skeleton]),
      header([reader, -1, frames, skeleton]),
      header([reader, fps, 0, skeleton]),
      header([reader, fps, 70000, skeleton]),
      header([reader, fps, 1.5, skeleton]),
      header([reader, fps, frames, doc.skeletons.length]),
      header([reader, fps, frames, -1]),
      header([reader, fps, frames, '0']),
      header(null),
      skeletonOfA([]),
      skeletonOfA('joints'),
      skeletonOfA(joints.map((j, k) => (k === 2 ? [5, ...j.slice(1)] : j))),
      skeletonOfA(joints.map((j, k) => (k === 0 ? [0, ...j.slice(1)] : j))),
      skeletonOfA(joints.map((j, k) => (k === 1 ? [...j.slice(0, 4), 'x'.repeat(40)] : j))),
      skeletonOfA(joints.map((j, k) => (k === 1 ? [j[0], 999, ...j.slice(2)] : j))),
      skeletonOfA(joints.map((j, k) => (k === 1 ? [j[0], j[1], -1, j[3], j[4]] : j))),
      JSON.stringify({ ...doc, files: { ...doc.files, [aKey]: [...row, 1] } }),
    ];
    for (const text of variants) {
      writeFileSync(p.verdictFile(), text);
      const r = await p.build();
      expect(r.mtnReads, text.slice(-200)).toEqual(['a.mtn']);
      expect(builtOk(r.r).cache).toMatchObject({ hits: 2 });
      expect(p.outputs()).toEqual(reference);
    }
    expect(reader).toBe(COMPRESSOR_IDENTITY);
  }, 120_000);

  it('a motion known from the memo that changes before the build reads it is an error naming the file', async () => {
    const p = project();
    await p.build();
    // b's entry gone: the rebuild must read b.mtn to compress it; it changes while a (first) is taken from the cache.
    const doc = JSON.parse(readFileSync(p.verdictFile(), 'utf8'));
    expect(Object.keys(doc.files)).toHaveLength(2);
    const entries = readdirSync(p.cache, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.mt3c'));
    const bEntry = entries.find(
      (f) => readMt3(decodeEntry(f.slice(-69, -5), readFileSync(join(p.cache, f)))!.bytes).name === gvStrCode('b'),
    )!;
    unlinkSync(join(p.cache, bEntry));
    let changed = false;
    const r = await p.build({
      onProgress: () => {
        if (!changed) changeMotion(join(p.dir, 'b.mtn'));
        changed = true;
      },
    });
    expect(r.r.ok).toBe(false);
    if (r.r.ok) return;
    expect(r.r.errors.map((e) => e.message).join('\n')).toMatch(/b\.mtn.*changed while the build ran/);
  }, 60_000);

  it("the verdicts remember each entry file's stamp, so an unchanged rebuild hashes no entry and rewrites no verdict file", async () => {
    const p = project();
    await p.build();
    await p.build();
    const doc = JSON.parse(readFileSync(p.verdictFile(), 'utf8'));
    const stamped = Object.values(doc.verdicts as Record<string, unknown[]>);
    expect(stamped).toHaveLength(2);
    for (const v of stamped) expect(v).toHaveLength(7);
    const before = statSync(p.verdictFile()).mtimeMs;
    const file = readFileSync(p.verdictFile());
    expect(builtOk((await p.build()).r).cache).toMatchObject({ hits: 2, verified: 0, damaged: 0 });
    expect(readFileSync(p.verdictFile())).toEqual(file);
    expect(statSync(p.verdictFile()).mtimeMs).toBe(before);
  }, 60_000);

  it('parseVerdicts keeps a file record whose header is malformed, without the header', () => {
    const h = 'a'.repeat(64);
    const s = parseVerdicts(
      JSON.stringify({
        tool: 'actguy cache verdicts',
        version: 1,
        cache: 'id',
        verdicts: {},
        skeletons: [
          [
            [-1, 0, 0, 0, 'root'],
            [0, 1, 1, 0, 'hip'],
          ],
          [[0, 0, 0, 0, 'root']],
        ],
        files: {
          '/a': [3, '1', '2', '3', '4', h, 9, [COMPRESSOR_IDENTITY, 30, 10, 0]],
          '/b': [3, '1', '2', '3', '4', h, 9, [COMPRESSOR_IDENTITY, 30, 10, 1]],
          '/c': [3, '1', '2', '3', '4', h, 9, [COMPRESSOR_IDENTITY, 30, 10, 0]],
        },
      }),
      'id',
    );
    expect(s.files.get('/a')!.header!.value).toEqual({
      fps: 30,
      frameCount: 10,
      joints: [
        { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' },
        { parent: 0, mirror: 1, part: 1, reserved: 0, name: 'hip' },
      ],
    });
    expect(s.files.get('/c')!.header!.value.joints).toBe(s.files.get('/a')!.header!.value.joints);
    expect(s.files.get('/b')!.sha256).toBe(h);
    expect(s.files.get('/b')!.header).toBeUndefined();
  });
});
