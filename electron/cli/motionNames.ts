import { readFileSync } from 'node:fs';
import { inFile } from '../../shared/errors';
import { parseMotionNames, type KnownName } from '../../shared/mar/names';

/** Reads a motion-names file (one name per line, `#` comments) into hash -> name; errors name the file and line. */
export function readMotionNamesFile(path: string): Map<number, KnownName> {
  const text = readFileSync(path, 'utf8');
  return inFile(path, () => parseMotionNames(text));
}
