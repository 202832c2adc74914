import { basename, dirname, join } from 'node:path';
import { DEFAULT_TOLERANCES } from '../../../shared/compress/types';
import { inFile } from '../../../shared/errors';
import { exportMshFiles, mshFilesOf } from '../../../shared/msh/files';
import type { MshExportOptions } from '../../../shared/msh/export';
import { readMtn } from '../../../shared/mtn/read';
import { commitOutputs } from '../../build/commit';
import { markMshOutputs } from '../../build/mshOutputKinds';
import { defaultJobs } from '../../build/compressPool';
import { mshFitter } from '../../build/projectExport';
import { refuseWithProject, runProjectExport } from '../projectExport';
import { readBinaryFile } from '../../io/readBinary';
import { refuseOutputClashes } from '../../pathIdentity';
import {
  jobsOption,
  numberOption,
  parseArgs,
  requiredOption,
  singlePositional,
  stringOption,
  UsageError,
} from '../args';
import { EXIT_OK, type CliCommand } from '../command';
import { onInterrupt, untouched } from '../interrupt';
import { jointOverrides } from '../args';

export const exportMshCommand: CliCommand = {
  name: 'export-msh',
  usage:
    'export-msh IN.mtn -o OUT_PREFIX [--pos-tol U] [--rot-tol DEG] [--joint-rot-tol J=DEG,...] [--jobs N] [--quiet] | export-msh --project P.actguy.json -o DIR [--jobs N] [--quiet]',
  summary:
    'export an .mtn as MSH animation: OUT_PREFIX.res8 (key pool), .res19 (frame map) and .nodes.json (per node: name, parent, anim_map_start, fallback_key; resource attributes); ' +
    "a long motion's nodes are fitted in N shares (this thread and N-1 worker threads, default: the cores), the same bytes; " +
    "--project: every motion and alias of the project, each with the project's tolerances, as DIR/<name>.res8, .res19, .nodes.json, written as one unit (docs/cli.md#whole-project-export)",
  async run(argv) {
    const args = parseArgs(argv, ['o', 'pos-tol', 'rot-tol', 'joint-rot-tol', 'jobs', 'project'], ['quiet'], {
      out: 'o',
    });
    if (args.options.has('project')) {
      refuseWithProject(args, ['pos-tol', 'rot-tol', 'joint-rot-tol']);
      return runProjectExport(args, 'msh', { jobs: jobsOption(args) });
    }
    const input = singlePositional(args, 'input .mtn');
    const prefix = requiredOption(args, 'o', 'OUT_PREFIX');
    const tol = (name: string, fallback: number) => {
      const v = numberOption(args, name, fallback);
      if (!(v >= 0)) throw new UsageError(`--${name} must be >= 0, got ${v}`);
      return v;
    };
    const positionTolerance = tol('pos-tol', DEFAULT_TOLERANCES.positionTolerance);
    const rotationToleranceDeg = tol('rot-tol', DEFAULT_TOLERANCES.rotationToleranceDeg);
    const overrides = jointOverrides(stringOption(args, 'joint-rot-tol'));
    const jobs = jobsOption(args) ?? defaultJobs();
    const files = mshFilesOf(prefix);
    refuseOutputClashes(
      [{ path: input, role: 'the input' }],
      [
        { path: files.res8, role: 'the .res8' },
        { path: files.res19, role: 'the .res19' },
        { path: files.nodes, role: 'the .nodes.json' },
      ],
    );
    const bytes = readBinaryFile(input, 'MTN');
    const motion = inFile(input, () => readMtn(bytes));
    for (const j of Object.keys(overrides))
      if (Number(j) >= motion.joints.length)
        throw new UsageError(`--joint-rot-tol names joint ${j} but ${input} has ${motion.joints.length} joints`);
    const options: MshExportOptions = {
      positionTolerance,
      rotationToleranceDeg,
      rotationToleranceOverridesDeg: overrides,
    };
    // Ctrl+C: handled while the pool fits or at the checkpoint after a fit on this thread, before the three files are
    // committed (as one unit, synchronously, and then the command ends without a turn of the event loop).
    const interruption = onInterrupt(() => untouched([files.res8, files.res19, files.nodes]));
    try {
      return await fitAndCommit();
    } finally {
      interruption.dispose();
    }

    async function fitAndCommit(): Promise<number> {
      const fits = await fitsInShares(bytes, options, motion.joints.length, jobs);
      const out = inFile(input, () =>
        exportMshFiles(motion, options, { source: input, baseName: basename(prefix) }, fits ?? undefined),
      );
      await interruption.checkpoint();
      // -o names a prefix, not the three files: one of another tool's at those names is not replaced.
      commitOutputs(
        markMshOutputs(
          [
            { path: files.res8, bytes: out.res8 },
            { path: files.res19, bytes: out.res19 },
            { path: files.nodes, bytes: new TextEncoder().encode(out.nodesJson) },
          ],
          'move that file away or give another -o prefix',
        ),
      );
      if (!args.options.has('quiet'))
        console.log(
          `${join(dirname(prefix), basename(prefix))}.{res8,res19,nodes.json}: ${out.totalKeys} keys (${out.res8.byteLength} bytes), ${out.mapWords} map words, ${out.frameCount} frames, ${out.animatedNodes} of ${out.nodeCount} nodes animated`,
        );
      for (const w of out.warnings) console.error(`warning: ${input}: ${w}`);
      return EXIT_OK;
    }
  },
};

/** fitsInShares as the project export runs it (projectExport.ts mshFitter), one pool for this one motion. */
async function fitsInShares(mtn: Uint8Array, options: MshExportOptions, nodes: number, jobs: number) {
  const fitter = mshFitter(jobs, mtn.byteLength);
  try {
    return await fitter.fits(mtn, options, nodes);
  } finally {
    await fitter.close();
  }
}
