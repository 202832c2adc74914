import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ROOT_ONLY_BVH } from '../../shared/testing/bvhFixtures';
import { outDirLinkNote } from './projectExport';

/**
 * No command overwrites one of its inputs, however the
 * output is spelled, and no command writes one output over another.
 */
const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

function run(...args: string[]): { rc: number; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, err: r.stderr };
}

/** Every file of the folder with its bytes, to prove nothing changed. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) out[f] = readFileSync(join(dir, f)).toString('base64');
  return out;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-clash-'));
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
    copyFileSync(join(root, 'assets', f), join(dir, f));
  writeFileSync(join(dir, 'x.bvh'), ROOT_ONLY_BVH);
  // The settings the app saved beside the motion (docs/formats-tuning.md): the user's, read by compress.
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'tuned.mtn'));
  writeFileSync(join(dir, 'tuned.mtn.actguy-tuning.json'), '{"version": 1}\n');
  if (run('compress', 'walk.mtn', '-o', 'walk.mt3', '--quiet').rc !== 0) throw new Error('setup compress failed');
  if (run('pack-mar', '-o', 'stage.mar', 'walk.mt3', '--quiet').rc !== 0) throw new Error('setup pack-mar failed');
}, 60000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('outputs never overwrite inputs', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'compress onto its input',
      ['compress', 'walk.mtn', '-o', 'walk.mtn'],
      /-o walk\.mtn is the input walk\.mtn; an output never overwrites an input/,
    ],
    [
      'compress onto its input spelled ./',
      ['compress', 'walk.mtn', '-o', './walk.mtn'],
      /-o \.\/walk\.mtn is the input walk\.mtn/,
    ],
    [
      'compress onto its input spelled ../dir/',
      ['compress', 'walk.mtn', '-o', '../DIR/walk.mtn'],
      /is the input walk\.mtn/,
    ],
    [
      'compress with the report on the input',
      ['compress', 'walk.mtn', '-o', 'new.mt3', '--report', 'walk.mtn'],
      /--report walk\.mtn is the input walk\.mtn/,
    ],
    [
      'compress with the report on -o',
      ['compress', 'walk.mtn', '-o', 'new.mt3', '--report', './new.mt3'],
      /--report \.\/new\.mt3 is also -o new\.mt3/,
    ],
    [
      'compress onto the tuning file it reads beside its input',
      ['compress', 'tuned.mtn', '-o', 'tuned.mtn.actguy-tuning.json'],
      /-o tuned\.mtn\.actguy-tuning\.json is the tuning file tuned\.mtn\.actguy-tuning\.json/,
    ],
    [
      'compress with the report on the tuning file, even with --no-tuning',
      ['compress', 'tuned.mtn', '-o', 'new.mt3', '--no-tuning', '--report', './tuned.mtn.actguy-tuning.json'],
      /--report \.\/tuned\.mtn\.actguy-tuning\.json is the tuning file tuned\.mtn\.actguy-tuning\.json/,
    ],
    ['pack-mar onto its input', ['pack-mar', '-o', 'walk.mt3', 'walk.mt3'], /-o walk\.mt3 is the input walk\.mt3/],
    ['import onto its input', ['import', 'x.bvh', '-o', 'x.bvh'], /-o x\.bvh is the input x\.bvh/],
    ['decompress onto its input', ['decompress', 'walk.mt3', '-o', 'walk.mt3'], /-o walk\.mt3 is the input walk\.mt3/],
    [
      'decompress onto its skeleton',
      ['decompress', 'walk.mt3', '--skeleton', 'walk.mtn', '-o', './walk.mtn'],
      /-o \.\/walk\.mtn is the --skeleton walk\.mtn/,
    ],
    ['export-gltf onto its input', ['export-gltf', 'walk.mtn', '-o', 'walk.mtn'], /is the input walk\.mtn/],
    [
      'pack-sar onto its .mar',
      ['pack-sar', '-o', 'stage.mar', '--mar', 'stage.mar', 'walk.sev'],
      /-o stage\.mar is the --mar stage\.mar/,
    ],
    [
      'pack-sar onto a .sev',
      ['pack-sar', '-o', './walk.sev', '--mar', 'stage.mar', 'walk.sev'],
      /-o \.\/walk\.sev is the input walk\.sev/,
    ],
    [
      'pack-sar onto the SE table',
      ['pack-sar', '-o', 'default.sls', '--mar', 'stage.mar', '--sls', 'default.sls', 'walk.sev'],
      /is the --sls default\.sls/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what} and leaves every file as it was`, () => {
      const before = snapshot();
      const r = run(...args.map((a) => a.replace('DIR', dir.split('/').pop()!)));
      expect(r.rc).toBe(1);
      expect(r.err).toMatch(message);
      expect(snapshot()).toEqual(before);
    });
  }

  it('refuses an input reached through a symbolic link', () => {
    spawnSync('ln', ['-sf', join(dir, 'walk.mtn'), join(dir, 'alias.mt3')]);
    const before = snapshot();
    const r = run('compress', 'walk.mtn', '-o', 'alias.mt3');
    expect(r.rc).toBe(1);
    expect(r.err).toMatch(/-o alias\.mt3 is the input walk\.mtn/);
    expect(snapshot()).toEqual(before);
    rmSync(join(dir, 'alias.mt3'));
  });
});

describe("output errors name the user's path", () => {
  const cases: [string, string[], string][] = [
    [
      'a folder given as the output file',
      ['compress', 'walk.mtn', '-o', 'adir'],
      'actguy compress: cannot write adir: a folder has that name',
    ],
    [
      'an output folder that is a file',
      ['compress', 'walk.mtn', '-o', 'afile/x.mt3'],
      'actguy compress: cannot write afile/x.mt3: afile is a file, not a folder',
    ],
    [
      'a folder given as the report (nothing written, not even the .mt3)',
      ['compress', 'walk.mtn', '-o', 'fresh.mt3', '--report', 'adir'],
      `actguy compress: cannot write adir: it is a folder, not a file; nothing was written`,
    ],
    [
      'a folder given as the .mar',
      ['pack-mar', '-o', 'adir', 'walk.mt3'],
      'actguy pack-mar: cannot write adir: a folder has that name',
    ],
    [
      'a folder given as the .sar',
      [
        'pack-sar',
        '-o',
        'adir',
        '--mar',
        'stage.mar',
        '--sls',
        'default.sls',
        '--se-define',
        'se_define.h',
        'walk.sev',
      ],
      'actguy pack-sar: cannot write adir: it is a folder, not a file; nothing was written',
    ],
  ];
  for (const [what, args, message] of cases) {
    it(what, () => {
      mkdirSync(join(dir, 'adir'), { recursive: true });
      writeFileSync(join(dir, 'afile'), 'a file');
      const before = snapshotAll();
      const r = run(...args);
      expect(r.rc).toBe(1);
      expect(r.err.trim()).toBe(message);
      expect(snapshotAll()).toEqual(before);
    });
  }
});

/** Files and folders of the test folder (names only for folders). */
function snapshotAll(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const p = join(dir, f);
    out[f] = statSync(p).isDirectory() ? '<dir>' : readFileSync(p).toString('base64');
  }
  return out;
}

