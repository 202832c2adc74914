import { extname } from 'node:path';
import { inFile } from '../../../shared/errors';
import { motionToGlb } from '../../../shared/interchange/gltf/export';
import type { Motion } from '../../../shared/motion/types';
import { decompressMt3 } from '../../../shared/mt3/decode';
import { readMt3 } from '../../../shared/mt3/read';
import { readMtn } from '../../../shared/mtn/read';
import { baseNameOf, writeFileAtomic } from '../../fsutil';
import { readBinaryFile } from '../../io/readBinary';
import { parseArgs, positiveNumberOption, requiredOption, singlePositional, stringOption, UsageError } from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';
import { refuseWithProject, runProjectExport } from '../projectExport';

export const exportGltfCommand: CliCommand = {
  name: 'export-gltf',
  usage:
    'export-gltf IN.mt3|IN.mtn [--skeleton REF.mtn] -o OUT.glb [--scale S] [--name CLIP] [--no-mesh] [--quiet] | export-gltf --project P.actguy.json -o DIR [--compressed [--cache DIR | --no-cache]] [--scale S] [--no-mesh] [--quiet]',
  summary:
    'write a motion (source .mtn, or an .mt3 decoded with the skeleton .mtn) as a GLB: skeleton nodes, skin, bone mesh, one animation; ' +
    '--project: every motion and alias of the project (resampled as the build does) as DIR/<name>.glb, written as one unit; --compressed: each motion compressed with its project settings as the build does, then decoded, reusing the build cache as build does (default .actguy-cache/ beside the project; docs/cli.md#whole-project-export)',
  run(argv) {
    const args = parseArgs(
      argv,
      ['o', 'skeleton', 'scale', 'name', 'project', 'cache'],
      ['no-mesh', 'quiet', 'compressed', 'no-cache'],
      { out: 'o' },
    );
    const compressed = args.options.has('compressed');
    // The build's cache, taken as `actguy build` takes it: only a glTF of the compressed motions compresses.
    const cacheOption = stringOption(args, 'cache');
    for (const o of ['cache', 'no-cache'])
      if (args.options.has(o) && !(compressed && args.options.has('project')))
        throw new UsageError(
          `--${o} applies with --project --compressed: only the compressed motions use the build's cache`,
        );
    if (cacheOption !== undefined && args.options.has('no-cache'))
      throw new UsageError('--cache and --no-cache contradict each other');
    if (args.options.has('project')) {
      refuseWithProject(args, ['skeleton', 'name']);
      return runProjectExport(args, 'gltf', {
        glb: { scale: positiveNumberOption(args, 'scale', 1), boneMesh: !args.options.has('no-mesh'), compressed },
        ...(compressed && { cache: { dir: args.options.has('no-cache') ? null : cacheOption } }),
      });
    }
    if (compressed)
      throw new UsageError(
        '--compressed applies with --project: for one motion, compress it (actguy compress) and export the .mt3 with --skeleton',
      );
    const input = singlePositional(args, 'input .mt3 or .mtn');
    const output = requiredOption(args, 'o', 'OUT.glb');
    const scale = positiveNumberOption(args, 'scale', 1);
    const skeletonPath = stringOption(args, 'skeleton');
    const ext = extname(input).toLowerCase();
    refuseOutputClashes(
      [{ path: input, role: 'the input' }, ...(skeletonPath ? [{ path: skeletonPath, role: 'the --skeleton' }] : [])],
      [{ path: output, role: '-o' }],
    );

    let motion: Motion;
    if (ext === '.mtn') {
      if (skeletonPath) throw new UsageError('--skeleton applies to .mt3 input only (an .mtn carries its skeleton)');
      motion = inFile(input, () => readMtn(readBinaryFile(input, 'MTN')));
    } else {
      const mt3 = inFile(input, () => readMt3(readBinaryFile(input, 'MT3')));
      const skeleton = skeletonPath
        ? inFile(skeletonPath, () => readMtn(readBinaryFile(skeletonPath, 'MTN')))
        : undefined;
      const decoded = skeletonPath
        ? inFile(skeletonPath, () => decompressMt3(mt3, skeleton))
        : inFile(input, () => decompressMt3(mt3));
      for (const n of decoded.notes) console.error(`note: ${input}: ${n}`);
      motion = decoded.motion;
    }
    const glb = motionToGlb(motion, {
      animationName: stringOption(args, 'name') ?? baseNameOf(input),
      scale,
      boneMesh: !args.options.has('no-mesh'),
    });
    writeFileAtomic(output, glb);
    if (!args.options.has('quiet'))
      console.log(
        `${output}: ${glb.byteLength} bytes, ${motion.joints.length} joints, frames 0..${motion.frameCount} at ${motion.fps} fps from ${input}`,
      );
    return EXIT_OK;
  },
};
