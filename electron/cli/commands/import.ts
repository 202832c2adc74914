import { ClipChoiceError } from '../../../shared/interchange/clips';
import { importMotionBytes, motionSourceKind } from '../../../shared/interchange/importMotion';
import type { ImportResult } from '../../../shared/interchange/types';
import { writeMtn } from '../../../shared/mtn/write';
import { writeFileAtomic } from '../../fsutil';
import { externalBufferReader, readImportSource } from '../../interchange/importJob';
import { parseArgs, positiveNumberOption, requiredOption, singlePositional, stringOption, UsageError } from '../args';
import type { CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';

export const importCommand: CliCommand = {
  name: 'import',
  usage: 'import IN.bvh|IN.glb|IN.gltf -o OUT.mtn [--fps 30] [--scale S] [--offsets] [--clip NAME|INDEX] [--quiet]',
  summary: 'convert BVH mocap or a glTF/GLB skinned animation clip to an .mtn, resampled to --fps (default 30); lists the clips when a glTF has several and no --clip',
  async run(argv) {
    const args = parseArgs(argv, ['o', 'fps', 'scale', 'clip'], ['offsets', 'quiet'], { out: 'o' });
    const input = singlePositional(args, 'input file (.bvh, .glb or .gltf)');
    const output = requiredOption(args, 'o', 'OUT.mtn');
    const fps = positiveNumberOption(args, 'fps', 30);
    const scale = positiveNumberOption(args, 'scale', 1);
    const offsets = args.options.has('offsets');
    const clip = stringOption(args, 'clip');
    refuseOutputClashes([{ path: input, role: 'the input' }], [{ path: output, role: '-o' }]);

    const bytes = readImportSource(input);
    const kind = motionSourceKind(bytes, input);
    if (!kind) throw new UsageError(`cannot tell the format of ${input}: expected a .bvh, .glb, .gltf or .fbx file`);
    if (kind === 'bvh' && clip !== undefined) throw new UsageError('--clip applies to glTF/GLB and FBX input only');

    let result: ImportResult;
    try {
      // External buffers of a .gltf: by the same rules as in the app (its own folder, regular files, size cap).
      result = await importMotionBytes(bytes, input, { fps, scale, offsets, clip, resolveUri: externalBufferReader(input) });
    } catch (e) {
      if (e instanceof ClipChoiceError) {
        console.error(`actguy import: ${input}: ${clip === undefined ? `${e.clips.length} animation clips; choose one with --clip NAME|INDEX` : `no clip ${JSON.stringify(clip)}`}:`);
        for (const c of e.clips) console.error(`  ${c.index}  ${c.name}  (${c.duration.toFixed(2)} s)`);
        return 1;
      }
      throw e;
    }
    const { motion, warnings } = result;
    writeFileAtomic(output, writeMtn(motion));
    // A snapped source rate is not a problem, it is how the frames were read: the summary says it.
    const snap = warnings.find((w) => w.code === 'rate-snapped');
    for (const w of warnings) if (w !== snap) console.error(`warning: ${input}: ${w.message}`);
    if (!args.options.has('quiet'))
      console.log(`${output}: ${motion.joints.length} joints, frames 0..${motion.frameCount} at ${motion.fps} fps from ${input}${snap ? ` (${snap.message})` : ''}`);
    else if (snap) console.error(`note: ${input}: ${snap.message}`);
    return 0;
  },
};
