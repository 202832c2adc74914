/** `actguy info` on a project (every entry's effective duration, as the build computes it) and on a .mar (durations at a rate). */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeMar } from '../../../shared/mar/write';
import { randomMt3 } from '../../../shared/mt3/testFixtures';
import { writeMt3 } from '../../../shared/mt3/write';
import { prepareBuild } from '../../../shared/project/plan';
import { parseProject } from '../../../shared/project/validate';
import { gvStrCode } from '../../../shared/strcode';
import { readBuildInput } from '../../build/files';
import { infoCommand } from './info';

const ASSETS = join(__dirname, '..', '..', '..', 'assets');
const dir = mkdtempSync(join(tmpdir(), 'actguy-info-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
for (const f of [
  'walk.mtn',
  'walk_60fps.mtn',
  'walk.sev',
  'cmu_01_01.mtn',
  'cmu_01_01.sev',
  'default.sls',
  'se_define.h',
  'sample.actguy.json',
])
  copyFileSync(join(ASSETS, f), join(dir, f));

async function info(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const e = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const l = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await infoCommand.run(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    e.mockRestore();
    l.mockRestore();
  }
}

/** The line `info` prints for an archive entry. */
function entryLine(out: string, index: number): string {
  const line = out.split('\n').find((l) => l.startsWith(`  [${index}] `));
  if (!line) throw new Error(`no line for entry ${index} in\n${out}`);
  return line;
}

describe('actguy info on a project', () => {
  it('lists every motion and alias with the effective duration the build report gives it', async () => {
    const path = join(dir, 'sample.actguy.json');
    const r = await info([path]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('project: 4 motions, 1 alias, played at 30 fps');
    // The build's own numbers (prepareBuild fills the report's durationMs).
    const prep = prepareBuild(parseProject(readFileSync(path, 'utf8'), path).resolved!, readBuildInput);
    if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
    const expected = [
      ...prep.prepared.motions.map((m) => [m.resolved.name, m.durationMs] as const),
      ...prep.prepared.aliases.map((a) => [a.resolved.name, a.durationMs] as const),
    ];
    expect(expected.map(([name]) => name)).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60', 'walk_slow']);
    expected.forEach(([name, ms], i) =>
      expect(entryLine(r.out, i)).toMatch(new RegExp(`^  \\[${i}\\] ${name} .*: ${ms} ms$`)),
    );
    // By the rule itself: walk is frames 0..N at 30 fps; cmu_01_01 plays 1.25 times as fast; the alias at half speed; walk_60 resampled.
    const walkFrames = Number(/frames 0\.\.(\d+),/.exec(entryLine(r.out, 0))![1]);
    expect(entryLine(r.out, 0)).toContain(`speed 1: ${Math.round((walkFrames / 30) * 1000)} ms`);
    expect(entryLine(r.out, 4)).toMatch(
      new RegExp(
        `alias of walk, frames 0\\.\\.${walkFrames}, speed 0\\.5: ${Math.round((walkFrames / 30 / 0.5) * 1000)} ms$`,
      ),
    );
    const cmuFrames = Number(/frames 0\.\.(\d+),/.exec(entryLine(r.out, 1))![1]);
    expect(entryLine(r.out, 1)).toContain(`speed 1.25: ${Math.round((cmuFrames / 30 / 1.25) * 1000)} ms`);
    expect(entryLine(r.out, 3)).toMatch(/frames 0\.\.\d+ \(resampled from 60 fps, 0\.\.\d+\), speed 2: \d+ ms$/);
  });

  it('shows every entry it can and names the problem of each one it cannot (exit status 1)', async () => {
    const project = JSON.parse(readFileSync(join(ASSETS, 'sample.actguy.json'), 'utf8'));
    project.motions[2].mtn = 'missing.mtn';
    delete project.motions[3].resample; // a 60 fps motion the project does not resample
    project.aliases.push({ name: 'rough_fast', target: 'walk_rough', speed: 2 });
    const path = join(dir, 'broken.actguy.json');
    writeFileSync(path, JSON.stringify(project));
    const r = await info([path]);
    expect(r.code).toBe(1);
    expect(entryLine(r.out, 0)).toMatch(/^  \[0\] walk .*speed 1: \d+ ms$/);
    expect(entryLine(r.out, 2)).toMatch(/^  \[2\] walk_rough +speed 1: no duration: cannot read .*missing\.mtn/);
    expect(entryLine(r.out, 3)).toMatch(
      /^  \[3\] walk_60 .*no duration: motion walk_60: .*walk_60fps\.mtn is 60 fps but the project plays motions at 30 fps/,
    );
    expect(entryLine(r.out, 4)).toMatch(/^  \[4\] walk_slow .*speed 0\.5: \d+ ms$/);
    expect(entryLine(r.out, 5)).toMatch(
      /^  \[5\] rough_fast +alias of walk_rough, speed 2: no duration: its motion walk_rough has no duration/,
    );
    expect(r.err).toContain('3 entries have no effective duration');
  });

  it('a project with errors lists them and exits 1', async () => {
    const path = join(dir, 'bad.actguy.json');
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', speed: 0 }],
        outputs: { mar: 'o.mar', sar: 'o.sar' },
      }),
    );
    const r = await info([path]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.actguy\.json \[PROJECT\] \(motions\[0\]\.speed\)/);
  });
});

describe('actguy info on a .mar', () => {
  it("prints each entry's duration at 30 fps by default, says why, and takes --fps", async () => {
    const path = join(dir, 'stage.mar');
    writeFileSync(
      path,
      writeMar([
        writeMt3(randomMt3(1, { numFrames: 30, numJoints: 2, name: gvStrCode('walk') })),
        writeMt3(randomMt3(2, { numFrames: 10, numJoints: 2, name: gvStrCode('stand') })),
      ]),
    );
    const r = await info([path]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('durations at 30 fps: an MT3 carries no frame rate');
    expect(entryLine(r.out, 0)).toMatch(/30 frames, .*, duration 1000 ms$/);
    expect(entryLine(r.out, 1)).toMatch(/10 frames, .*, duration 333 ms$/);
    const at60 = await info([path, '--fps', '60']);
    expect(at60.out).toContain('durations at 60 fps');
    expect(entryLine(at60.out, 0)).toMatch(/duration 500 ms$/);
    expect(entryLine(at60.out, 1)).toMatch(/duration 167 ms$/);
    await expect(info([path, '--fps', '0'])).rejects.toThrow(/--fps must be a number above 0/);
  });
});
