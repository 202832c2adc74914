import { compressMotion } from '../../../shared/compress/compress';
import { compressReport } from '../../../shared/compress/report';
import { lstatSync, statSync } from 'node:fs';
import { FormatError, inFile, isBundleRefusal } from '../../../shared/errors';
import { dirname } from 'node:path';
import { outsideRedactor, OUTSIDE_MOTION_DETAIL } from '../../outsideQuotes';
import { motionNameProblem } from '../../../shared/motionName';
import { DEFAULT_GAME_FPS, frameRateMismatch } from '../../../shared/motion/frameRate';
import { readMtn } from '../../../shared/mtn/read';
import { decodeUtf8Text } from '../../../shared/sev/text';
import {
  defaultTuning,
  parseTuning,
  TUNING_MAX_BYTES,
  tuningPathOf,
  type MotionTuning,
} from '../../../shared/tuning/sidecar';
import { baseNameOf, readBytes, writeFileAtomic } from '../../fsutil';
import { readBinaryFile } from '../../io/readBinary';
import {
  numberOption,
  parseArgs,
  positiveNumberOption,
  requiredOption,
  singlePositional,
  stringOption,
  UsageError,
  jointOverrides,
} from '../args';

export { jointOverrides };
import { EXIT_OK, type CliCommand } from '../command';
import { commitOutputs } from '../../build/commit';
import type { CompressOptions, CompressResult } from '../../../shared/compress/types';
import type { OffThreadCompression } from '../../build/compressPool';
import { onInterrupt, untouched } from '../interrupt';
import { printJson } from '../json';
import { refuseOutputClashes } from '../../pathIdentity';
import {
  objectBoundLine,
  unreachableLines,
  unreachableSummary,
  type UnreachableSummary,
} from '../../../shared/compress/unreachable';

/**
 * The smallest motion compressed in a worker thread rather than on the CLI's own (as SHARE_MIN_MTN_BYTES: about 330
 * frames of a 31-joint capture, a second or so to compress): the one that Ctrl+C would otherwise wait for. A shorter
 * one compresses in this process, which loads nothing more (docs/compression.md#cli-start-up).
 */
export const OFF_THREAD_MIN_MTN_BYTES = 512 * 1024;

/**
 * A long motion's compression in a worker thread (compressPool.ts compressOffThread, loaded with the commands chunk);
 * undefined for a short one, or where the chunk or the worker bundle is missing: compressed on this thread then.
 */
async function offThread(mtn: Uint8Array, options: CompressOptions): Promise<OffThreadCompression | undefined> {
  if (mtn.byteLength < OFF_THREAD_MIN_MTN_BYTES) return undefined;
  let chunk: typeof import('../moreCommands');
  try {
    chunk = await import('../moreCommands');
  } catch {
    return undefined; // a copy of the bundle alone (compress needs nothing else): on this thread
  }
  return chunk.compressOffThread(mtn, options);
}

/**
 * A FormatError from the worker, made by the commands chunk's copy of the class (a chunk carries its own copy of our
 * modules, docs/compression.md#cli-start-up), as this bundle's, naming the input: so that it is told as an input's
 * problem, file and place, as one thrown on this thread is. A worker that died mid-way (out of memory, killed) names
 * the input too, and that nothing was written (`--json`'s `file` holds it; docs/security.md, round 36): the bare
 * "the compression worker stopped unexpectedly" left a script compressing many files to guess which one. A refused
 * worker bundle (not the input's doing) as it is.
 */
export function ownFormatError(e: unknown, file: string): unknown {
  const f = e as Partial<FormatError>;
  if (e instanceof Error && e.name === 'FormatError' && typeof f.kind === 'string' && typeof f.detail === 'string')
    return new FormatError(f.kind, f.detail, f.place ?? {}, file);
  if (isBundleRefusal(e)) return e;
  const named = new Error(
    `${file}: ${e instanceof Error ? e.message : String(e)} while compressing it; nothing was written`,
  ) as NodeJS.ErrnoException;
  named.path = file;
  return named;
}

