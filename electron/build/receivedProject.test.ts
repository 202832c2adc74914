/**
 * A project is a file people receive (docs/security.md): one saved into a folder of the user's files must not
 * have a build replace them. By name, an output must end in its kind's extension (`"report": "notes.md"`,
 * `"mar": "thesis.docx"` are refused by validation); by content, an existing `.json` is replaced as the report
 * only when it is a build report (`"report": "package.json"` is refused at the commit). Both through
 * `actguy build` and the app's Build, every file byte-identical; the normal rebuild over its own report works.
 */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashTree } from './hostileJournalsForTests';
import { pieceOfWorkSync } from '../testing/pieceOfWork';
import { ASSETS } from '../testing/handlerHarness';
import { inProcessBuild, testProjectHandlers } from '../testing/projectHarness';
import { buildProject } from './build';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A Downloads folder holding the user's files and a received project naming `outputs`. */
function downloads(outputs: Record<string, string>): { dir: string; project: string; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-received-'));
  dirs.push(dir);
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
  writeFileSync(join(dir, 'notes.md'), '# my notes\n');
  writeFileSync(join(dir, 'thesis.docx'), new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]));
  writeFileSync(join(dir, 'package.json'), '{\n  "name": "mine",\n  "tool": "actguy build"\n}\n');
  writeFileSync(join(dir, 'settings.json'), '// a JSONC settings file\n{ "theme": "dark" }\n');
  const text = JSON.stringify({
    version: 1,
    motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
    seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
    outputs,
  });
  const project = join(dir, 'p.actguy.json');
  writeFileSync(project, text);
  return { dir, project, text };
}

const named = (key: string, ext: string, found: string) =>
  `(${key}): must name a ${ext} file (a build replaces the file it names), found "${found}"`;
const notReport = (file: string) =>
  `refused to replace ${file}: it is already there and is not an ActGuy build report (those start {"tool": "actguy build"); ` +
  "move that file away (a damaged report too) or name another file in the project's outputs.report";

const mshRefusal = (file: string, ext: string) =>
  `refused to replace ${file}: it is already there and is not the ${ext === 'res8' ? 'key pool' : 'frame map'} of an ActGuy MSH export ` +
  "(an export's .nodes.json beside it names it, with its size); move that file away or name another folder in the project's outputs.msh";

const CASES: [string, Record<string, string>, (dir: string) => string][] = [
  [
    '"report": "notes.md"',
    { mar: 's.mar', sar: 's.sar', report: 'notes.md' },
    () => named('outputs.report', '.json', 'notes.md'),
  ],
  ['"mar": "thesis.docx"', { mar: 'thesis.docx', sar: 's.sar' }, () => named('outputs.mar', '.mar', 'thesis.docx')],
  ['"report": "package.json"', { mar: 's.mar', sar: 's.sar', report: 'package.json' }, () => notReport('package.json')],
  [
    '"report": "settings.json"',
    { mar: 's.mar', sar: 's.sar', report: 'settings.json' },
    () => notReport('settings.json'),
  ],
];

