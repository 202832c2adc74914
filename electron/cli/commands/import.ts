import { existsSync, statSync } from 'node:fs';
import { escapeControls, quoteJson } from '../../../shared/errors';
import { ClipChoiceError } from '../../../shared/interchange/clips';
import { motionSourceKind } from '../../../shared/interchange/importMotion';
import { BVH_POSITION_READINGS, type BvhPositionReading } from '../../../shared/interchange/types';
import { formatEta } from '../../../shared/project/eta';
import { writeFileAtomic } from '../../fsutil';
import { parseProject } from '../../../shared/project/validate';
import { runBatchImport, type BatchProgress } from '../../interchange/batchImport';
import { readImportSource } from '../../interchange/importJob';
import { inProcessImportRunner, workerImportRunner } from '../../interchange/importRunner';
import {
  liveTerminal,
  parseArgs,
  positiveNumberOption,
  requiredOption,
  stringOption,
  UsageError,
  type ParsedArgs,
} from '../args';
import { EXIT_FAILED, EXIT_OK, EXIT_PARTIAL, type CliCommand } from '../command';
import { refuseOutputClashes } from '../../pathIdentity';
import { onInterrupt, untouched } from '../interrupt';
import { shownWarnings } from '../../shownWarnings';
import { defaultCliImportWorkerPath, importOffThread, importSource, type SourceImport } from '../importOffThread';
import { errorFromWire } from '../../wireError';

export const importCommand: CliCommand = {
  name: 'import',
  usage:
    'import IN.bvh|IN.glb|IN.gltf|IN.fbx -o OUT.mtn [--fps 30] [--scale S] [--offsets] [--clip NAME|INDEX] [--bvh-positions auto|added|local] [--quiet]\n  import IN... -o OUTDIR [--project P.actguy.json] [--overwrite] [--fps 30] [--scale S] [--offsets] [--clip NAME|INDEX] [--bvh-positions auto|added|local] [--quiet]',
  summary:
    'convert BVH mocap, a glTF/GLB or an FBX skeletal animation clip to an .mtn, resampled to --fps (default 30); lists the clips when a file has several and no --clip. ' +
    'With several inputs (or a folder as -o, or --project): one .mtn per clip named after its file, each file reported, and with --project the motions are added to the project in the order given, all or nothing. ' +
    "--bvh-positions says how a BVH's position channels are read: auto (default) judges each joint by its values, added adds them to the joint's OFFSET (the BVH description), local reads them as the joint's whole local position (Blender, LAFAN1, MotionBuilder); for the take the judgement reads wrong, as its warning says (a crawl)",
  async run(argv) {
    const args = parseArgs(
      argv,
      ['o', 'fps', 'scale', 'clip', 'project', 'bvh-positions'],
      ['offsets', 'quiet', 'overwrite'],
      { out: 'o' },
    );
    if (args.positionals.length === 0) throw new UsageError('expected an input file (.bvh, .glb, .gltf or .fbx)');
    const output = requiredOption(args, 'o', 'OUT.mtn (or OUTDIR)');
    const fps = positiveNumberOption(args, 'fps', 30);
    const scale = positiveNumberOption(args, 'scale', 1);
    const offsets = args.options.has('offsets');
    const clip = stringOption(args, 'clip');
    const project = stringOption(args, 'project');
    const bvhPositions = bvhPositionsOption(args);
    const isDir = (() => {
      try {
        return statSync(output).isDirectory();
      } catch {
        return /[\\/]$/.test(output);
      }
    })();
    if (args.positionals.length > 1 || project !== undefined || isDir) {
      if (/\.mtn$/i.test(output) && !isDir)
        throw new UsageError(
          `-o ${output} looks like a file, but several inputs (or --project) need a folder: -o OUTDIR`,
        );
      const quiet = args.options.has('quiet');
      const progress = quiet ? undefined : importProgressPrinter(liveTerminal());
      // Ctrl+C: every file is imported in memory before any is written (batchImport.ts), each in a worker thread of
      // its own where the CLI's import worker is there (so a signal is handled while a long file is parsed, its thread
      // stopped), and the writes, synchronous, end with the batch: no signal is handled between them and the
      // handlers' removal, so it finds nothing written.
      const stopImports = new AbortController();
      const interruption = onInterrupt(
        () =>
          `nothing was written; ${output}${project !== undefined ? ` and ${project} are` : ' is'} as before, and no temp file is left`,
        {
          stop: () => {
            stopImports.abort();
            progress?.end();
          },
        },
      );
      const outcome = await runBatchImport(
        args.positionals,
        {
          fps,
          scale,
          offsets,
          clip,
          bvhPositions,
          outDir: output,
          project,
          parseProject,
          overwrite: args.options.has('overwrite'),
          writeSync: true,
        },
        existsSync(defaultCliImportWorkerPath())
          ? workerImportRunner(defaultCliImportWorkerPath(), null)
          : inProcessImportRunner,
        progress?.item,
        stopImports.signal,
      ).finally(() => interruption.dispose());
      progress?.end();
      for (const item of outcome.items) {
        const what = `${item.input}${item.clip !== null ? ` clip ${quoteJson(item.clip)}` : ''}`;
        if (item.error !== undefined) console.error(`FAILED ${what}: ${item.error}`);
        else {
          const snap = item.warnings.find((w) => w.code === 'rate-snapped');
          if (!quiet)
            console.log(
              `ok     ${what} -> ${item.output}: ${item.shape}${snap ? ` (${snap.message})` : ''}${item.summary ? `; ${item.summary}` : ''}`,
            );
          for (const w of importWarnings(item.warnings, snap)) console.error(`warning: ${item.input}: ${w}`);
        }
      }
      (outcome.failed ? console.error : console.log)(outcome.conclusion);
      // Some written and some failed is its own status: a script tells it from "nothing was written" (docs/cli.md).
      return !outcome.failed ? EXIT_OK : outcome.written.length ? EXIT_PARTIAL : EXIT_FAILED;
    }

    const input = args.positionals[0];
    if (args.options.has('overwrite')) throw new UsageError('--overwrite applies to a folder output (-o OUTDIR)');
    refuseOutputClashes([{ path: input, role: 'the input' }], [{ path: output, role: '-o' }]);
    const bytes = readImportSource(input);
    const kind = motionSourceKind(bytes, input);
    if (!kind) throw new UsageError(`cannot tell the format of ${input}: expected a .bvh, .glb, .gltf or .fbx file`);
    if (kind === 'bvh' && clip !== undefined) throw new UsageError('--clip applies to glTF/GLB and FBX input only');
    if (kind !== 'bvh' && bvhPositions !== undefined) throw new UsageError('--bvh-positions applies to BVH input only');

    // Ctrl+C: the importer runs in a worker thread (importOffThread), so a signal is handled at once, the worker ended,
    // nothing written; where it ran on this thread (no worker bundle) the signal waits for its end (the checkpoint
    // below). The write is synchronous, so a signal is handled before it began or once the command ended.
    const request: SourceImport = { bytes, input, options: { fps, scale, offsets, clip, bvhPositions } };
    const worker = importOffThread(request);
    const interruption = onInterrupt(() => untouched([output]), { stop: () => worker?.stop() });
    try {
      let reply;
      try {
        reply = worker ? await worker.result : await importSource(request);
      } finally {
        // A signal that came in while the file was read is handled here, before the write.
        await interruption.checkpoint();
      }
      // Stopped only by a signal, whose handler ends the process: never reached.
      if ('stopped' in reply) throw new Error('the import was stopped');
      if (!reply.ok) {
        const e = errorFromWire(reply.error);
        if (e instanceof ClipChoiceError) {
          console.error(
            `actguy import: ${input}: ${clip === undefined ? `${e.clips.length} animation clips; choose one with --clip NAME|INDEX` : `no clip ${quoteJson(clip)}`}:`,
          );
          for (const c of e.clips)
            console.error(`  ${c.index}  ${escapeControls(c.name)}  (${c.duration.toFixed(2)} s)`);
          return EXIT_FAILED;
        }
        throw e;
      }
      const imported = reply.imported;
      // The .bin files a .gltf names are inputs too: known only once it is read, checked before anything is written.
      refuseOutputClashes(
        imported.buffers.map((path) => ({ path, role: 'an external buffer of the input' })),
        [{ path: output, role: '-o' }],
      );
      const { warnings, summary } = imported;
      writeFileAtomic(output, imported.mtn);
      // A snapped source rate is not a problem, it is how the frames were read: the summary says it.
      const snap = warnings.find((w) => w.code === 'rate-snapped');
      for (const w of importWarnings(warnings, snap)) console.error(`warning: ${input}: ${w}`);
      if (!args.options.has('quiet'))
        console.log(
          `${output}: ${imported.joints} joints, frames 0..${imported.frameCount} at ${imported.fps} fps from ${input}${snap ? ` (${snap.message})` : ''}${summary ? `; ${summary}` : ''}`,
        );
      else if (snap) console.error(`note: ${input}: ${snap.message}`);
      return EXIT_OK;
    } finally {
      interruption.dispose();
    }
  },
};

