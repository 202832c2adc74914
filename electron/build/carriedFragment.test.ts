/**
 * What a rebuild carries of the last build's report is one motion's entry exactly (lastBuild.ts readCarriedAhead, round 22):
 * a record edited so that a motion's entry runs on over the next one's (its head, figures and closing brace all still
 * there) carries nothing, and the outputs are what a build from nothing writes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareBuild } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { buildProject } from './build';
import { builtOk } from '../testing/buildOutcome';
import { readCarriedAhead, readLastBuild } from './lastBuild';

const ASSETS = join(__dirname, '..', '..', 'assets');
const OUTPUTS = ['stage.mar', 'stage.sar', 'stage.report.json'];
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** Two motions (the second resampled and sped up) in a fresh folder, with its cache and state folders beside it. */
function twoMotions() {
  const root = mkdtempSync(join(tmpdir(), 'actguy-fragment-'));
  dirs.push(root);
  const dir = join(root, 'project');
  mkdirSync(dir);
  for (const f of ['walk.mtn', 'walk_60fps.mtn']) copyFileSync(join(ASSETS, f), join(dir, f));
  const path = join(dir, 'p.actguy.json');
  const write = (speed: number) =>
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        fps: 30,
        motions: [
          { name: 'walk', mtn: 'walk.mtn' },
          { name: 'walk_60', mtn: 'walk_60fps.mtn', resample: true, speed },
        ],
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'out/stage.report.json' },
      }),
    );
  write(2);
  const options = { jobs: 1, cacheDir: join(root, 'cache'), stateDir: join(root, 'state') };
  const records = join(root, 'state', 'last-builds');
  const record = () => readdirSync(records).map((f) => join(records, f))[0];
  return { root, dir, path, write, options, record };
}

describe("a record's report fragments", () => {
  it("a motion's fragment stretched over the next motion's entry carries nothing", async () => {
    const { root, dir, path, write, options, record: recordFile } = twoMotions();
    builtOk(await buildProject(path, options));
    const record = recordFile();
    const doc = JSON.parse(readFileSync(record, 'utf8'));
    // walk's entry, stretched to the end of walk_60's: it opens with walk's head, holds walk's figures and ends with
    // the closing brace of an entry. Every stamp and digest is as the build wrote it.
    const [, at0] = doc.parts[0];
    const [, at1, length1] = doc.parts[1];
    doc.parts[0][2] = at1 + length1 - at0;
    writeFileSync(record, JSON.stringify(doc));
    // walk_60's speed: walk's own part is as it was, so it is carried when its fragment holds.
    write(3);
    const again = builtOk(await buildProject(path, options));
    expect(again.upToDate).toBe(false);
    expect(again.carried).toBe(0);
    const outDir = join(root, 'reference');
    builtOk(await buildProject(path, { jobs: 1, cacheDir: null, outDir }));
    const comparable = (folder: string) =>
      OUTPUTS.map((f, k) => {
        const bytes = readFileSync(join(folder, f));
        if (k < 2) return bytes;
        const report = JSON.parse(bytes.toString('utf8'));
        delete report.outputs;
        return report;
      });
    expect(comparable(join(dir, 'out'))).toEqual(comparable(outDir));
  }, 60_000);

  it("of every span of the report from an opening brace to a closing one, only the motion's own entry is carried", async () => {
    const { path, options, record: recordFile } = twoMotions();
    builtOk(await buildProject(path, options));
    const record = readLastBuild(recordFile())!;
    const prep = prepareBuild(parseProject(readFileSync(path, 'utf8'), path).resolved!, (p) => readFileSync(p));
    if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
    const report = readFileSync(record.outputs[2].path);
    const opening: number[] = [];
    const closing: number[] = [];
    report.forEach((b, i) => (b === 0x7b ? opening : b === 0x7d ? closing : []).push(i));
    const carriedSpans: string[] = [];
    for (const k of [0, 1]) {
      const own = record.parts[k]!.fragment;
      for (const at of opening)
        for (const end of closing) {
          if (end <= at) continue;
          const fragment: [number, number] = [at, end - at + 1];
          const parts = record.parts.map((p, j) => (j === k ? { ...p!, fragment } : p));
          if (await readCarriedAhead({ ...record, parts }, [k])(prep.prepared))
            carriedSpans.push(`${k}: ${fragment.join(' ')}`);
        }
      // The own entry is among the spans tried, and carried.
      expect(carriedSpans).toContain(`${k}: ${own.join(' ')}`);
    }
    expect(carriedSpans).toEqual(record.parts.map((p, k) => `${k}: ${p!.fragment.join(' ')}`));
  }, 60_000);
});
