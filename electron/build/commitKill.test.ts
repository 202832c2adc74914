import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMotion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { commitStepCount, recoverOutputs } from './commit';
import { pieceOfWorkSync } from '../testing/pieceOfWork';

/**
 * `build` commits its outputs as one unit. The real CLI is
 * killed (SIGKILL, no cleanup) at every step of the commit; afterwards the
 * outputs are the complete old set, or a journal is left that the next run
 * completes to the complete new set, and no temp file survives the next run.
 */
const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;
const OUTS = ['stage.mar', 'stage.sar', 'stage.report.json'];
/** The last frame of the motion built (its events up to frame 38 kept). */
const FRAMES = 44;

function project(rotationDeg: number, sev: string): string {
  return JSON.stringify({
    version: 1,
    motions: [{ name: 'walk', mtn: 'walk.mtn', sev, tolerances: { rotationDeg } }],
    seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
    outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
  });
}

function build(projectFile: string, killAt?: number): { rc: number | null; signal: string | null; err: string } {
  const env = { ...process.env, ACTGUY_TEST_KILL_AT_COMMIT_STEP: killAt ? String(killAt) : '' };
  // One job: the motion is compressed on the CLI's own thread, with no worker to start in each of the 60-odd runs.
  // A piece bounded on its own (pieceOfWorkSync): the cases, of 15 to 55 builds, have no limit on the whole. The MSH
  // case went past its 180 s at load 12 to 22 (docs/testing.md, "Tests under load", rounds 1 and 6).
  const args = [cli, 'build', projectFile, '--quiet', '--no-cache', '--jobs', '1'];
  const r = pieceOfWorkSync(
    `actguy build ${projectFile}${killAt ? ` killed at commit step ${killAt}` : ''}`,
    process.execPath,
    args,
    {
      cwd: dir,
      env,
    },
  );
  return { rc: r.status, signal: r.signal, err: r.stderr };
}

const outputs = () => Object.fromEntries(OUTS.map((f) => [f, readFileSync(join(dir, 'out', f)).toString('base64')]));
let OLD: Record<string, string>;
let NEW: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-kill-'));
  for (const f of ['default.sls', 'se_define.h']) copyFileSync(join(root, 'assets', f), join(dir, f));
  // The sample walk cut to its first FRAMES frames, and its SEV to the events on them: every run compresses it (each
  // kill is a build of its own), and what is killed is the commit, whatever the motion's length. 133 frames made the
  // MSH case run past its 180 s limit at load 12 (docs/security.md, round 14).
  const walk = readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'walk.mtn'))));
  const samples = (FRAMES + 1) * walk.joints.length * 4;
  writeFileSync(
    join(dir, 'walk.mtn'),
    writeMtn(
      makeMotion({
        ...walk,
        frameCount: FRAMES,
        translation: walk.translation.slice(0, (FRAMES + 1) * 4),
        translationKeyInfo: walk.translationKeyInfo.slice(0, (FRAMES + 1) * 4),
        rotation: walk.rotation.slice(0, samples),
        offset: walk.offset.slice(0, samples),
        jointKeyInfo: walk.jointKeyInfo.slice(0, samples),
      }),
    ),
  );
  const sev = readFileSync(join(root, 'assets', 'walk.sev'), 'utf8')
    .split('\n')
    .filter((line) => !/^event (\d+)/.test(line) || Number(/^event (\d+)/.exec(line)![1]) <= FRAMES)
    .join('\n');
  writeFileSync(join(dir, 'walk.sev'), sev);
  expect(sev).toContain('event 38 0 17');
  writeFileSync(join(dir, 'new.sev'), sev.replace('event 38 0 17', 'event 40 0 17'));
  writeFileSync(join(dir, 'old.actguy.json'), project(0.5, 'walk.sev'));
  writeFileSync(join(dir, 'new.actguy.json'), project(3, 'new.sev'));
  expect(build('new.actguy.json').rc).toBe(0);
  NEW = outputs();
  expect(build('old.actguy.json').rc).toBe(0);
  OLD = outputs();
  // The two sets differ in every file, so a mixed pair cannot pass for either.
  for (const f of OUTS) expect(NEW[f], f).not.toBe(OLD[f]);
}, 0); // each build bounded on its own (pieceOfWorkSync)
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build killed at every commit step', () => {
  it('leaves the old set, or a journal the next run completes to the new set; never a mix, never an orphan temp', () => {
    const steps = commitStepCount(3, 3);
    const seen = { old: 0, completed: 0 };
    for (let k = 1; k <= steps + 1; k++) {
      const r = build('new.actguy.json', k);
      if (k > steps) {
        // Past the last step: the seam never fires and the build finishes.
        expect(r.rc).toBe(0);
        expect(outputs()).toEqual(NEW);
        break;
      }
      expect(r.signal, `step ${k}: ${r.err}`).toBe('SIGKILL');
      const journal = readdirSync(join(dir, 'out')).includes('stage.mar.actguy-commit');
      if (!journal) {
        expect(outputs(), `step ${k}`).toEqual(OLD);
        seen.old++;
      }
      // What the next run does first: finish (or sweep) what the killed one left.
      recoverOutputs(OUTS.map((f) => join(dir, 'out', f)));
      if (journal) {
        expect(outputs(), `step ${k}`).toEqual(NEW);
        seen.completed++;
      }
      expect(readdirSync(join(dir, 'out')).sort(), `step ${k}`).toEqual([...OUTS].sort());
      // Back to the old set for the next step (what a build of old.actguy.json writes).
      for (const f of OUTS) writeFileSync(join(dir, 'out', f), Buffer.from(OLD[f], 'base64'));
    }
    // Kills before the journal keep the old set; kills after it are completed.
    expect(seen).toEqual({ old: 7, completed: 7 });
  }, 0); // each build bounded on its own (pieceOfWorkSync)

  it('the next build finishes an interrupted commit, says so, and leaves no temp file', () => {
    // Killed between the first and second install: a new .mar beside an old .sar until the next run.
    const r = build('new.actguy.json', 9);
    expect(r.signal).toBe('SIGKILL');
    expect(readFileSync(join(dir, 'out', 'stage.mar')).toString('base64')).toBe(NEW['stage.mar']);
    const next = build('old.actguy.json');
    expect(next.rc).toBe(0);
    expect(next.err).toMatch(/note: an interrupted build was completed/);
    expect(outputs()).toEqual(OLD);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual([...OUTS].sort());
    // Killed while writing temps: the next build sweeps the orphans.
    expect(build('new.actguy.json', 2).signal).toBe('SIGKILL');
    expect(readdirSync(join(dir, 'out')).some((f) => f.includes('.actguy-new.'))).toBe(true);
    expect(build('new.actguy.json').rc).toBe(0);
    expect(outputs()).toEqual(NEW);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual([...OUTS].sort());
  }, 0); // each build bounded on its own (pieceOfWorkSync)
});