describe('a build writes its outputs only inside its project folder (or where -o names)', () => {
  // A project is a file people receive: one naming ~/.bashrc as its report, `../x`, or an `out` that is a link
  // out of its folder, replaced whatever was there with its report (the app refused these; the CLI did not).
  const write = (proj: string, outputs: Record<string, string>) =>
    writeFileSync(
      join(proj, 'p.actguy.json'),
      JSON.stringify({ version: 1, motions: [{ name: 'walk', mtn: 'walk.mtn' }], outputs }),
    );
  it('refuses an absolute path, a ../ path and a linked folder out, naming each place; -o OUTDIR is the way out', () => {
    const proj = join(dir, 'received');
    const victims = join(dir, 'victims');
    mkdirSync(proj);
    mkdirSync(victims);
    copyFileSync(join(root, 'assets', 'walk.mtn'), join(proj, 'walk.mtn'));
    for (const f of ['notes.json', 's.mar', 's.sar', 'x.sar']) writeFileSync(join(victims, f), `precious ${f}\n`);
    spawnSync('ln', ['-s', victims, join(proj, 'out')]);
    write(proj, { mar: 'out/s.mar', sar: '../victims/x.sar', report: join(victims, 'notes.json') });
    const before = snapshotAll();
    const r = run('build', 'received/p.actguy.json', '--no-cache');
    expect(r.rc).toBe(1);
    const folder = realpathSync(proj);
    for (const [key, path, via] of [
      ['outputs.mar', 'received/out/s.mar', ` (a link leads it to ${realpathSync(victims)}/s.mar)`],
      ['outputs.sar', 'victims/x.sar', ''],
      ['outputs.report', join(victims, 'notes.json'), ''],
    ])
      expect(r.err).toContain(
        `received/p.actguy.json [PROJECT] (${key}): ${path} lies outside the project's folder ${folder}${via}; a build writes its outputs there, or in the folder -o OUTDIR names`,
      );
    expect(snapshotAll()).toEqual(before);
    // Named on the command line, another folder is the user's choice.
    expect(run('build', 'received/p.actguy.json', '--no-cache', '-o', 'built').rc).toBe(0);
    expect(readdirSync(join(dir, 'built')).sort()).toEqual(['notes.json', 's.mar', 'x.sar']);
    expect(snapshotAll()).toMatchObject(before);
  });

  // Round 47 (docs/security.md): -o DIR typed by the user is followed wherever its link leads (as cp), but a name in
  // the current folder led out of it by a link (a received folder's planted `ex`) went there without a word; now a
  // note says where, before the write. Mutation that fails: outDirLinkNote answering undefined (no note).
  it('-o DIR led out of the current folder by a link is followed, and a note says where; a plain folder has none', () => {
    const proj = join(dir, 'noted');
    // Outside the folder the CLI runs in (dir), where the planted link leads.
    const away = mkdtempSync(join(tmpdir(), 'actguy-away-'));
    onTestFinished(() => rmSync(away, { recursive: true, force: true }));
    mkdirSync(proj);
    copyFileSync(join(root, 'assets', 'walk.mtn'), join(proj, 'walk.mtn'));
    write(proj, { mar: 'out/s.mar', sar: 'out/s.sar' });
    spawnSync('ln', ['-s', away, join(dir, 'ex')]);
    const note = `note: -o ex is led by a symbolic link out of the current folder, to ${realpathSync(away)}; the outputs are written there`;
    for (const args of [
      ['build', 'noted/p.actguy.json', '--no-cache', '-o', 'ex', '--quiet'],
      ['export-msh', '--project', 'noted/p.actguy.json', '-o', 'ex', '--quiet'],
    ]) {
      const r = run(...args);
      expect(r.rc).toBe(0);
      expect(r.err.split('\n')).toContain(note);
    }
    expect(readdirSync(away).sort()).toEqual([
      's.mar',
      's.report.json',
      's.sar',
      'walk.nodes.json',
      'walk.res19',
      'walk.res8',
    ]);
    const plain = run('build', 'noted/p.actguy.json', '--no-cache', '-o', 'plainout', '--quiet');
    expect(plain.rc).toBe(0);
    expect(plain.err).not.toContain('note: -o');
  });
});

