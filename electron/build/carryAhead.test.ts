/**
 * A rebuild reads the last build's outputs off its thread, from the moment it knows what it may carry
 * (lastBuild.ts readCarriedAhead, buildCache.ts readStampedNoFollowAhead; docs/cache.md "What it costs"): it
 * carries each motion's MT3 from the .mar and its entry from the report as they are there, only while both outputs
 * are the very files recorded (opened and still at their paths once read), never through a link, and closes what it
 * opened whether or not the build takes what it read.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { builtOk } from '../testing/buildOutcome';
import { buildProject } from './build';
import { readStampedNoFollowAhead } from './buildCache';
import { readMar } from '../../shared/mar/read';
import { outputStamp, readCarriedAhead, readLastBuild } from './lastBuild';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Two motions built once into a fresh folder (cache and local state beside it); its record and the prepared build. */
async function twoMotionsBuilt() {
  const root = mkdtempSync(join(tmpdir(), 'actguy-ahead-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  for (const f of ['walk.mtn', 'walk_60fps.mtn']) copyFileSync(join(ASSETS, f), join(dir, f));
  const path = join(dir, 'p.actguy.json');
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      fps: 30,
      motions: [
        { name: 'walk', mtn: 'walk.mtn' },
        { name: 'walk_60', mtn: 'walk_60fps.mtn', resample: true },
      ],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
    }),
  );
  builtOk(await buildProject(path, { jobs: 1, cacheDir: join(root, 'cache'), stateDir: join(root, 'state') }));
  const records = join(root, 'state', 'last-builds');
  const record = readLastBuild(join(records, readdirSync(records)[0]))!;
  const prep = prepareBuild(parseProject(readFileSync(path, 'utf8'), path).resolved!, (p) => readFileSync(p));
  if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
  return { root, record, prepared: prep.prepared };
}

/** The descriptors this process holds open (Linux). */
const openFds = () => readdirSync('/proc/self/fd').length;

describe('the last build read ahead', () => {
  it("carries each motion's MT3 from the .mar and its entry from the report, byte for byte, with the recorded figures", async () => {
    const { record, prepared } = await twoMotionsBuilt();
    const ahead = (await readCarriedAhead(record, [0, 1])(prepared))!;
    expect(ahead).toBeDefined();
    expect([...ahead.results.keys()]).toEqual([0, 1]);
    expect([...ahead.fragments.keys()]).toEqual([0, 1]);
    const mar = readMar(new Uint8Array(readFileSync(record.outputs[0].path)));
    const report = readFileSync(record.outputs[2].path);
    for (const k of [0, 1]) {
      const part = record.parts[k]!;
      const [at, length] = part.fragment;
      const result = ahead.results.get(k)!;
      expect(Buffer.from(result.bytes)).toEqual(Buffer.from(mar.entries[k].bytes));
      expect(Buffer.from(ahead.fragments.get(k)!)).toEqual(report.subarray(at, at + length));
      // The entry is the motion's own, whole: it parses on its own and names the motion.
      const entry = JSON.parse(Buffer.from(ahead.fragments.get(k)!).toString('utf8'));
      expect(entry.index).toBe(prepared.motions[k].resolved.index);
      expect(entry.name).toBe(prepared.motions[k].resolved.name);
      expect({ ...result, bytes: null }).toEqual({
        bytes: null,
        totalKeys: part.totalKeys,
        mt3Bytes: mar.entries[k].bytes.byteLength,
        mtnBytes: part.mtnBytes,
        ratio: part.mtnBytes / mar.entries[k].bytes.byteLength,
        ms: 0,
        method: 'refined',
        objectError: null,
        channels: [],
        warnings: part.unmet.map((message) => ({
          kind: 'rotation',
          joint: -1,
          frame: -1,
          error: 0,
          tolerance: 0,
          message,
        })),
      });
      expect(entry.keys).toBe(part.totalKeys);
      expect(entry.mt3Bytes).toBe(mar.entries[k].bytes.byteLength);
    }
  }, 60_000);

  it('carries nothing when an output is replaced after its read began, even by the same bytes', async () => {
    for (const which of [0, 2]) {
      const { record, prepared } = await twoMotionsBuilt();
      const take = readCarriedAhead(record, [0, 1]);
      // The file opened is read to its end; the path then names another file (another inode) of the same bytes.
      const path = record.outputs[which].path;
      writeFileSync(`${path}.other`, readFileSync(path));
      renameSync(`${path}.other`, path);
      expect(await take(prepared)).toBeUndefined();
    }
  }, 60_000);

  it('reads nothing of a file whose stamp is not the one recorded, and closes it', async () => {
    const { record } = await twoMotionsBuilt();
    const mar = record.outputs[0];
    const before = openFds();
    const seen: unknown[] = [];
    const refused = await readStampedNoFollowAhead(mar.path, (stamp) => {
      seen.push(stamp);
      return false;
    });
    expect(refused).toBeUndefined();
    expect(seen).toEqual([outputStamp(mar.path)]);
    expect(openFds()).toBe(before);
    const read = await readStampedNoFollowAhead(mar.path, () => true);
    expect(read?.data.equals(readFileSync(mar.path))).toBe(true);
    expect(read?.stamp).toEqual(mar.stamp);
    expect(openFds()).toBe(before);
  }, 60_000);

  it('closes the outputs it opened when the build never takes them', async () => {
    const { record } = await twoMotionsBuilt();
    const before = openFds();
    readCarriedAhead(record, [0, 1]);
    expect(openFds()).toBe(before + 2);
    // The reads end by themselves: wait until the pool's callbacks ran (a read of a few kilobytes).
    while (openFds() !== before) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(openFds()).toBe(before);
  }, 60_000);

  it('never follows a link put where an output was', async () => {
    const { root, record, prepared } = await twoMotionsBuilt();
    const mar = record.outputs[0].path;
    const real = join(root, 'elsewhere.mar');
    renameSync(mar, real);
    symlinkSync(real, mar);
    expect(await readStampedNoFollowAhead(mar, () => true)).toBeUndefined();
    expect(await readCarriedAhead(record, [0, 1])(prepared)).toBeUndefined();
  }, 60_000);
});
