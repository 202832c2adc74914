/**
 * Saves are temp file + rename: a write that fails halfway (a full disk)
 * leaves the original bytes in place, no temp file behind, a message naming
 * the user's file (never the temp file), and the edits still in the app to
 * save again. The failure is injected through fsutil's atomicWriteIo seam,
 * which works as root (CI runs as root, where a read-only folder stops nothing).
 * A save that wrote the target directly would leave half a file and fail here.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync as realWriteSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import { KeyFlag } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { EXPORT_AGAIN_NEXT, SAVE_MOTION_NEXT } from './fsErrors';
import { ASSETS, testHandlers, openedMotion, useCompressClientPerTest } from './testing/handlerHarness';
import { asyncWriteIo, atomicWriteIo, writeFileAtomic } from './fsutil';
import { writesInFlight } from './writeTurns';
import { defaultTuning, serializeTuning, tuningPathOf } from '../shared/tuning/sidecar';
import { inProcessImportRunner } from './interchange/importRunner';
import { inProcessTextChecker } from './project/textCheckJob';

const compress = useCompressClientPerTest();
const realIo = { ...atomicWriteIo };
const realAsyncIo = { ...asyncWriteIo };

let ws: string;
let handlers: ApiHandlers;

/** From now on every write through the seam stores half its bytes, then fails as a full disk does. */
function diskFillsUp(): { writes: string[] } {
  const seen = { writes: [] as string[] };
  const paths = new Map<number, string>();
  atomicWriteIo.openSync = ((path: string, flags: string) => {
    const fd = realIo.openSync(path, flags);
    paths.set(fd, path);
    return fd;
  }) as typeof atomicWriteIo.openSync;
  const halfThenFull = (fd: number, buffer: Uint8Array, offset: number, length: number): number => {
    seen.writes.push(paths.get(fd) ?? String(fd));
    realWriteSync(fd, buffer, offset, Math.max(1, Math.floor(length / 2)));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
  };
  atomicWriteIo.writeSync = halfThenFull as unknown as typeof atomicWriteIo.writeSync;
  // The same through the seam of the writes made off the main thread (the app's saves and exports).
  asyncWriteIo.open = async (path, flags, mode) => {
    const fd = await realAsyncIo.open(path, flags, mode);
    paths.set(fd, path);
    return fd;
  };
  asyncWriteIo.write = async (fd, buffer, offset, length) => halfThenFull(fd, buffer, offset, length);
  return seen;
}

function restoreIo(): void {
  Object.assign(atomicWriteIo, realIo);
  Object.assign(asyncWriteIo, realAsyncIo);
}