// Round 48 (docs/security.md): decided that an absolute -o gets the note as a relative one does when it lies inside the
// current folder, and none elsewhere (a command could name any folder by an absolute path, link or none). Mutation
// that fails: outDirLinkNote answering nothing for an absolute dir.
it('-o DIR through a link out of the current folder is noted whether typed relative or absolute; an absolute one elsewhere is not', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'actguy-cwd-'));
  const away = mkdtempSync(join(tmpdir(), 'actguy-away-'));
  onTestFinished(() => {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(away, { recursive: true, force: true });
  });
  symlinkSync(away, join(cwd, 'ex'));
  const to = realpathSync(away);
  expect(outDirLinkNote('ex', cwd)).toBe(
    `-o ex is led by a symbolic link out of the current folder, to ${to}; the outputs are written there`,
  );
  expect(outDirLinkNote(join(cwd, 'ex'), cwd)).toBe(
    `-o ${join(cwd, 'ex')} is led by a symbolic link out of the current folder, to ${to}; the outputs are written there`,
  );
  mkdirSync(join(cwd, 'sub'));
  expect(outDirLinkNote(join(cwd, 'ex'), join(cwd, 'sub'))).toBeUndefined();
});

describe('no output takes a name ActGuy keeps for its own files beside an output', () => {
  it('a report named as the lock or journal of the .mt3, or as a temp, is refused before anything is written (the report was deleted with the lock, after "success")', () => {
    for (const report of [
      'x.mt3.actguy-lock',
      'x.mt3.actguy-commit',
      'X.MT3.ACTGUY-LOCK',
      `x.mt3.actguy-new.h.999999999.a.tmp`,
    ]) {
      const before = readdirSync(dir).sort();
      const r = run('compress', 'walk.mtn', '-o', 'x.mt3', '--report', report, '--quiet');
      expect(r.rc, report).toBe(1);
      expect(r.err).toContain(`${report} is a name ActGuy keeps for`);
      expect(r.err).toContain('choose another name; nothing was written');
      expect(readdirSync(dir).sort()).toEqual(before);
    }
    // A build's outputs cannot take those names: each must end in its kind's extension (the .sar as the .mar's lock).
    writeFileSync(
      join(dir, 'own.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn' }],
        outputs: { mar: 'own/s.mar', sar: 'own/s.mar.actguy-lock' },
      }),
    );
    const r = run('build', 'own.actguy.json', '--no-cache');
    expect(r.rc).toBe(1);
    expect(r.err).toContain(
      'own.actguy.json [PROJECT] (outputs.sar): must name a .sar file (a build replaces the file it names), found "own/s.mar.actguy-lock"',
    );
  });
});

