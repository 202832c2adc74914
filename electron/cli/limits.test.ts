/**
 * The CLI against hostile sizes, each generated here (docs/limits.md): every
 * case ends at once with a located message and exit status 1, never a native
 * crash, a JavaScript stack or a loop. The spawn has a time limit only so a
 * regression fails instead of hanging the suite; no timing is asserted.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ONLY_BVH } from '../../shared/testing/bvhFixtures';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-limits-'));
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
  writeFileSync(
    join(dir, 'one.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { rc: number | null; signal: NodeJS.Signals | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { rc: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

/** No sign of a crash: no V8 fatal error, no JavaScript stack frame. */
function expectNoCrash(err: string): void {
  expect(err).not.toMatch(/FATAL ERROR|heap out of memory|Maximum call stack|^\s+at /m);
}

describe('actguy against hostile sizes', () => {
  it('a 3.4 MB project naming one .mtn 100,000 times: one message naming the project and the limit (heap exhausted before)', () => {
    const motions = Array.from({ length: 100_000 }, (_, i) => ({ name: `w${i}`, mtn: 'walk.mtn' }));
    writeFileSync(
      join(dir, 'big.actguy.json'),
      JSON.stringify({ version: 1, motions, outputs: { mar: 'out/s.mar', sar: 'out/s.sar' } }),
    );
    const r = run('build', 'big.actguy.json', '--no-cache');
    expect(r.rc).toBe(1);
    expectNoCrash(r.err);
    expect(r.err).toContain(
      'big.actguy.json [PROJECT] (motions): lists 100000 motions and 0 aliases; a project holds at most 4096 archive entries',
    );
  });

  it('a project with 3,000 bad motions lists 100 of them and counts the rest (one line each before)', () => {
    const motions = Array.from({ length: 3000 }, (_, i) => ({ name: `m${i}` }));
    writeFileSync(
      join(dir, 'bad.actguy.json'),
      JSON.stringify({ version: 1, motions, outputs: { mar: 'out/s.mar', sar: 'out/s.sar' } }),
    );
    const r = run('build', 'bad.actguy.json', '--no-cache');
    expect(r.rc).toBe(1);
    const lines = r.err.trim().split('\n');
    expect(lines.length).toBeLessThan(110);
    expect(r.err).toContain(
      'bad.actguy.json [PROJECT] (motions[2999].mtn): 2900 more problems not listed (only the first 100 are)',
    );
  });

  it('a 23 MB se_define.h of 1,000,000 defines is refused at 1:1 (1.8 GB and a segfault under a 2 GB limit before)', () => {
    const lines = ['#ifndef SE_DEFINE_H', '#define SE_DEFINE_H'];
    for (let i = 0; i < 1_000_000; i++) lines.push(`#define SE_NAME_${i} ${i % 65535}`);
    writeFileSync(join(dir, 'se_define.h'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'ok.sev'), 'sev 1\n');
    const r = run('check-sev', 'ok.sev', '--se-define', 'se_define.h');
    expect(r.rc).toBe(1);
    expectNoCrash(r.err);
    expect(r.err).toMatch(/^se_define\.h:1:1: the file is \d+ characters long; an se_define\.h is read up to 8388608/m);
  });

  it('a .sev of 200,000 events past its motion, all on one frame: 100 errors listed, no stack overflow (a spread of them before)', () => {
    writeFileSync(join(dir, 'walk.sev'), `sev 1\nse 0 SE_A\n${'event 60000 0 -\n'.repeat(200_000)}`);
    const r = run('check-sev', 'walk.sev', '--mtn', 'walk.mtn');
    expect(r.rc).toBe(1);
    expectNoCrash(r.err);
    expect(r.err).toContain('walk.sev:3:7: event frame 60000 is past the end of motion walk (frames 0..');
    expect(r.err).toMatch(/\d+ more problems not listed/);
  });

  it('a 10 MB .sev of NUL bytes gives a short message (20 MB before)', () => {
    writeFileSync(join(dir, 'nul.sev'), new Uint8Array(10_000_000));
    const r = run('check-sev', 'nul.sev');
    expect(r.rc).toBe(1);
    expect(r.err.length).toBeLessThan(2000);
    expect(r.err).toContain('nul.sev:1:1: the first statement must be `sev 1`, found `\\u0000');
  });

  it('a 1.5 GB .sev (a sparse file: an archive carries it in a few bytes) is refused by its size before it is read', () => {
    // It was read whole and decoded: 40 s and 3 GB, then "Invalid string length".
    const big = join(dir, 'big.sev');
    writeFileSync(big, '');
    truncateSync(big, 1500 * 2 ** 20);
    const r = run('check-sev', 'big.sev');
    rmSync(big);
    expect(r.rc).toBe(1);
    expect(r.err).toContain(
      `big.sev [SEV]: cannot read: it is ${1500 * 2 ** 20} bytes, more than the 67108864 ActGuy reads of a text file`,
    );
  });

  // Mutation killed: any command reading its .mtn/.mt3/.mar whole again (fsutil readBytes): the refusal comes after
  // the 1.5 GB read and without "nothing past the header was read"; the bad magic took 15 s before.
  it('sparse 1.5 GB motions and archives: refused by their header, naming the file, in every command that reads them', () => {
    const size = 1500 * 2 ** 20;
    const header = new Uint8Array(32);
    const dv = new DataView(header.buffer);
    header.set([0x4d, 0x54, 0x4e, 0]); // MTN\0
    dv.setUint32(4, 1, true);
    dv.setUint32(8, 10, true);
    dv.setUint32(12, 3, true);
    const made = (name: string, head: Uint8Array) => {
      writeFileSync(join(dir, name), head);
      truncateSync(join(dir, name), size);
    };
    made('badmagic.mtn', new Uint8Array([0x58, 0x54, 0x4e, 0]));
    made('absurd.mtn', header);
    made('absurd.mar', new Uint8Array([0x4d, 0x41, 0x52, 0x61, 1, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 16]));
    writeFileSync(
      join(dir, 'absurd.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'absurd.mtn' }],
        outputs: { mar: 'out/a.mar', sar: 'out/a.sar' },
      }),
    );
    try {
      const longer = `file is ${size} bytes but its header (10 frames, 3 joints) implies 2112 bytes: it is ${size - 2112} bytes longer than that; nothing past the header was read`;
      for (const [args, expected] of [
        [
          ['info', 'badmagic.mtn'],
          'badmagic.mtn [MTN] (header, offset 0): bad magic: expected "MTN\\0", found 58 54 4e 00',
        ],
        [['compress', 'absurd.mtn', '-o', 'out/x.mt3'], `absurd.mtn [MTN] (header): ${longer}`],
        [['export-gltf', 'absurd.mtn', '-o', 'out/x.glb'], `absurd.mtn [MTN] (header): ${longer}`],
        [['build', 'absurd.actguy.json', '--no-cache'], `absurd.mtn [MTN] (header): ${longer}`],
        [
          ['unpack-mar', 'absurd.mar', '-o', 'out/u'],
          `absurd.mar [MAR] (header): it is ${size} bytes, more than the 1073741824 ActGuy reads of a .mar; nothing past the header was read`,
        ],
      ] as const) {
        const r = run(...args);
        expect(r.rc, args.join(' ')).toBe(1);
        expectNoCrash(r.err);
        expect(r.err, args.join(' ')).toContain(expected);
      }
    } finally {
      for (const f of ['badmagic.mtn', 'absurd.mtn', 'absurd.mar']) rmSync(join(dir, f));
    }
  });

  it('info of a received MSH export reads each file only up to what it can be (sparse files), naming the file', () => {
    // The .nodes.json was read whole and decoded (1.5 GB: 30 s, 3 GB, then a message naming no file); a payload
    // was read whole whatever size its list gave.
    expect(run('export-msh', 'walk.mtn', '-o', 'sent').rc).toBe(0);
    const res19 = join(dir, 'sent.res19');
    truncateSync(res19, 200 * 2 ** 20);
    const r = run('info', 'sent.res8');
    expect(r.rc).toBe(1);
    expect(r.err).toContain(
      `sent.res19 [MSH]: cannot read: it is ${200 * 2 ** 20} bytes, more than the 1048576 ActGuy reads of the frame map sent.nodes.json describes`,
    );
    const list = join(dir, 'sent.nodes.json');
    truncateSync(list, 100 * 2 ** 20);
    for (const named of ['sent.nodes.json', 'sent.res8']) {
      const big = run('info', named);
      expect(big.rc).toBe(1);
      expect(big.err).toContain(
        `sent.nodes.json [MSH]: cannot read: it is ${100 * 2 ** 20} bytes, more than the 67108864 ActGuy reads of a text file`,
      );
    }
    // Past 2 GiB the whole read itself failed, naming no file: the list is not read whole before it is looked at.
    truncateSync(list, 3 * 2 ** 30);
    expect(run('info', 'sent.nodes.json').err).toContain(
      `sent.nodes.json [MSH]: cannot read: it is ${3 * 2 ** 30} bytes, more than the 67108864 ActGuy reads of a text file`,
    );
    for (const f of ['sent.res8', 'sent.res19', 'sent.nodes.json']) rmSync(join(dir, f));
  });

  it.runIf(process.platform === 'linux')(
    'a tuning file linked to /proc/self/pagemap (0 bytes by its size, 256 GB of zeros by its reads) is read as its size says (compress read it until killed)',
    () => {
      // Round 13 (docs/security.md): `<motion>.mtn.actguy-tuning.json` follows a link (a tuning file shared between
      // motions), and text files were read until their end, whatever fstat said: a received folder's link to
      // pagemap held `actguy compress` for as long as its memory lasted.
      const tuning = join(dir, 'walk.mtn.actguy-tuning.json');
      symlinkSync('/proc/self/pagemap', tuning);
      try {
        const c = run('compress', 'walk.mtn', '-o', 'pagemap.mt3');
        expect(c.signal).toBeNull();
        expectNoCrash(c.err);
        expect(c.rc).toBe(1);
        expect(c.err).toContain('walk.mtn.actguy-tuning.json');
        expect(existsSync(join(dir, 'pagemap.mt3'))).toBe(false);
      } finally {
        rmSync(tuning);
      }
    },
  );

  it('a project text input past 64 MiB is refused by its size before it is read (the build read up to 1 GiB of it)', () => {
    // Round 13 (docs/security.md): the build read every input through the binary reader, whose limit is 1 GiB, so a
    // sparse 200 MB .sev (a few bytes in an archive) was read whole before the decoder refused it. The bytes read are
    // counted by a preload that wraps node:fs' reads in the CLI's process.
    const big = join(dir, 'big.sev');
    writeFileSync(big, '');
    truncateSync(big, 200 * 2 ** 20);
    writeFileSync(
      join(dir, 'bigsev.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'big.sev' }],
        outputs: { mar: 'out/b.mar', sar: 'out/b.sar' },
      }),
    );
    const counter = join(dir, 'count-reads.cjs');
    writeFileSync(
      counter,
      `const fs = require('node:fs');
let total = 0;
for (const name of ['readSync', 'readFileSync']) {
  const orig = fs[name];
  fs[name] = function (...args) {
    const r = orig.apply(this, args);
    total += typeof r === 'number' ? r : r && r.length ? r.length : 0;
    return r;
  };
}
process.on('exit', () => process.stderr.write('\\nbytes read: ' + total + '\\n'));
`,
    );
    const r = spawnSync(process.execPath, ['-r', counter, cli, 'build', 'bigsev.actguy.json', '--no-cache'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    rmSync(big);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('big.sev');
    expect(r.stderr).toContain('67108864');
    const read = Number(/bytes read: (\d+)/.exec(r.stderr)?.[1]);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(16 * 2 ** 20);
  });

  it.runIf(process.platform !== 'win32')(
    'FIFOs named as the .mtn, .sev and SE tables of a project are refused by place (the build waited forever for a writer)',
    () => {
      for (const f of ['pipe.mtn', 'pipe.sev', 'pipe.sls']) spawnSync('mkfifo', [join(dir, f)]);
      writeFileSync(
        join(dir, 'fifo.actguy.json'),
        JSON.stringify({
          version: 1,
          motions: [
            { name: 'walk', mtn: 'walk.mtn', sev: 'pipe.sev' },
            { name: 'pipe', mtn: 'pipe.mtn' },
          ],
          seTables: { sls: 'pipe.sls' },
          outputs: { mar: 'out/f.mar', sar: 'out/f.sar' },
        }),
      );
      const r = run('build', 'fifo.actguy.json', '--no-cache');
      expect(r.signal).toBeNull();
      expect(r.rc).toBe(1);
      for (const [place, file] of [
        ['motions[0].sev', 'pipe.sev'],
        ['motions[1].mtn', 'pipe.mtn'],
        ['seTables.sls', 'pipe.sls'],
      ])
        expect(r.err).toContain(
          `fifo.actguy.json [PROJECT] (${place}): cannot read ${file}: it is not a plain file (a pipe, socket or device)`,
        );
      expect(existsSync(join(dir, 'out', 'f.mar'))).toBe(false);
      // The tuning file compress reads beside its input: the message names it.
      spawnSync('mkfifo', [join(dir, 'walk.mtn.actguy-tuning.json')]);
      const c = run('compress', 'walk.mtn', '-o', 'fifo.mt3');
      rmSync(join(dir, 'walk.mtn.actguy-tuning.json'));
      expect(c.signal).toBeNull();
      expect(c.err.trim()).toBe(
        'actguy compress: walk.mtn.actguy-tuning.json: it is not a plain file (a pipe, socket or device)',
      );
    },
  );

  // Round 46 (docs/security.md): a tuning file that is a link leading to itself (or to nothing) was taken for no file
  // (existsSync follows links), so compress used the defaults without a word while the file was there. Mutation that
  // fails: the lookup by existsSync again (exit 0, w.mt3 written).
  it.runIf(process.platform !== 'win32')(
    'a tuning file that is a loop of links or a link to nothing stops compress, naming it, instead of being passed over',
    () => {
      const tuning = join(dir, 'walk.mtn.actguy-tuning.json');
      for (const [target, why] of [
        ['walk.mtn.actguy-tuning.json', 'its symbolic links form a loop (a link on the path leads back to itself)'],
        ['gone.json', 'no such file or directory'],
      ]) {
        symlinkSync(target, tuning);
        const c = run('compress', 'walk.mtn', '-o', 'loop.mt3', '--quiet');
        rmSync(tuning);
        expect(c.rc).toBe(1);
        expect(c.err.trim()).toBe(`actguy compress: walk.mtn.actguy-tuning.json: ${why}`);
        expect(existsSync(join(dir, 'loop.mt3'))).toBe(false);
      }
      // --no-tuning still ignores whatever is there.
      symlinkSync('gone.json', tuning);
      expect(run('compress', 'walk.mtn', '-o', 'loop.mt3', '--quiet', '--no-tuning').rc).toBe(0);
      rmSync(tuning);
    },
  );

  // Round 47 (docs/security.md): a motion's .sev that is a link to nothing was said as `cannot read walk.sev: no such
  // file or directory` about a name `ls` lists. Mutation that fails: readInputFile without danglingLinkReason.
  it.runIf(process.platform !== 'win32')(
    "a project's .sev that is a link to nothing is said as one, by build and check-sev, and nothing is written",
    () => {
      writeFileSync(
        join(dir, 'dangling.actguy.json'),
        JSON.stringify({
          version: 1,
          motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'dangling.sev' }],
          outputs: { mar: 'dangling/s.mar', sar: 'dangling/s.sar' },
        }),
      );
      symlinkSync('elsewhere.sev', join(dir, 'dangling.sev'));
      const why = 'it is a symbolic link to elsewhere.sev, which is not there';
      const b = run('build', 'dangling.actguy.json', '--no-cache');
      expect(b.rc).toBe(1);
      expect(b.err).toContain(`dangling.actguy.json [PROJECT] (motions[0].sev): cannot read dangling.sev: ${why}`);
      expect(existsSync(join(dir, 'dangling'))).toBe(false);
      const c = run('check-sev', 'dangling.sev');
      expect(c.rc).toBe(1);
      expect(c.err).toContain(`dangling.sev [SEV]: cannot read: ${why}`);
      expect(existsSync(join(dir, 'elsewhere.sev'))).toBe(false);
      rmSync(join(dir, 'dangling.sev'));
    },
  );

  // Round 48 (docs/security.md): `-o ex/w.mt3` with `ex` a FIFO was said as mkdir's EEXIST, `a file is in the way
  // where a folder should be`, not what is there. Mutation that fails: startAtomicWrite (fsutil.ts) without
  // outputFolderProblem.
  it.runIf(process.platform !== 'win32')(
    "a FIFO or a file where a single output's folder goes is named as what it is",
    () => {
      spawnSync('mkfifo', [join(dir, 'pipedir')]);
      writeFileSync(join(dir, 'filedir'), '');
      const c = run('compress', 'walk.mtn', '-o', 'pipedir/w.mt3', '--no-tuning', '--quiet');
      const f = run('compress', 'walk.mtn', '-o', 'filedir/sub/w.mt3', '--no-tuning', '--quiet');
      rmSync(join(dir, 'pipedir'));
      rmSync(join(dir, 'filedir'));
      expect([c.rc, f.rc]).toEqual([1, 1]);
      expect(c.err.trim()).toBe(
        'actguy compress: cannot write pipedir/w.mt3: pipedir is a named pipe (FIFO), not a folder',
      );
      expect(f.err.trim()).toBe('actguy compress: cannot write filedir/sub/w.mt3: filedir is a file, not a folder');
    },
  );

  it.runIf(process.platform !== 'win32')(
    'a FIFO given as --names or --project is refused at once, naming it (both read with readFileSync and waited forever)',
    () => {
      expect(run('compress', 'walk.mtn', '-o', 'n.mt3', '--no-tuning', '--quiet').rc).toBe(0);
      expect(run('pack-mar', '-o', 'n.mar', 'n.mt3').rc).toBe(0);
      spawnSync('mkfifo', [join(dir, 'names.pipe')]);
      for (const args of [
        ['unpack-mar', 'n.mar', '-o', 'unpacked', '--names', 'names.pipe'],
        ['info', 'n.mar', '--names', 'names.pipe'],
      ]) {
        const r = run(...args);
        expect(r.signal).toBeNull();
        expect(r.rc).toBe(1);
        expect(r.err.trim()).toBe(`actguy ${args[0]}: names.pipe: it is not a plain file (a pipe, socket or device)`);
      }
      expect(existsSync(join(dir, 'unpacked'))).toBe(false);
      writeFileSync(join(dir, 'root.bvh'), ROOT_ONLY_BVH);
      spawnSync('mkfifo', [join(dir, 'pipe.actguy.json')]);
      const r = run('import', 'root.bvh', '-o', 'imported', '--project', 'pipe.actguy.json');
      expect(r.signal).toBeNull();
      expect(r.rc).toBe(1);
      expect(r.err).toContain(
        'cannot read the project pipe.actguy.json: it is not a plain file (a pipe, socket or device)',
      );
      expect(existsSync(join(dir, 'imported', 'root.mtn'))).toBe(false);
    },
  );

  it('a --project that is not UTF-8 is refused at its line:column, not rewritten with U+FFFD in place of its bytes', () => {
    const project = join(dir, 'latin1.actguy.json');
    const before = Buffer.concat([
      Buffer.from('{"version": 1, "motions": [{"name": "walk", "mtn": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('.mtn"}], "outputs": {"mar": "o/s.mar", "sar": "o/s.sar"}}\n'),
    ]);
    writeFileSync(project, before);
    writeFileSync(join(dir, 'root.bvh'), ROOT_ONLY_BVH);
    const r = run('import', 'root.bvh', '-o', 'imported2', '--project', 'latin1.actguy.json');
    expectNoCrash(r.err);
    expect(r.rc).toBe(1);
    expect(r.err).toContain('cannot read the project latin1.actguy.json: latin1.actguy.json:1:56: invalid UTF-8');
    expect(readFileSync(project)).toEqual(before);
  });

  it('info of a .sar: a report beside it that is a FIFO, or names a project that does not load, costs only the names', () => {
    expect(run('build', 'one.actguy.json', '-o', 'rep', '--no-cache', '--quiet').rc).toBe(0);
    const report = join(dir, 'rep', 's.report.json');
    // A planted report leads to any file on the disk; one that is not a project used to fail `info` outright.
    writeFileSync(join(dir, 'notes.txt'), 'root:x:0:0\n');
    writeFileSync(report, JSON.stringify({ tool: 'actguy build', projectAbsolute: join(dir, 'notes.txt') }));
    let r = run('info', 'rep/s.sar');
    expect(r.rc).toBe(0);
    expect(r.out).toContain('SAR: 1 entry, 0 events');
    expect(r.err).toContain(`(no names: ${join(dir, 'notes.txt')} named by rep/s.report.json does not load:`);
    if (process.platform === 'win32') return; // mkfifo
    rmSync(report);
    spawnSync('mkfifo', [report]);
    r = run('info', 'rep/s.sar');
    expect(r.signal).toBeNull();
    expect(r.rc).toBe(0);
    expect(r.out).toContain('SAR: 1 entry, 0 events');
  });

  it.runIf(process.platform === 'linux')(
    "build -o /proc/x ends with a message naming the folder (Node's recursive mkdir spun at 100 % CPU until killed)",
    () => {
      const r = run('build', 'one.actguy.json', '-o', '/proc/actguy-x', '--no-cache');
      expect(r.signal).toBeNull();
      expect(r.rc).toBe(1);
      expect(r.err).toContain(
        'actguy build: cannot create the folder /proc/actguy-x for /proc/actguy-x/s.mar: the file system does not allow a new folder at /proc/actguy-x; nothing was written',
      );
    },
  );

  it.runIf(process.platform === 'linux')(
    'build --cache /proc/x builds without the cache (it looped the same way)',
    () => {
      const r = run('build', 'one.actguy.json', '-o', 'out', '--cache', '/proc/actguy-x');
      expect(r.signal).toBeNull();
      expect(r.rc).toBe(0);
      expect(r.out).toContain('built 1 motion');
    },
  );
});
