import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFsError, systemReason } from './fsErrors';
import {
  atomicWriteIo,
  baseNameOf,
  makeFolders,
  readBytes,
  readSmallFile,
  writeFileAtomic,
  type FolderIo,
} from './fsutil';

const realIo = { ...atomicWriteIo };
import { OWN_TEMP, ownTempName } from './tempFiles';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('sweeps temps a killed writer left beside the target, and leaves none of its own on failure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    const target = join(dir, 'walk.mtn');
    writeFileSync(target, 'old');
    const orphan = ownTempName(target, 'new').replace(`.${process.pid}.`, '.999999999.');
    writeFileSync(orphan, 'half a file from a killed run');
    writeFileAtomic(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['walk.mtn']);
    // A folder where the file should go: the rename fails (even as root) and the temp goes away.
    mkdirSync(join(dir, 'folder.mtn'));
    writeFileSync(join(dir, 'folder.mtn', 'inside'), 'x');
    expect(() => writeFileAtomic(join(dir, 'folder.mtn'), 'bytes')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['folder.mtn', 'walk.mtn']);
  });
});

describe('writeFileAtomic: flushing', () => {
  it('flushes the temp before renaming it over the target, unless told the file is only a cache (durable: false)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    const flushed: string[] = [];
    const real = { ...atomicWriteIo };
    const names = new Map<number, string>();
    atomicWriteIo.openSync = ((path: string, flags: string) => {
      const fd = real.openSync(path, flags);
      names.set(fd, basename(path));
      return fd;
    }) as typeof atomicWriteIo.openSync;
    atomicWriteIo.fsyncSync = (fd) => {
      flushed.push(names.get(fd as number)!);
      real.fsyncSync(fd);
    };
    try {
      writeFileAtomic(join(dir, 'saved.sev'), 'sev');
      writeFileAtomic(join(dir, 'remembered.json'), '{}', { durable: false });
    } finally {
      Object.assign(atomicWriteIo, real);
    }
    expect(flushed.map((n) => n.split('.actguy-')[0])).toEqual(['saved.sev']);
    expect(readFileSync(join(dir, 'remembered.json'), 'utf8')).toBe('{}');
  });
});

describe('writeFileAtomic: permissions', () => {
  it.runIf(process.platform !== 'win32')(
    'a save keeps the permission bits of the file it replaces (a private file became readable by all: 0600 -> 0644)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
      dirs.push(dir);
      const cases: [string, number][] = [
        ['private.sev', 0o600],
        ['shared.sev', 0o664],
        ['readonly.mtn', 0o444],
      ];
      for (const [name, mode] of cases) {
        writeFileSync(join(dir, name), 'old');
        chmodSync(join(dir, name), mode);
        writeFileAtomic(join(dir, name), 'new');
        expect(readFileSync(join(dir, name), 'utf8')).toBe('new');
        expect((statSync(join(dir, name)).mode & 0o777).toString(8)).toBe(mode.toString(8));
      }
      // A new file gets the usual bits (0666 less the umask), as any file the user makes.
      writeFileAtomic(join(dir, 'new.sev'), 'x');
      const umask = process.umask();
      expect(statSync(join(dir, 'new.sev')).mode & 0o777).toBe(0o666 & ~umask);
    },
  );
});

