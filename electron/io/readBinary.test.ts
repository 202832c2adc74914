/**
 * Binary inputs are read header first (electron/io/readBinary.ts, docs/limits.md "Binary inputs"). Each hostile
 * file is made here (sparse files: a 1.5 GB file costs the disk nothing). Whether the rest of a file was read is
 * asserted by the bytes the reads returned (a spy on readSync), never by time. Tests run as root in CI: nothing
 * here depends on permissions.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BINARY_MAX_BYTES } from '../../shared/binarySize';
import { FormatError } from '../../shared/errors';
import { writeMar } from '../../shared/mar/write';
import { randomMt3 } from '../../shared/mt3/testFixtures';
import { writeMt3 } from '../../shared/mt3/write';
import { mtnByteSize } from '../../shared/mtn/constants';
import { writeSar } from '../../shared/sar/write';
import { readInputFile } from '../build/files';
import { IMPORT_MAX_BYTES, readImportSource } from '../interchange/importJob';
import { loadMotionFile } from '../motionFiles';
import { inProcessImportRunner } from '../interchange/importRunner';
import { FBX_HEADER_BYTES } from '../../shared/interchange/fbx/magic';
import {
  binaryReadIo,
  HEADER_CHECKS,
  READ_CHUNK_BYTES,
  readBinaryFile,
  readHeaderFirstAsync,
  readInput,
} from './readBinary';

const root = join(__dirname, '..', '..');
const SPARSE = 1_572_864_000; // 1.5 GB
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-readbinary-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Counts the bytes the reads of the code under test return. */
function countReads(): { bytes: () => number } {
  let n = 0;
  const real = binaryReadIo.readSync;
  vi.spyOn(binaryReadIo, 'readSync').mockImplementation(((...args: Parameters<typeof real>) => {
    const got = (real as (...a: unknown[]) => number)(...args);
    n += got;
    return got;
  }) as typeof real);
  // The app's open (loadMotionFile) reads with the async reader.
  const realAsync = binaryReadIo.read;
  vi.spyOn(binaryReadIo, 'read').mockImplementation(async (...args: Parameters<typeof realAsync>) => {
    const got = await realAsync(...args);
    n += got;
    return got;
  });
  return { bytes: () => n };
}

async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as Error,
  );
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a refusal');
}

/** A file of `size` bytes (sparse past `head`). */
function sparse(name: string, head: Uint8Array, size: number): string {
  const path = join(dir, name);
  writeFileSync(path, head);
  truncateSync(path, size);
  return path;
}

/** An MTN header of N frames and J joints. */
function mtnHeader(N: number, J: number, magic = 'MTN\0'): Uint8Array {
  const b = new Uint8Array(32);
  const dv = new DataView(b.buffer);
  for (let i = 0; i < 4; i++) b[i] = magic.charCodeAt(i);
  dv.setUint32(4, 1, true);
  dv.setUint32(8, N, true);
  dv.setUint32(12, J, true);
  dv.setInt32(20, -1, true);
  dv.setFloat32(24, 30, true);
  return b;
}

