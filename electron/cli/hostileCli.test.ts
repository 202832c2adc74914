/**
 * `actguy import` then `actguy compress` through the built CLI on hostile-but-valid BVH files
 * (shared/testing/hostileMotions.ts; docs/testing.md#hostile-motions), in the refined (default), classic and
 * skeleton-aware modes, at the default tolerances and at the precision floor: every run exits 0, writes what
 * compressMotion writes for the imported motion in this process (so the output does not depend on the process,
 * and the guarantee check below and in shared/compress/hostile.test.ts covers the CLI's bytes), with a report
 * free of NaN. Invalid input and tolerances fail with a clear, located message and write nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { readMtn } from '../../shared/mtn/read';
import { guaranteeViolations, hostileBvhCases, longBvh } from '../../shared/testing/hostileMotions';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

function run(...args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}
const bytesOf = (f: string) => new Uint8Array(readFileSync(join(dir, f)));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-hostile-'));
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modes: [string, string[], object][] = [
  ['refined', [], {}],
  ['classic', ['--classic'], { method: 'classic' }],
  ['skeleton-aware', ['--object-tol', '0.5'], { objectTolerance: 0.5 }],
  [
    'refined at the floor',
    ['--pos-tol', '0.003', '--rot-tol', '0.03', '--offset-tol', '0.003'],
    { positionTolerance: 0.003, rotationToleranceDeg: 0.03, offsetTolerance: 0.003 },
  ],
  [
    'classic at the floor',
    ['--classic', '--pos-tol', '0.003', '--rot-tol', '0.03', '--offset-tol', '0.003'],
    { positionTolerance: 0.003, rotationToleranceDeg: 0.03, offsetTolerance: 0.003, method: 'classic' },
  ],
  ['skeleton-aware 0.01 u', ['--object-tol', '0.01'], { objectTolerance: 0.01 }],
];

describe('actguy import + compress on hostile BVH files', () => {
  // The 240 fps file at 240 fps costs the most; the in-process test runs it in every mode.
  for (const c of hostileBvhCases().filter((x) => x.name !== '240fps-at-240'))
    it(
      c.name,
      () => {
        writeFileSync(join(dir, `${c.name}.bvh`), c.text);
        const imp = run('import', `${c.name}.bvh`, '-o', `${c.name}.mtn`, '--fps', String(c.fps ?? 30), '--quiet');
        expect(imp.rc, imp.err).toBe(0);
        const motion = readMtn(bytesOf(`${c.name}.mtn`));
        for (const [label, flags, options] of modes) {
          const args = ['compress', `${c.name}.mtn`, '--quiet', '--fps', String(c.fps ?? 30), ...flags];
          const a = run(...args, '-o', 'a.mt3', '--report', 'a.json');
          expect(a.rc, `${label}: ${a.err}`).toBe(0);
          const r = compressMotion(motion, {
            positionTolerance: 0.5,
            rotationToleranceDeg: 0.5,
            offsetTolerance: 0.5,
            name: c.name,
            ...options,
          });
          expect(Array.from(bytesOf('a.mt3')), `${label}: what compressMotion writes`).toEqual(Array.from(r.bytes));
          expect(guaranteeViolations(motion, r), label).toEqual([]);
          const report = readFileSync(join(dir, 'a.json'), 'utf8');
          // JSON writes NaN and Infinity as null: no number of the report is one.
          expect(report, `${label}: a NaN in the report`).not.toMatch(
            /"[A-Za-z]*(?:[Ee]rror|[Tt]olerance|Bytes|ratio|shell)": null/,
          );
          expect(a.err).not.toMatch(/NaN/);
        }
      },
      180_000,
    );

  it('a 20,000-frame capture imports and compresses in every method, the same bytes as in-process', () => {
    writeFileSync(join(dir, 'long.bvh'), longBvh(20_001));
    expect(run('import', 'long.bvh', '-o', 'long.mtn', '--quiet').rc).toBe(0);
    const motion = readMtn(bytesOf('long.mtn'));
    expect(motion.frameCount).toBe(20_000);
    for (const [flags, options] of [
      [[], {}],
      [['--classic'], { method: 'classic' }],
    ] as const) {
      expect(run('compress', 'long.mtn', '-o', 'long.mt3', '--quiet', ...flags).rc).toBe(0);
      const r = compressMotion(motion, {
        positionTolerance: 0.5,
        rotationToleranceDeg: 0.5,
        offsetTolerance: 0.5,
        name: 'long',
        ...options,
      });
      expect(Array.from(bytesOf('long.mt3'))).toEqual(Array.from(r.bytes));
      for (const ch of r.channels) expect(ch.met, `${ch.kind} ${ch.joint}`).toBe(true);
    }
  }, 300_000);
});

describe('invalid input and tolerances are refused clearly', () => {
  it('a tolerance that is empty, negative, NaN or infinite is a usage error naming the option; 0 is the floor', () => {
    writeFileSync(join(dir, 'two.bvh'), hostileBvhCases().find((c) => c.name === 'two-frames')!.text);
    expect(run('import', 'two.bvh', '-o', 'two.mtn', '--quiet').rc).toBe(0);
    for (const [flag, said] of [
      ['--pos-tol=', 'option --pos-tol needs a number, got ""'],
      ['--rot-tol= ', 'option --rot-tol needs a number, got " "'],
      ['--pos-tol=-1', '--pos-tol must be >= 0'],
      ['--rot-tol=NaN', 'option --rot-tol needs a number, got "NaN"'],
      ['--offset-tol=Infinity', 'option --offset-tol needs a number, got "Infinity"'],
      ['--object-tol=0', '--object-tol must be > 0, got 0'],
      ['--joint-rot-tol=1=-2', '--joint-rot-tol entry "1=-2" is not JOINT=DEGREES'],
    ]) {
      const r = run('compress', 'two.mtn', '-o', 'bad.mt3', flag);
      expect(r.rc, flag).toBe(2);
      expect(r.err, flag).toContain(said);
      expect(existsSync(join(dir, 'bad.mt3')), flag).toBe(false);
    }
    // Tolerance 0 asks for the stored precision: a key on every frame, each one over it named by a warning.
    const z = run('compress', 'two.mtn', '-o', 'zero.mt3', '--pos-tol', '0', '--rot-tol', '0', '--offset-tol', '0');
    expect(z.rc, z.err).toBe(0);
  });

  it('a position past h16 is refused by compress at its channel and frame; one past 32-bit floats by import at its line', () => {
    const spec = (x: string) =>
      `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n0 0 0\n${x} 0 0\n`;
    writeFileSync(join(dir, 'far.bvh'), spec('1e7'));
    expect(run('import', 'far.bvh', '-o', 'far.mtn', '--quiet').rc).toBe(0);
    const c = run('compress', 'far.mtn', '-o', 'far.mt3');
    expect(c.rc).toBe(1);
    expect(c.err).toContain(
      'far.mtn [MTN] (translation frame 1): position cannot be stored: value 10000000 is too large',
    );
    expect(existsSync(join(dir, 'far.mt3'))).toBe(false);
    writeFileSync(join(dir, 'inf.bvh'), spec('1e39'));
    const i = run('import', 'inf.bvh', '-o', 'inf.mtn');
    expect(i.rc).toBe(1);
    expect(i.err).toContain('inf.bvh:15:1: frame 1: joint Hips position x is 1e+39');
    expect(existsSync(join(dir, 'inf.mtn'))).toBe(false);
  });
});