const tempFiles = (): string[] => readdirSync(ws).filter((n) => n.endsWith('.tmp'));

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-atomic-'));
  cpSync(ASSETS, ws, { recursive: true });
  handlers = testHandlers({
    app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
    compress: compress(),
    runImport: inProcessImportRunner,
    checkText: inProcessTextChecker,
  });
});
afterEach(() => {
  restoreIo();
  rmSync(ws, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('a write that fails halfway leaves the original bytes, no temp file, and an error naming the target with the system code', () => {
    const target = join(ws, 'walk.sev');
    const before = readFileSync(target);
    const seen = diskFillsUp();
    let error: NodeJS.ErrnoException | null = null;
    try {
      writeFileAtomic(target, 'sev 1\n'.repeat(100));
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.code).toBe('ENOSPC');
    expect(error?.path).toBe(target);
    expect(error?.message).not.toMatch(/\.tmp/);
    // The bytes went to a temp file beside the target, never to the target itself.
    expect(seen.writes).toHaveLength(1);
    expect(seen.writes[0]).not.toBe(target);
    expect(seen.writes[0].startsWith(`${target}.`)).toBe(true);
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(tempFiles()).toEqual([]);
  });

  it('a failing rename names the target, not the temp file, and removes the temp file', () => {
    const target = join(ws, 'walk.sev');
    const before = readFileSync(target);
    atomicWriteIo.renameSync = ((from: string, to: string) => {
      throw Object.assign(new Error(`EXDEV: cross-device link not permitted, rename '${from}' -> '${to}'`), {
        code: 'EXDEV',
      });
    }) as typeof atomicWriteIo.renameSync;
    expect(() => writeFileAtomic(target, 'sev 1\n')).toThrow(
      new RegExp(`^EXDEV: cross-device link not permitted, rename '${target}' -> '${target}'$`),
    );
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(tempFiles()).toEqual([]);
  });
});

describe('every save and export of the app is atomic', () => {
  it('saveMotion: the disk fills up halfway; the .mtn on disk is intact, the message names it, and the edits save once there is room', async () => {
    const target = join(ws, 'walk.mtn');
    const before = readFileSync(target);
    const opened = await openedMotion(handlers, target);
    const motion = readMtn(opened.mtnBytes);
    const flag = (5 * motion.joints.length + 2) * 4;
    motion.jointKeyInfo[flag] ^= KeyFlag.KEY;
    const edited = writeMtn(motion);
    diskFillsUp();
    const failed = await dispatchInvoke(handlers, 'saveMotion', {
      documentId: opened.documentId,
      path: target,
      mtnBytes: edited,
    });
    expect(failed).toEqual({
      ok: false,
      error: {
        message: `Could not save ${target}: no space left on the disk; the file on disk is unchanged and your edits are kept. ${SAVE_MOTION_NEXT}`,
      },
    });
    expect(readFileSync(target).equals(before)).toBe(true);
    expect(tempFiles()).toEqual([]);
    // Nothing was lost: the same document saves the same edits once the disk has room.
    restoreIo();
    const saved = await handlers.saveMotion({ documentId: opened.documentId, path: target, mtnBytes: edited });
    expect(saved.status).toBe('saved');
    expect(readMtn(new Uint8Array(readFileSync(target))).jointKeyInfo[flag]).toBe(motion.jointKeyInfo[flag]);
  });

  it('saveSev and saveProject: the text on disk is intact, the message names the file, and a retry writes the edit', async () => {
    for (const [member, name, edit] of [
      ['saveSev', 'walk.sev', (t: string) => t.replace('event 66 2 -', 'event 67 2 -')],
      ['saveProject', 'sample.actguy.json', (t: string) => t.replace('"walk_rough"', '"walk_rougher"')],
    ] as const) {
      const target = join(ws, name);
      const before = readFileSync(target, 'utf8');
      const text = edit(before);
      expect(text).not.toBe(before);
      diskFillsUp();
      const failed = await dispatchInvoke(handlers, member, { path: target, text });
      expect(failed.ok, member).toBe(false);
      if (!failed.ok)
        expect(failed.error.message).toMatch(
          new RegExp(`^Could not save ${target}: no space left on the disk; the file on disk is unchanged`),
        );
      expect(readFileSync(target, 'utf8')).toBe(before);
      expect(tempFiles()).toEqual([]);
      restoreIo();
      expect(await dispatchInvoke(handlers, member, { path: target, text })).toMatchObject({ ok: true });
      expect(readFileSync(target, 'utf8')).toBe(text);
    }
  });

  it('exportMt3 and exportGltf: an existing export survives a failed overwrite', async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    const request = compressRequestForMotion(readMtn(mtnBytes), documentId, 1);
    const mt3 = join(ws, 'walk.mt3');
    const glb = join(ws, 'walk.glb');
    await handlers.exportMt3({ path: mt3, compress: request });
    await handlers.exportGltf({ documentId, source: 'source', mtnBytes, path: glb });
    const before = [readFileSync(mt3), readFileSync(glb)];
    diskFillsUp();
    const a = await dispatchInvoke(handlers, 'exportMt3', { path: mt3, compress: { ...request, revision: 2 } });
    const b = await dispatchInvoke(handlers, 'exportGltf', { documentId, source: 'source', mtnBytes, path: glb });
    expect(a).toEqual({
      ok: false,
      error: {
        message: `Could not export ${mt3}: no space left on the disk; the file on disk is unchanged. ${EXPORT_AGAIN_NEXT}`,
      },
    });
    expect(b).toEqual({
      ok: false,
      error: {
        message: `Could not export ${glb}: no space left on the disk; the file on disk is unchanged. ${EXPORT_AGAIN_NEXT}`,
      },
    });
    expect(readFileSync(mt3).equals(before[0])).toBe(true);
    expect(readFileSync(glb).equals(before[1])).toBe(true);
    expect(tempFiles()).toEqual([]);
  });
});