describe('readBinaryFile: the header first', () => {
  // Mutation killed: reading the whole file before the header check (readRest before sizeFromHead) reads 1.5 GB.
  it('a sparse 1.5 GB walk.mtn with a bad magic: refused naming the file, after at most 32 bytes were read', () => {
    const path = sparse('walk.mtn', mtnHeader(10, 3, 'XTN\0'), SPARSE);
    const reads = countReads();
    const e = errorOf(() => readBinaryFile(path, 'MTN'));
    expect(e).toBeInstanceOf(FormatError);
    expect(e.message).toBe(`${path} [MTN] (header, offset 0): bad magic: expected "MTN\\0", found 58 54 4e 00`);
    expect(reads.bytes()).toBeLessThanOrEqual(32);
  });

  // Mutation killed: dropping the `verdict.size !== fileSize` check before readRest reads the 1.5 GB.
  it('a good header over 1.5 GB of nothing: refused with both sizes, after at most 32 bytes were read', () => {
    const path = sparse('absurd.mtn', mtnHeader(10, 3), SPARSE);
    const reads = countReads();
    const implied = mtnByteSize(10, 3);
    expect(errorOf(() => readBinaryFile(path, 'MTN')).message).toBe(
      `${path} [MTN] (header): file is ${SPARSE} bytes but its header (10 frames, 3 joints) implies ${implied} bytes: ` +
        `it is ${SPARSE - implied} bytes longer than that; nothing past the header was read`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(32);
  });

  // Mutation killed: swapping the two wordings of sizeDisagreement (a short file said "longer").
  it('a file cut short: "truncated at" the byte it ends on', () => {
    const path = sparse('cut.mtn', mtnHeader(10, 3), mtnByteSize(10, 3) - 100);
    const reads = countReads();
    expect(errorOf(() => readBinaryFile(path, 'MTN')).message).toContain(
      `implies ${mtnByteSize(10, 3)} bytes: it is truncated at byte ${mtnByteSize(10, 3) - 100}`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(32);
  });

  // Mutation killed: dropping the `verdict.size > limit` check (the 3.2 GB the header implies would be read).
  it('a header that implies more than the limit: refused by the header, before the rest is read', () => {
    const implied = mtnByteSize(65535, 1024);
    expect(implied).toBeGreaterThan(BINARY_MAX_BYTES);
    const path = sparse('huge.mtn', mtnHeader(65535, 1024), implied);
    const reads = countReads();
    expect(errorOf(() => readBinaryFile(path, 'MTN')).message).toBe(
      `${path} [MTN] (header): its header implies ${implied} bytes, more than the ${BINARY_MAX_BYTES} ActGuy reads of an .mtn; nothing past the header was read`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(32);
  });

  // Mutation killed: dropping the `step > 0 && fileSize > limit` check (a table of 190 million entries would be read).
  it('a .mar whose good header declares a table as large as a 1.5 GB file: refused before the table is read', () => {
    const head = new Uint8Array(16);
    const dv = new DataView(head.buffer);
    head.set([0x4d, 0x41, 0x52, 0x61]); // MARa
    const M = 190_000_000;
    dv.setUint32(4, 1, true);
    dv.setUint32(8, M, true);
    dv.setUint32(12, Math.ceil((16 + 8 * M) / 16) * 16, true);
    const path = sparse('stage.mar', head, SPARSE);
    const reads = countReads();
    expect(errorOf(() => readBinaryFile(path, 'MAR')).message).toBe(
      `${path} [MAR] (header): it is ${SPARSE} bytes, more than the ${BINARY_MAX_BYTES} ActGuy reads of a .mar; nothing past the header was read`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(16);
  });

  // Mutation killed: a test of the size before the magic for .mt3 (dataSize is read only after the counts).
  it('an .mt3 whose dataSize disagrees with its sparse 1.5 GB size: refused at the dataSize field, 44 bytes read', () => {
    const mt3 = writeMt3(randomMt3(7, { numJoints: 3, numFrames: 20 }));
    const path = sparse('walk.mt3', mt3, SPARSE);
    const reads = countReads();
    expect(errorOf(() => readBinaryFile(path, 'MT3')).message).toMatch(
      new RegExp(
        `^${path} \\[MT3\\] \\(header, offset 20\\): file is ${SPARSE} bytes but its header \\(dataOffset \\d+ \\+ dataSize \\d+\\) implies ${mt3.byteLength} bytes: it is \\d+ bytes longer than that`,
      ),
    );
    expect(reads.bytes()).toBeLessThanOrEqual(44);
  });

  it('reads every kind whole and unchanged when its header agrees with its size', () => {
    const mt3 = writeMt3(randomMt3(3, { numJoints: 4, numFrames: 40 }));
    const mar = writeMar([mt3]);
    const name = new DataView(mt3.buffer, mt3.byteOffset).getUint32(0, true);
    const sar = writeSar([{ name, seCodes: new Uint16Array(0), events: [] }], [name]);
    const walk = readFileSync(join(root, 'assets', 'walk.mtn'));
    const cases: [string, 'MTN' | 'MT3' | 'MAR' | 'SAR', Uint8Array][] = [
      ['w.mtn', 'MTN', walk],
      ['w.mt3', 'MT3', mt3],
      ['w.mar', 'MAR', mar],
      ['w.sar', 'SAR', sar],
    ];
    for (const [file, kind, bytes] of cases) {
      const path = join(dir, file);
      writeFileSync(path, bytes);
      const reads = countReads();
      expect(Buffer.from(readBinaryFile(path, kind)).equals(Buffer.from(bytes))).toBe(true);
      // Each byte is read once: the header's reads are kept, not read again.
      expect(reads.bytes()).toBe(bytes.byteLength);
      vi.restoreAllMocks();
    }
  });
});

describe('what is not a plain file is refused before any read', () => {
  // Mutation killed: dropping refuseUnlessPlain in readHeaderFirst (the O_NONBLOCK read of an empty FIFO gives 0
  // bytes, read as a 0-byte file: "shorter than the header" instead of naming a pipe; a FIFO with a writer hangs).
  it('a FIFO named walk.mtn: ENOTREG, and nothing read', async () => {
    const path = join(dir, 'fifo.mtn');
    execFileSync('mkfifo', [path]);
    const reads = countReads();
    const e = errorOf(() => readBinaryFile(path, 'MTN')) as NodeJS.ErrnoException;
    expect(e.code).toBe('ENOTREG');
    expect(reads.bytes()).toBe(0);
    expect(binaryReadIo.readSync).not.toHaveBeenCalled();
    // The app's open words it and names the file.
    expect((await rejectionOf(loadMotionFile({ path }))).message).toBe(
      `Could not read ${path}: it is not a plain file (a pipe, socket or device)`,
    );
    // And so does a build's read of a project's motion.
    expect(errorOf(() => readInputFile(path)).message).toBe('it is not a plain file (a pipe, socket or device)');
  });

  it('a folder named walk.mtn: EISDIR', () => {
    const path = join(dir, 'folder.mtn');
    mkdirSync(path);
    expect((errorOf(() => readBinaryFile(path, 'MTN')) as NodeJS.ErrnoException).code).toBe('EISDIR');
  });
});

describe('every reading site goes through the header check', () => {
  // Mutation killed: motionFiles.ts reading with fsutil's readBytes again (the 1.5 GB would be read).
  it("the app's open (loadMotionFile) of a sparse 1.5 GB .mtn, .mt3 or .mar", async () => {
    for (const [file, head] of [
      ['big.mtn', mtnHeader(10, 3)],
      ['big.mt3', writeMt3(randomMt3(1, { numJoints: 2, numFrames: 10 }))],
      [
        'big.mar',
        new Uint8Array([0x4d, 0x41, 0x52, 0x61, 1, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0]),
      ],
    ] as const) {
      const path = sparse(file, head, SPARSE);
      const reads = countReads();
      const e = await rejectionOf(loadMotionFile({ path }));
      expect(e).toBeInstanceOf(FormatError);
      expect(e.message.startsWith(`${path} [`)).toBe(true);
      // The .mtn and .mt3 by the size their header implies; the .mar, whose table is read next, by the limit.
      expect(e.message).toMatch(new RegExp(`file is ${SPARSE} bytes but|it is ${SPARSE} bytes, more than the`));
      expect(reads.bytes()).toBeLessThanOrEqual(64);
      vi.restoreAllMocks();
    }
  });

  // Mutation killed: readInputFile keeping readBytes for binary inputs (a build read the motion whole).
  it("a build's read of a project's motion, by its extension or, under another name, by its magic", () => {
    for (const file of ['build.mtn', 'build.motion']) {
      const path = sparse(file, mtnHeader(10, 3), SPARSE);
      const reads = countReads();
      const e = errorOf(() => readInputFile(path));
      expect(e).toBeInstanceOf(FormatError);
      expect(e.message).toContain(
        `${path} [MTN] (header): file is ${SPARSE} bytes but its header (10 frames, 3 joints)`,
      );
      expect(reads.bytes()).toBeLessThanOrEqual(32);
      vi.restoreAllMocks();
    }
  });

  // Mutation killed: readInput reading a file of no binary kind without its limit.
  it('an input of no binary kind past the limit is refused by its size, nothing read past the magic', () => {
    const path = sparse('notes.bin', new Uint8Array([1, 2, 3, 4]), BINARY_MAX_BYTES + 1);
    const reads = countReads();
    expect(errorOf(() => readInput(path)).message).toBe(
      `EFBIG: it is ${BINARY_MAX_BYTES + 1} bytes, more than the ${BINARY_MAX_BYTES} ActGuy reads of an input file, read '${path}'`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(4);
  });
});

describe('import sources: a GLB or a binary FBX has its header checked first', () => {
  const fbxHead = (version: number) => {
    const b = new Uint8Array(27);
    b.set(Array.from('Kaydara FBX Binary  \0\x1a\0', (c) => c.charCodeAt(0)));
    new DataView(b.buffer).setUint32(23, version, true);
    return b;
  };

  // Mutation killed: readImportSource reading with readBytes whole (the 1.5 GB would be read), or dropping the GLB
  // check from its `check` (the plain path refuses by the 512 MiB limit, without the header's length).
  it('a sparse 1.5 GB .glb whose header declares 1000 bytes: refused by the declared length, 27 bytes read', () => {
    const head = new Uint8Array(20);
    const dv = new DataView(head.buffer);
    head.set([0x67, 0x6c, 0x54, 0x46]); // glTF
    dv.setUint32(4, 2, true);
    dv.setUint32(8, 1000, true);
    const path = sparse('take.glb', head, SPARSE);
    const reads = countReads();
    expect(errorOf(() => readImportSource(path)).message).toBe(
      `${path} [GLTF] (GLB, offset 8): GLB header says 1000 bytes but the file has ${SPARSE} (truncated or padded): ` +
        `it is ${SPARSE - 1000} bytes longer than that; nothing past the header was read`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(27);
  });

  // Mutation killed: dropping the FBX check from readImportSource's `check`.
  it('a sparse 1.5 GB binary FBX of version 6.1: refused by its version, 27 bytes read', () => {
    const path = sparse('old.fbx', fbxHead(6100), SPARSE);
    const reads = countReads();
    expect(errorOf(() => readImportSource(path)).message).toMatch(
      new RegExp(`^${path} \\[FBX\\] \\(offset 23\\): FBX 6\\.1 \\(FileVersion 6100\\) is not supported`),
    );
    expect(reads.bytes()).toBeLessThanOrEqual(27);
  });

  // Mutation killed: the `anySize` branch reading without its limit.
  it('a binary FBX past the import limit: refused by its size once its header is good', () => {
    const path = sparse('big.fbx', fbxHead(7400), IMPORT_MAX_BYTES + 16);
    const reads = countReads();
    expect(errorOf(() => readImportSource(path)).message).toBe(
      `${path} [FBX] (header): it is ${IMPORT_MAX_BYTES + 16} bytes, more than the ${IMPORT_MAX_BYTES} ActGuy reads of an import source; nothing past the header was read`,
    );
    expect(reads.bytes()).toBeLessThanOrEqual(27);
  });

  it('a FIFO named take.fbx: refused as not a regular file, nothing read', () => {
    const path = join(dir, 'fifo.fbx');
    execFileSync('mkfifo', [path]);
    const reads = countReads();
    expect(errorOf(() => readImportSource(path)).message).toBe(
      `Could not import ${path}: it is not a regular file (a device, pipe or socket)`,
    );
    expect(reads.bytes()).toBe(0);
  });
});

/**
 * Round 12 (docs/security.md): the reader takes an AbortSignal, checked before each read. The async reader
 * (readHeaderFirstAsync) awaits its reads, so an abort lands between two of them; an import run in-process
 * (`actguy import`, a batch) passes its signal down. Whether the rest was read is asserted by the bytes the reads
 * returned, never by time. Mutations that fail: the check in readHeaderFirstAsync's loop removed (the first two
 * tests), the check in readHeaderFirst's loop removed (the sync test), inProcessImportRunner not passing its signal
 * to runImportJob (the import test).
 */
describe('reads that can be cancelled', () => {
  /** A valid MTN header of a file of about 78 MB (sparse): the rest is five reads of READ_CHUNK_BYTES. */
  function bigMtn(name: string): { path: string; size: number } {
    const size = mtnByteSize(40_000, 40);
    return { path: sparse(name, mtnHeader(40_000, 40), size), size };
  }

  /** Counts the async reads' bytes and aborts `abort` once `after` bytes were read. */
  function abortAfter(abort: AbortController, after: number): { bytes: () => number } {
    let n = 0;
    const real = binaryReadIo.read;
    vi.spyOn(binaryReadIo, 'read').mockImplementation(async (...args: Parameters<typeof real>) => {
      const got = await real(...args);
      n += got;
      if (n >= after) abort.abort();
      return got;
    });
    return { bytes: () => n };
  }

  it('readHeaderFirstAsync stops between reads once its signal is aborted, naming the file', async () => {
    const { path, size } = bigMtn('big.mtn');
    expect(size).toBeGreaterThan(3 * READ_CHUNK_BYTES);
    const abort = new AbortController();
    const reads = abortAfter(abort, 33);
    const e = await readHeaderFirstAsync(path, {
      sniff: 0,
      check: () => HEADER_CHECKS.MTN,
      limit: BINARY_MAX_BYTES,
      signal: abort.signal,
    }).catch((x: Error) => x);
    expect(e).toBeInstanceOf(Error);
    expect((e as Error).name).toBe('AbortError');
    expect((e as Error).message).toBe(`the read of ${path} was cancelled`);
    // The header (32 bytes) and at most one chunk: never the whole file.
    expect(reads.bytes()).toBeLessThanOrEqual(32 + READ_CHUNK_BYTES);
  });

  it('readHeaderFirstAsync without an abort reads what readBinaryFile reads', async () => {
    const path = sparse('small.mtn', mtnHeader(10, 3), mtnByteSize(10, 3));
    const how = {
      sniff: 0,
      check: () => HEADER_CHECKS.MTN,
      limit: BINARY_MAX_BYTES,
      signal: new AbortController().signal,
    };
    expect(await readHeaderFirstAsync(path, how)).toEqual(readBinaryFile(path, 'MTN'));
    const bad = sparse('bad.mtn', mtnHeader(10, 3, 'XTN\0'), SPARSE);
    await expect(readHeaderFirstAsync(bad, how)).rejects.toThrow(FormatError);
  });

  it('readBinaryFile: an aborted signal opens nothing; one aborted during a read stops at the next', () => {
    const { path } = bigMtn('sync.mtn');
    const open = vi.spyOn(binaryReadIo, 'openSync');
    const done = new AbortController();
    done.abort();
    expect(errorOf(() => readBinaryFile(path, 'MTN', { signal: done.signal })).name).toBe('AbortError');
    expect(open).not.toHaveBeenCalled();
    const abort = new AbortController();
    let n = 0;
    const real = binaryReadIo.readSync;
    vi.spyOn(binaryReadIo, 'readSync').mockImplementation(((...args: Parameters<typeof real>) => {
      const got = (real as (...a: unknown[]) => number)(...args);
      n += got;
      abort.abort();
      return got;
    }) as typeof real);
    expect(errorOf(() => readBinaryFile(path, 'MTN', { signal: abort.signal })).name).toBe('AbortError');
    expect(n).toBe(32);
  });

  it('an import run in-process is cancelled while its source is read', async () => {
    // A text source (a BVH by name) of 64 MiB, read whole in chunks.
    const path = join(dir, 'take.bvh');
    writeFileSync(path, 'HIERARCHY\n');
    truncateSync(path, 4 * READ_CHUNK_BYTES);
    const abort = new AbortController();
    const reads = abortAfter(abort, 1);
    const r = await inProcessImportRunner({ path, fps: 30, scale: 1 }, abort.signal);
    expect(r).toEqual({ status: 'cancelled' });
    expect(reads.bytes()).toBeLessThanOrEqual(FBX_HEADER_BYTES + READ_CHUNK_BYTES);
    // Not aborted: the same file is read whole, and refused as a BVH.
    const whole = await inProcessImportRunner({ path, fps: 30, scale: 1 }, new AbortController().signal);
    expect(whole.status).toBe('failed');
  });
});
