/**
 * How many warnings `actguy compress` and `actguy import` print of one file (docs/security.md, round 18): at most
 * MAX_LISTED_PROBLEMS, then one line counting the rest, as a text reader lists a file's problems (docs/limits.md).
 * Before round 18 a received BVH of 300 joints with long, non-ASCII, alike names printed 899 warning lines, and a
 * motion compressed at a tolerance of 0 one line per channel (2,049 for 1,024 joints). Through the built CLI.
 * Mutations that fail: compress.ts printing result.warnings one a line (the compress case, which since round 3 of
 * the compressor's held-out checks is one summary: docs/compression.md#the-guarantee); import.ts's
 * importWarnings returning the messages unbounded (both import cases); shownWarnings listing all (every case).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_PROBLEMS } from '../../shared/errors';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';

const cli = join(__dirname, '..', '..', 'dist', 'cli', 'actguy.cjs');
let dir: string;

function run(...args: string[]): { rc: number; err: string[] } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, err: r.stderr.split('\n').filter((l) => l !== '') };
}

/** A BVH whose root has `joints` children, each named 40 `é`: renamed, truncated and a duplicate (3 warnings each). */
function alikeNamesBvh(joints: number): string {
  const name = 'é'.repeat(40);
  const lines = [
    'HIERARCHY',
    'ROOT Hips',
    '{',
    'OFFSET 0 0 0',
    'CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
  ];
  for (let j = 0; j < joints; j++)
    lines.push(
      `JOINT ${name}`,
      '{',
      'OFFSET 1 0 0',
      'CHANNELS 3 Zrotation Xrotation Yrotation',
      'End Site',
      '{',
      'OFFSET 1 0 0',
      '}',
      '}',
    );
  lines.push('}', 'MOTION', 'Frames: 2', 'Frame Time: 0.0333333');
  for (let f = 0; f < 2; f++)
    lines.push(
      Array(6 + 3 * joints)
        .fill('0')
        .join(' '),
    );
  return `${lines.join('\n')}\n`;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-shown-'));
  writeFileSync(join(dir, 'names.bvh'), alikeNamesBvh(100));
  writeFileSync(join(dir, 'noisy.mtn'), writeMtn(syntheticMotion({ frames: 60, joints: 150, seed: 7, noise: 0.05 })));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const warningsOf = (err: string[], file: string) => err.filter((l) => l.startsWith(`warning: ${file}: `));

describe('warnings of one file, listed', () => {
  it('`actguy import` of a BVH that has 299 warnings prints 100 and counts the rest, to a file and to a folder', () => {
    const one = run('import', 'names.bvh', '-o', 'names.mtn', '--quiet');
    expect(one.rc).toBe(0);
    const more = `warning: names.bvh: 199 more warnings not listed (only the first ${MAX_LISTED_PROBLEMS} are)`;
    expect(warningsOf(one.err, 'names.bvh')).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(warningsOf(one.err, 'names.bvh')[MAX_LISTED_PROBLEMS]).toBe(more);
    mkdirSync(join(dir, 'out'));
    const batch = run('import', 'names.bvh', '-o', 'out', '--quiet');
    expect(batch.rc).toBe(0);
    expect(warningsOf(batch.err, 'names.bvh')).toEqual(warningsOf(one.err, 'names.bvh'));
  });

  it('`actguy compress` at a tolerance of 0 says its 150 channels over it in one summary; the report keeps all', () => {
    const r = run(
      'compress',
      'noisy.mtn',
      '-o',
      'n.mt3',
      '--rot-tol',
      '0',
      '--pos-tol',
      '0',
      '--offset-tol',
      '0',
      '--report',
      'n.json',
    );
    expect(r.rc).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'n.json'), 'utf8'));
    const all: string[] = report.warnings;
    expect(all.length).toBeGreaterThan(MAX_LISTED_PROBLEMS + 1);
    expect(report.unreachable.channels).toHaveLength(all.length);
    const lines = warningsOf(r.err, 'noisy.mtn');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `^warning: noisy\\.mtn: tolerance not reachable at ${report.unreachable.keys} of \\d+ keys, in ${all.length} channels`,
      ),
    );
    expect(lines[2]).toMatch(/; the report n\.json lists every key over its tolerance$/);
  });
});
