/**
 * The app's Build reads an input only while it is the file main's path policy judged (docs/security.md, round 43):
 * main judges every input when Build is pressed and the build worker reads them a moment (or minutes) later, so
 * whoever may write the project's folder could put a link to a file the policy refuses at an input's name in
 * between, which a read by name followed. The swap is made here right before the job starts, after main's judgement.
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSETS } from '../testing/handlerHarness';
import { assetsProjectCopy, inProcessBuild, settleBuild, testProjectHandlers } from '../testing/projectHarness';
import type { BuildJobLauncher } from './buildRunner';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The sample project with its first motion only, and a folder beside it that the policy does not allow. */
function setUp() {
  const { dir, project } = assetsProjectCopy('actguy-judged-', { motions: ['walk'] });
  const outside = mkdtempSync(join(tmpdir(), 'actguy-judged-other-'));
  dirs.push(dir, outside);
  cpSync(join(ASSETS, 'cmu_01_01.mtn'), join(outside, 'secret.mtn'));
  cpSync(join(ASSETS, 'cmu_01_01.sev'), join(outside, 'secret.sev'));
  return { dir, project, outside };
}

/** A launcher that runs `before` (the swap), then the job as the app's in-process test launcher runs it. */
const swappingFirst =
  (before: () => void): BuildJobLauncher =>
  (req, onMessage, onCrash) => {
    before();
    return inProcessBuild(req, onMessage, onCrash);
  };

const swapForLink = (name: string, target: string) => {
  renameSync(name, `${name}.aside`);
  symlinkSync(target, name);
};

/** Builds the sample project with `file` (in its folder) swapped for a link to `secret` (outside) after Build. */
async function buildAfterSwap(file: string, secret: string) {
  const { dir, project, outside } = setUp();
  const { h, openPicked } = testProjectHandlers({
    launchBuild: swappingFirst(() => swapForLink(join(dir, file), join(outside, secret))),
  });
  const projectText = await openPicked(project);
  const started = await h.startBuild({ projectPath: project, projectText });
  const s = await settleBuild(() => h.getBuildStatus({ buildId: started.buildId }));
  return { dir, s, errors: s.errors.map((e) => e.message).join('\n') };
}

describe("the app's Build reads the inputs main judged", () => {
  // Mutations that fail: startBuild without `judged` (the job reads by name: the build is done with the other file);
  // readInputFile without its identity check.
  it('a motion swapped for a link after Build was pressed is not read: failed, nothing written', async () => {
    const { dir, s, errors } = await buildAfterSwap('walk.mtn', 'secret.mtn');
    expect(s.state).toBe('failed');
    expect(errors).toContain(
      `cannot read ${join(dir, 'walk.mtn')}: it was replaced after ActGuy checked it (another file, or a link to one, is at its name now), so it was not read`,
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  // Mutation that fails: readInputFile without its identity check (the text read through the descriptor as well).
  it('a .sev swapped for a link after Build was pressed is not read either', async () => {
    const { dir, s, errors } = await buildAfterSwap('walk.sev', 'secret.sev');
    expect(s.state).toBe('failed');
    expect(errors).toContain(`cannot read ${join(dir, 'walk.sev')}: it was replaced after ActGuy`);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('an input that was a link inside the project when judged is read through it, as before', async () => {
    const { dir, project } = setUp();
    cpSync(join(dir, 'walk.mtn'), join(dir, 'walk.real.mtn'));
    rmSync(join(dir, 'walk.mtn'));
    symlinkSync('walk.real.mtn', join(dir, 'walk.mtn'));
    const { build, openPicked } = testProjectHandlers();
    const s = await build(project, await openPicked(project));
    expect(s.errors).toEqual([]);
    expect(s.state).toBe('done');
  });

  /** Builds the sample project with `swap` made before the job's first `times` launches; answers the launches too. */
  async function buildSwappingAt(times: number, swap: (dir: string, outside: string) => void) {
    const { dir, project, outside } = setUp();
    let launches = 0;
    const { h, openPicked } = testProjectHandlers({
      launchBuild: swappingFirst(() => {
        if (launches++ < times) swap(dir, outside);
      }),
    });
    const projectText = await openPicked(project);
    const started = await h.startBuild({ projectPath: project, projectText });
    const s = await settleBuild(() => h.getBuildStatus({ buildId: started.buildId }));
    return { dir, s, launches, errors: s.errors.map((e) => e.message).join('\n') };
  }

  /** A Save as ActGuy's and most editors' make it: a new file written beside, renamed over the old. */
  const savedByRename = (dir: string) => {
    cpSync(join(dir, 'walk.mtn'), join(dir, 'walk.mtn.new'));
    renameSync(join(dir, 'walk.mtn.new'), join(dir, 'walk.mtn'));
  };

  // Round 44. Mutation that fails: buildRunner without the judgement again (round 43: failed, "replaced").
  it('a motion saved over by renaming after Build was pressed is judged again once, and built', async () => {
    const { dir, s, launches } = await buildSwappingAt(1, savedByRename);
    expect(s.errors).toEqual([]);
    expect(s.state).toBe('done');
    expect(launches).toBe(2);
    expect(existsSync(join(dir, 'out', 'stage.mar'))).toBe(true);
  });

  // Mutations that fail: the judgement again asked more than once (a third launch); a path judged as nothing run
  // again anyway (a second launch for the link).
  it('once only, and never for a link to a file the policy refuses', async () => {
    const again = await buildSwappingAt(5, savedByRename);
    expect([again.s.state, again.launches]).toEqual(['failed', 2]);
    expect(again.errors).toContain(
      `cannot read ${join(again.dir, 'walk.mtn')}: it was replaced after ActGuy checked it`,
    );
    const { dir, s, launches } = await buildAfterSwapCounted();
    expect([s.state, launches]).toEqual(['failed', 1]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  /** As buildAfterSwap('walk.mtn', 'secret.mtn'), counting the launches. */
  function buildAfterSwapCounted() {
    return buildSwappingAt(1, (dir, outside) => swapForLink(join(dir, 'walk.mtn'), join(outside, 'secret.mtn')));
  }
});