/** `--bvh-positions auto|added|local`, or undefined when not given (the importer's default, auto). */
function bvhPositionsOption(args: ParsedArgs): BvhPositionReading | undefined {
  const v = stringOption(args, 'bvh-positions');
  if (v === undefined) return undefined;
  const reading = BVH_POSITION_READINGS.find((r) => r === v);
  if (!reading) throw new UsageError(`--bvh-positions takes ${BVH_POSITION_READINGS.join(', ')}, got ${quoteJson(v)}`);
  return reading;
}

/**
 * An import's warnings as the CLI prints them, the snapped rate left to the summary: a received BVH of 1,024 joints
 * with long, non-ASCII, alike names has three a joint (shared/interchange/names.ts), listed as shownWarnings does.
 */
function importWarnings(warnings: readonly { message: string }[], snap: unknown): string[] {
  return shownWarnings(warnings.filter((w) => w !== snap).map((w) => w.message));
}
/**
 * Per-file progress with the time left, as `actguy build` shows it: on a
 * terminal one live line with a bar; otherwise (a log, CI) one line per file.
 */
export function importProgressPrinter(
  tty: boolean,
  write: (s: string) => void = (s) => process.stdout.write(s),
  now: () => number = () => performance.now(),
): { item: (p: BatchProgress) => void; end: () => void } {
  const start = now();
  let drawn = false;
  return {
    item({ done, count, item }) {
      const eta = done === count ? 0 : ((now() - start) / done) * (count - done);
      const what = `${item.name ?? item.input}${item.error !== undefined ? ' (failed)' : ''}`;
      if (tty) {
        const width = 24;
        const full = Math.round((done / count) * width);
        write(
          `\r\x1b[K[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${done}/${count} ${what}, ${formatEta(eta)} left`,
        );
        drawn = true;
      } else {
        write(`[${done}/${count}] ${what}; ${formatEta(eta)} left\n`);
      }
    },
    end() {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}
