import { FormatError } from '../../shared/errors';
import { readBytes } from '../fsutil';
import { readInput } from '../io/readBinary';
import { describeFsError } from '../fsErrors';

/**
 * Reads a whole file for the pure build core; failures become an Error with a readable message, or a FormatError
 * naming the file. With `limit`, a text file; without, a binary input (`.mtn`, `.mt3`, `.mar`, `.sar` by name or
 * magic) is read header first (electron/io/readBinary.ts), anything else whole up to its limit.
 */
export function readInputFile(path: string, limit?: { bytes: number; of: string }): Uint8Array {
  try {
    return limit ? readBytes(path, limit) : readInput(path);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    throw new Error(describeFsError(e));
  }
}