describe("the app's saves and exports write off the main thread", () => {
  /**
   * Holds every write made off the main thread (asyncWriteIo) at its open until `release`; `reached` resolves once
   * one is held. A save or export that wrote on the main thread never reaches it: it ends first.
   */
  function holdWrites(): { reached: Promise<'held'>; release: () => void } {
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    let reached = (): void => undefined;
    const atOpen = new Promise<'held'>((r) => (reached = () => r('held')));
    asyncWriteIo.open = async (path, flags, mode) => {
      reached();
      await held;
      return realAsyncIo.open(path, flags, mode);
    };
    return { reached: atOpen, release };
  }

  // Mutations that fail: each of saveMotion (alone, and with its tuning file), saveSev, saveProject, exportMt3,
  // exportGltf and exportMsh back on the synchronous writer (writeFileAtomic, commitOutputs).
  it('each is under way in the thread pool, counts among the writes quit waits for, and lands', async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    const request = compressRequestForMotion(readMtn(mtnBytes), documentId, 1);
    const tuningText = serializeTuning(defaultTuning(), readMtn(mtnBytes).joints);
    const sev = readFileSync(join(ws, 'walk.sev'), 'utf8');
    const project = readFileSync(join(ws, 'sample.actguy.json'), 'utf8');
    const calls: [string, string, () => Promise<unknown>][] = [
      ['saveMotion', 'walk.mtn', () => handlers.saveMotion({ documentId, path: join(ws, 'walk.mtn'), mtnBytes })],
      [
        'saveMotion with its tuning',
        'walk.mtn',
        () => handlers.saveMotion({ documentId, path: join(ws, 'walk.mtn'), mtnBytes, tuningText }),
      ],
      ['saveSev', 'walk.sev', () => handlers.saveSev({ path: join(ws, 'walk.sev'), text: `${sev}\n` })],
      [
        'saveProject',
        'sample.actguy.json',
        () => handlers.saveProject({ path: join(ws, 'sample.actguy.json'), text: `${project}\n` }),
      ],
      ['exportMt3', 'walk.mt3', () => handlers.exportMt3({ path: join(ws, 'walk.mt3'), compress: request })],
      [
        'exportGltf',
        'walk.glb',
        () => handlers.exportGltf({ documentId, source: 'source', mtnBytes, path: join(ws, 'walk.glb') }),
      ],
      [
        'exportMsh',
        'walk.res8',
        () =>
          handlers.exportMsh({
            documentId,
            positionTolerance: 0.5,
            rotationToleranceDeg: 0.5,
            path: join(ws, 'walk.res8'),
          }),
      ],
    ];
    for (const [what, file, call] of calls) {
      const before = existsSync(join(ws, file)) ? readFileSync(join(ws, file)) : null;
      const hold = holdWrites();
      const done = call();
      expect(await Promise.race([hold.reached, done.then(() => 'ended')]), what).toBe('held');
      expect(writesInFlight.size, what).toBe(1);
      // Nothing is in place until the write ends.
      expect(existsSync(join(ws, file)) ? readFileSync(join(ws, file)) : null, what).toEqual(before);
      hold.release();
      await done;
      restoreIo();
      expect(writesInFlight.size, what).toBe(0);
      expect(existsSync(join(ws, file)), what).toBe(true);
    }
    expect(readFileSync(tuningPathOf(join(ws, 'walk.mtn')), 'utf8')).toBe(tuningText);
    expect(tempFiles()).toEqual([]);
  });
});
