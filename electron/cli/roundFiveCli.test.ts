/**
 * Round 5 of the compressor's held-out checks through the built CLI (docs/compression.md#round-5-2026-12-05-motions-nobody-tuned-on):
 * motions of shared/testing/roundFiveMotions.ts written as .mtn (1-3 frames, 29.97 and 120 fps, sign flips, 179-181
 * deg turns, non-unit quaternions, roots near h16's range, user keys on every frame, locks, trace keys, a deep
 * chain, the most joints the format allows) go through `actguy compress` refined, classic and skeleton-aware,
 * `actguy build` of a project holding them with 1 and 2 jobs, and `actguy export-msh` with 1 and 2 jobs. Each written
 * file is the in-process result's bytes, and that result keeps the guarantee by the independent decoder (the MSH
 * export its own, read back from its payloads); builds and exports give the same bytes whatever `--jobs`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pieceOfWorkSync } from '../testing/pieceOfWork';
import { compressMotion } from '../../shared/compress/compress';
import type { CompressOptions } from '../../shared/compress/types';
import { readMar } from '../../shared/mar/read';
import type { Motion } from '../../shared/motion/types';
import { exportMshAnimation } from '../../shared/msh/export';
import { writeMshResources } from '../../shared/msh/write';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { deepChainMotion, roundFiveCase, wideMotion } from '../../shared/testing/roundFiveMotions';
import { mshViolations } from '../../shared/testing/sweepMotions';
import { toleranceMismatches } from '../../shared/testing/toleranceMismatches';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

/** Seeds whose cases hold 2 and 255 frames, 29.97 and 120 fps, flips, turns, non-unit quaternions, keys, locks, traces. */
const SEEDS = [1, 3, 4, 9];
const motions = new Map<string, Motion>();

/**
 * One CLI run, a piece bounded on its own (pieceOfWorkSync): the cases, synchronous, have no limit on the whole. At
 * load 20 to 27 the compress case (a CLI run and its in-process twin per motion and mode) took 124 s of the 240 s it had
 * (docs/testing.md, "Tests under load, round 6").
 */
function run(...args: string[]): { rc: number; err: string } {
  const r = pieceOfWorkSync(`actguy ${args.join(' ')}`, process.execPath, [cli, ...args], { cwd: dir });
  return { rc: r.status ?? -1, err: r.stderr };
}
const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-round5-'));
  for (const s of SEEDS) motions.set(`r5_${s}`, roundFiveCase(s).motion);
  motions.set('r5_chain', deepChainMotion(90, 32));
  motions.set('r5_wide', wideMotion(2));
  for (const [name, m] of motions) writeFileSync(join(dir, `${name}.mtn`), writeMtn(m));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODES: [string, string[], Omit<CompressOptions, 'name'>][] = [
  ['refined', [], { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005 }],
  [
    'classic',
    ['--classic'],
    { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005, method: 'classic' },
  ],
  [
    'skeleton-aware',
    ['--object-tol', '0.05'],
    { positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005, objectTolerance: 0.05 },
  ],
];

