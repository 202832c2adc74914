/**
 * The local state folder (ACTGUY_STATE_DIR: the verdicts, the records of last builds) read as untrusted input
 * (docs/security.md, round 18): whatever is there can only cost a build time. A state folder whose links form a loop
 * stopped every build, `actguy build` and the app's Build, with `ActGuy refused to access …: its symbolic links form
 * a loop` (openVerdictStore resolved it unguarded). Mutation that fails: verdicts.ts calling canonicalPath(state)
 * outside its try again (both cases).
 */
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assetsProjectCopy } from '../testing/projectHarness';
import { runBuildJob, type BuildJobMessage } from '../project/buildJob';
import { buildProject } from './build';
import { readBuildInput } from './files';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A state folder that is one of two links leading to each other, below a folder of its own. */
function loopedState(): string {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-state-loop-'));
  dirs.push(dir);
  symlinkSync(join(dir, 'b'), join(dir, 'a'));
  symlinkSync(join(dir, 'a'), join(dir, 'b'));
  return join(dir, 'a', 'state');
}

describe('a state folder whose links form a loop', () => {
  it('`actguy build` builds, and again, with nothing remembered', async () => {
    const copy = assetsProjectCopy('actguy-state-', { motions: ['walk'] });
    dirs.push(copy.dir);
    const stateDir = loopedState();
    for (let k = 0; k < 2; k++) {
      const r = await buildProject(copy.project, { jobs: 1, stateDir });
      expect(r).toMatchObject({ ok: true, upToDate: false });
    }
  });

  it("the app's Build builds", async () => {
    const copy = assetsProjectCopy('actguy-state-', { motions: ['walk'] });
    dirs.push(copy.dir);
    const messages: BuildJobMessage[] = [];
    await runBuildJob(
      { projectPath: copy.project, projectText: copy.text, sevTexts: [], cacheDir: join(copy.dir, '.actguy-cache') },
      readBuildInput,
      (m) => messages.push(m),
      { stateDir: loopedState() },
    );
    expect(messages.map((m) => m.type)).toContain('done');
  });
});
