/**
 * `actguy build` says a motion's keys over their tolerance as `actguy compress` does (docs/compression.md#the-guarantee):
 * one summary of three lines a motion (how many keys of how many channels, the worst few with frames that are keys
 * of the written .mt3, the precision floor), not one warning a channel; the report's motion entry lists every such
 * key (`unreachable`), and that list is what an independent decoder finds in the .mt3 the .mar holds. A
 * skeleton-aware motion asked for a bound below its floor is held to the floor, and the build says so. Through the
 * built CLI, on the bundled captures cmu_01_01.mtn and walk.mtn.
 *
 * Mutations that fail here: motionReportEntry's unmetTolerances back to one message a channel (the line count and
 * shape); its `unreachable` left null; compressedMotionOf's errors taken at the frame after each key (the list
 * against the decoder); unmetLinesOf without objectBoundLine (the bound line).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelKind } from '../../shared/compress/types';
import { readMar } from '../../shared/mar/read';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import type { BuildReport } from '../../shared/project/plan';
import { independentChannel, independentErrors } from '../../shared/testing/independentDecode';
import { independentObjectErrors } from '../../shared/testing/independentFk';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;
let out: { rc: number; err: string[] };
let report: BuildReport;

const project = {
  version: 1,
  fps: 30,
  motions: [
    // Below h16's step for the root, under s12's for some rotations: a few channels with keys over.
    { name: 'cmu_tight', mtn: 'cmu.mtn', tolerances: { position: 0.005, rotationDeg: 0.05 } },
    { name: 'walk_loose', mtn: 'walk2.mtn' },
    // A bound far below what h16/s12 can hold the walk to.
    { name: 'walk_object', mtn: 'walk.mtn', tolerances: { object: 0.005 } },
  ],
  outputs: { mar: 'out/s.mar', sar: 'out/s.sar', report: 'out/s.report.json' },
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-unreachable-build-'));
  copyFileSync(join(root, 'assets', 'cmu_01_01.mtn'), join(dir, 'cmu.mtn'));
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk2.mtn'));
  writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project));
  const r = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json'], { cwd: dir, encoding: 'utf8' });
  out = { rc: r.status ?? -1, err: r.stderr.split('\n').filter((l) => l !== '') };
  report = JSON.parse(readFileSync(join(dir, 'out', 's.report.json'), 'utf8')) as BuildReport;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a build with keys over their tolerance', () => {
  it('says one summary a motion, as compress does, and the report keeps the lines', () => {
    expect(out.rc, out.err.join('\n')).toBe(0);
    const cmu = report.motions.find((m) => m.name === 'cmu_tight')!;
    const u = cmu.unreachable!;
    expect(u.channels.length).toBeGreaterThan(1);
    expect(cmu.unmetTolerances).toHaveLength(3);
    expect(cmu.unmetTolerances[0]).toBe(
      `tolerance not reachable at ${u.keys} of ${cmu.keys} keys, in ${u.channels.length} channels ` +
        `(the root translation, ${u.channels.length - 1} joint rotation${u.channels.length === 2 ? '' : 's'}): ` +
        'h16/s12 cannot store the source that ' +
        'closely there (stored precision limit); every frame that is not a key is within its tolerance',
    );
    expect(cmu.unmetTolerances[1]).toMatch(/^worst: (root translation|rotation of joint \d+ \w+) at frame \d+, /);
    expect(cmu.unmetTolerances[2]).toMatch(
      /^h16\/s12 store every frame of this motion within [0-9.]+ units \(root translation\), [0-9.]+ deg \(rotations\): tolerances from there are met everywhere; the build report lists every key over its tolerance \(the motion's "unreachable"\)$/,
    );
    expect(report.motions.find((m) => m.name === 'walk_loose')!.unmetTolerances).toEqual([]);
    expect(report.motions.find((m) => m.name === 'walk_loose')!.unreachable).toBeNull();
    // The terminal: the report's warnings, each after its motion's name; no line a channel.
    const printed = out.err.filter((l) => l.includes('cmu_tight: '));
    expect(printed).toHaveLength(3);
    expect(report.warnings.filter((w) => w.startsWith('cmu_tight: '))).toEqual(
      cmu.unmetTolerances.map((l) => `cmu_tight: ${l}`),
    );
    expect(out.err.some((l) => /not reachable at frame/.test(l))).toBe(false);
  });

  it("lists every key over its tolerance as an independent decoder finds it in the .mar's .mt3", () => {
    const mar = readMar(new Uint8Array(readFileSync(join(dir, 'out', 's.mar'))));
    const motion = readMtn(new Uint8Array(readFileSync(join(dir, 'cmu.mtn'))));
    const cmu = report.motions.find((m) => m.name === 'cmu_tight')!;
    const ind = independentErrors(motion, mar.entries[cmu.index].bytes);
    const tol = (kind: ChannelKind) => (kind === 'rotation' ? 0.05 : 0.005);
    let listed = 0;
    for (const kind of ['translation', 'rotation'] as ChannelKind[])
      for (let j = kind === 'translation' ? -1 : 0; j < (kind === 'translation' ? 0 : motion.joints.length); j++) {
        const { errors, frames } = independentChannel(ind, kind, j)!;
        const over = errors.flatMap((e, f) => (e > tol(kind) + 1e-9 ? [f] : []));
        const keys = new Set(frames);
        for (const f of over) expect(keys.has(f), `${kind} ${j} frame ${f} is over and not a key`).toBe(true);
        const entry = cmu.unreachable!.channels.find((c) => c.kind === kind && c.joint === j);
        expect(entry?.frames ?? [], `${kind} ${j}`).toEqual(over);
        if (entry) {
          expect(entry.jointName).toBe(j >= 0 ? motion.joints[j].name : null);
          entry.frames.forEach((f, k) => expect(Math.abs(entry.errors[k] - errors[f])).toBeLessThan(1e-6));
        }
        listed += over.length;
      }
    expect(cmu.unreachable!.keys).toBe(listed);
  });

  it('holds a skeleton-aware motion asked below its floor to that floor, says so, and every frame meets it', () => {
    const w = report.motions.find((m) => m.name === 'walk_object')!;
    const floor = w.skeleton!.objectTolerance;
    expect(w.skeleton!.requestedObjectTolerance).toBe(0.005);
    expect(floor).toBeGreaterThan(0.1);
    expect(w.skeleton!.met).toBe(true);
    expect(w.unmetTolerances[0]).toMatch(
      /^object-space bound 0\.005 is below [0-9.]+, the least h16\/s12 can hold this motion to \(its object-space error with every frame a key\): held to [0-9.]+ instead, which every frame meets$/,
    );
    const printed = out.err.filter((l) => l.includes('walk_object: '));
    expect(printed[0]).toContain(w.unmetTolerances[0]);
    // Independently: the written motion's object-space error at every frame is within the floor it was held to.
    const mar = readMar(new Uint8Array(readFileSync(join(dir, 'out', 's.mar'))));
    const motion = readMtn(new Uint8Array(readFileSync(join(dir, 'walk.mtn'))));
    const errors = independentObjectErrors(motion, mar.entries[w.index].mt3, w.objectError!.shell);
    errors.forEach((perJoint, f) =>
      perJoint.forEach((e, j) => expect(e, `frame ${f} joint ${j}`).toBeLessThanOrEqual(floor + 1e-9)),
    );
  });

  it('says the same of a motion carried from the last build (a rebuild after another motion changed)', () => {
    const walk = readMtn(new Uint8Array(readFileSync(join(dir, 'walk2.mtn'))));
    walk.translation[0] += 1;
    writeFileSync(join(dir, 'walk2.mtn'), writeMtn(walk));
    const first = readFileSync(join(dir, 'out', 's.report.json'), 'utf8');
    const r = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--json'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).carried).toBe(2);
    const again = JSON.parse(readFileSync(join(dir, 'out', 's.report.json'), 'utf8')) as BuildReport;
    const before = JSON.parse(first) as BuildReport;
    expect(again.warnings).toEqual(before.warnings);
    expect(again.motions.find((m) => m.name === 'cmu_tight')).toEqual(
      before.motions.find((m) => m.name === 'cmu_tight'),
    );
  }, 120_000);
});
