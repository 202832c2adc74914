/**
 * How many of a failed build's problems `actguy build` prints and the app's Build lists (docs/security.md, round 18):
 * at most MAX_LISTED_PROBLEMS of each file, then one line counting the rest, as docs/limits.md promises. A build finds
 * problems of its own about the files a project names and names the project file in each: before round 18 a received
 * project of 1,000 motions whose files were missing printed 2,000 `cannot read` lines of its one project file.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LISTED_PROBLEMS } from '../../shared/errors';
import { parseSev } from '../../shared/sev/parse';
import { runBuildJob, type BuildJobMessage } from '../project/buildJob';
import { buildProject } from './build';
import { readBuildInput } from './files';
import { diagnosticLines } from './inputs';
import { builtMessages } from '../cli/commands/build';

const ASSETS = join(__dirname, '..', '..', 'assets');

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

const MOTIONS = 150;

/** A project of MOTIONS motions, each naming a motion file that is not there. */
function missingFiles(): { project: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-listed-'));
  dirs.push(dir);
  const motions = Array.from({ length: MOTIONS }, (_, k) => ({ name: `m${k}`, mtn: `gone${k}.mtn` }));
  const text = JSON.stringify({ version: 1, fps: 30, motions, outputs: { mar: 'out/s.mar', sar: 'out/s.sar' } });
  const project = join(dir, 'p.actguy.json');
  writeFileSync(project, text);
  return { project, text };
}

describe("a failed build's problems, listed", () => {
  it('`actguy build` prints at most 100 problems of the project file, then how many more there are', async () => {
    const { project } = missingFiles();
    const r = await buildProject(project, { cacheDir: null, lastBuild: false });
    if (r.ok) throw new Error('built');
    expect(r.errors).toHaveLength(MOTIONS);
    const lines = diagnosticLines(r.errors);
    expect(lines).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(lines[0]).toContain(`(motions[0].mtn): cannot read`);
    expect(lines[MAX_LISTED_PROBLEMS - 1]).toContain(`(motions[${MAX_LISTED_PROBLEMS - 1}].mtn): cannot read`);
    expect(lines[MAX_LISTED_PROBLEMS]).toBe(
      `${project} [PROJECT] (motions[${MOTIONS - 1}].mtn): ${MOTIONS - MAX_LISTED_PROBLEMS} more problems not listed (only the first ${MAX_LISTED_PROBLEMS} are)`,
    );
  });

  it("the app's Build lists as many, and the same lines", async () => {
    const { project, text } = missingFiles();
    const messages: BuildJobMessage[] = [];
    await runBuildJob({ projectPath: project, projectText: text, sevTexts: [], cacheDir: null }, readBuildInput, (m) =>
      messages.push(m),
    );
    const failed = messages.find((m) => m.type === 'failed');
    if (failed?.type !== 'failed') throw new Error('not failed');
    const r = await buildProject(project, { cacheDir: null, lastBuild: false });
    if (r.ok) throw new Error('built');
    expect(failed.errors).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(failed.errors.map((e) => e.message)).toEqual(diagnosticLines(r.errors));
  });

  it("a file reader's own list (100 and its count) is left as it is, and a list within the bound is not cut", async () => {
    const parsed = parseSev('not an event\n'.repeat(300), 'bad.sev');
    expect(parsed.errors).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(diagnosticLines(parsed.errors)).toEqual(parsed.errors.map((e) => e.message));
    const { project, text } = missingFiles();
    const few = JSON.parse(text);
    few.motions = few.motions.slice(0, MAX_LISTED_PROBLEMS + 1);
    writeFileSync(project, JSON.stringify(few));
    const r = await buildProject(project, { cacheDir: null, lastBuild: false });
    if (r.ok) throw new Error('built');
    expect(diagnosticLines(r.errors)).toEqual(r.errors.map((e) => e.message));
  });
});

describe("a successful build's warnings, shown", () => {
  // Mutations that fail: buildJob.ts's builtWarnings without shownBuildWarnings (the app's case); builtMessages
  // without it (the CLI's, also electron/cli/buildMessages.test.ts).
  it('`actguy build` and the app show 100 of 110 motions resampled, and count the rest; the report keeps all 110', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-listed-'));
    dirs.push(dir);
    copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(dir, 'walk_60fps.mtn'));
    const motions = Array.from({ length: 110 }, (_, k) => ({
      name: `m${k}`,
      mtn: 'walk_60fps.mtn',
      resample: true,
      tolerances: { position: 2, rotationDeg: 2 },
    }));
    const text = JSON.stringify({ version: 1, fps: 30, motions, outputs: { mar: 'out/s.mar', sar: 'out/s.sar' } });
    const project = join(dir, 'p.actguy.json');
    writeFileSync(project, text);
    const messages: BuildJobMessage[] = [];
    await runBuildJob({ projectPath: project, projectText: text, sevTexts: [], cacheDir: null }, readBuildInput, (m) =>
      messages.push(m),
    );
    const done = messages.find((m) => m.type === 'done');
    if (done?.type !== 'done') throw new Error('not built');
    expect(done.report.warnings).toHaveLength(110);
    const report = join(dir, 'out', 's.report.json');
    const more = `10 more warnings not listed (only the first ${MAX_LISTED_PROBLEMS} are; the report ${report} keeps them all)`;
    expect(done.warnings).toEqual([...done.report.warnings.slice(0, MAX_LISTED_PROBLEMS), more]);
    const r = await buildProject(project, { cacheDir: null, lastBuild: false, jobs: 1 });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    const lines = builtMessages(r);
    expect(lines).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(lines[MAX_LISTED_PROBLEMS]).toBe(`warning: ${more}`);
  }, 60_000);
});
