import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { BinaryKind } from '../shared/binarySize';
import { FormatError, inFile } from '../shared/errors';
import type {
  MarEntrySummary,
  MotionFileKind,
  OpenedMotion,
  OpenMotionOutcome,
  OpenMotionRequest,
} from '../shared/ipc/documents';
import { readMar } from '../shared/mar/read';
import { decodeMt3ToMotion } from '../shared/mt3/decode';
import { readMt3 } from '../shared/mt3/read';
import type { Mt3Motion } from '../shared/mt3/types';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { formatStrCode } from '../shared/strcode';
import { systemReason } from './fsErrors';
import { baseNameOf } from './fsutil';
import { readBinaryFileAsync, throwIfAborted } from './io/readBinary';

/** The motion kind a path names by its extension, or null for any other file. */
export function motionKindOfPath(path: string): MotionFileKind | null {
  const ext = extname(path).toLowerCase();
  return ext === '.mtn' ? 'mtn' : ext === '.mt3' ? 'mt3' : ext === '.mar' ? 'mar' : null;
}

/** The skeleton an .mt3/.mar takes by itself: `<base>.mtn` beside it (for an .mtn, the file itself). */
export function skeletonBesidePath(path: string): string {
  return join(dirname(path), `${baseNameOf(path)}.mtn`);
}

/** A motion decoded from a file, before the handlers give it a document id. */
type LoadedMotion = Omit<OpenedMotion, 'documentId'>;

export type LoadOutcome =
  | { status: 'loaded'; motion: LoadedMotion }
  | Extract<OpenMotionOutcome, { status: 'chooseMarEntry' | 'needsSkeleton' }>;

/**
 * What openMotion asked for, once the handler has made `path` and
 * `skeletonPath` canonical and checked them against the path policy (without
 * a skeletonPath, `<base>.mtn` beside the file is used when present and
 * `mayReadBeside` allows it: the handler lets it read only an allowed file).
 */
type LoadRequest = OpenMotionRequest & { mayReadBeside?: (path: string) => boolean; fd?: number };

/**
 * Reads a .mtn, .mt3 or .mar into MTN bytes. A .mtn is read and validated as
 * is; a .mt3/.mar entry is decoded with decodeMt3ToMotion using a skeleton
 * .mtn for joint names and hierarchy. Every bad file throws a FormatError
 * naming the file and the place.
 *
 * `signal` cancels it (File > Open's Cancel, the handler's cancelOpenMotion): it is checked before each read of the
 * file and of its skeleton (readHeaderFirstAsync, 16 MiB a read at most) and between the stages (read, parse,
 * decode, write back), each of which gives the event loop a turn first so that the cancel request can arrive. A
 * cancelled load rejects with an AbortError naming the file and has changed nothing.
 */
export async function loadMotionFile(req: LoadRequest, signal?: AbortSignal): Promise<LoadOutcome> {
  const { path } = req;
  const kind = motionKindOfPath(path);
  if (!kind) throw new Error(`${path}: not a motion file (expected .mtn, .mt3 or .mar)`);
  const bytes = await readFileBytes(path, kind === 'mtn' ? 'MTN' : kind === 'mt3' ? 'MT3' : 'MAR', signal, req.fd);
  await nextStage(signal, path);
  const fileBase = baseNameOf(path);
  if (kind === 'mtn') {
    inFile(path, () => readMtn(bytes));
    await nextStage(signal, path);
    return {
      status: 'loaded',
      motion: { path, name: fileBase, kind, readOnly: false, mtnBytes: bytes, skeletonPath: null, marEntry: null },
    };
  }

  let mt3: Mt3Motion;
  let name = fileBase;
  let marEntry: number | null = null;
  if (kind === 'mt3') {
    mt3 = inFile(path, () => readMt3(bytes));
    await nextStage(signal, path);
  } else {
    const mar = inFile(path, () => readMar(bytes));
    await nextStage(signal, path);
    if (req.marEntry === undefined) {
      const entries: MarEntrySummary[] = mar.entries.map((e, index) => ({
        index,
        nameCode: e.name,
        nameText: formatStrCode(e.name),
        frameCount: e.mt3.numFrames,
        jointCount: e.mt3.rotations.length,
        byteLength: e.bytes.byteLength,
      }));
      return { status: 'chooseMarEntry', path, entries };
    }
    const entry = mar.entries[req.marEntry];
    if (!Number.isInteger(req.marEntry) || !entry)
      throw new Error(
        `${path}: the archive has ${mar.entries.length} entries (0..${mar.entries.length - 1}); entry ${req.marEntry} does not exist`,
      );
    mt3 = entry.mt3;
    marEntry = req.marEntry;
    name = `${fileBase}:${formatStrCode(entry.name)}`;
  }

  let skeleton: Motion | undefined;
  let skeletonPath: string | null = null;
  if (!req.withoutSkeleton) {
    const beside = skeletonBesidePath(path);
    skeletonPath = req.skeletonPath ?? (existsSync(beside) && (req.mayReadBeside?.(beside) ?? true) ? beside : null);
    if (!skeletonPath) return { status: 'needsSkeleton', path, kind, marEntry };
    const sp = skeletonPath;
    const skeletonBytes = await readFileBytes(sp, 'MTN', signal);
    skeleton = inFile(sp, () => readMtn(skeletonBytes));
    if (skeleton.joints.length !== mt3.rotations.length)
      throw new Error(
        `${basename(sp)} has ${skeleton.joints.length} joints but ${basename(path)}${marEntry === null ? '' : ` entry ${marEntry}`} animates ${mt3.rotations.length}; choose the skeleton this motion was made from`,
      );
  }
  await nextStage(signal, path);
  const motion = inFile(path, () => decodeMt3ToMotion(mt3, skeleton));
  await nextStage(signal, path);
  const mtnBytes = writeMtn(motion);
  await nextStage(signal, path);
  return {
    status: 'loaded',
    motion: { path, name, kind, readOnly: true, mtnBytes, skeletonPath, marEntry },
  };
}

/**
 * readBinaryFile (its header checked before the rest is read) with a message naming the file and a plain reason ("there is no file by that name": true of a recent
 * file since removed and of a file a project names that never was, where "it no longer exists" misled).
 */
async function readFileBytes(path: string, kind: BinaryKind, signal?: AbortSignal, fd?: number): Promise<Uint8Array> {
  try {
    return await readBinaryFileAsync(path, kind, { signal, fd });
  } catch (e) {
    if (e instanceof FormatError || (e as Error)?.name === 'AbortError') throw e;
    const code = (e as NodeJS.ErrnoException)?.code;
    throw new Error(`Could not read ${path}: ${code === 'ENOENT' ? 'there is no file by that name' : systemReason(e)}`);
  }
}

/**
 * Between two stages of a load: a turn of the event loop (a cancel request waiting in the main process's queue is
 * handled now, not after the whole load), then the AbortError if the load was cancelled meanwhile.
 */
async function nextStage(signal: AbortSignal | undefined, path: string): Promise<void> {
  if (!signal) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(signal, path);
}
