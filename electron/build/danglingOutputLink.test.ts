/**
 * Outputs in a folder reached through a link that leads to no folder (docs/security.md, round 18): a project whose
 * `out` was a link to `build/out`, not made yet (a checkout that keeps the link and not the folder), compressed every
 * motion and then stopped with a bare `actguy build: …/out: no such file or directory`, out of the commit's check of
 * the outputs' folders. It is refused now before any work, in the project's words, by `actguy build` and the app's
 * Build, and a link that comes to lead nowhere while the build compresses is refused by the commit in its own words.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assetsProjectCopy, testProjectHandlers } from '../testing/projectHarness';
import { buildProject } from './build';
import { commitOutputs } from './commit';
import { OutputWriteError } from './outputWriteError';
import { inProcessCompressor, type MotionCompressor } from './compressPool';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** The sample project with one motion, its `out` a link to `build/out`, which is not there. */
function linkedOut() {
  const copy = assetsProjectCopy('actguy-dangling-', { motions: ['walk'] });
  dirs.push(copy.dir);
  symlinkSync('build/out', join(copy.dir, 'out'));
  return copy;
}

const LEADS_NOWHERE =
  'out is a link that leads to no folder (no such file or directory); make the folder it leads to, or name another folder for the outputs';

describe('outputs in a folder reached through a link that leads nowhere', () => {
  // Mutation that fails: outputsRefusedBeforeBuild without outputFolderProblem (the build compresses, then the
  // commit refuses: `compressed` is 1 and the message is the commit's).
  it('`actguy build` refuses it before compressing anything, naming the project key', async () => {
    const { dir, project } = linkedOut();
    const inner = inProcessCompressor();
    let compressed = 0;
    const compressor: MotionCompressor = {
      ...inner,
      compress: (...a) => (compressed++, inner.compress(...a)),
      verifyOrCompress: (...a) => (compressed++, inner.verifyOrCompress(...a)),
    };
    const r = await buildProject(project, { cacheDir: null, lastBuild: false, compressor });
    if (r.ok) throw new Error('built');
    expect(r.errors.map((e) => e.message)).toEqual([
      `${project} [PROJECT] (outputs.report): cannot write ${join(dir, 'out', 'stage.report.json')}: ${join(dir, LEADS_NOWHERE)}`,
    ]);
    expect(compressed).toBe(0);
    expect(readdirSync(dir)).not.toContain('build');
  });

  // Mutation that fails: prepareTarget (commit.ts) calling statSync on the link unguarded, as before.
  it('the commit refuses it in its own words when the link comes to lead nowhere after the check', () => {
    const { dir } = linkedOut();
    const mar = join(dir, 'out', 'stage.mar');
    let thrown: unknown;
    try {
      commitOutputs([{ path: mar, bytes: new Uint8Array([1]) }]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(OutputWriteError);
    expect((thrown as Error).message).toBe(`cannot write ${mar}: ${join(dir, LEADS_NOWHERE)}; nothing was written`);
  });

  it("the app's Build refuses it before any work; made, the folder the link leads to takes the outputs", async () => {
    const { dir, project, text } = linkedOut();
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const refused = await build(project, text);
    expect(refused.state).toBe('failed');
    expect(refused.errors.map((e) => e.message)).toContain(
      `cannot write ${join(dir, 'out', 'stage.report.json')}: ${join(dir, LEADS_NOWHERE)}`,
    );
    mkdirSync(join(dir, 'build', 'out'), { recursive: true });
    const built = await build(project, text);
    expect(built.state).toBe('done');
    expect(readdirSync(join(dir, 'build', 'out')).sort()).toEqual(['stage.mar', 'stage.report.json', 'stage.sar']);
  });
});

// Round 48 (docs/security.md): a build's .mar and .sar (no kind to check, unlike the report) replaced a link to nothing
// at their names without a word, the link lost; Export All refused it (round 47). Mutation that fails: otherKindProblem
// answering nothing for an output of no kind (each build is done and the links are gone).
describe('a link to nothing at a build output of no kind', () => {
  it("`actguy build`, the app's Build and the commit refuse it, naming the link; nothing is written", async () => {
    const copy = assetsProjectCopy('actguy-dangling-out-', { motions: ['walk'] });
    dirs.push(copy.dir);
    const { dir, project, text } = copy;
    mkdirSync(join(dir, 'out'));
    const mar = join(dir, 'out', 'stage.mar');
    const sar = join(dir, 'out', 'stage.sar');
    symlinkSync('gone.mar', mar);
    symlinkSync('gone.sar', sar);
    const refused = (path: string, to: string) =>
      `refused to replace ${path}: it is a symbolic link to ${to}, which is not there; move that link away or write the output under another name`;
    const cli = await buildProject(project, { cacheDir: null, lastBuild: false });
    if (cli.ok) throw new Error('built');
    expect(cli.errors.map((e) => e.message)).toEqual([
      `${project} [PROJECT] (outputs.mar): ${refused(mar, 'gone.mar')}`,
      `${project} [PROJECT] (outputs.sar): ${refused(sar, 'gone.sar')}`,
    ]);
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const app = await build(project, text);
    expect(app.state).toBe('failed');
    expect(app.errors.map((e) => e.message)).toEqual([refused(mar, 'gone.mar'), refused(sar, 'gone.sar')]);
    // The commit, under its lock, for a link put there after the checks.
    expect(() => commitOutputs([{ path: mar, bytes: new Uint8Array([1]) }])).toThrow(
      `${refused(mar, 'gone.mar')}; nothing was written`,
    );
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['stage.mar', 'stage.sar']);
    expect([lstatSync(mar).isSymbolicLink(), lstatSync(sar).isSymbolicLink()]).toEqual([true, true]);
  });

  // Round 49: danglingLinkReason words any link at the name, and the build refused a link to a file there as one to
  // nothing (`… it is a symbolic link to ../real.mar, which is not there`). Mutation that fails: danglingOutputProblem
  // (fsErrors.ts) without its look at what the link leads to.
  // Round 49 built it (the link replaced by the .mar, `real.mar` left as it was, without a word); round 50 refuses it
  // in its own words, not as a link to nothing. Mutation that fails: otherKindProblem without linkedFileOutputProblem
  // (the build succeeds and the link is replaced by a file).
  it('a link at an output that leads to a file is refused as such, not as one to nothing; nothing is written', async () => {
    const copy = assetsProjectCopy('actguy-linked-out-', { motions: ['walk'] });
    dirs.push(copy.dir);
    mkdirSync(join(copy.dir, 'out'));
    writeFileSync(join(copy.dir, 'real.mar'), 'old');
    symlinkSync('../real.mar', join(copy.dir, 'out', 'stage.mar'));
    const r = await buildProject(copy.project, { cacheDir: null, lastBuild: false });
    expect(r.ok ? [] : r.errors.map((e) => e.message)).toEqual([
      `${copy.project} [PROJECT] (outputs.mar): refused to replace ${join(copy.dir, 'out', 'stage.mar')}: it is a symbolic link to ../real.mar; an output is written neither through a link (the file it leads to was not named for it) nor over it (the link would be lost); remove the link, name the file it leads to, or write the output under another name`,
    ]);
    expect(readlinkSync(join(copy.dir, 'out', 'stage.mar'))).toBe('../real.mar');
    expect(readFileSync(join(copy.dir, 'real.mar'), 'utf8')).toBe('old');
  });
});
