/**
 * `actguy import` of one file, with the importer run in a worker thread (dist/cli/importWorker.cjs), so that the CLI's
 * own thread stays free to handle Ctrl+C: a large BVH, FBX or glTF took seconds (tens of seconds for a capture of
 * tens of MiB) on the CLI's thread, and a signal was handled only once the import had ended (docs/cli.md, "Exit
 * status"). The same code runs on either thread (importSource), so the motion, its warnings and the errors are the
 * same: an error crosses the thread as its fields (wireError.ts), and is made again here as the class the command
 * knows (FormatError, ClipChoiceError with its clips, or an Error with its message and code).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { importMotionBytes } from '../../shared/interchange/importMotion';
import type { BvhPositionReading, InterchangeWarning } from '../../shared/interchange/types';
import { writeMtn } from '../../shared/mtn/write';
import { externalBufferReader } from '../interchange/importJob';
import { runOneShotWorker } from '../oneShotWorker';
import { errorToWire, type WireError } from '../wireError';

/** What the command asks: the source's bytes (read and sniffed on the CLI's thread) and the import's options. */
export interface SourceImport {
  bytes: Uint8Array;
  /** The path given, as the command names it in its messages. */
  input: string;
  options: { fps: number; scale: number; offsets: boolean; clip?: string; bvhPositions?: BvhPositionReading };
}

/** The imported motion as the command writes and describes it. */
interface ImportedSource {
  mtn: Uint8Array;
  joints: number;
  frameCount: number;
  fps: number;
  warnings: InterchangeWarning[];
  summary?: string;
  /** The real paths of the external buffers a .gltf read: inputs too, which the output may not replace. */
  buffers: string[];
}

type SourceImportReply = { ok: true; imported: ImportedSource } | { ok: false; error: WireError };

/** The import itself, on whichever thread runs it; never throws (an error is answered as its fields). */
export async function importSource(req: SourceImport): Promise<SourceImportReply> {
  try {
    const buffers: string[] = [];
    // External buffers of a .gltf: by the same rules as in the app (its own folder, regular files, size cap).
    const result = await importMotionBytes(req.bytes, req.input, {
      ...req.options,
      resolveUri: externalBufferReader(req.input, (path) => buffers.push(path)),
    });
    const { motion, warnings, summary } = result;
    return {
      ok: true,
      imported: {
        mtn: writeMtn(motion),
        joints: motion.joints.length,
        frameCount: motion.frameCount,
        fps: motion.fps,
        warnings,
        ...(summary !== undefined && { summary }),
        buffers,
      },
    };
  } catch (e) {
    return { ok: false, error: errorToWire(e) };
  }
}

/** The CLI's import worker, beside the running bundle (dist/cli). */
export function defaultCliImportWorkerPath(): string {
  return join(__dirname, 'importWorker.cjs');
}

/** A single import in a worker thread: `result` is its answer; `stop` (Ctrl+C) ends the thread and `result` says so. */
interface OffThreadImport {
  result: Promise<SourceImportReply | { ok: false; stopped: true }>;
  stop(): void;
}

/**
 * Runs importSource in a worker thread of its own (runOneShotWorker: the thread ends with the job, however it ends),
 * the source's bytes handed over when they are their buffer's whole (the caller's `bytes` is then empty), else copied. Undefined where the worker bundle is missing (unbundled tests): the
 * caller imports on its own thread then.
 */
export function importOffThread(
  req: SourceImport,
  workerPath = defaultCliImportWorkerPath(),
): OffThreadImport | undefined {
  if (!existsSync(workerPath)) return undefined;
  const stopper = new AbortController();
  // Handed over only when the bytes are their buffer's whole (a small file's may lie in Node's shared pool).
  const whole = req.bytes.byteOffset === 0 && req.bytes.byteLength === req.bytes.buffer.byteLength;
  const result = runOneShotWorker<SourceImportReply>(
    workerPath,
    { source: req },
    { signal: stopper.signal, ...(whole && { transferList: [req.bytes.buffer as ArrayBuffer] }) },
  ).then((ended): SourceImportReply | { ok: false; stopped: true } => {
    switch (ended.end) {
      case 'answer':
        return ended.value;
      case 'cancelled':
        return { ok: false, stopped: true };
      case 'overBudget':
        throw new Error(`the import worker ran past its time`); // no budget is set: never
      case 'refused':
        throw new Error(ended.message);
      case 'failed':
        throw new Error(
          ended.started
            ? `could not import ${req.input}: the importer stopped (${ended.detail})`
            : `could not import ${req.input}: the import worker did not start (${ended.detail})`,
        );
    }
  });
  return { result, stop: () => stopper.abort() };
}