describe('writeFileAtomic: folders, partial writes and errors', () => {
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => Object.assign(atomicWriteIo, realIo));

  it('creates missing folders and writes text as UTF-8 and bytes as given', () => {
    const dir = fresh();
    const target = join(dir, 'a', 'b', 'walk.sev');
    writeFileAtomic(target, 'sev 1 # é\n');
    expect(readFileSync(target)).toEqual(Buffer.from('sev 1 # é\n', 'utf8'));
    writeFileAtomic(target, new Uint8Array([0, 255, 7]));
    expect(Array.from(readFileSync(target))).toEqual([0, 255, 7]);
    writeFileAtomic(target, new Uint8Array(0));
    expect(readFileSync(target).length).toBe(0);
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['walk.sev']);
  });

  it('a folder where the file should be is refused before anything is written, in words, naming the file', () => {
    const dir = fresh();
    mkdirSync(join(dir, 'out.mt3'));
    let error: NodeJS.ErrnoException | null = null;
    try {
      writeFileAtomic(join(dir, 'out.mt3'), 'x');
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.message).toBe(`cannot write ${join(dir, 'out.mt3')}: a folder has that name`);
    expect(error?.code).toBe('EISDIR');
    expect(error?.path).toBe(join(dir, 'out.mt3'));
    expect(readdirSync(dir)).toEqual(['out.mt3']);
  });

  it('a file where a folder should be is refused naming the folder and the file', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'out'), 'a file');
    let error: NodeJS.ErrnoException | null = null;
    try {
      writeFileAtomic(join(dir, 'out', 'x.mt3'), 'x');
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.message).toBe(
      `cannot write ${join(dir, 'out', 'x.mt3')}: ${join(dir, 'out')} is a file, not a folder`,
    );
    expect(['EEXIST', 'ENOTDIR']).toContain(error?.code);
    expect(error?.path).toBe(join(dir, 'out', 'x.mt3'));
    expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('a file');
  });

  it('keeps writing until every byte is down when the system writes only part of a buffer, and flushes before the rename', () => {
    const dir = fresh();
    const target = join(dir, 'big.mtn');
    const calls: string[] = [];
    atomicWriteIo.writeSync = ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
      calls.push(`write ${offset} ${length}`);
      return realIo.writeSync(fd, buffer, offset, Math.min(3, length));
    }) as typeof atomicWriteIo.writeSync;
    atomicWriteIo.fsyncSync = ((fd: number) => {
      calls.push('fsync');
      realIo.fsyncSync(fd);
    }) as typeof atomicWriteIo.fsyncSync;
    atomicWriteIo.renameSync = ((from: string, to: string) => {
      calls.push('rename');
      realIo.renameSync(from, to);
    }) as typeof atomicWriteIo.renameSync;
    writeFileAtomic(target, 'abcdefgh');
    expect(readFileSync(target, 'utf8')).toBe('abcdefgh');
    expect(calls).toEqual(['write 0 8', 'write 3 5', 'write 6 2', 'fsync', 'rename']);
  });

  it('a failure after the temp file was opened closes it and removes it; a thrown non-Error becomes an Error', () => {
    const dir = fresh();
    const target = join(dir, 'walk.sev');
    writeFileSync(target, 'old');
    const closed: number[] = [];
    atomicWriteIo.closeSync = ((fd: number) => {
      closed.push(fd);
      realIo.closeSync(fd);
    }) as typeof atomicWriteIo.closeSync;
    atomicWriteIo.fsyncSync = (() => {
      throw 'disk gone';
    }) as typeof atomicWriteIo.fsyncSync;
    let error: unknown = null;
    try {
      writeFileAtomic(target, 'new');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('disk gone');
    expect(closed).toHaveLength(1);
    expect(readdirSync(dir)).toEqual(['walk.sev']);
    expect(readFileSync(target, 'utf8')).toBe('old');
  });

  it('an error without a system code keeps no code, and names the target where node named the temp file', () => {
    const dir = fresh();
    const target = join(dir, 'walk.sev');
    atomicWriteIo.openSync = ((path: string) => {
      throw new Error(`cannot open ${path} (twice: ${path})`);
    }) as unknown as typeof atomicWriteIo.openSync;
    let error: NodeJS.ErrnoException | null = null;
    try {
      writeFileAtomic(target, 'x');
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.message).toBe(`cannot open ${target} (twice: ${target})`);
    expect(error && 'code' in error).toBe(false);
    expect(error?.path).toBe(target);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes through a temp file beside the target, named as one of this process (so a later run can sweep it)', () => {
    const dir = fresh();
    const target = join(dir, 'walk.mtn');
    const opened: string[] = [];
    atomicWriteIo.openSync = ((path: string, flags: string) => {
      opened.push(path);
      return realIo.openSync(path, flags);
    }) as typeof atomicWriteIo.openSync;
    writeFileAtomic(target, 'x');
    expect(opened).toHaveLength(1);
    expect(dirname(opened[0])).toBe(dir);
    const m = OWN_TEMP.exec(basename(opened[0]));
    expect(m?.[1]).toBe('walk.mtn');
    expect(m?.[2]).toBe('new');
    expect(Number(m?.[4])).toBe(process.pid);
  });
});

