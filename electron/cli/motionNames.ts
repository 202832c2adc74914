import { inFile } from '../../shared/errors';
import { parseMotionNames, type KnownName } from '../../shared/mar/names';
import { decodeUtf8Text } from '../../shared/sev/text';
import { readBytes, TEXT_LIMIT } from '../fsutil';

/**
 * Reads a motion-names file (one name per line, `#` comments) into hash -> name; errors name the file and line.
 * Read as every text input is (docs/limits.md): a plain file only (a FIFO waited for a writer forever), at most
 * 64 MiB, strict UTF-8.
 */
export function readMotionNamesFile(path: string): Map<number, KnownName> {
  return inFile(path, () => parseMotionNames(decodeUtf8Text(readBytes(path, TEXT_LIMIT), 'MAR', path)));
}