describe('a build with outputs.msh killed at every commit step', () => {
  const MSH_OUTS = [...OUTS, 'msh/walk.res8', 'msh/walk.res19', 'msh/walk.nodes.json'];
  const all = () => Object.fromEntries(MSH_OUTS.map((f) => [f, readFileSync(join(dir, 'out', f)).toString('base64')]));
  const withMsh = (rotationDeg: number) => {
    const p = JSON.parse(project(rotationDeg, 'walk.sev'));
    p.outputs.msh = 'out/msh';
    return JSON.stringify(p);
  };

  it("the next build, of other tolerances, completes the set first: a half-installed export is not taken for another tool's files", () => {
    writeFileSync(join(dir, 'msh-a.actguy.json'), withMsh(0.5));
    writeFileSync(join(dir, 'msh-b.actguy.json'), withMsh(3));
    expect(build('msh-a.actguy.json').rc).toBe(0);
    const A = all();
    expect(build('msh-b.actguy.json').rc).toBe(0);
    const B = all();
    // Other tolerances, other key pools: a new .res8 beside the old node list does not match that list's size.
    expect(Buffer.from(B['msh/walk.res8'], 'base64').length).not.toBe(Buffer.from(A['msh/walk.res8'], 'base64').length);
    const steps = commitStepCount(MSH_OUTS.length, MSH_OUTS.length);
    let halfExports = 0;
    expect(build('msh-a.actguy.json').rc).toBe(0);
    // Each round starts from the A set: the previous round's last build wrote it.
    for (let k = 1; k <= steps; k++) {
      const r = build('msh-b.actguy.json', k);
      expect(r.signal, `step ${k}: ${r.err}`).toBe('SIGKILL');
      const now = readdirSync(join(dir, 'out', 'msh'));
      const res8 = readFileSync(join(dir, 'out', 'msh', 'walk.res8')).toString('base64');
      const nodes = readFileSync(join(dir, 'out', 'msh', 'walk.nodes.json')).toString('base64');
      if (res8 === B['msh/walk.res8'] && nodes === A['msh/walk.nodes.json']) halfExports++;
      const next = build('msh-a.actguy.json');
      expect(next.rc, `step ${k}: ${next.err} (left ${now.join(', ')})`).toBe(0);
      expect(all(), `step ${k}`).toEqual(A);
    }
    // The case the early kind checks refused for good before 2026-12-03.
    expect(halfExports).toBeGreaterThan(0);
  }, 0); // each build bounded on its own (pieceOfWorkSync)
});
