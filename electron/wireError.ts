/**
 * An error as it crosses a thread (a worker's answer to the thread that started it): its class by name and the
 * fields that class is made again from. Structured clone keeps an Error's message and little else (not a
 * FormatError's kind and place, not a ClipChoiceError's clips, not a Node error's code), so every worker that answers
 * with an error sends it as a WireError (errorToWire) and the thread that reads the answer makes it again
 * (errorFromWire): the pool's compressions (build/compressPool.ts, `actguy compress`'s too), File › Open's load
 * (motionLoad.ts) and `actguy import`'s (cli/importOffThread.ts). The message is the one the error had where it was
 * thrown, so what the user reads, the class the caller tells it by and the CLI's exit status are those of the same
 * code run on the calling thread (docs/architecture.md, "Electron", round 4).
 */
import { FormatError, type FileKind, type FormatErrorPlace } from '../shared/errors';
import { ClipChoiceError, type ClipInfo } from '../shared/interchange/clips';

export type WireError =
  | { type: 'format'; kind: FileKind; detail: string; place: FormatErrorPlace; file?: string; message: string }
  | { type: 'clips'; clips: ClipInfo[]; kind: FileKind; detail: string; where: string; file?: string; message: string }
  /** Any other error: `name` says whether it is made again as a RangeError (an allocation too large); `code` is a Node error's (`EACCES`). */
  | { type: 'other'; name: string; message: string; code?: string };

/** `e` as its fields, to cross a thread (errorFromWire makes it again). Never throws, whatever `e` is. */
export function errorToWire(e: unknown): WireError {
  if (e instanceof ClipChoiceError)
    return {
      type: 'clips',
      clips: e.clips,
      kind: e.kind,
      detail: e.detail,
      where: e.place.where ?? '',
      file: e.file,
      message: e.message,
    };
  if (e instanceof FormatError)
    return { type: 'format', kind: e.kind, detail: e.detail, place: e.place, file: e.file, message: e.message };
  const err = e as Partial<NodeJS.ErrnoException> | null | undefined;
  return {
    type: 'other',
    name: typeof err?.name === 'string' ? err.name : 'Error',
    message: typeof err?.message === 'string' ? err.message : String(e),
    ...(typeof err?.code === 'string' && { code: err.code }),
  };
}

/** The error `w` stands for, made again on this thread as its own class, its message as it was thrown. */
export function errorFromWire(w: WireError): Error {
  const e =
    w.type === 'clips'
      ? new ClipChoiceError(w.clips, w.detail, w.kind, w.where)
      : w.type === 'format'
        ? new FormatError(w.kind, w.detail, w.place, w.file)
        : Object.assign(w.name === 'RangeError' ? new RangeError(w.message) : new Error(w.message), {
            ...(w.code !== undefined && { code: w.code }),
          });
  if (e instanceof ClipChoiceError && w.type === 'clips') e.file = w.file;
  // The message as it was thrown (a ClipChoiceError's names its file, withFile).
  Object.defineProperty(e, 'message', { value: w.message, writable: true, configurable: true });
  return e;
}