describe('actguy build of a received project', () => {
  // Each run is a piece bounded on its own (pieceOfWorkSync), and the cases have no limit on the whole: at load 20 to
  // 27 the case of six builds took 58.0 s of the 60 s it had (docs/testing.md, "Tests under load, round 6").
  const build = (dir: string, ...more: string[]) =>
    pieceOfWorkSync(
      `actguy build p.actguy.json --quiet ${more.join(' ')}`,
      process.execPath,
      [cli, 'build', 'p.actguy.json', '--quiet', ...more],
      { cwd: dir },
    );

  it.each(CASES)(
    'naming %s exits 1 saying why, every file byte-identical',
    (_, outputs, message) => {
      const { dir } = downloads(outputs);
      const before = hashTree(dir);
      const r = build(dir);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(message(dir));
      expect(hashTree(dir)).toEqual(before);
    },
    0, // each build bounded on its own (pieceOfWorkSync)
  );

  // With the build cache on: the refusal comes before any work, so not even the cache folder appears.
  it('rebuilds over its own report, also one cut short or empty; one overwritten entirely is refused until moved away', () => {
    const { dir } = downloads({ mar: 'out/s.mar', sar: 'out/s.sar' });
    const report = join(dir, 'out', 's.report.json');
    expect(build(dir, '--no-cache').status).toBe(0);
    const r = build(dir, '--no-cache');
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(report, readFileSync(report).subarray(0, 40));
    expect(build(dir, '--no-cache').status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).tool).toBe('actguy build');
    writeFileSync(report, ''); // an empty file holds nothing to lose
    expect(build(dir, '--no-cache').status).toBe(0);
    writeFileSync(report, 'damaged');
    const before = hashTree(dir);
    const refused = build(dir, '--no-cache');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(notReport('out/s.report.json'));
    expect(hashTree(dir)).toEqual(before);
    renameSync(report, `${report}.old`);
    expect(build(dir, '--no-cache').status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).tool).toBe('actguy build');
  }, 0); // each build bounded on its own (pieceOfWorkSync)

  it("replaces a .nodes.json only when it is an export's node list: the user's own JSON of that name is refused", () => {
    // "msh": "." exports walk.res8, walk.res19 and walk.nodes.json into the folder of the user's files.
    const { dir } = downloads({ mar: 'out/s.mar', sar: 'out/s.sar', msh: '.' });
    writeFileSync(join(dir, 'walk.nodes.json'), '{\n  "nodes": ["my rig notes"]\n}\n');
    const before = hashTree(dir);
    const r = build(dir, '--no-cache');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      'walk.nodes.json: it is already there and is not the node list of an ActGuy MSH export (those start {"format": "actguy msh-anim nodes"); ' +
        "move that file away or name another folder in the project's outputs.msh",
    );
    expect(hashTree(dir)).toEqual(before);
    // Moved away, the build writes the export; the next build replaces its own node list.
    renameSync(join(dir, 'walk.nodes.json'), join(dir, 'walk.nodes.json.mine'));
    expect(build(dir, '--no-cache').status).toBe(0);
    const first = readFileSync(join(dir, 'walk.nodes.json'), 'utf8');
    expect(JSON.parse(first).format).toBe('actguy msh-anim nodes');
    const again = build(dir, '--no-cache');
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(dir, 'walk.nodes.json'), 'utf8')).toBe(first);
    expect(readFileSync(join(dir, 'walk.nodes.json.mine'), 'utf8')).toContain('my rig notes');
  }, 0); // each build bounded on its own (pieceOfWorkSync)

  it.each(['res8', 'res19'])(
    "replaces a .%s only when the export's node list beside it names it with its size: another tool's is refused",
    (ext) => {
      const { dir } = downloads({ mar: 'out/s.mar', sar: 's.sar', msh: '.' });
      const mine = join(dir, `walk.${ext}`);
      // Another tool's payload of that name: 48 bytes (two keys of 24, or 24 words), no node list beside it.
      writeFileSync(mine, new Uint8Array(48).fill(7));
      const before = hashTree(dir);
      // With the build cache on: the refusal comes before any work, so not even the cache folder appears.
      const r = build(dir);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(mshRefusal(`./walk.${ext}`, ext));
      expect(hashTree(dir)).toEqual(before);
      // Moved away, the build writes the export; the next build replaces its own payload.
      renameSync(mine, `${mine}.mine`);
      expect(build(dir, '--no-cache').status).toBe(0);
      const first = readFileSync(mine);
      const again = build(dir, '--no-cache');
      expect(again.status, again.stderr).toBe(0);
      expect(readFileSync(mine)).toEqual(first);
      // The export's node list beside it, but the payload is not the size it gives (replaced by hand since): refused.
      writeFileSync(mine, Buffer.concat([first, new Uint8Array(48)]));
      const edited = hashTree(dir);
      const refused = build(dir, '--no-cache');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(mshRefusal(`./walk.${ext}`, ext));
      expect(hashTree(dir)).toEqual(edited);
      expect(readFileSync(`${mine}.mine`)).toEqual(Buffer.from(new Uint8Array(48).fill(7)));
    },
    0, // each build bounded on its own (pieceOfWorkSync)
  );
});

