/**
 * A build's report does not copy lines of files outside the project's folder (docs/security.md, round 14): the
 * SE-table readers skip a line they cannot use with a warning quoting up to 40 characters of it, so a received
 * project naming `../../.aws/credentials` as its `seTables.seDefine` (or a link in its folder to it) built, and the
 * report it wrote into the received folder held the start of each of that file's lines.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuildJob, type BuildJobMessage } from '../project/buildJob';
import { buildProject } from './build';
import { readBuildInput } from './files';
import { OUTSIDE_DETAIL } from '../outsideQuotes';

const ASSETS = join(__dirname, '..', '..', 'assets');
const SECRET = 'aws_secret_access_key = wJalrXUtnFEMI';
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A home folder with a secret file, and a received project folder inside it whose seDefine is `seDefine`. */
function received(seDefine: (home: string, project: string) => string) {
  const home = mkdtempSync(join(tmpdir(), 'actguy-report-warn-'));
  dirs.push(home);
  mkdirSync(join(home, '.aws'));
  writeFileSync(join(home, '.aws', 'credentials'), `[default]\n${SECRET}\n`);
  const dir = join(home, 'Downloads', 'proj');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
  const project = join(dir, 'p.actguy.json');
  writeFileSync(
    project,
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      seTables: { seDefine: seDefine(home, dir) },
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar', report: 'out/r.json' },
    }),
  );
  return { dir, project };
}

describe("the report keeps no line of a file outside the project's folder", () => {
  for (const [how, seDefine] of [
    ['named by ../', () => '../../.aws/credentials'],
    ['named by its absolute path', (home: string) => join(home, '.aws', 'credentials')],
    [
      'reached through a link inside the folder',
      (home: string, dir: string) => {
        symlinkSync(join(home, '.aws', 'credentials'), join(dir, 'se_define.h'));
        return 'se_define.h';
      },
    ],
  ] as const) {
    it(`actguy build, the file ${how}`, async () => {
      // Mutation killed: build.ts not passing reportWarningFor to assembleBuild (the report holds the secret).
      const { dir, project } = received(seDefine);
      const r = await buildProject(project, { jobs: 1, cacheDir: null, lastBuild: false });
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      const report = readFileSync(join(dir, 'out', 'r.json'), 'utf8');
      expect(report).not.toContain('wJalr');
      expect(report).not.toContain('aws_secret');
      const kept = (JSON.parse(report) as { warnings: string[] }).warnings;
      // One per warning, each with its file and line, none with the line's text.
      expect(kept).toHaveLength(2);
      expect(kept.every((w) => w.endsWith(OUTSIDE_DETAIL) && /credentials|se_define\.h/.test(w))).toBe(true);
      expect(kept.some((w) => /:2:1: /.test(w))).toBe(true);
      // Nor does the terminal since round 34 (outsideQuotes.test.ts): each warning by its file and place.
      expect(r.warnings.map((w) => w.message).join('\n')).not.toContain('wJalr');
    });
  }

  it("the app's Build", async () => {
    // Mutation killed: buildJob.ts not passing reportWarningFor to assembleBuild.
    const { project } = received(() => '../../.aws/credentials');
    const posted: BuildJobMessage[] = [];
    await runBuildJob(
      { projectPath: project, projectText: readFileSync(project, 'utf8'), sevTexts: [], cacheDir: null },
      readBuildInput,
      (m) => posted.push(m),
    );
    const done = posted.at(-1)!;
    if (done.type !== 'done') throw new Error(JSON.stringify(done));
    const report = done.outputs.find((o) => o.path.endsWith('r.json'))!;
    expect(new TextDecoder().decode(report.bytes)).not.toContain('wJalr');
    expect(done.warnings.join('\n')).not.toContain('wJalr');
  });

  it('a table inside the folder is quoted in the report as before', async () => {
    // Mutation killed: reportWarningFor dropping every file's text (the inside case's quote is gone).
    const { dir, project } = received((_home, d) => {
      writeFileSync(join(d, 'se.h'), '#define SE_X 0x101\nnot a directive here\n');
      return 'se.h';
    });
    const r = await buildProject(project, { jobs: 1, cacheDir: null, lastBuild: false });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    const kept = (JSON.parse(readFileSync(join(dir, 'out', 'r.json'), 'utf8')) as { warnings: string[] }).warnings;
    expect(kept.join('\n')).toContain('not a directive here');
  });
});
