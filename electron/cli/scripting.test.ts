/**
 * The command line for scripts (docs/cli.md): `--json` on compress, build and info prints one JSON document on
 * stdout and nothing else there, with the status the command has without it, errors as {"error": {file, place,
 * message}}; `-o=x` and `-pos-tol=x` are refused with the spellings that work. Through the built CLI.
 *
 * Mutations, each failing this file: runCommand's printJson of the error removed (a failed --json run prints nothing
 * on stdout); compress's `!json` left out of the summary's condition (its line before the document); build's progress
 * kept with --json (`quiet || json` back to `quiet`); the build document's motions dropped (null); info printing a
 * .mar's text with --json; equalsHint's call removed from parseArgs (`-o=x` is an unknown option, no spelling given).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-scripting-'));
  for (const f of ['walk.mtn', 'walk.sev', 'walk_60fps.mtn', 'default.sls', 'se_define.h'])
    copyFileSync(join(root, 'assets', f), join(dir, f));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev', tolerances: { rotationDeg: 0.01 } },
        { name: 'w60', mtn: 'walk_60fps.mtn', resample: true },
      ],
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/p.mar', sar: 'out/p.sar' },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ACTGUY_STATE_DIR: join(dir, 'state') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** stdout as one JSON document: it must parse whole, so nothing else was printed there. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documents are checked field by field below
type Doc = Record<string, any>;
function document(out: string): Doc {
  expect(out.endsWith('}\n'), out).toBe(true);
  return JSON.parse(out) as Doc;
}

describe('--json', () => {
  it('compress: outputs, keys, max errors against tolerances, the unmet ones and warnings with file and place', () => {
    const r = run('compress', 'walk.mtn', '-o', 'w.mt3', '--rot-tol', '0.01', '--json');
    expect(r.code, r.err).toBe(0);
    const d = document(r.out);
    expect(d.command).toBe('compress');
    expect(d.outputs).toEqual({ mt3: { path: 'w.mt3', bytes: readFileSync(join(dir, 'w.mt3')).length }, report: null });
    expect(d.keys).toBe(d.channels.reduce((s: number, c: { keys: number }) => s + c.keys, 0));
    const hips = d.channels.find((c: { channel: string; joint: number }) => c.channel === 'rotation' && c.joint === 0);
    expect(hips).toMatchObject({ jointName: 'Hips', tolerance: 0.01, met: false });
    expect(hips.maxError).toBeGreaterThan(0.01);
    expect(d.unmetTolerances.length).toBeGreaterThan(0);
    expect(d.unmetTolerances.every((c: { met: boolean }) => !c.met)).toBe(true);
    // Each channel over its tolerance is a warning of the document with its file and place; stderr says them as one
    // summary (docs/compression.md#the-guarantee) that counts them.
    const w = d.warnings.find((x: { place: { joint: number } | null }) => x.place?.joint === 0);
    expect(w).toMatchObject({ file: 'walk.mtn', place: { channel: 'rotation', joint: 0 } });
    expect(r.err).toContain(`warning: walk.mtn: tolerance not reachable at `);
    expect(r.err).toContain(` keys, in ${d.warnings.length} channel`);
    // Without the flag: the summary line, as before.
    const plain = run('compress', 'walk.mtn', '-o', 'w.mt3');
    expect(plain.out).toMatch(/^w\.mt3: \d+ keys, \d+ bytes/);
  });

  it('an error is {"error": {file, place, message}} with the same status: 1 bad input, 2 bad usage', () => {
    const missing = run('compress', 'nothing.mtn', '-o', 'x.mt3', '--json');
    expect(missing.code).toBe(1);
    expect(document(missing.out)).toEqual({
      error: { file: 'nothing.mtn', place: null, message: 'nothing.mtn: no such file or directory' },
    });
    writeFileSync(join(dir, 'bad.mtn'), 'MTN\0 not a motion');
    const bad = document(run('compress', 'bad.mtn', '-o', 'x.mt3', '--json').out);
    expect(bad.error.file).toBe('bad.mtn');
    expect(bad.error.message).toMatch(/^bad\.mtn/);
    const usage = run('compress', 'walk.mtn', '--json');
    expect(usage.code).toBe(2);
    expect(document(usage.out)).toMatchObject({ error: { message: 'missing -o OUT.mt3' } });
    expect(existsSync(join(dir, 'x.mt3'))).toBe(false);
  });

  it('build: the outputs and sizes, each motion against its tolerances, warnings; a failed build its errors', () => {
    const r = run('build', 'p.actguy.json', '--json', '--jobs', '1');
    expect(r.code, r.err).toBe(0);
    const d = document(r.out);
    expect(d).toMatchObject({
      command: 'build',
      upToDate: false,
      written: ['out/p.mar', 'out/p.sar', 'out/p.report.json'],
      outputs: { mar: { path: 'out/p.mar', bytes: readFileSync(join(dir, 'out', 'p.mar')).length } },
    });
    expect(d.motions.map((m: { name: string }) => m.name)).toEqual(['walk', 'w60']);
    expect(d.motions[0].tolerances.rotationDeg).toBe(0.01);
    expect(d.motions[0].maxError.rotationDeg).toBeGreaterThan(0.01);
    expect(d.unmetTolerances.filter((u: { motion: string }) => u.motion === 'walk').length).toBeGreaterThan(0);
    expect(d.warnings).toContainEqual(expect.objectContaining({ file: 'walk_60fps.mtn', place: { motion: 'w60' } }));
    // Up to date (a project whose tolerances are met, in a folder of its own): nothing written, the motions from the
    // report the last build left.
    const q = join(dir, 'q');
    mkdirSync(q);
    for (const f of ['walk.mtn', 'walk.sev', 'walk_60fps.mtn', 'default.sls', 'se_define.h'])
      copyFileSync(join(dir, f), join(q, f));
    writeFileSync(
      join(q, 'q.actguy.json'),
      readFileSync(join(dir, 'p.actguy.json'), 'utf8').replace(',"tolerances":{"rotationDeg":0.01}', ''),
    );
    const first = document(run('build', 'q/q.actguy.json', '--json').out);
    const again = document(run('build', 'q/q.actguy.json', '--json').out);
    expect(again).toMatchObject({ upToDate: true, written: [] });
    expect(again.motions).toEqual(first.motions);
    expect(again.motions.map((m: { mt3Bytes: number }) => m.mt3Bytes)).toEqual(
      JSON.parse(readFileSync(join(q, 'out', 'p.report.json'), 'utf8')).motions.map(
        (m: { mt3Bytes: number }) => m.mt3Bytes,
      ),
    );

    writeFileSync(
      join(dir, 'broken.actguy.json'),
      readFileSync(join(dir, 'p.actguy.json'), 'utf8').replace('walk.sev', 'gone.sev'),
    );
    const failed = run('build', 'broken.actguy.json', '--json');
    expect(failed.code).toBe(1);
    const f = document(failed.out);
    expect(f.error).toMatchObject({ file: 'broken.actguy.json', place: { where: 'motions[0].sev' } });
    expect(f.error.message).toContain('gone.sev');
    expect(f.errors).toEqual([f.error]);
    expect(failed.err).toMatch(/gone\.sev[^\n]*\n1 error; nothing was written\n$/);
  });

  it('is refused with --watch, whose lines go to stdout too; -o - is refused as ever', () => {
    const r = run('build', 'p.actguy.json', '--watch', '--json');
    expect(r.code).toBe(2);
    expect(document(r.out).error.message).toBe(
      '--json prints one JSON document on stdout and --watch prints lines there too; leave one of them out',
    );
    const dash = run('compress', 'walk.mtn', '-o', '-', '--json');
    expect(dash.code).toBe(2);
    expect(document(dash.out).error.message).toMatch(/^the value of -o is "-"/);
  });

  it('info: each kind as a document', () => {
    expect(run('build', 'p.actguy.json', '--quiet').code).toBe(0);
    expect(run('compress', 'walk.mtn', '-o', 'w.mt3', '--quiet').code).toBe(0);
    const mtn = document(run('info', 'walk.mtn', '--json').out);
    expect(mtn).toMatchObject({ kind: 'mtn', frameCount: 132, fps: 30, durationMs: 4400 });
    expect(mtn.joints[0]).toMatchObject({ index: 0, name: 'Hips', parent: -1 });
    const mar = document(run('info', 'out/p.mar', '--json').out);
    expect(mar.kind).toBe('mar');
    expect(mar.entries).toHaveLength(2);
    expect(mar.entries[0]).toMatchObject({ index: 0, frameCount: 132, durationMs: 4400 });
    const sar = run('info', 'out/p.sar', '--json');
    const s = document(sar.out);
    expect(s.entries[0].name).toBe('walk');
    expect(s.events).toBe(s.entries.reduce((n: number, e: { events: unknown[] }) => n + e.events.length, 0));
    const project = document(run('info', 'p.actguy.json', '--json').out);
    expect(project.entries.map((e: { name: string; durationMs: number }) => [e.name, e.durationMs])).toEqual([
      ['walk', 4400],
      ['w60', 4400],
    ]);
    expect(run('export-msh', 'walk.mtn', '-o', 'msh/walk', '--quiet').code).toBe(0);
    const msh = document(run('info', 'msh/walk.res8', '--json').out);
    expect(msh).toMatchObject({ kind: 'msh', source: 'walk.mtn', files: { nodes: 'msh/walk.nodes.json' } });
    expect(msh.nodes).toHaveLength(mtn.joints.length);
    expect(msh.keys).toBe(msh.nodes.reduce((n: number, x: { keys: number }) => n + x.keys, 0));
    const mt3 = document(run('info', 'w.mt3', '--json').out);
    expect(mt3).toMatchObject({ kind: 'mt3', hash: mar.entries[0].hash, frameCount: 132 });
    expect(mt3.keys).toBe(
      mt3.streams.reduce((n: number, x: { keys: number; stream: string }) => n + (x.stream === 'move' ? 0 : x.keys), 0),
    );
  });
});

describe('-o=x', () => {
  it('is refused with the spellings that work, and writes nothing', () => {
    const short = run('compress', 'walk.mtn', '-o=eq.mt3');
    expect(short.code).toBe(2);
    expect(short.err.split('\n')[0]).toBe(
      'actguy compress: option "-o=eq.mt3": a one-letter option takes its value after a space; write -o eq.mt3 or --out=eq.mt3',
    );
    const long = run('compress', 'walk.mtn', '-o', 'eq.mt3', '-pos-tol=0.1');
    expect(long.err.split('\n')[0]).toBe(
      'actguy compress: option "-pos-tol=0.1": a long option is written with two dashes; write --pos-tol 0.1 or --pos-tol=0.1',
    );
    expect(run('compress', 'walk.mtn', '-o', 'eq.mt3', '-quiet=1').err.split('\n')[0]).toBe(
      'actguy compress: option "-quiet=1": --quiet is a switch and takes no value',
    );
    expect(existsSync(join(dir, 'eq.mt3'))).toBe(false);
    expect(existsSync(join(dir, '=eq.mt3'))).toBe(false);
    // The spellings it names work.
    expect(run('compress', 'walk.mtn', '--out=eq.mt3', '--pos-tol=0.1', '--quiet').code).toBe(0);
    expect(existsSync(join(dir, 'eq.mt3'))).toBe(true);
  });
});