export const compressCommand: CliCommand = {
  name: 'compress',
  usage:
    'compress IN.mtn -o OUT.mt3 [--pos-tol U] [--rot-tol DEG] [--offset-tol U] [--joint-rot-tol J=DEG,...] [--object-tol U [--shell U]] [--classic] [--no-tuning] [--name NAME] [--fps RATE] [--report report.json] [--json] [--quiet]',
  summary:
    'compress an .mtn to .mt3: greedy max-error key insertion, then key removal with inner quaternions searched against the source (--classic: the greedy rule alone); the settings saved beside it in IN.mtn.actguy-tuning.json apply unless --no-tuning, and flags given override them',
  json: true,
  async run(argv) {
    const args = parseArgs(
      argv,
      ['o', 'pos-tol', 'rot-tol', 'offset-tol', 'joint-rot-tol', 'name', 'report', 'fps', 'object-tol', 'shell'],
      ['quiet', 'classic', 'no-tuning', 'json'],
      { out: 'o' },
    );
    const json = args.options.has('json');
    const input = singlePositional(args, 'input .mtn');
    const output = requiredOption(args, 'o', 'OUT.mt3');
    const reportPath = stringOption(args, 'report');
    // The tuning file beside the input is the user's settings: never an output, even under --no-tuning.
    refuseOutputClashes(
      [
        { path: input, role: 'the input' },
        { path: tuningPathOf(input), role: 'the tuning file' },
      ],
      [{ path: output, role: '-o' }, ...(reportPath ? [{ path: reportPath, role: '--report' }] : [])],
    );
    // Ctrl+C: the compression runs in a worker thread (compressOffThread), so a signal is handled at once, the worker
    // ended, nothing written; where it ran on this thread (no worker bundle) the signal waits for its end (the
    // checkpoint below). The write and what follows it run to the end without a turn of the event loop.
    let stopCompression: (() => void) | undefined;
    const interruption = onInterrupt(() => untouched([output, ...(reportPath ? [reportPath] : [])]), {
      stop: () => stopCompression?.(),
    });
    try {
      const name = mt3MotionName(input, stringOption(args, 'name'));
      const gameFps = positiveNumberOption(args, 'fps', DEFAULT_GAME_FPS);
      const mtnBytes = readBinaryFile(input, 'MTN');
      const motion = inFile(input, () => readMtn(mtnBytes));
      // The settings the app saved with the motion (docs/formats-tuning.md); a flag given on the command line wins.
      const tuningPath = tuningPathOf(input);
      // Anything at the name, a link that leads nowhere or to itself too: such a link was passed over as no file, and the
      // motion compressed with the defaults without a word while the tuning file was there (docs/security.md, round 46).
      const useTuning =
        !args.options.has('no-tuning') && lstatSync(tuningPath, { throwIfNoEntry: false }) !== undefined;
      const saved = useTuning ? readTuningFile(tuningPath, motion.joints) : defaultTuning();
      const objectGiven = stringOption(args, 'object-tol') !== undefined;
      const options = {
        positionTolerance: tolerance(args, 'pos-tol', saved.positionTolerance),
        rotationToleranceDeg: tolerance(args, 'rot-tol', saved.rotationToleranceDeg),
        offsetTolerance: tolerance(args, 'offset-tol', saved.offsetTolerance),
        rotationToleranceOverridesDeg:
          stringOption(args, 'joint-rot-tol') !== undefined
            ? jointOverrides(stringOption(args, 'joint-rot-tol'))
            : { ...saved.rotationOverridesDeg },
        name,
        method: args.options.has('classic') ? ('classic' as const) : saved.method,
        objectTolerance: objectGiven ? positiveOption(args, 'object-tol') : saved.objectTolerance,
        shell:
          stringOption(args, 'shell') !== undefined
            ? positiveOption(args, 'shell')
            : objectGiven
              ? undefined
              : saved.shell,
        // Shown only in the summary line and the report: not measured when neither is written.
        ...(args.options.has('quiet') && !reportPath && !json && { measureObjectError: false }),
      };
      if (options.shell !== undefined && options.objectTolerance === undefined)
        throw new UsageError('--shell needs --object-tol (it sets where the object-space error is measured)');
      // Said with --quiet too: the tuning decides the output, and a received folder may hold one beside the motion
      // (round 18: `walk.mtn.actguy-tuning.json` asking 3 degrees made `compress --quiet` use it without a word).
      if (useTuning) console.error(`${input}: using the tuning saved in ${tuningPath} (--no-tuning to ignore it)`);
      for (const j of Object.keys(options.rotationToleranceOverridesDeg))
        if (Number(j) >= motion.joints.length)
          throw new UsageError(`--joint-rot-tol names joint ${j} but ${input} has ${motion.joints.length} joints`);
      const job = await offThread(mtnBytes, options);
      stopCompression = job?.stop;
      const ended = job
        ? await job.result.catch((e: unknown) => {
            throw ownFormatError(e, input);
          })
        : inFile(input, () => compressMotion(motion, options));
      await interruption.checkpoint();
      // Stopped only by a signal, whose handler ends the process: never reached.
      if ('stopped' in ended) throw new Error('the compression was stopped');
      const result = ended;
      // An MT3 carries no frame rate: the game plays it at its one rate, so another rate changes the motion's speed.
      const fpsWarning = frameRateMismatch(motion.fps, gameFps);
      // Keys over their tolerance, all channels: one summary on stderr, the whole list in the report.
      const unreachable = unreachableSummary(motion, result);
      if (reportPath) {
        // The .mt3 and its report go in together or not at all.
        const report = new TextEncoder().encode(
          JSON.stringify(compressReport(motion, result, input, output, unreachable), null, 2) + '\n',
        );
        commitOutputs([
          { path: output, bytes: result.bytes },
          { path: reportPath, bytes: report },
        ]);
      } else {
        writeFileAtomic(output, result.bytes);
      }
      if (!args.options.has('quiet') && !json) {
        const worst = result.channels.reduce((w, c) =>
          c.maxError / (c.tolerance || 1) > w.maxError / (w.tolerance || 1) ? c : w,
        );
        console.log(
          `${output}: ${result.totalKeys} keys, ${result.mt3Bytes} bytes (MTN ${result.mtnBytes}, ratio ${result.ratio.toFixed(2)}), ` +
            `${result.ms.toFixed(1)} ms, ${result.method}; worst ${describeChannel(worst.kind, worst.joint)} ${worst.maxError.toPrecision(3)} at frame ${worst.maxErrorFrame}`,
        );
        const oe = result.objectError;
        if (oe) {
          console.log(
            `object-space error (shell ${oe.shell.toPrecision(3)}): max ${oe.maxError.toPrecision(3)} at joint ${oe.maxErrorJoint} ${motion.joints[oe.maxErrorJoint]?.name ?? ''} frame ${oe.maxErrorFrame}` +
              (result.skeleton
                ? ` (bound ${result.skeleton.objectTolerance}, ${result.skeleton.met ? 'met' : 'NOT met'} after ${result.skeleton.rounds} round(s))`
                : ''),
          );
        }
      }
      if (fpsWarning) console.error(`warning: ${input}: ${fpsWarning}`);
      // One summary for every channel over its tolerance (a tight object-space bound or a tolerance of 0 puts every
      // channel there: one line each was a wall), the report lists every key (docs/compression.md#the-guarantee).
      const bound = result.skeleton && objectBoundLine(result.skeleton);
      if (bound) console.error(`warning: ${input}: ${bound}`);
      if (unreachable)
        for (const line of unreachableLines(
          unreachable,
          motion.joints.map((j) => j.name),
          reportPath
            ? `the report ${reportPath} lists every key over its tolerance`
            : '--report FILE lists every key over its tolerance',
          result.skeleton?.objectTolerance,
          result.skeleton?.requestedObjectTolerance ?? result.skeleton?.objectTolerance,
        ))
          console.error(`warning: ${input}: ${line}`);
      if (json)
        printJson(
          compressJson(
            input,
            output,
            reportPath,
            useTuning ? tuningPath : null,
            result,
            motion.joints,
            fpsWarning,
            unreachable,
          ),
        );
      return EXIT_OK;
    } finally {
      interruption.dispose();
    }
  },
};

