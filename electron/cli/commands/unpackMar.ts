import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { inFile } from '../../../shared/errors';
import { readMar } from '../../../shared/mar/read';
import { formatStrCode } from '../../../shared/strcode';
import { commitOutputs } from '../../build/commit';
import { readBinaryFile } from '../../io/readBinary';
import { parseArgs, requiredOption, singlePositional, stringOption } from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';
import { readMotionNamesFile } from '../motionNames';

/** File name for a motion: its known name when that is a safe file name, else its hash. */
function entryFileName(hash: number, name: string | undefined): string {
  const safe = name !== undefined && /^[A-Za-z0-9_.+@-]+$/.test(name) && name !== '.' && name !== '..';
  return `${safe ? name : formatStrCode(hash)}.mt3`;
}

/**
 * Unpacking into a folder that already holds files of the same names (a hand-edited walk.mt3, an earlier unpack)
 * would replace them; as batch import does, that takes --overwrite. Anything at the name counts, a link or a folder
 * included, so nothing is replaced unasked.
 */
function refuseExisting(dir: string, files: readonly string[]): void {
  const existing = files.map((f) => join(dir, f)).filter((p) => lstatSync(p, { throwIfNoEntry: false }) !== undefined);
  if (existing.length === 0) return;
  const more = existing.length > 1 ? ` (and ${existing.length - 1} more of its outputs)` : '';
  throw new Error(
    `${existing[0]} already exists${more}; pass --overwrite to replace them, or choose another folder; nothing was written`,
  );
}

export const unpackMarCommand: CliCommand = {
  name: 'unpack-mar',
  usage: 'unpack-mar IN.mar -o DIR [--names NAMES.txt] [--overwrite] [--quiet]',
  summary:
    'extract every .mt3 of a .mar into DIR as <name>.mt3 (names from --names, else 0x<hash>.mt3) plus index.txt in archive order; files already in DIR are replaced only with --overwrite',
  run(argv) {
    const args = parseArgs(argv, ['o', 'names'], ['quiet', 'overwrite'], { out: 'o' });
    const input = singlePositional(args, 'input .mar');
    const dir = requiredOption(args, 'o', 'DIR');
    const namesPath = stringOption(args, 'names');
    const names = namesPath ? readMotionNamesFile(namesPath) : undefined;
    const mar = inFile(input, () => readMar(readBinaryFile(input, 'MAR')));
    const index = [
      `# actguy unpack-mar of ${input}: maxJoint ${mar.maxJoint}, ${mar.entries.length} motions`,
      '# motion index, file, name hash, joints, frames, bytes (repack in this order with pack-mar)',
    ];
    const files = mar.entries.map((e) => entryFileName(e.name, names?.get(e.name)?.name));
    // Hashes are unique in a valid archive, so file names are too; the check also keeps index.txt and the inputs safe.
    refuseOutputClashes(
      [{ path: input, role: 'the input' }, ...(namesPath ? [{ path: namesPath, role: 'the --names file' }] : [])],
      [...files, 'index.txt'].map((f) => ({ path: join(dir, f), role: 'the output' })),
    );
    if (!args.options.has('overwrite')) refuseExisting(dir, [...files, 'index.txt']);
    mar.entries.forEach((e, i) =>
      index.push(
        `${i}\t${files[i]}\t${formatStrCode(e.name)}\t${e.mt3.rotations.length}\t${e.mt3.numFrames}\t${e.bytes.byteLength}`,
      ),
    );
    // Every .mt3 and index.txt go in together or not at all (a failure halfway left new files beside an old index).
    commitOutputs([
      ...mar.entries.map((e, i) => ({ path: join(dir, files[i]), bytes: e.bytes })),
      { path: join(dir, 'index.txt'), bytes: new TextEncoder().encode(index.join('\n') + '\n') },
    ]);
    if (!args.options.has('quiet')) {
      const known = names ? mar.entries.filter((e) => names.has(e.name)).length : 0;
      console.log(
        `${dir}: ${mar.entries.length} motions from ${input}${names ? ` (${known} named)` : ''}, index in ${join(dir, 'index.txt')}`,
      );
    }
    return EXIT_OK;
  },
};