describe('a file put at the report path while the build runs', () => {
  // Past the check before the build: the commit checks again, under its lock, before it writes anything.
  const planted = '{"name": "mine"}\n';

  it('is kept by buildProject (actguy build): the commit refuses, nothing is written', async () => {
    const { dir, project } = downloads({ mar: 's.mar', sar: 's.sar', report: 'mine.json' });
    const outcome = buildProject(project, {
      cacheDir: null,
      onProgress: () => writeFileSync(join(dir, 'mine.json'), planted),
    });
    const refused = join(dir, 'mine.json');
    await expect(outcome).rejects.toThrow(`${notReport(refused)}; nothing was written`);
    expect(readFileSync(refused, 'utf8')).toBe(planted);
    expect(readdirSync(dir).filter((f) => /\.(mar|sar)$/.test(f))).toEqual([]);
  }, 30_000);

  it("is kept by the app's Build: it fails naming the file, nothing is written", async () => {
    const { dir, project, text } = downloads({ mar: 's.mar', sar: 's.sar', report: 'mine.json' });
    const refused = join(dir, 'mine.json');
    const { openPicked, build } = testProjectHandlers({
      launchBuild: (req, onMessage, onCrash) => {
        writeFileSync(refused, planted);
        return inProcessBuild(req, onMessage, onCrash);
      },
    });
    await openPicked(project);
    const s = await build(project, text);
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message)).toEqual([`${notReport(refused)}; nothing was written`]);
    expect(readFileSync(refused, 'utf8')).toBe(planted);
    expect(readdirSync(dir).filter((f) => /\.(mar|sar)$/.test(f))).toEqual([]);
  }, 30_000);
});

describe("the app's Build of a received project", () => {
  it.each(CASES)(
    'naming %s fails saying why, every file byte-identical',
    async (_, outputs, message) => {
      const { dir, project, text } = downloads(outputs);
      const before = hashTree(dir);
      const { openPicked, build } = testProjectHandlers();
      expect(await openPicked(project)).toBe(text);
      const s = await build(project, text);
      expect(s.state).toBe('failed');
      expect(s.errors.map((e) => e.message).join('\n')).toContain(
        message(dir).replace(/refused to replace (\S+):/, (_m, f: string) => `refused to replace ${join(dir, f)}:`),
      );
      expect(hashTree(dir)).toEqual(before);
    },
    30_000,
  );

  it("replaces an outputs.msh .res8 only when it is an export's: another tool's is refused, then its own rebuilt over", async () => {
    const { dir, project, text } = downloads({ mar: 'out/s.mar', sar: 's.sar', msh: '.' });
    const mine = join(dir, 'walk.res8');
    writeFileSync(mine, new Uint8Array(48).fill(7));
    const before = hashTree(dir);
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const s = await build(project, text);
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message).join('\n')).toContain(mshRefusal(mine, 'res8'));
    // Refused before any work: not even the build cache's folder appears.
    expect(hashTree(dir)).toEqual(before);
    renameSync(mine, `${mine}.mine`);
    expect((await build(project, text)).state).toBe('done');
    const again = await build(project, text);
    expect(again.errors).toEqual([]);
    expect(again.state).toBe('done');
  }, 30_000);

  it('rebuilds over its own report', async () => {
    const { dir, project, text } = downloads({ mar: 'out/s.mar', sar: 's.sar' });
    const { openPicked, build } = testProjectHandlers();
    const opened = await openPicked(project);
    expect(opened).toBe(text);
    expect((await build(project, text)).state).toBe('done');
    const again = await build(project, text);
    expect(again.errors).toEqual([]);
    expect(again.state).toBe('done');
    expect(JSON.parse(readFileSync(join(dir, 'out', 's.report.json'), 'utf8')).tool).toBe('actguy build');
  }, 30_000);
});