/** Where a channel is, as the JSON document names it: `{channel, joint}` (joint -1: the root translation). */
const channelPlace = (kind: string, joint: number) => ({ channel: kind, joint });

/** compress --json's document (docs/cli.md, "--json"). */
function compressJson(
  input: string,
  output: string,
  reportPath: string | undefined,
  tuning: string | null,
  result: CompressResult,
  joints: readonly { name: string }[],
  fpsWarning: string | null | undefined,
  unreachable?: UnreachableSummary,
): Record<string, unknown> {
  const name = (joint: number) => (joint < 0 ? null : (joints[joint]?.name ?? null));
  const channels = result.channels.map((c) => ({
    channel: c.kind,
    joint: c.joint,
    jointName: name(c.joint),
    keys: c.keyFrames.length,
    userKeys: c.userKeyFrames.length,
    maxError: c.maxError,
    maxErrorFrame: c.maxErrorFrame,
    tolerance: c.tolerance,
    met: c.met,
  }));
  const oe = result.objectError;
  return {
    command: 'compress',
    input,
    tuning,
    outputs: {
      mt3: { path: output, bytes: result.mt3Bytes },
      report: reportPath ?? null,
    },
    method: result.method,
    keys: result.totalKeys,
    mtnBytes: result.mtnBytes,
    ratio: result.ratio,
    channels,
    unmetTolerances: channels.filter((c) => !c.met),
    // The keys over tolerance counted, and the smallest tolerances the format holds the motion to (the list: --report).
    unreachable: unreachable
      ? { keys: unreachable.keys, channels: unreachable.channels.length, precisionFloor: unreachable.floor }
      : null,
    objectError: oe
      ? {
          shell: oe.shell,
          maxError: oe.maxError,
          joint: oe.maxErrorJoint,
          jointName: name(oe.maxErrorJoint),
          frame: oe.maxErrorFrame,
          ...(result.skeleton
            ? {
                tolerance: result.skeleton.objectTolerance,
                ...(result.skeleton.requestedObjectTolerance !== undefined
                  ? { requestedTolerance: result.skeleton.requestedObjectTolerance }
                  : {}),
                met: result.skeleton.met,
                rounds: result.skeleton.rounds,
              }
            : {}),
        }
      : null,
    warnings: [
      ...(fpsWarning ? [{ file: input, place: null, message: fpsWarning }] : []),
      ...result.warnings.map((w) => ({
        file: input,
        place: { ...channelPlace(w.kind, w.joint), frame: w.frame, keyFrames: w.keyFrames },
        message: w.message,
      })),
    ],
  };
}

