import { FormatError, inFile } from '../../../shared/errors';
import { writeMar } from '../../../shared/mar/write';
import { readMt3 } from '../../../shared/mt3/read';
import { formatStrCode } from '../../../shared/strcode';
import { writeFileAtomic } from '../../fsutil';
import { readBinaryFile } from '../../io/readBinary';
import { parseArgs, requiredOption, UsageError } from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';

export const packMarCommand: CliCommand = {
  name: 'pack-mar',
  usage: 'pack-mar -o OUT.mar A.mt3 [B.mt3 ...] [--quiet]',
  summary: 'archive .mt3 files into a .mar; the order given is the motion index (the paired .sar uses the same order)',
  run(argv) {
    const args = parseArgs(argv, ['o'], ['quiet'], { out: 'o' });
    const output = requiredOption(args, 'o', 'OUT.mar');
    if (args.positionals.length === 0) throw new UsageError('expected at least one .mt3');
    const files = args.positionals;
    refuseOutputClashes(
      files.map((path) => ({ path, role: 'the input' })),
      [{ path: output, role: '-o' }],
    );
    const byHash = new Map<number, number>();
    const blobs: Uint8Array[] = [];
    let maxJoint = 0;
    files.forEach((path, i) => {
      const bytes = readBinaryFile(path, 'MT3');
      // Read fully: an archive must only ever hold MT3s that decode.
      const mt3 = inFile(path, () => readMt3(bytes));
      const prev = byHash.get(mt3.name);
      if (prev !== undefined)
        throw new FormatError(
          'MAR',
          `${files[prev]} (entry ${prev}) and ${path} (entry ${i}) have the same name hash ${formatStrCode(mt3.name)}; motion names in one archive must hash differently`,
          {},
          output,
        );
      byHash.set(mt3.name, i);
      maxJoint = Math.max(maxJoint, mt3.rotations.length);
      blobs.push(bytes);
    });
    const mar = inFile(output, () => writeMar(blobs));
    writeFileAtomic(output, mar);
    if (!args.options.has('quiet'))
      console.log(`${output}: ${files.length} motions, maxJoint ${maxJoint}, ${mar.byteLength} bytes`);
    return EXIT_OK;
  },
};