describe('readBytes and baseNameOf', () => {
  it('readBytes returns exactly the file bytes as a Uint8Array', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'x.bin'), new Uint8Array([9, 8, 7, 6]));
    const bytes = readBytes(join(dir, 'x.bin'));
    expect(bytes.constructor).toBe(Uint8Array);
    expect(Array.from(bytes)).toEqual([9, 8, 7, 6]);
  });

  it('readBytes refuses a FIFO without waiting for a writer, and a folder, naming what it is', async () => {
    if (process.platform === 'win32') return; // mkfifo
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    const fifo = join(dir, 'walk.sev');
    execFileSync('mkfifo', [fifo]);
    // Were the read to wait for a writer, this one comes after a second and closes at once: the read would then
    // return no bytes instead of hanging the test run (it gives up after 10 s when nothing reads).
    const writer = spawn('timeout', ['10', 'sh', '-c', `sleep 1; : > '${fifo}'`], { stdio: 'ignore' });
    try {
      const e = thrownBy(() => readBytes(fifo)) as NodeJS.ErrnoException;
      expect([e.code, e.path]).toEqual(['ENOTREG', fifo]);
      // Worded as any file-system error: by the build, the app, and the CLI (which names the path).
      expect(describeFsError(e)).toBe('it is not a plain file (a pipe, socket or device)');
      expect(systemReason(e)).toBe('it is not a plain file (a pipe, socket or device)');
      expect(e.message).toMatch(/^ENOTREG: /);
    } finally {
      writer.kill();
    }
    mkdirSync(join(dir, 'folder.mtn'));
    expect((thrownBy(() => readBytes(join(dir, 'folder.mtn'))) as NodeJS.ErrnoException).code).toBe('EISDIR');
  });

  it.runIf(process.platform === 'linux')(
    'readBytes reads no more than the size the open file has: a /proc file of size 0 reads as empty, within any limit',
    () => {
      // /proc/self/status holds a kilobyte or so; /proc/self/pagemap, of the same size 0, gives 256 GB of zeros and was
      // read until memory ran out (a tuning file linked to it; round 13, docs/security.md).
      expect(readBytes('/proc/self/status').byteLength).toBe(0);
      expect(readBytes('/proc/self/pagemap', { bytes: 1024, of: 'a text file' }).byteLength).toBe(0);
    },
  );

  it('baseNameOf drops the folder and the last extension only', () => {
    expect(baseNameOf('/w/motions/walk_01.mtn')).toBe('walk_01');
    expect(baseNameOf('/w/stage.actguy.json')).toBe('stage.actguy');
    expect(baseNameOf('noext')).toBe('noext');
  });
});

// Round 46: a received folder's link that leads to itself, or a name past 255 bytes, was said in Node's words
// ("ELOOP: too many symbolic links encountered", "ENAMETOOLONG: name too long"). Mutation that fails: either case
// dropped from describeFsError or systemReason.
describe('describeFsError and systemReason: a loop of links, a name too long', () => {
  it('word both as what is wrong, with no error code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fserr-'));
    dirs.push(dir);
    symlinkSync('walk.mtn', join(dir, 'walk.mtn'));
    const loop = thrownBy(() => readBytes(join(dir, 'walk.mtn'))) as NodeJS.ErrnoException;
    const long = thrownBy(() => readBytes(join(dir, `${'a'.repeat(300)}.mtn`))) as NodeJS.ErrnoException;
    expect([loop.code, long.code]).toEqual(['ELOOP', 'ENAMETOOLONG']);
    for (const [e, words] of [
      [loop, 'its symbolic links form a loop (a link on the path leads back to itself)'],
      [long, 'a name in the path is longer than the file system allows (255 bytes a name)'],
    ] as const) {
      expect(describeFsError(e)).toBe(words);
      expect(systemReason(e)).toBe(words);
    }
  });
});