describe('no output takes a name Windows reads as something else (round 6)', () => {
  it('compress -o nul.mt3, a report ending in a dot, unpack-mar of a motion named con: refused, nothing written', () => {
    for (const out of ['nul.mt3', 'AUX.mt3', 'x.mt3.', 'x.mt3:stream']) {
      const before = readdirSync(dir).sort();
      const r = run('compress', 'walk.mtn', '-o', out, '--quiet');
      expect(r.rc, out).toBe(1);
      expect(r.err).toContain("ActGuy's outputs must be files on Windows too; choose another name");
      expect(readdirSync(dir).sort()).toEqual(before);
    }
    // A motion may be named con (the name is only hashed); unpacking it by name would write con.mt3.
    expect(run('compress', 'walk.mtn', '-o', 'c0.mt3', '--name', 'con', '--quiet').rc).toBe(0);
    expect(run('pack-mar', 'c0.mt3', '-o', 'c.mar').rc).toBe(0);
    writeFileSync(join(dir, 'names.txt'), 'con\n');
    const r = run('unpack-mar', 'c.mar', '-o', 'unpacked', '--names', 'names.txt');
    expect(r.rc).toBe(1);
    expect(r.err).toContain('"con.mt3" is a Windows device name (CON)');
    expect(existsSync(join(dir, 'unpacked'))).toBe(false);
  });
});
