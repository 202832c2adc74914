import { inFile } from '../../../shared/errors';
import { decompressMt3 } from '../../../shared/mt3/decode';
import { readMt3 } from '../../../shared/mt3/read';
import { readMtn } from '../../../shared/mtn/read';
import { writeMtn } from '../../../shared/mtn/write';
import { readBytes, writeFileAtomic } from '../../fsutil';
import { parseArgs, stringOption, UsageError } from '../args';
import type { CliCommand } from '../command';

export const decompressCommand: CliCommand = {
  name: 'decompress',
  usage: 'decompress IN.mt3 -o OUT.mtn [--skeleton REF.mtn] [--quiet]',
  summary: 'decode an .mt3 to an .mtn (every frame 0..N) with the reference decoder; the skeleton gives joint names, hierarchy and fps',
  run(argv) {
    const args = parseArgs(argv, ['o', 'skeleton'], ['quiet'], { out: 'o' });
    if (args.positionals.length !== 1) throw new UsageError('expected exactly one input .mt3');
    const input = args.positionals[0];
    const output = stringOption(args, 'o');
    if (!output) throw new UsageError('missing -o OUT.mtn');
    const skeletonPath = stringOption(args, 'skeleton');
    const mt3 = inFile(input, () => readMt3(readBytes(input)));
    const skeleton = skeletonPath ? inFile(skeletonPath, () => readMtn(readBytes(skeletonPath))) : undefined;
    // A skeleton that does not fit is the skeleton file's problem: name it.
    const { motion, notes } = skeletonPath ? inFile(skeletonPath, () => decompressMt3(mt3, skeleton)) : inFile(input, () => decompressMt3(mt3));
    writeFileAtomic(output, writeMtn(motion));
    for (const n of notes) console.error(`note: ${input}: ${n}`);
    if (!args.options.has('quiet'))
      console.log(`${output}: ${motion.frameCount + 1} frames (0..${motion.frameCount}), ${motion.joints.length} joints from ${input}`);
    return 0;
  },
};