describe('readSmallFile: a small file that may be hostile (a window state, the recent list, a build journal or lock)', () => {
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-fsutil-'));
    dirs.push(dir);
    return dir;
  };

  it('reads a plain UTF-8 file whole, with its ctime; a file that is not there is undefined', () => {
    const dir = folder();
    writeFileSync(join(dir, 'recent.json'), '["/w/ä.mtn"]');
    const read = readSmallFile(join(dir, 'recent.json'), 64);
    expect(read).toEqual({ text: '["/w/ä.mtn"]', ctimeMs: statSync(join(dir, 'recent.json')).ctimeMs });
    expect(readSmallFile(join(dir, 'missing.json'), 64)).toBeUndefined();
  });

  it('refuses a symbolic link (even to a plain file), a folder and a FIFO without opening them, in words', () => {
    const dir = folder();
    writeFileSync(join(dir, 'real.json'), '{}');
    symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
    mkdirSync(join(dir, 'folder.json'));
    expect(readSmallFile(join(dir, 'link.json'), 64)).toEqual({ problem: 'it is a symbolic link' });
    expect(readSmallFile(join(dir, 'folder.json'), 64)).toEqual({ problem: 'it is a folder' });
    if (process.platform === 'win32') return; // mkfifo
    // Were the FIFO opened for reading, the open would wait for a writer that never comes and the test time out.
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    expect(readSmallFile(join(dir, 'fifo.json'), 64)).toEqual({ problem: 'it is not a plain file' });
  });

  it('refuses a file larger than maxBytes before reading it, and one that is not UTF-8', () => {
    const dir = folder();
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(65));
    writeFileSync(join(dir, 'exact.json'), 'x'.repeat(64));
    writeFileSync(join(dir, 'latin1.json'), new Uint8Array([0x22, 0xe4, 0x22]));
    expect(readSmallFile(join(dir, 'big.json'), 64)).toEqual({
      problem: 'it is 65 bytes, more than the 64 it could be',
    });
    expect(readSmallFile(join(dir, 'exact.json'), 64)).toMatchObject({ text: 'x'.repeat(64) });
    expect(readSmallFile(join(dir, 'latin1.json'), 64)).toEqual({ problem: 'it is not UTF-8 text' });
  });
});

describe('makeFolders: one level at a time, with the real refusal', () => {
  const fresh = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-folders-'));
    dirs.push(dir);
    return dir;
  };
  const thrown = (fn: () => void): NodeJS.ErrnoException => {
    try {
      fn();
    } catch (e) {
      return e as NodeJS.ErrnoException;
    }
    throw new Error('expected an error');
  };

  it('creates every missing level, and leaves an existing folder alone', () => {
    const dir = fresh();
    makeFolders(join(dir, 'a', 'b', 'c'));
    makeFolders(join(dir, 'a', 'b', 'c'));
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['c']);
  });

  it('a read-only disk or a refused folder is reported as such, not as "no such file or directory" (Node stats the folder it could not make)', () => {
    const dir = fresh();
    for (const code of ['EROFS', 'EACCES']) {
      const made: string[] = [];
      const refusing: FolderIo = {
        statSync,
        mkdirSync: (p) => {
          made.push(p);
          throw Object.assign(new Error(`${code}: refused, mkdir '${p}'`), { code });
        },
      };
      const e = thrown(() => makeFolders(join(dir, 'out', 'deep'), refusing));
      expect(e.code).toBe(code);
      // Only the first missing level is tried: nothing below it is attempted.
      expect(made).toEqual([join(dir, 'out')]);
      expect(systemReason(e)).toBe(code === 'EROFS' ? 'the disk is read-only' : 'permission denied');
      expect(describeFsError(e)).toBe(code === 'EROFS' ? 'read-only file system' : 'permission denied');
    }
  });

  it('a file where a folder should be is named (this fails as root too)', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'afile'), 'x');
    const e = thrown(() => makeFolders(join(dir, 'afile', 'sub')));
    expect(e.code).toBe('ENOTDIR');
    expect(e.path).toBe(join(dir, 'afile'));
    expect(() => writeFileAtomic(join(dir, 'afile', 'sub', 'x.mtn'), 'x')).toThrow(
      /cannot write .*afile\/sub\/x\.mtn: .*afile is a file, not a folder$/,
    );
  });

  it.runIf(process.platform === 'linux')(
    "a file system that holds no new folders (/proc) ends at once with its folder named (Node's recursive mkdir loops there forever)",
    () => {
      const e = thrown(() => makeFolders('/proc/actguy-x/y'));
      expect(e.code).toBe('ENOFOLDER');
      expect(e.message).toBe('the file system does not allow a new folder at /proc/actguy-x');
      expect(() => writeFileAtomic('/proc/actguy-x/y/walk.mtn', 'x')).toThrow(
        'cannot create the folder /proc/actguy-x/y for /proc/actguy-x/y/walk.mtn: the file system does not allow a new folder at /proc/actguy-x',
      );
    },
  );
});

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}