/** The MT3's motion name: --name, else the input's base name; either must follow the motion-name rule. */
function mt3MotionName(input: string, given: string | undefined): string {
  const name = given ?? baseNameOf(input);
  const problem = motionNameProblem(name);
  if (!problem) return name;
  if (given !== undefined) throw new UsageError(`--name: ${problem}`);
  throw new UsageError(
    `${input}: the motion name comes from the file name: ${problem}; pass --name NAME or rename the file`,
  );
}

/** Reads a tuning file strictly (size first, then parseTuning): a bad one stops the command with its place. */
function readTuningFile(path: string, joints: readonly { name: string }[]): MotionTuning {
  const size = statSync(path).size;
  if (size > TUNING_MAX_BYTES)
    throw new UsageError(
      `${path}: ${size} bytes is too large for a tuning file (at most ${TUNING_MAX_BYTES}); fix it or pass --no-tuning`,
    );
  // The limit holds for the file opened too: one swapped in after the stat was read whole (docs/security.md, round 14).
  const bytes = readBytes(path, { bytes: TUNING_MAX_BYTES, of: 'a tuning file' });
  try {
    return parseTuning(decodeUtf8Text(bytes, 'TUNING', path), path, joints);
  } catch (e) {
    // Beside the motion by name, but a link may lead it anywhere (a received folder's `walk.mtn.actguy-tuning.json`
    // linking to ~/.ssh/id_rsa): a problem in a file out of the motion's folder is told by its place only (round 34).
    if (e instanceof FormatError) throw outsideRedactor(dirname(path), OUTSIDE_MOTION_DETAIL)(e);
    throw e;
  }
}

function describeChannel(kind: string, joint: number): string {
  return kind === 'translation' ? 'root translation' : `${kind} joint ${joint}`;
}

function positiveOption(args: ReturnType<typeof parseArgs>, name: string): number | undefined {
  if (stringOption(args, name) === undefined) return undefined;
  const v = numberOption(args, name, 0);
  if (!(v > 0)) throw new UsageError(`--${name} must be > 0, got ${v}`);
  return v;
}

function tolerance(args: ReturnType<typeof parseArgs>, name: string, fallback: number): number {
  const v = numberOption(args, name, fallback);
  if (v < 0) throw new UsageError(`--${name} must be >= 0, got ${v}`);
  return v;
}
