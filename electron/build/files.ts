import { readBytes } from '../fsutil';
import { describeFsError } from '../fsErrors';

/** Reads a whole file for the pure build core; failures become an Error with a readable message. */
export function readInputFile(path: string, limit?: { bytes: number; of: string }): Uint8Array {
  try {
    return readBytes(path, limit);
  } catch (e) {
    throw new Error(describeFsError(e));
  }
}
