import {
  copyFileSync,
  existsSync,
  mkdirSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readMar } from '../../shared/mar/read';
import { readSar } from '../../shared/sar/read';
import { parseSevStrict } from '../../shared/sev/parse';
import { gvStrCode } from '../../shared/strcode';
import { describeSar } from '../../shared/sar/describe';
import { buildProject } from './build';
import { findProjectOfSar, loadSarDisplayNames } from './sarNames';
import { commitOutputs } from './commit';
import { readBuildInput } from './files';
import { runBuildJob, type BuildJobMessage } from '../project/buildJob';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function bytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A copy of the bundled sample in a temp folder, so the test can break it. */
function sampleCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'actguy-build-'));
  dirs.push(dir);
  for (const f of [
    'walk.mtn',
    'walk_60fps.mtn',
    'walk.sev',
    'cmu_01_01.mtn',
    'cmu_01_01.sev',
    'default.sls',
    'se_define.h',
  ])
    copyFileSync(join(ASSETS, f), join(dir, f));
  const project = JSON.parse(readFileSync(join(ASSETS, 'sample.actguy.json'), 'utf8'));
  project.outputs = { mar: 'out/stage.mar', sar: 'out/stage.sar' };
  writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project, null, 2));
  return dir;
}

/** Every file under `dir` with its bytes (base64), folders left out: proves nothing changed. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of listing(dir)) {
    const p = join(dir, f);
    if (!statSync(p).isDirectory()) out[f] = readFileSync(p).toString('base64');
  }
  return out;
}

/** Files and folders under dir; the build cache (not an output) is left out. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => !f.startsWith('.actguy-cache'))
    .sort();
}

describe('buildProject', () => {
  it('builds the bundled sample project out of the box', async () => {
    const out = mkdtempSync(join(tmpdir(), 'actguy-sample-'));
    dirs.push(out);
    const r = await buildProject(join(ASSETS, 'sample.actguy.json'), { outDir: out, cacheDir: null });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    expect(listing(out)).toEqual(['stage.mar', 'stage.report.json', 'stage.sar']);
    // every motion of the project is in both archives, in project order
    const project = JSON.parse(readFileSync(join(ASSETS, 'sample.actguy.json'), 'utf8'));
    const mar = readMar(bytes(join(out, 'stage.mar')));
    const sar = readSar(bytes(join(out, 'stage.sar')));
    expect(sar.entries.map((e) => e.name)).toEqual(mar.entries.map((e) => e.name));
    // motions in project order, then the aliases
    expect(mar.entries.map((e) => e.name)).toEqual(
      [...project.motions, ...project.aliases].map((m: { name: string }) => gvStrCode(m.name)),
    );
    expect(mar.entries[0].name).toBe(gvStrCode('walk'));
    const sev = parseSevStrict(readFileSync(join(ASSETS, 'walk.sev'), 'utf8'));
    expect(sar.entries[0].events.map((e) => [e.frame, e.se, e.joint === 0xff ? null : e.joint])).toEqual(
      sev.events.map((e) => [e.frame, e.se, e.joint]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    // the floor variants of the footsteps reach the SAR: 8 different codes for SE 0
    expect(new Set(sar.entries[0].seCodes.subarray(0, 8)).size).toBe(8);
    // info: codes, motions and joints resolved back to names through the project
    const text = describeSar(
      bytes(join(out, 'stage.sar')),
      loadSarDisplayNames({ project: join(ASSETS, 'sample.actguy.json') }),
    );
    expect(text).toContain('[0] walk (0x3d11eb): 10 events, 3 SE slots');
    expect(text).toContain('se 2: SE_CLOTH_SWISH (0x0110)');
    expect(text).toMatch(/frame +5 {2}se 0 SE_FOOT_L_CONC \(0x0200\) \+7 floor variants {2}joint 17 \(LeftFoot\)/);
    expect(text).toContain('walk_rough (0x9ddcdc): 0 events, 0 SE slots');
    // after a build, the report beside the .sar leads `info` back to the project
    expect(findProjectOfSar(join(out, 'stage.sar'))).toEqual({
      project: join(ASSETS, 'sample.actguy.json'),
      report: join(out, 'stage.report.json'),
    });
    expect(findProjectOfSar(join(ASSETS, 'nothing.sar'))).toBeUndefined();
  });

  it('findProjectOfSar takes from a report only the absolute path the tool writes, with no control character (`info` prints it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-report-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'stage.sar'), '');
    const report = (projectAbsolute: string) =>
      writeFileSync(join(dir, 'stage.report.json'), JSON.stringify({ tool: 'actguy build', projectAbsolute }));
    // A file of that name sent along with the report: it exists, and its name set the terminal's title when printed.
    const escaped = join(dir, 'p\u001b]0;owned\u0007\u009b2J.actguy.json');
    writeFileSync(escaped, '{}');
    report(escaped);
    expect(findProjectOfSar(join(dir, 'stage.sar'))).toBeUndefined();
    // Relative: it was looked for wherever `info` runs (this test runs where package.json is).
    expect(existsSync('package.json')).toBe(true);
    report('package.json');
    expect(findProjectOfSar(join(dir, 'stage.sar'))).toBeUndefined();
    const plain = join(dir, 'p.actguy.json');
    writeFileSync(plain, '{}');
    report(plain);
    expect(findProjectOfSar(join(dir, 'stage.sar'))).toEqual({
      project: plain,
      report: join(dir, 'stage.report.json'),
    });
  });

  it('a good project writes a .mar and .sar that read back with matching names, counts and events', async () => {
    const dir = sampleCopy();
    const r = await buildProject(join(dir, 'p.actguy.json'));
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
    expect(r.written.map((p) => p.slice(dir.length + 1))).toEqual([
      'out/stage.mar',
      'out/stage.sar',
      'out/stage.report.json',
    ]);
    const mar = readMar(bytes(join(dir, 'out/stage.mar')));
    const sar = readSar(bytes(join(dir, 'out/stage.sar')));
    const names = ['walk', 'cmu_01_01', 'walk_rough', 'walk_60', 'walk_slow'];
    expect(mar.entries.map((e) => e.name)).toEqual(names.map(gvStrCode));
    // walk_60fps.mtn (264 frames at 60 fps) is resampled to the project's 30 fps; the alias walk_slow is walk's data
    expect(mar.entries.map((e) => [e.mt3.numFrames, e.mt3.rotations.length])).toEqual([
      [132, 23],
      [687, 31],
      [132, 23],
      [132, 23],
      [132, 23],
    ]);
    expect(mar.entries[4].bytes.subarray(4)).toEqual(mar.entries[0].bytes.subarray(4));
    expect(sar.entries.map((e) => [e.name, e.events.length])).toEqual([
      [gvStrCode('walk'), 10],
      [gvStrCode('cmu_01_01'), 30],
      [gvStrCode('walk_rough'), 0],
      [gvStrCode('walk_60'), 0],
      [gvStrCode('walk_slow'), 10],
    ]);
    const report = JSON.parse(readFileSync(join(dir, 'out/stage.report.json'), 'utf8'));
    expect(report.fps).toBe(30);
    expect(
      report.motions.map((m: Record<string, unknown>) => [
        m.name,
        m.events,
        m.frameCount,
        m.fps,
        m.resampledFrom,
        m.speed,
        m.durationMs,
      ]),
    ).toEqual([
      ['walk', 10, 132, 30, null, 1, 4400],
      ['cmu_01_01', 30, 687, 30, null, 1.25, 18320],
      ['walk_rough', 0, 132, 30, null, 1, 4400],
      ['walk_60', 0, 132, 30, { fps: 60, frameCount: 264 }, 2, 2200],
    ]);
    expect(report.aliases).toEqual([
      {
        index: 4,
        name: 'walk_slow',
        hash: '0x' + gvStrCode('walk_slow').toString(16).padStart(6, '0'),
        target: 'walk',
        targetIndex: 0,
        frameCount: 132,
        speed: 0.5,
        durationMs: 8800,
      },
    ]);
    expect(report.totals).toMatchObject({ motions: 4, aliases: 1, events: 40 });
    expect(report.warnings).toContain('walk_60: resampled from 60 fps (frames 0..264) to 30 fps (frames 0..132)');
    // the resampled motion is compressed within its own tolerance
    expect(report.motions[3].maxError.rotationDeg).toBeLessThanOrEqual(0.75);
    expect(listing(dir).filter((f) => f.includes('.actguy-'))).toEqual([]);
  });

  it('a project with one broken SEV writes nothing and lists the error', async () => {
    const dir = sampleCopy();
    const text = readFileSync(join(dir, 'walk.sev'), 'utf8');
    const line = text.split('\n').indexOf('event 38 0 17') + 1;
    expect(line).toBeGreaterThan(0);
    writeFileSync(join(dir, 'walk.sev'), text.replace('event 38 0 17', 'event 38 7 17'));
    const before = listing(dir);
    const r = await buildProject(join(dir, 'p.actguy.json'));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors.map((e) => e.message)).toEqual([
        `${join(dir, 'walk.sev')}:${line}:10: event uses undefined SE index 7`,
      ]);
    expect(listing(dir)).toEqual(before);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('builds from unsaved project and SEV text without touching the files, and a dry run writes nothing', async () => {
    const dir = sampleCopy();
    const before = listing(dir);
    const sevPath = join(dir, 'walk.sev');
    const diskSev = readFileSync(sevPath, 'utf8');
    const projectText = readFileSync(join(dir, 'p.actguy.json'), 'utf8').replace('"walk_rough"', '"walk_loose"');
    const textOverrides = new Map([[sevPath, 'sev 1\nse 0 SE_FOOT_L\nevent 7 0 17\n']]);
    const dry = await buildProject(join(dir, 'p.actguy.json'), { projectText, textOverrides, dryRun: true });
    if (!dry.ok) throw new Error(dry.errors.map((e) => e.message).join('\n'));
    expect(dry.written).toEqual([]);
    expect(dry.report!.motions.map((m) => [m.name, m.events])).toEqual([
      ['walk', 1],
      ['cmu_01_01', 30],
      ['walk_loose', 0],
      ['walk_60', 0],
    ]);
    expect(listing(dir)).toEqual(before);
    const bad = await buildProject(join(dir, 'p.actguy.json'), {
      textOverrides: new Map([[sevPath, 'sev 1\nevent 7 0 17\n']]),
    });
    if (!bad.ok) expect(bad.errors.map((e) => e.message)).toEqual([`${sevPath}:2:9: event uses undefined SE index 0`]);
    else throw new Error('expected errors');
    expect(readFileSync(sevPath, 'utf8')).toBe(diskSev);
    expect(listing(dir)).toEqual(before);
  });

  it('a broken project file writes nothing', async () => {
    const dir = sampleCopy();
    writeFileSync(
      join(dir, 'p.actguy.json'),
      '{ "version": 1, "motions": [ { "name": "walk", "mtn": "missing.mtn" } ], "outputs": { "mar": "o.mar", "sar": "o.sar" } }',
    );
    const before = listing(dir);
    const r = await buildProject(join(dir, 'p.actguy.json'));
    if (!r.ok)
      expect(r.errors.map((e) => e.message)).toEqual([
        `${join(dir, 'p.actguy.json')} [PROJECT] (motions[0].mtn): cannot read ${join(dir, 'missing.mtn')}: no such file or directory`,
      ]);
    else throw new Error('expected errors');
    expect(listing(dir)).toEqual(before);
  });
});

describe('commitOutputs', () => {
  it('leaves every target untouched and no temp files when one write fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-atomic-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'a.bin'), 'old');
    writeFileSync(join(dir, 'blocker'), 'a file where a folder should be');
    expect(() =>
      commitOutputs([
        { path: join(dir, 'a.bin'), bytes: new Uint8Array([1, 2, 3]) },
        { path: join(dir, 'blocker', 'b.bin'), bytes: new Uint8Array([4]) },
      ]),
    ).toThrow(
      `cannot write ${join(dir, 'blocker', 'b.bin')}: ${join(dir, 'blocker')} is a file, not a folder; nothing was written`,
    );
    expect(readFileSync(join(dir, 'a.bin'), 'utf8')).toBe('old');
    expect(listing(dir)).toEqual(['a.bin', 'blocker']);
    mkdirSync(join(dir, 'ok'));
    commitOutputs([{ path: join(dir, 'ok', 'c.bin'), bytes: new Uint8Array([9]) }]);
    expect(Array.from(bytes(join(dir, 'ok', 'c.bin')))).toEqual([9]);
  });
});

describe('build outputs never overwrite inputs', () => {
  it('refuses outputs that reach an input through a link or a ./.. spelling, and writes nothing', async () => {
    const dir = sampleCopy();
    symlinkSync(join(dir, 'walk.sev'), join(dir, 'sev-link.sar'));
    mkdirSync(join(dir, 'out'));
    linkSync(join(dir, 'walk.mtn'), join(dir, 'out', 'hard.mar'));
    const project = JSON.parse(readFileSync(join(dir, 'p.actguy.json'), 'utf8'));
    project.outputs = { mar: 'out/hard.mar', sar: 'sev-link.sar', report: './out/r.json' };
    writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project));
    const before = contents(dir);
    const r = await buildProject(join(dir, 'p.actguy.json'));
    if (r.ok) throw new Error('expected the build to be refused');
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        `outputs.mar ${join(dir, 'out', 'hard.mar')} is the .mtn of motion walk ${join(dir, 'walk.mtn')}; an output never overwrites an input`,
      ),
      expect.stringContaining(
        `outputs.sar ${join(dir, 'sev-link.sar')} is the .sev of motion walk ${join(dir, 'walk.sev')}`,
      ),
    ]);
    expect(contents(dir)).toEqual(before);
  });

  it('refuses an outputs.msh whose files reach an input through a link, or are another output, and writes nothing', async () => {
    const dir = sampleCopy();
    // msh/walk.res19 is a hard link to walk.sev; rep.json is a link to the old msh/cmu_01_01.nodes.json.
    mkdirSync(join(dir, 'msh'));
    linkSync(join(dir, 'walk.sev'), join(dir, 'msh', 'walk.res19'));
    writeFileSync(join(dir, 'msh', 'cmu_01_01.nodes.json'), '{}');
    symlinkSync(join(dir, 'msh', 'cmu_01_01.nodes.json'), join(dir, 'rep.json'));
    const project = JSON.parse(readFileSync(join(dir, 'p.actguy.json'), 'utf8'));
    project.outputs = { mar: 'out/stage.mar', sar: 'out/stage.sar', report: 'rep.json', msh: 'msh' };
    writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project));
    const before = contents(dir);
    const r = await buildProject(join(dir, 'p.actguy.json'), { cacheDir: null });
    if (r.ok) throw new Error('expected the build to be refused');
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        `outputs.msh walk.res19 ${join(dir, 'msh', 'walk.res19')} is the .sev of motion walk ${join(dir, 'walk.sev')}; an output never overwrites an input`,
      ),
      expect.stringContaining(
        `outputs.msh cmu_01_01.nodes.json ${join(dir, 'msh', 'cmu_01_01.nodes.json')} is also outputs.report ${join(dir, 'rep.json')}; each output needs a file of its own`,
      ),
    ]);
    expect(contents(dir)).toEqual(before);
  });
});

describe('project files inside the build cache folder', () => {
  /** Every file under `dir`, the cache folder included, with its bytes: proves nothing changed or vanished. */
  function everything(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of readdirSync(dir, { recursive: true }) as string[]) {
      const p = join(dir, f);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[f] = `link to ${readlinkSync(p)}`;
      else if (!st.isDirectory()) out[f] = readFileSync(p).toString('base64');
    }
    return out;
  }

  /** The sample with walk.sev moved into .actguy-cache/ (named through a link to it) and the report written there. */
  function projectUsingCacheFolder(): { dir: string; project: string } {
    const dir = sampleCopy();
    mkdirSync(join(dir, '.actguy-cache'));
    renameSync(join(dir, 'walk.sev'), join(dir, '.actguy-cache', 'walk.sev'));
    symlinkSync(join(dir, '.actguy-cache'), join(dir, 'sounds'));
    const project = JSON.parse(readFileSync(join(dir, 'p.actguy.json'), 'utf8'));
    project.motions.find((m: { name: string }) => m.name === 'walk').sev = 'sounds/walk.sev';
    project.outputs.report = '.actguy-cache/stage.report.json';
    writeFileSync(join(dir, 'p.actguy.json'), JSON.stringify(project));
    return { dir, project: join(dir, 'p.actguy.json') };
  }

  // Mutation: filesInsideCache returning [] lets both builds run (the cache's prune could later delete walk.sev).
  it('actguy build refuses them, naming each, and writes nothing; without a cache the same project builds', async () => {
    const { dir, project } = projectUsingCacheFolder();
    const before = everything(dir);
    const r = await buildProject(project);
    if (r.ok) throw new Error('expected the build to be refused');
    const cache = join(realpathSync(dir), '.actguy-cache');
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringContaining(
        `${join(dir, 'sounds', 'walk.sev')} (the .sev of motion walk) lies inside the build cache's folder ${cache}`,
      ),
      expect.stringContaining(`${join(dir, '.actguy-cache', 'stage.report.json')} (outputs.report) lies inside`),
    ]);
    expect(everything(dir)).toEqual(before);
    const uncached = await buildProject(project, { cacheDir: null });
    expect(uncached.ok).toBe(true);
  });

  it("the app's Build refuses them the same way before reading any input", async () => {
    const { dir, project } = projectUsingCacheFolder();
    const before = everything(dir);
    const posted: BuildJobMessage[] = [];
    const read: string[] = [];
    await runBuildJob(
      {
        projectPath: project,
        projectText: readFileSync(project, 'utf8'),
        sevTexts: [],
        cacheDir: join(dir, '.actguy-cache'),
      },
      (path, as) => {
        read.push(path);
        return readBuildInput(path, as);
      },
      (m) => posted.push(m),
    );
    const last = posted.at(-1)!;
    if (last.type !== 'failed') throw new Error(`expected a refusal, got ${last.type}`);
    expect(last.errors.map((e) => e.message)).toEqual([
      expect.stringContaining('(the .sev of motion walk) lies inside the build cache'),
      expect.stringContaining('(outputs.report) lies inside the build cache'),
    ]);
    expect(read).toEqual([]);
    expect(everything(dir)).toEqual(before);
  });
});
