import { basename, dirname, join } from 'node:path';
import { DEFAULT_TOLERANCES } from '../../../shared/compress/types';
import { inFile } from '../../../shared/errors';
import { exportMshFiles, mshFilesOf } from '../../../shared/msh/files';
import { readMtn } from '../../../shared/mtn/read';
import { commitOutputs } from '../../build/commit';
import { readBytes } from '../../fsutil';
import { refuseOutputClashes } from '../../pathIdentity';
import { numberOption, parseArgs, requiredOption, singlePositional, stringOption, UsageError } from '../args';
import type { CliCommand } from '../command';
import { jointOverrides } from './compress';

export const exportMshCommand: CliCommand = {
  name: 'export-msh',
  usage: 'export-msh IN.mtn -o OUT_PREFIX [--pos-tol U] [--rot-tol DEG] [--joint-rot-tol J=DEG,...] [--quiet]',
  summary:
    'export an .mtn as MSH animation: OUT_PREFIX.res8 (key pool), .res19 (frame map) and .nodes.json (per node: name, parent, anim_map_start, fallback_key; resource attributes)',
  run(argv) {
    const args = parseArgs(argv, ['o', 'pos-tol', 'rot-tol', 'joint-rot-tol'], ['quiet'], { out: 'o' });
    const input = singlePositional(args, 'input .mtn');
    const prefix = requiredOption(args, 'o', 'OUT_PREFIX');
    const tol = (name: string, fallback: number) => {
      const v = numberOption(args, name, fallback);
      if (!(v >= 0)) throw new UsageError(`--${name} must be >= 0`);
      return v;
    };
    const positionTolerance = tol('pos-tol', DEFAULT_TOLERANCES.positionTolerance);
    const rotationToleranceDeg = tol('rot-tol', DEFAULT_TOLERANCES.rotationToleranceDeg);
    const overrides = jointOverrides(stringOption(args, 'joint-rot-tol'));
    const files = mshFilesOf(prefix);
    refuseOutputClashes(
      [{ path: input, role: 'the input' }],
      [
        { path: files.res8, role: 'the .res8' },
        { path: files.res19, role: 'the .res19' },
        { path: files.nodes, role: 'the .nodes.json' },
      ],
    );
    const motion = inFile(input, () => readMtn(readBytes(input)));
    for (const j of Object.keys(overrides))
      if (Number(j) >= motion.joints.length)
        throw new UsageError(`--joint-rot-tol names joint ${j} but ${input} has ${motion.joints.length} joints`);
    const out = inFile(input, () =>
      exportMshFiles(
        motion,
        { positionTolerance, rotationToleranceDeg, rotationToleranceOverridesDeg: overrides },
        { source: input, baseName: basename(prefix) },
      ),
    );
    commitOutputs([
      { path: files.res8, bytes: out.res8 },
      { path: files.res19, bytes: out.res19 },
      { path: files.nodes, bytes: new TextEncoder().encode(out.nodesJson) },
    ]);
    if (!args.options.has('quiet'))
      console.log(
        `${join(dirname(prefix), basename(prefix))}.{res8,res19,nodes.json}: ${out.totalKeys} keys (${out.res8.byteLength} bytes), ${out.mapWords} map words, ${out.frameCount} frames, ${out.animatedNodes} of ${out.nodeCount} nodes animated`,
      );
    for (const w of out.warnings) console.error(`warning: ${input}: ${w}`);
    return 0;
  },
};