describe('round 5 motions through the CLI', () => {
  it('`actguy compress` in every mode writes the in-process bytes, which keep the guarantee', () => {
    for (const [name, m] of motions) {
      // The file read back is the motion the CLI compresses (a non-unit quaternion is stored as is).
      expect(same(writeMtn(readMtn(file(`${name}.mtn`))), writeMtn(m))).toBe(true);
      // The 1024 joints once (refined): 2-3 s a mode on a loaded machine, and the in-process test has the others.
      for (const [mode, flags, tol] of name === 'r5_wide' ? MODES.slice(0, 1) : MODES) {
        const out = `${name}.${mode}.mt3`;
        const r = run(
          'compress',
          `${name}.mtn`,
          '-o',
          out,
          '--pos-tol',
          '0.005',
          '--rot-tol',
          '0.05',
          '--offset-tol',
          '0.005',
          ...flags,
          '--no-tuning',
          '--name',
          name,
          '--quiet',
        );
        expect(r.rc, `${name} ${mode}: ${r.err}`).toBe(0);
        const o = { ...tol, name };
        const res = compressMotion(m, o);
        expect(same(file(out), res.bytes), `${name} ${mode}: CLI bytes`).toBe(true);
        expect([...guaranteeViolations(m, res), ...toleranceMismatches(m, o, res)], `${name} ${mode}`).toEqual([]);
      }
    }
  }, 0); // each CLI run bounded on its own (pieceOfWorkSync)

  it('`actguy build` gives the same .mar, .sar and report with 1 and 2 jobs, each entry the in-process bytes', () => {
    // The project's rate: every motion at 30 fps (a rate changes no sample).
    const entries = [...motions.keys()]
      .filter((n) => n !== 'r5_wide')
      .map((name, k) => ({
        name,
        mtn: `${name}.b.mtn`,
        tolerances: [
          { position: 0.005, rotationDeg: 0.05, offset: 0.005 },
          { position: 0.005, rotationDeg: 0.05, offset: 0.005, method: 'classic' },
          { position: 0.005, rotationDeg: 0.05, offset: 0.005, object: 0.05 },
        ][k % 3],
      }));
    for (const e of entries) writeFileSync(join(dir, e.mtn), writeMtn({ ...motions.get(e.name)!, fps: 30 }));
    const project = { version: 1, fps: 30, motions: entries, outputs: { mar: 'out/s.mar', sar: 'out/s.sar' } };
    writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project));
    const outs: Uint8Array[][] = [];
    for (const jobs of ['1', '2']) {
      const r = run('build', 'p.actguy.json', '--jobs', jobs, '--no-cache', '--quiet');
      expect(r.rc, r.err).toBe(0);
      outs.push(['out/s.mar', 'out/s.sar'].map(file));
    }
    outs[1].forEach((f, k) => expect(same(f, outs[0][k]), `file ${k} with 2 jobs`).toBe(true));
    const mar = readMar(outs[0][0]);
    entries.forEach((e, i) => {
      const m = { ...motions.get(e.name)!, fps: 30 };
      const t = e.tolerances as {
        position: number;
        rotationDeg: number;
        offset: number;
        method?: 'classic';
        object?: number;
      };
      const o: CompressOptions = {
        name: e.name,
        positionTolerance: t.position,
        rotationToleranceDeg: t.rotationDeg,
        offsetTolerance: t.offset,
        ...(t.method ? { method: t.method } : {}),
        ...(t.object ? { objectTolerance: t.object } : {}),
      };
      const res = compressMotion(m, o);
      expect(same(mar.entries[i].bytes, res.bytes), `${e.name}: the .mar entry`).toBe(true);
      expect(guaranteeViolations(m, res), e.name).toEqual([]);
    });
  }, 0); // each CLI run bounded on its own (pieceOfWorkSync)

  it('`actguy export-msh` writes the in-process export with 1 and 2 jobs, which keeps its promise', () => {
    for (const name of ['r5_1', 'r5_4', 'r5_chain']) {
      const m = motions.get(name)!;
      const w = writeMshResources(
        exportMshAnimation(m, { positionTolerance: 0.005, rotationToleranceDeg: 0.05 }).animation,
      );
      for (const jobs of ['1', '2']) {
        const r = run(
          'export-msh',
          `${name}.mtn`,
          '-o',
          `${name}.${jobs}`,
          '--pos-tol',
          '0.005',
          '--rot-tol',
          '0.05',
          '--jobs',
          jobs,
          '--quiet',
        );
        expect(r.rc, `${name}: ${r.err}`).toBe(0);
        expect(same(file(`${name}.${jobs}.res8`), w.res8.bytes), `${name} res8, jobs ${jobs}`).toBe(true);
        expect(same(file(`${name}.${jobs}.res19`), w.res19.bytes), `${name} res19, jobs ${jobs}`).toBe(true);
      }
      expect(mshViolations(m, 0.005, 0.05), name).toEqual([]);
    }
  }, 0); // each CLI run bounded on its own (pieceOfWorkSync)
});
