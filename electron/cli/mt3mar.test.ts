import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMar } from '../../shared/mar/read';
import { writeMar } from '../../shared/mar/write';
import { rotationErrorDeg } from '../../shared/math/quat';
import { randomMt3 } from '../../shared/mt3/testFixtures';
import { writeMt3 } from '../../shared/mt3/write';
import { readMtn } from '../../shared/mtn/read';
import { gvStrCode } from '../../shared/strcode';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

function run(...args: string[]): { rc: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
  return { rc: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A failing command prints exactly one line naming the file. */
function expectOneLineError(r: { rc: number; err: string }, rc: number, ...parts: (string | RegExp)[]): void {
  expect(r.rc).toBe(rc);
  const lines = r.err.trim().split('\n');
  expect(lines.length).toBe(1);
  for (const p of parts) expect(lines[0]).toMatch(p);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-mt3mar-'));
  writeFileSync(
    join(dir, 'stand.mt3'),
    writeMt3(randomMt3(1, { numFrames: 10, numJoints: 2, name: gvStrCode('stand') })),
  );
  writeFileSync(
    join(dir, 'walk.mt3'),
    writeMt3(randomMt3(2, { numFrames: 30, numJoints: 4, name: gvStrCode('walk') })),
  );
  writeFileSync(join(dir, 'aaap.mt3'), writeMt3(randomMt3(3, { name: gvStrCode('aaap') })));
  writeFileSync(join(dir, 'aac0.mt3'), writeMt3(randomMt3(4, { name: gvStrCode('aac0') })));
  writeFileSync(join(dir, 'names.txt'), '# motion names\nstand\nwalk  # the walk\n');
}, 60000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('actguy pack-mar / unpack-mar / info / decompress', () => {
  it('prints the whole of a long answer through a pipe, and ends by itself once the pipe took it', async () => {
    // 2,000 motions: info's listing is far more than a pipe holds (64 KiB), so a process that exited before the
    // pipe took it all would cut it short. A reader slower than the CLI's fallback exit is exitOnceFlushed.test.ts's
    // (on a clock the test drives; this test's reader once waited 1 s, racing that fallback's own 1 s).
    const count = 2000;
    const mt3 = Array.from({ length: count }, (_, i) =>
      writeMt3(randomMt3(i, { numFrames: 2, numJoints: 1, name: i + 1 })),
    );
    const mar = join(dir, 'many.mar');
    writeFileSync(mar, writeMar(mt3));
    // --trace-exit: a process.exit (the fallback) would say so on stderr.
    const child = spawn(process.execPath, ['--trace-exit', cli, 'info', mar], { cwd: root });
    const chunks: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // 'close': both pipes are read to their end.
    const rc = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    const out = Buffer.concat(chunks).toString('utf8');
    expect(rc, err).toBe(0);
    expect(err).toBe('');
    expect(out.length).toBeGreaterThan(4 * 65536);
    const listed = out.split('\n').filter((l) => /^\s*\[\d+\] 0x/.test(l));
    expect(listed.length).toBe(count);
    expect(listed[count - 1]).toMatch(new RegExp(`^\\s*\\[${count - 1}\\] 0x0007d0:`));
  });

  it('packs in the order given and unpacks with names and an index', () => {
    const mar = join(dir, 'stage.mar');
    const p = run('pack-mar', '-o', mar, join(dir, 'walk.mt3'), join(dir, 'stand.mt3'));
    expect(p.rc).toBe(0);
    expect(p.out).toMatch(/2 motions, maxJoint 4/);
    const archive = readMar(new Uint8Array(readFileSync(mar)));
    expect(archive.entries.map((e) => e.name)).toEqual([gvStrCode('walk'), gvStrCode('stand')]);

    const out = join(dir, 'unpacked');
    const u = run('unpack-mar', mar, '-o', out, '--names', join(dir, 'names.txt'));
    expect(u.rc).toBe(0);
    expect(new Uint8Array(readFileSync(join(out, 'walk.mt3')))).toEqual(
      new Uint8Array(readFileSync(join(dir, 'walk.mt3'))),
    );
    expect(new Uint8Array(readFileSync(join(out, 'stand.mt3')))).toEqual(
      new Uint8Array(readFileSync(join(dir, 'stand.mt3'))),
    );
    const index = readFileSync(join(out, 'index.txt'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(index.map((l) => l.split('\t').slice(0, 2))).toEqual([
      ['0', 'walk.mt3'],
      ['1', 'stand.mt3'],
    ]);

    const anon = join(dir, 'anon');
    expect(run('unpack-mar', mar, '-o', anon).rc).toBe(0);
    expect(existsSync(join(anon, `0x${gvStrCode('walk').toString(16).padStart(6, '0')}.mt3`))).toBe(true);

    // Re-packing the unpacked files in index order reproduces the archive.
    const again = join(dir, 'again.mar');
    expect(run('pack-mar', '-o', again, join(out, 'walk.mt3'), join(out, 'stand.mt3'), '--quiet').rc).toBe(0);
    expect(readFileSync(again).equals(readFileSync(mar))).toBe(true);

    const info = run('info', mar, '--names', join(dir, 'names.txt'));
    expect(info.rc).toBe(0);
    expect(info.out).toMatch(/MAR: 2 motions, maxJoint 4/);
    expect(info.out).toMatch(/\[0\] walk \(0x[0-9a-f]{6}\): .* 4 joints, 30 frames/);
    expect(info.out).toMatch(/\[1\] stand /);
  });

  it('decompresses one entry of an archive by index or by name', () => {
    const mar = join(dir, 'pair.mar');
    expect(run('pack-mar', '-o', mar, join(dir, 'stand.mt3'), join(dir, 'walk.mt3'), '--quiet').rc).toBe(0);
    const byIndex = join(dir, 'e1.mtn');
    const byName = join(dir, 'walk_e.mtn');
    expect(run('decompress', mar, '--entry', '1', '-o', byIndex, '--quiet').rc).toBe(0);
    expect(run('decompress', mar, '--entry', 'walk', '-o', byName, '--quiet').rc).toBe(0);
    expect(readFileSync(byIndex).equals(readFileSync(byName))).toBe(true);
    expect(readMtn(new Uint8Array(readFileSync(byIndex))).frameCount).toBe(30);
    const none = run('decompress', mar, '--entry', '5', '-o', byIndex);
    expect([none.rc, none.err]).toEqual([2, expect.stringContaining('; --entry "5" names none of them')]);
    // The name is quoted with its control characters escaped (U+009B is a terminal's CSI); since round 11 an
    // argument holding one is refused as such, before the archive is read.
    const odd = run('decompress', mar, '--entry', 'wa\u009blk', '-o', byIndex);
    expect([odd.rc, odd.err]).toEqual([2, expect.stringContaining('argument "wa\\u009blk" holds a control character')]);
    const plain = run('decompress', mar, '--entry', 'wa lk', '-o', byIndex);
    expect([plain.rc, plain.err]).toEqual([
      2,
      expect.stringContaining('--entry "wa lk": neither an index nor a motion name'),
    ]);
    expect(run('decompress', mar, '-o', byIndex).rc).toBe(2);
  });

  it('refuses two motions with one name hash, naming both files', () => {
    const r = run(
      'pack-mar',
      '-o',
      join(dir, 'clash.mar'),
      join(dir, 'aaap.mt3'),
      join(dir, 'stand.mt3'),
      join(dir, 'aac0.mt3'),
    );
    expectOneLineError(r, 1, /aaap\.mt3 \(entry 0\) and .*aac0\.mt3 \(entry 2\) have the same name hash 0x321090/);
    expect(existsSync(join(dir, 'clash.mar'))).toBe(false);
  });

  it('describes an MT3 and refuses a truncated one with the file and offset', () => {
    const info = run('info', join(dir, 'walk.mt3'), '--names', join(dir, 'names.txt'));
    expect(info.rc).toBe(0);
    expect(info.out).toMatch(/name +walk \(0x/);
    expect(info.out).toMatch(/numFrames +30/);
    expect(info.out).toMatch(/rotation 3 +\d+ keys +\d+ bytes/);
    expect(info.out).toMatch(/fix +\d+ lock range/);

    const bytes = readFileSync(join(dir, 'walk.mt3'));
    const cut = join(dir, 'cut.mt3');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 2));
    expectOneLineError(run('info', cut), 1, cut, /\[MT3\]/, /implies \d+ bytes/);
    expectOneLineError(run('decompress', cut, '-o', join(dir, 'cut.mtn')), 1, cut);
    expect(existsSync(join(dir, 'cut.mtn'))).toBe(false);
  });

  it('names the archive, entry and offset of a broken MT3 inside a MAR', () => {
    const mar = join(dir, 'stage2.mar');
    expect(run('pack-mar', '-o', mar, join(dir, 'stand.mt3'), join(dir, 'walk.mt3'), '--quiet').rc).toBe(0);
    const b = readFileSync(mar);
    const dataBase = b.readUInt32LE(12);
    const off1 = b.readUInt32LE(24);
    b.writeUInt32LE(0, dataBase + off1 + 12); // entry 1 numFrames = 0
    const bad = join(dir, 'bad.mar');
    writeFileSync(bad, b);
    expectOneLineError(
      run('unpack-mar', bad, '-o', join(dir, 'x')),
      1,
      bad,
      /entry 1/,
      new RegExp(`offset ${dataBase + off1 + 12}`),
    );
    expectOneLineError(run('info', bad), 1, bad, /entry 1: numFrames 0/);
  });

  it('unpack-mar writes its .mt3 files and index.txt as one unit: one that cannot be written leaves the folder as it was', () => {
    const mar = join(dir, 'unit.mar');
    expect(run('pack-mar', '-o', mar, join(dir, 'stand.mt3'), join(dir, 'walk.mt3')).rc).toBe(0);
    const out = join(dir, 'unit');
    // index.txt, the last output, cannot be written: a folder has its name.
    mkdirSync(join(out, 'index.txt'), { recursive: true });
    writeFileSync(join(out, 'stand.mt3'), 'the old stand');
    expectOneLineError(
      run('unpack-mar', mar, '-o', out, '--names', join(dir, 'names.txt'), '--overwrite'),
      1,
      `cannot write ${join(out, 'index.txt')}: it is a folder, not a file; nothing was written`,
    );
    expect(readdirSync(out).sort()).toEqual(['index.txt', 'stand.mt3']);
    expect(readFileSync(join(out, 'stand.mt3'), 'utf8')).toBe('the old stand');
  });

  it('unpack-mar replaces files already in its folder only with --overwrite', () => {
    const mar = join(dir, 'again.mar');
    expect(run('pack-mar', '-o', mar, join(dir, 'stand.mt3'), join(dir, 'walk.mt3')).rc).toBe(0);
    const out = join(dir, 'again');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'walk.mt3'), 'hand-edited walk');
    expectOneLineError(
      run('unpack-mar', mar, '-o', out, '--names', join(dir, 'names.txt')),
      1,
      `${join(out, 'walk.mt3')} already exists; pass --overwrite to replace them, or choose another folder; nothing was written`,
    );
    expect(readdirSync(out)).toEqual(['walk.mt3']);
    expect(readFileSync(join(out, 'walk.mt3'), 'utf8')).toBe('hand-edited walk');
    // An earlier unpack's index.txt counts too.
    rmSync(join(out, 'walk.mt3'));
    writeFileSync(join(out, 'index.txt'), 'an earlier index');
    expectOneLineError(
      run('unpack-mar', mar, '-o', out, '--names', join(dir, 'names.txt')),
      1,
      /index\.txt already exists;/,
    );
    expect(readFileSync(join(out, 'index.txt'), 'utf8')).toBe('an earlier index');
    // With --overwrite the unpack replaces them.
    writeFileSync(join(out, 'walk.mt3'), 'hand-edited walk');
    expect(run('unpack-mar', mar, '-o', out, '--names', join(dir, 'names.txt'), '--overwrite').rc).toBe(0);
    expect(new Uint8Array(readFileSync(join(out, 'walk.mt3')))).toEqual(
      new Uint8Array(readFileSync(join(dir, 'walk.mt3'))),
    );
  });

  it('reports usage errors and missing files on one line', () => {
    expect(run('pack-mar', join(dir, 'walk.mt3')).rc).toBe(2);
    expect(run('decompress').rc).toBe(2);
    expectOneLineError(
      run('decompress', join(dir, 'nope.mt3'), '-o', join(dir, 'nope.mtn')),
      1,
      /nope\.mt3: no such file/,
    );
    expectOneLineError(
      run('unpack-mar', join(dir, 'walk.mt3'), '-o', join(dir, 'y')),
      1,
      /walk\.mt3 \[MAR\].*bad magic/,
    );
  });

  it('decompresses a compressed sample within the compression tolerance', () => {
    const walk = join(root, 'assets', 'walk.mtn');
    const mt3 = join(dir, 'sample.mt3');
    const c = run('compress', walk, '-o', mt3, '--rot-tol', '0.5', '--pos-tol', '0.5', '--quiet');
    expect(c.rc).toBe(0);
    const out = join(dir, 'sample.mtn');
    const d = run('decompress', mt3, '-o', out, '--skeleton', walk);
    expect(d.rc).toBe(0);
    expect(d.err).toBe('');
    const a = readMtn(new Uint8Array(readFileSync(walk)));
    const b = readMtn(new Uint8Array(readFileSync(out)));
    expect(b.frameCount).toBe(a.frameCount);
    expect(b.joints.map((j) => j.name)).toEqual(a.joints.map((j) => j.name));
    let worstRot = 0;
    let worstPos = 0;
    for (let i = 0; i < a.rotation.length / 4; i++)
      worstRot = Math.max(worstRot, rotationErrorDeg(a.rotation, 4 * i, b.rotation, 4 * i));
    for (let f = 0; f <= a.frameCount; f++)
      worstPos = Math.max(
        worstPos,
        Math.hypot(
          a.translation[4 * f] - b.translation[4 * f],
          a.translation[4 * f + 1] - b.translation[4 * f + 1],
          a.translation[4 * f + 2] - b.translation[4 * f + 2],
        ),
      );
    // The decoded MTN is float32: allow a hair above the tolerance for that rounding.
    expect(worstRot).toBeLessThan(0.5 + 0.01);
    expect(worstPos).toBeLessThan(0.5 + 1e-3);
    // Locks and trace keys come back from the fix and move streams.
    for (let f = 0; f <= a.frameCount; f++) {
      expect(b.translationKeyInfo[4 * f] & 4).toBe(f === 0 || f === a.frameCount ? 0 : a.translationKeyInfo[4 * f] & 4);
      for (let j = 0; j < a.joints.length; j++)
        expect(b.jointKeyInfo[(f * a.joints.length + j) * 4] & 2).toBe(
          a.jointKeyInfo[(f * a.joints.length + j) * 4] & 2,
        );
    }
    expect(b.flags & 0xe).toBe(a.flags & 0xe);
    const info = run('info', out);
    expect(info.rc).toBe(0);
    expect(info.out).toMatch(/locks +\d+ frames in \d+ ranges/);
  });
});
