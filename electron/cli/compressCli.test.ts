/**
 * `actguy compress` through the built CLI: the refined default, --classic
 * (the original rule, byte for byte what compressMotion's classic method
 * writes), the skeleton-aware --object-tol/--shell, and the per-joint
 * object-space error in --report.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;
const motion = syntheticMotion({ frames: 120, joints: 5, seed: 77, noise: 0.01 });

function run(...args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-compress-'));
  writeFileSync(join(dir, 'walk.mtn'), writeMtn(motion));
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('actguy compress', () => {
  it('writes the refined result by default and the original rule with --classic', () => {
    const base = { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5, name: 'walk' };
    expect(run('compress', 'walk.mtn', '-o', 'r.mt3', '--report', 'r.json').rc).toBe(0);
    expect(run('compress', 'walk.mtn', '-o', 'c.mt3', '--classic', '--report', 'c.json').rc).toBe(0);
    const refined = new Uint8Array(readFileSync(join(dir, 'r.mt3')));
    const classic = new Uint8Array(readFileSync(join(dir, 'c.mt3')));
    expect(Array.from(refined)).toEqual(Array.from(compressMotion(motion, { ...base, method: 'refined' }).bytes));
    expect(Array.from(classic)).toEqual(Array.from(compressMotion(motion, { ...base, method: 'classic' }).bytes));
    expect(refined.length).toBeLessThan(classic.length);
    const rj = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    const cj = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    expect([rj.method, cj.method]).toEqual(['refined', 'classic']);
    // Per-joint object-space error in both modes.
    for (const j of [rj, cj]) {
      expect(j.objectError.joints.map((x: { jointName: string }) => x.jointName)).toEqual(
        motion.joints.map((x) => x.name),
      );
      expect(j.objectError.maxError).toBe(
        Math.max(...j.objectError.joints.map((x: { maxError: number }) => x.maxError)),
      );
    }
  });

  it('bounds the object-space error with --object-tol and --shell and says so', () => {
    const r = run('compress', 'walk.mtn', '-o', 's.mt3', '--object-tol', '1.5', '--shell', '8', '--report', 's.json');
    expect(r.rc).toBe(0);
    expect(r.out).toMatch(
      /object-space error \(shell 8\.00\): max [0-9.]+ at joint \d+ .* \(bound 1\.5, met after \d round/,
    );
    const j = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(j.skeleton).toMatchObject({ objectTolerance: 1.5, shell: 8, met: true });
    expect(j.objectError.maxError).toBeLessThanOrEqual(1.5);
  });

  it('refuses --shell without --object-tol and a non-positive --object-tol', () => {
    const a = run('compress', 'walk.mtn', '-o', 'x.mt3', '--shell', '3');
    expect(a.rc).not.toBe(0);
    expect(a.err).toMatch(/--shell needs --object-tol/);
    const b = run('compress', 'walk.mtn', '-o', 'x.mt3', '--object-tol', '0');
    expect(b.rc).not.toBe(0);
    expect(b.err).toMatch(/--object-tol must be > 0/);
  });
});
