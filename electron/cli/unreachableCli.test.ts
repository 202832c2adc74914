/**
 * `actguy compress` with an object-space bound below what h16 / s12 store (docs/compression.md#the-guarantee):
 * the keys over their per-joint tolerances are said as one summary of three lines (how many keys of how many
 * channels, the worst few with their real frames, the smallest bounds the format holds the motion to), not one
 * line a channel; `--report` lists every such key, and that list is what an independent decoder finds in the
 * written .mt3 (each a key of the file). Through the built CLI, on the bundled capture cmu_01_01.mtn.
 *
 * Since round 4 of the compressor's held-out checks a bound below the motion's floor is held to that floor, with a
 * line saying so before the summary (the summary of one channel, the root translation, remains).
 *
 * Mutations that fail here: compress.ts printing one line a channel again (the three-line count; shownWarnings.test
 * fails too); compressMotion without the floor clamp (the skeleton report, the key count, the lines); the CLI without
 * objectBoundLine (the line count); the report written without its `unreachable` list (null); unreachableSummary's errors taken at the
 * frame after each key; the --json document without its `unreachable` counts (false).
 */
import type { ChannelKind } from '../../shared/compress/types';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMtn } from '../../shared/mtn/read';
import { independentChannel, independentErrors } from '../../shared/testing/independentDecode';
import { independentObjectErrors } from '../../shared/testing/independentFk';
import { readMt3 } from '../../shared/mt3/read';
import type { CompressReportJson } from '../../shared/compress/report';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-unreachable-'));
  copyFileSync(join(root, 'assets', 'cmu_01_01.mtn'), join(dir, 'cmu.mtn'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { rc: number; out: string; err: string[] } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr.split('\n').filter((l) => l !== '') };
}
const warnings = (err: string[]) => err.filter((l) => l.startsWith('warning: cmu.mtn: '));

describe('an object-space bound below the format’s precision', () => {
  it('is held to the floor with a line saying so, then one summary; the report lists every key over as the file has them', () => {
    const r = run('compress', 'cmu.mtn', '-o', 'c.mt3', '--object-tol', '0.005', '--report', 'c.json');
    expect(r.rc, r.err.join('\n')).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as CompressReportJson;
    const u = report.unreachable!;
    const object = u.precisionFloor.object!;
    const shownFloor = object.toPrecision(4).replace(/0+$/, '');
    // Held to the floor (it keyed nearly every frame of 28 channels below it, 19,167 keys, and ended at the floor).
    expect(report.skeleton).toMatchObject({ objectTolerance: object, requestedObjectTolerance: 0.005, met: true });
    expect(report.totalKeys).toBeLessThan(10_000);
    const lines = warnings(r.err);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      `warning: cmu.mtn: object-space bound 0.005 is below ${shownFloor}, the least h16/s12 can hold this motion to ` +
        `(its object-space error with every frame a key): held to ${shownFloor} instead, which every frame meets`,
    );
    expect(lines[1]).toBe(
      `warning: cmu.mtn: tolerance not reachable at ${u.keys} of ${report.totalKeys} keys, in 1 channel ` +
        `(the root translation, at the tolerances the object-space bound ${shownFloor} gives them): ` +
        'h16/s12 cannot store the source that closely there ' +
        '(stored precision limit); every frame that is not a key is within its tolerance',
    );
    expect(lines[2]).toMatch(/^warning: cmu\.mtn: worst: root translation at frame \d+, [0-9.]+ units against /);
    expect(lines[3]).toContain(
      `the smallest object-space bound it can be held to is about ${shownFloor} ` +
        '(its object-space error with every frame a key; the bound asked is 0.005); the report c.json lists every key over its tolerance',
    );
    // The list, against the written bytes decoded independently: every frame over its channel's tolerance is a
    // key of the file and is listed with its error; nothing else is listed.
    const motion = readMtn(new Uint8Array(readFileSync(join(dir, 'cmu.mtn'))));
    const bytes = new Uint8Array(readFileSync(join(dir, 'c.mt3')));
    const ind = independentErrors(motion, bytes);
    let listed = 0;
    for (const ch of report.channels) {
      const { errors: errs, frames } = independentChannel(ind, ch.kind as ChannelKind, ch.joint)!;
      const over = errs.flatMap((e, f) => (e > ch.tolerance + 1e-9 ? [f] : []));
      const keys = new Set(frames);
      for (const f of over) expect(keys.has(f), `${ch.kind} ${ch.joint} frame ${f} is over and not a key`).toBe(true);
      const entry = u.channels.find((c) => c.kind === ch.kind && c.joint === ch.joint);
      expect(entry?.frames ?? [], `${ch.kind} ${ch.joint}`).toEqual(over);
      if (entry) {
        expect(entry.jointName).toBe(ch.jointName);
        entry.frames.forEach((f, k) => expect(Math.abs(entry.errors[k] - errs[f])).toBeLessThan(1e-6));
      }
      listed += over.length;
    }
    expect(u.keys).toBe(listed);
    // And the bound it was held to, by an independent FK of the independently decoded file: every frame within.
    const object3 = independentObjectErrors(motion, readMt3(bytes), report.skeleton!.shell);
    object3.forEach((perJoint, f) =>
      perJoint.forEach((e, j) => expect(e, `frame ${f} joint ${j}`).toBeLessThanOrEqual(object + 1e-9)),
    );
  });

  it('is met just above the floor the summary gives', () => {
    const first = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as CompressReportJson;
    const above = (first.unreachable!.precisionFloor.object! * 1.01).toPrecision(4);
    const r = run('compress', 'cmu.mtn', '-o', 'd.mt3', '--object-tol', above, '--json');
    expect(r.rc, r.err.join('\n')).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.objectError).toMatchObject({ tolerance: Number(above), met: true });
    // Only the root translation's keys stay over (h16 cannot store it to the quarter of the bound it is given).
    expect(doc.unreachable).toMatchObject({ channels: 1, precisionFloor: first.unreachable!.precisionFloor });
    expect(doc.unreachable.keys).toBe(doc.warnings[0].place.keyFrames.length);
  });
});
