import { extname } from 'node:path';
import { inFile, quoteJson } from '../../../shared/errors';
import { readMar } from '../../../shared/mar/read';
import { decompressMt3 } from '../../../shared/mt3/decode';
import { readMt3 } from '../../../shared/mt3/read';
import type { Mt3Motion } from '../../../shared/mt3/types';
import { readMtn } from '../../../shared/mtn/read';
import { writeMtn } from '../../../shared/mtn/write';
import { motionNameProblem } from '../../../shared/motionName';
import { gvStrCode } from '../../../shared/strcode';
import { writeFileAtomic } from '../../fsutil';
import { readBinaryFile } from '../../io/readBinary';
import { binaryKindOfMagic } from '../../../shared/binarySize';
import { parseArgs, requiredOption, singlePositional, stringOption, UsageError } from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';

export const decompressCommand: CliCommand = {
  name: 'decompress',
  usage:
    'decompress IN.mt3 -o OUT.mtn [--skeleton REF.mtn] [--quiet]  |  decompress IN.mar --entry INDEX|NAME -o OUT.mtn [...]',
  summary:
    'decode an .mt3 (or one .mar entry) to an .mtn, every frame 0..N, with the reference decoder; the skeleton gives joint names, hierarchy and fps',
  run(argv) {
    const args = parseArgs(argv, ['o', 'skeleton', 'entry'], ['quiet'], { out: 'o' });
    const input = singlePositional(args, 'input .mt3 or .mar');
    const output = requiredOption(args, 'o', 'OUT.mtn');
    const skeletonPath = stringOption(args, 'skeleton');
    const entry = stringOption(args, 'entry');
    refuseOutputClashes(
      [{ path: input, role: 'the input' }, ...(skeletonPath ? [{ path: skeletonPath, role: 'the --skeleton' }] : [])],
      [{ path: output, role: '-o' }],
    );
    const byName = extname(input).toLowerCase() === '.mar';
    const bytes = readBinaryFile(input, (head) => (byName || binaryKindOfMagic(head) === 'MAR' ? 'MAR' : 'MT3'));
    const isMar = byName || String.fromCharCode(...bytes.subarray(0, 4)) === 'MARa';
    let mt3: Mt3Motion;
    if (isMar) {
      if (entry === undefined)
        throw new UsageError(`${input} is an archive: choose a motion with --entry INDEX or --entry NAME`);
      const mar = inFile(input, () => readMar(bytes));
      const problem = /^\d+$/.test(entry) ? undefined : motionNameProblem(entry);
      if (problem) throw new UsageError(`--entry ${quoteJson(entry)}: neither an index nor a motion name: ${problem}`);
      const index = /^\d+$/.test(entry) ? Number(entry) : mar.entries.findIndex((e) => e.name === gvStrCode(entry));
      if (!(index >= 0 && index < mar.entries.length))
        throw new UsageError(
          `${input} has ${mar.entries.length} entries (0..${mar.entries.length - 1}); --entry ${quoteJson(entry)} names none of them`,
        );
      mt3 = mar.entries[index].mt3;
    } else {
      if (entry !== undefined) throw new UsageError('--entry applies to a .mar input only');
      mt3 = inFile(input, () => readMt3(bytes));
    }
    const skeleton = skeletonPath
      ? inFile(skeletonPath, () => readMtn(readBinaryFile(skeletonPath, 'MTN')))
      : undefined;
    // A skeleton that does not fit is the skeleton file's problem: name it.
    const { motion, notes } = skeletonPath
      ? inFile(skeletonPath, () => decompressMt3(mt3, skeleton))
      : inFile(input, () => decompressMt3(mt3));
    writeFileAtomic(output, writeMtn(motion));
    for (const n of notes) console.error(`note: ${input}: ${n}`);
    if (!args.options.has('quiet'))
      console.log(
        `${output}: ${motion.frameCount + 1} frames (0..${motion.frameCount}), ${motion.joints.length} joints from ${input}${isMar ? ` entry ${entry}` : ''}`,
      );
    return EXIT_OK;
  },
};
