/**
 * The pure core of `actguy build` (and later the desktop app's "Build"):
 * read every input through an injected `readFile`, validate everything before
 * any expensive work, then compress and archive. Nothing here touches a disk;
 * the caller writes the outputs only when the plan succeeded, so a broken
 * project never leaves a half-built .mar/.sar behind.
 */
import { compressMotion } from '../compress/compress';
import { objectErrorJson, unreachableJson, type CompressReportJson } from '../compress/report';
import { unreachableOf, type UnreachableSummary } from '../compress/unreachable';
import { unmetLinesOf } from './unmetLines';
import type { ObjectErrorReport } from '../compress/objectError';
import type { ChannelReport, CompressOptions, CompressResult, CompressWarning } from '../compress/types';
import { FormatError, inFile } from '../errors';
import { joinPieces, marPieces } from '../mar/write';
import type { Motion } from '../motion/types';
import { readMtn } from '../mtn/read';
import { packSarEntries, type MarMotionInfo, type SevSource } from '../sar/pack';
import type { SarEntry } from '../sar/types';
import { writeSar } from '../sar/write';
import { parseSeDefine } from '../se-tables/define';
import { parseSls } from '../se-tables/sls';
import { mergeSeTables, type SeNameTable } from '../se-tables/table';
import type { SeTableReadResult } from '../se-tables/types';
import { parseSev } from '../sev/parse';
import { sevWarnings } from '../sev/validate';
import { decodeUtf8Text } from '../sev/text';
import { formatStrCode } from '../strcode';
import { effectiveDurationMs, formatFps } from '../motion/frameRate';
import { resampledFrameCount, resampleMotion } from '../motion/resample';
import { withMt3Name } from '../mt3/write';
import { exportMshAnimation } from '../msh/export';
import { mshNodesJson } from '../msh/nodesJson';
import { writeMshResources } from '../msh/write';
import { mshFilesOf } from '../msh/files';
import { mshPrefixIn } from './outputs';
import type { ResolvedAlias, ResolvedMotion, ResolvedProject } from './types';
import { encodeUtf8 } from '../utf8';
import { pushAll } from '../pushAll';

/**
 * Reads a whole file. Throws an Error whose message says why in words (the
 * Node side maps ENOENT etc.); planBuild turns it into a FormatError naming
 * the project key that points at the file.
 */
export type ReadFile = (
  path: string,
  /** 'text': a .sev or an SE table, read within the text limit (a text file's size is refused before it is read). */
  as?: 'text',
) => Uint8Array;

/** A motion whose inputs all read and validated. */
export interface PreparedMotion {
  resolved: ResolvedMotion;
  /**
   * The motion as the game will play it: resampled to the project's fps when it asked for that. A resampled
   * motion is made on first use, so a rebuild whose motions all come from the cache never resamples.
   */
  readonly motion: Motion;
  /** Its last frame and skeleton (known without resampling). */
  frameCount: number;
  joints: Motion['joints'];
  /** The MTN's own rate and frame count, when the build resampled it. */
  resampledFrom?: { fps: number; frameCount: number };
  /** Effective playback duration in ms: round(frames / fps / speed * 1000). */
  durationMs: number;
  /** Rotation tolerance overrides by joint index (names resolved against the skeleton). */
  rotationOverridesDeg: Record<number, number>;
  sev?: SevSource;
  /**
   * A budget build's factor on the motion's tolerances (position, rotation, offset, object; not the shell
   * and not the per-joint overrides, which are floors): docs/formats.md#budget. 1 when absent.
   */
  toleranceScale?: number;
}

/** An alias with its target's frame count and its own effective duration. */
export interface PreparedAlias {
  resolved: ResolvedAlias;
  frameCount: number;
  durationMs: number;
}

/** Everything validated and ready to compress. */
export interface PreparedBuild {
  project: ResolvedProject;
  motions: PreparedMotion[];
  /** Archive entries after the motions, reusing their targets' data. */
  aliases: PreparedAlias[];
  table: SeNameTable;
  /** SAR entries in archive order, aliases included (SEVs paired, checked, compiled). */
  sarEntries: SarEntry[];
  /** Skipped table lines and other things worth a look; never stop a build. */
  warnings: FormatError[];
}

export type PrepareResult =
  { ok: true; prepared: PreparedBuild } | { ok: false; errors: FormatError[]; warnings: FormatError[] };

/**
 * What the caller already knows of a motion file it read and validated before (docs/cache.md, "Local
 * verdicts"): its rate, frame count and skeleton, and how to read the motion when its samples are needed.
 */
export interface KnownMotion {
  fps: number;
  frameCount: number;
  joints: Motion['joints'];
  /** Reads and decodes the file; throws a FormatError naming it when it is no longer what was known. */
  load(): Motion;
}

/**
 * Reads and validates every input of a resolved project: each MTN, the
 * rotation overrides against its skeleton, the SE tables, each SEV (syntax,
 * `motion` statement, frames and joints against its motion, SE names against
 * the tables). Returns all errors at once, or the prepared build. A motion `known` gives is not read: its
 * header and skeleton stand in for the file, which is read only when its samples are needed.
 */
export function prepareBuild(
  project: ResolvedProject,
  readFile: ReadFile,
  known?: (mtnPath: string) => KnownMotion | undefined,
): PrepareResult {
  const errors: FormatError[] = [];
  const warnings: FormatError[] = [];
  const pfail = (where: string, detail: string) =>
    errors.push(new FormatError('PROJECT', detail, { where }, project.projectFile));
  const read = (path: string, where: string, as?: 'text'): Uint8Array | undefined => {
    try {
      return readFile(path, as);
    } catch (e) {
      // A file refused by its header before it was read (electron/io/readBinary.ts) names itself and the place.
      if (e instanceof FormatError) errors.push(e);
      else pfail(where, `cannot read ${path}: ${(e as Error).message}`);
      return undefined;
    }
  };
  const collect = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof FormatError) {
        errors.push(e);
        return undefined;
      }
      throw e;
    }
  };

  // SE tables first: SEV names are checked against them below.
  const sources: SeTableReadResult[] = [];
  const tableInput = (
    path: string | undefined,
    key: string,
    parse: (text: string, file: string) => SeTableReadResult,
    kind: 'SLS' | 'SE_DEFINE',
  ) => {
    if (!path) return;
    const bytes = read(path, key, 'text');
    if (!bytes) return;
    const text = collect(() => decodeUtf8Text(bytes, kind, path));
    if (text !== undefined) sources.push(parse(text, path));
  };
  tableInput(project.slsPath, 'seTables.sls', parseSls, 'SLS');
  tableInput(project.seDefinePath, 'seTables.seDefine', parseSeDefine, 'SE_DEFINE');
  const merged = mergeSeTables(sources);
  pushAll(errors, merged.errors);
  pushAll(warnings, merged.warnings);

  /**
   * Each motion file as this build found it, by path: read and decoded once however many motions name it (a
   * project naming one 750 MiB `.mtn` 4096 times read and decoded it 4096 times, docs/security.md round 14). A
   * failure is kept too, and each motion naming the file reports it at its own key, as when each read it.
   */
  const motionFiles = new Map<string, { motion?: Motion | KnownMotion; error?: FormatError; cannotRead?: string }>();
  const motionFile = (path: string, where: string): Motion | KnownMotion | undefined => {
    let file = motionFiles.get(path);
    if (!file) {
      file = {};
      const remembered = known?.(path);
      if (remembered) file.motion = loadOnce(remembered);
      else {
        let bytes: Uint8Array | undefined;
        try {
          bytes = readFile(path);
        } catch (e) {
          // A file refused by its header before it was read (electron/io/readBinary.ts) names itself and the place.
          if (e instanceof FormatError) file.error = e;
          else file.cannotRead = (e as Error).message;
        }
        if (bytes) {
          const read = bytes;
          try {
            file.motion = inFile(path, () => readMtn(read));
          } catch (e) {
            if (!(e instanceof FormatError)) throw e;
            file.error = e;
          }
        }
      }
      motionFiles.set(path, file);
    }
    if (file.error) errors.push(file.error);
    if (file.cannotRead !== undefined) pfail(where, `cannot read ${path}: ${file.cannotRead}`);
    return file.motion;
  };

  const motions: PreparedMotion[] = [];
  const sevs: SevSource[] = [];
  let allRead = true;
  for (const m of project.motions) {
    const where = `motions[${m.index}]`;
    const asRead = motionFile(m.mtnPath, `${where}.mtn`);
    const played = asRead ? atGameRate(m, asRead, project.fps, pfail, collect) : undefined;
    // The skeleton (joint names for overrides): the same before and after resampling.
    const motion = played && asRead;
    let sev: SevSource | undefined;
    if (m.sevPath) {
      const sevBytes = read(m.sevPath, `${where}.sev`, 'text');
      const text = sevBytes ? collect(() => decodeUtf8Text(sevBytes, 'SEV', m.sevPath)) : undefined;
      if (text !== undefined) {
        const parsed = parseSev(text, m.sevPath);
        pushAll(errors, parsed.errors);
        pushAll(warnings, parsed.warnings);
        const stated = parsed.doc.motion;
        if (stated && stated.name !== m.name) {
          const place = stated.loc ? { line: stated.loc.line, column: stated.loc.columns[1] ?? 1 } : {};
          errors.push(
            new FormatError(
              'SEV',
              `this SEV is for motion ${stated.name}, but the project lists it for motion ${m.name} (${where})`,
              place,
              m.sevPath,
            ),
          );
        } else {
          // The project decides the pairing: the motion name stands in for the file name. A SEV with
          // syntax errors still goes on to the frame, joint and SE-name checks, so one run shows every error.
          sev = { file: m.sevPath, baseName: m.name, doc: parsed.doc };
          pushAll(warnings, sevWarnings(parsed.doc, m.sevPath));
        }
      }
      if (!sev) allRead = false;
    }
    if (!motion) {
      allRead = false;
      continue;
    }
    // A bad override is already an error; the motion still takes part in the SEV checks below.
    const overrides = resolveRotationOverrides(m, motion, pfail) ?? {};
    const durationMs = durationOf(
      played!.frameCount,
      project.fps,
      m.speed,
      `motion ${m.name}`,
      `${where}.speed`,
      pfail,
    );
    motions.push({
      resolved: m,
      get motion() {
        return played!.motion;
      },
      frameCount: played!.frameCount,
      joints: motion.joints,
      resampledFrom: played!.resampledFrom,
      durationMs,
      rotationOverridesDeg: overrides,
      sev,
    });
    if (sev) sevs.push(sev);
  }

  let sarEntries: SarEntry[] = [];
  if (allRead && motions.length === project.motions.length) {
    const mar: MarMotionInfo[] = motions.map((p) => ({
      name: p.resolved.hash,
      frameCount: p.frameCount,
      jointCount: p.joints.length,
      displayName: p.resolved.name,
    }));
    const packed = packSarEntries(mar, sevs, merged.table, project.marPath);
    pushAll(errors, packed.errors);
    // An alias's entry is its target's, SE slots and events included, under the alias's name hash.
    sarEntries = [
      ...packed.entries,
      ...project.aliases.map((a) => ({ ...packed.entries[a.targetIndex], name: a.hash })),
    ];
  }
  const aliases: PreparedAlias[] = [];
  for (const a of project.aliases) {
    const target = motions.find((p) => p.resolved.index === a.targetIndex);
    if (!target) continue; // the target's own errors are already reported
    const frameCount = target.frameCount;
    aliases.push({
      resolved: a,
      frameCount,
      durationMs: durationOf(
        frameCount,
        project.fps,
        a.speed,
        `alias ${a.name} (of ${a.target})`,
        `aliases[${a.aliasIndex}].speed`,
        pfail,
      ),
    });
  }
  if (errors.length) return { ok: false, errors, warnings };
  return { ok: true, prepared: { project, motions, aliases, table: merged.table, sarEntries, warnings } };
}

/**
 * A known motion whose file is read and decoded at most once, however many motions name it: the decoded motion,
 * or the error its reading gave, is kept and given to every caller.
 */
function loadOnce(k: KnownMotion): KnownMotion {
  let outcome: { motion: Motion } | { error: unknown } | undefined;
  return {
    fps: k.fps,
    frameCount: k.frameCount,
    joints: k.joints,
    load: () => {
      if (!outcome) {
        try {
          outcome = { motion: k.load() };
        } catch (e) {
          outcome = { error: e };
        }
      }
      if ('error' in outcome) throw outcome.error;
      return outcome.motion;
    },
  };
}

/**
 * The motion at the rate the game plays (an MT3 stores no rate): as read when
 * its fps is the project's, resampled (slerp / lerp, as import does) when the
 * motion or the project asks for that, else an error naming the motion and
 * both rates. The resampled motion is made when `motion` is first read; its
 * frame count, and any error resampling would give, are known at once.
 */
export function atGameRate(
  m: ResolvedMotion,
  motion: Motion | KnownMotion,
  fps: number,
  fail: (where: string, detail: string) => void,
  collect: <T>(fn: () => T) => T | undefined,
): { readonly motion: Motion; frameCount: number; resampledFrom?: { fps: number; frameCount: number } } | undefined {
  let loaded: Motion | undefined;
  const load = (): Motion => (loaded ??= 'load' in motion ? motion.load() : motion);
  if (motion.fps === fps)
    return {
      get motion() {
        return load();
      },
      frameCount: motion.frameCount,
    };
  if (!m.resample) {
    fail(
      `motions[${m.index}].mtn`,
      `motion ${m.name}: ${m.mtnPath} is ${formatFps(motion.fps)} fps but the project plays motions at ${formatFps(fps)} fps (an MT3 stores no rate, so it would play at ${Number((fps / motion.fps).toFixed(3))}x speed); set "resample": true on the motion or the project, or re-import it at ${formatFps(fps)} fps`,
    );
    return undefined;
  }
  const frameCount = collect(() => inFile(m.mtnPath, () => resampledFrameCount(motion, fps)));
  if (frameCount === undefined) return undefined;
  let resampled: Motion | undefined;
  return {
    get motion() {
      return (resampled ??= inFile(m.mtnPath, () => resampleMotion(load(), fps)));
    },
    frameCount,
    resampledFrom: { fps: motion.fps, frameCount: motion.frameCount },
  };
}

/** effectiveDurationMs, with a failure reported as a project error naming the motion or alias; 0 when it failed. */
function durationOf(
  frames: number,
  fps: number,
  speed: number,
  who: string,
  where: string,
  fail: (where: string, detail: string) => void,
): number {
  try {
    return effectiveDurationMs(frames, fps, speed);
  } catch (e) {
    fail(where, `${who}: ${(e as Error).message}`);
    return 0;
  }
}

/** Joint index or joint name -> joint index, checked against the skeleton; undefined when any key is bad. */
function resolveRotationOverrides(
  m: ResolvedMotion,
  motion: Pick<Motion, 'joints'>,
  fail: (where: string, detail: string) => void,
): Record<number, number> | undefined {
  const out: Record<number, number> = {};
  let ok = true;
  const J = motion.joints.length;
  for (const [key, deg] of Object.entries(m.rotationOverridesDeg)) {
    const where = `motions[${m.index}].rotationOverridesDeg.${key}`;
    let joint: number;
    if (/^[0-9]+$/.test(key)) {
      joint = Number(key);
      if (joint >= J) {
        fail(where, `joint ${joint} does not exist: ${m.mtnPath} has joints 0..${J - 1}`);
        ok = false;
        continue;
      }
    } else {
      joint = motion.joints.findIndex((j) => j.name === key);
      if (joint < 0) {
        fail(
          where,
          `no joint named ${key} in ${m.mtnPath} (its joints: ${motion.joints.map((j) => j.name).join(', ')})`,
        );
        ok = false;
        continue;
      }
    }
    if (out[joint] !== undefined && out[joint] !== deg) {
      fail(where, `joint ${joint} (${motion.joints[joint].name}) is given two different overrides`);
      ok = false;
      continue;
    }
    out[joint] = deg;
  }
  return ok ? out : undefined;
}

/** One motion's line in the build report. */
export interface BuildReportMotion {
  index: number;
  name: string;
  /** GV_StrCode as `0x......`. */
  hash: string;
  mtn: string;
  sev: string | null;
  frameCount: number;
  joints: number;
  tolerances: { position: number; rotationDeg: number; offset: number };
  rotationOverridesDeg: Record<number, number>;
  keys: number;
  mtnBytes: number;
  mt3Bytes: number;
  ratio: number;
  /** Largest error over all frames per channel kind, after quantisation (units / degrees; 0 when the kind has no channel). */
  maxError: { translation: number; rotationDeg: number; offset: number };
  /**
   * What the build says of keys over their tolerance (compression still succeeded): one summary of three lines
   * (unreachableLines: how many keys of how many channels, the worst channels with their real key frames, the
   * precision floor), after a line saying so when the skeleton-aware bound asked was below the motion's floor.
   * The report's `warnings` give them after the motion's name.
   */
  unmetTolerances: string[];
  /** Every key over its tolerance, by channel, with its error in the written file, and the precision floor; null when none. */
  unreachable: CompressReportJson['unreachable'];
  /** 'refined' or 'classic'. */
  method: string;
  /** Object-space error of the written bytes per joint (FK at joints and virtual points), motion units. */
  objectError: CompressReportJson['objectError'];
  /** The skeleton-aware bound and outcome, when the motion uses it. */
  skeleton: CompressReportJson['skeleton'];
  seSlots: number;
  events: number;
  /** The rate the game plays it at (the project's fps). */
  fps: number;
  /** The MTN's own rate and frame count when the build resampled it to `fps`, else null. */
  resampledFrom: { fps: number; frameCount: number } | null;
  /** Authored playback factor. */
  speed: number;
  /** Effective playback duration: round(frameCount / fps / speed * 1000) ms. */
  durationMs: number;
}

/** How a budget build fitted the .mar (docs/formats.md#budget). */
export interface BuildReportBudget {
  /** The project's budget.marBytes. */
  marBytes: number;
  /** The .mar's size as built (<= marBytes). */
  usedBytes: number;
  /** The loosest allowed scale of a motion's tolerances (MAX_BUDGET_SCALE). */
  maxScale: number;
  /** The worst ratio, over every channel of the stage, of its error to its own tolerance as set. */
  worstRatio: number;
  /** The motion with that worst ratio: the one that limits the stage. */
  limitingMotion: string;
  /** Per motion, in archive order. */
  motions: {
    name: string;
    /** The factor applied to its tolerances (1: as set). */
    scale: number;
    mt3Bytes: number;
    /** What it takes of the .mar: its MT3 padded to 16 bytes, once per entry using it (its aliases too). */
    marBytes: number;
    /** Its worst channel error over that channel's own tolerance. */
    worstRatio: number;
  }[];
  /** How many times the search compressed every motion (each at its own scale). */
  passes: number;
}

/** An alias's line in the build report. */
export interface BuildReportAlias {
  /** Archive index (after every motion). */
  index: number;
  name: string;
  hash: string;
  /** The motion whose compressed data and .sev it reuses. */
  target: string;
  targetIndex: number;
  frameCount: number;
  speed: number;
  durationMs: number;
}

/** The JSON build report written beside the outputs. */
export interface BuildReport {
  tool: 'actguy build';
  reportVersion: 1;
  project: string;
  /** Absolute path of the project file when known: `info stage.sar` finds names through it. */
  projectAbsolute?: string;
  outputs: { mar: { path: string; bytes: number }; sar: { path: string; bytes: number }; report: string };
  /** The game's playback rate every motion was built for. */
  fps: number;
  motions: BuildReportMotion[];
  aliases: BuildReportAlias[];
  /** The budget fit, when the project sets `budget` (docs/formats.md#budget). */
  budget?: BuildReportBudget;
  /** No timings here: the report is part of a reproducible build (byte-identical for the same inputs). */
  totals: { motions: number; aliases: number; keys: number; mtnBytes: number; mt3Bytes: number; events: number };
  warnings: string[];
}

/** One file the build wants written. */
export interface BuildOutput {
  path: string;
  bytes: Uint8Array;
  /**
   * The file as the pieces it is made of, in order (assembleBuild's `pieces` option): `bytes` is then their join,
   * made only if it is read, and the commit writes the pieces as they are (electron/build/commit.ts).
   */
  pieces?: readonly Uint8Array[];
}

/** An output made of `pieces`, its bytes joined only when asked for (BuildOutput.pieces). */
function piecedOutput(path: string, pieces: readonly Uint8Array[]): BuildOutput {
  let joined: Uint8Array | undefined;
  return {
    path,
    pieces,
    get bytes() {
      return (joined ??= joinPieces(pieces));
    },
  };
}

/**
 * What a build keeps of one compression: the MT3 bytes and the figures the
 * report and the progress lines need. Structured-clone friendly (it crosses
 * worker threads) and small enough to cache (no per-frame error arrays).
 */
export interface CompressedMotion extends Pick<
  CompressResult,
  'bytes' | 'totalKeys' | 'mt3Bytes' | 'mtnBytes' | 'ratio' | 'ms' | 'method' | 'skeleton'
> {
  /** The object-space error without its per-frame array. */
  objectError: Omit<ObjectErrorReport, 'frameMaxError'> | null;
  channels: Pick<ChannelReport, 'kind' | 'joint' | 'tolerance' | 'maxError' | 'maxErrorFrame' | 'met'>[];
  warnings: Pick<CompressWarning, 'kind' | 'joint' | 'frame' | 'error' | 'tolerance' | 'message'>[];
  /** The keys over their tolerance (unreachable.ts), when there are any and the compressor measured the floor. */
  unreachable?: UnreachableSummary;
}

/** The summary a build keeps of a CompressResult. */
export function compressedMotionOf(r: CompressResult): CompressedMotion {
  return {
    bytes: r.bytes,
    totalKeys: r.totalKeys,
    mt3Bytes: r.mt3Bytes,
    mtnBytes: r.mtnBytes,
    ratio: r.ratio,
    ms: r.ms,
    method: r.method,
    ...(r.skeleton ? { skeleton: { ...r.skeleton } } : {}),
    objectError: r.objectError && {
      shell: r.objectError.shell,
      jointMaxError: r.objectError.jointMaxError.slice(),
      jointMaxErrorFrame: r.objectError.jointMaxErrorFrame.slice(),
      maxError: r.objectError.maxError,
      maxErrorJoint: r.objectError.maxErrorJoint,
      maxErrorFrame: r.objectError.maxErrorFrame,
    },
    channels: r.channels.map((c) => ({
      kind: c.kind,
      joint: c.joint,
      tolerance: c.tolerance,
      maxError: c.maxError,
      maxErrorFrame: c.maxErrorFrame,
      met: c.met,
    })),
    warnings: r.warnings.map((w) => ({
      kind: w.kind,
      joint: w.joint,
      frame: w.frame,
      error: w.error,
      tolerance: w.tolerance,
      message: w.message,
    })),
    ...(r.warnings.length > 0 && r.precisionFloor
      ? {
          unreachable: unreachableOf(
            r.warnings,
            (w) => r.channels.find((c) => c.kind === w.kind && c.joint === w.joint)?.errors,
            r.totalKeys,
            r.precisionFloor,
          ),
        }
      : {}),
  };
}

export interface BuildProgress {
  /** 0-based archive index of the motion just compressed. */
  index: number;
  count: number;
  name: string;
  result: CompressedMotion;
  /** Whether the result came from the build cache instead of the compressor. */
  cached?: boolean;
}

export type BuildResult =
  | {
      ok: true;
      outputs: BuildOutput[];
      report: BuildReport;
      warnings: FormatError[];
      /** Where each motion's fragment lies in the report file ([offset, length]), when it was put together from them. */
      reportFragments?: [number, number][];
    }
  | { ok: false; errors: FormatError[]; warnings: FormatError[] };

/**
 * The one settings object a prepared motion is compressed with (tolerances,
 * overrides, method, skeleton-aware bound): everything besides the samples
 * and key flags that decides the bytes. The build cache hashes this whole
 * object into its key, so a setting added here enters the key by itself.
 */
export function compressOptionsFor(p: PreparedMotion): CompressOptions {
  const r = p.resolved;
  const scale = p.toleranceScale ?? 1;
  const options: CompressOptions = {
    name: r.name,
    positionTolerance: r.positionTolerance * scale,
    rotationToleranceDeg: r.rotationToleranceDeg * scale,
    offsetTolerance: r.offsetTolerance * scale,
    rotationToleranceOverridesDeg: p.rotationOverridesDeg,
    method: r.method,
  };
  if (r.objectTolerance !== undefined) options.objectTolerance = r.objectTolerance * scale;
  if (r.shell !== undefined) options.shell = r.shell;
  return options;
}

/**
 * The motion with its tolerances times `scale` (a budget build's step). Its properties are copied as they are
 * defined, so a resampled motion is still made only on first use.
 */
export function withToleranceScale(p: PreparedMotion, scale: number): PreparedMotion {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(p)) as PreparedMotion;
  copy.toleranceScale = scale;
  return copy;
}

/** Compresses every prepared motion and assembles the .mar, the .sar and the report (in memory). */
export function executeBuild(prepared: PreparedBuild, onProgress?: (p: BuildProgress) => void): BuildResult {
  const errors: FormatError[] = [];
  const results: CompressedMotion[] = [];
  prepared.motions.forEach((p, k) => {
    const r = p.resolved;
    try {
      const result = compressedMotionOf(inFile(r.mtnPath, () => compressMotion(p.motion, compressOptionsFor(p))));
      results.push(result);
      onProgress?.({ index: k, count: prepared.motions.length, name: r.name, result });
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
      errors.push(e);
    }
  });
  if (errors.length) return { ok: false, errors, warnings: prepared.warnings };
  return assembleBuild(prepared, results);
}

/** Motion k's entry of the report's `motions` array, for its compressed result `res`. */
export function motionReportEntry(prepared: PreparedBuild, k: number, res: CompressedMotion): BuildReportMotion {
  const { project } = prepared;
  const p = prepared.motions[k];
  const r = p.resolved;
  const entry = prepared.sarEntries[k];
  const settings = compressOptionsFor(p);
  return {
    index: r.index,
    name: r.name,
    hash: formatStrCode(r.hash),
    mtn: r.mtnPath,
    sev: r.sevPath ?? null,
    frameCount: p.frameCount,
    joints: p.joints.length,
    tolerances: {
      position: settings.positionTolerance,
      rotationDeg: settings.rotationToleranceDeg,
      offset: settings.offsetTolerance,
    },
    rotationOverridesDeg: p.rotationOverridesDeg,
    keys: res.totalKeys,
    mtnBytes: res.mtnBytes,
    mt3Bytes: res.mt3Bytes,
    ratio: Number(res.ratio.toFixed(3)),
    maxError: {
      translation: worst(res, 'translation'),
      rotationDeg: worst(res, 'rotation'),
      offset: worst(res, 'offset'),
    },
    unmetTolerances: unmetLinesOf(prepared, k, res),
    unreachable: res.unreachable ? unreachableJson(p, res.unreachable) : null,
    method: res.method,
    objectError: objectErrorJson(p, res.objectError),
    skeleton: res.skeleton ? { ...res.skeleton } : null,
    seSlots: entry.seCodes.length / 8,
    events: entry.events.length,
    fps: project.fps,
    resampledFrom: p.resampledFrom ?? null,
    speed: r.speed,
    durationMs: p.durationMs,
  };
}

/**
 * A motion's entry of the report as the report file holds it, in UTF-8: what JSON.stringify(report, null, 2) writes
 * for it in the `motions` array, from its opening brace to its closing one (reportFileBytes puts it back there).
 */
export function motionReportFragment(entry: BuildReportMotion): Uint8Array {
  // Serialized at the same depth in an object of the same indentation, so that its lines are indented alike.
  const text = JSON.stringify({ motions: [entry] }, null, 2);
  return encodeUtf8(text.slice(FRAGMENT_HEAD.length, text.length - FRAGMENT_TAIL.length));
}
const FRAGMENT_HEAD = '{\n  "motions": [\n    ';
const FRAGMENT_TAIL = '\n  ]\n}';

/** A motion's report entry and its fragment (motionReportFragment), made before the whole report (assembleBuild). */
export interface MotionReportPart {
  entry: BuildReportMotion;
  fragment: Uint8Array;
}

/** Motion k's report part for its result `res`. */
export function motionReportPart(prepared: PreparedBuild, k: number, res: CompressedMotion): MotionReportPart {
  const entry = motionReportEntry(prepared, k, res);
  return { entry, fragment: motionReportFragment(entry) };
}

/** Where the motions array sits in the report's text when it is empty (a top-level key: the only one at this indent). */
const MOTIONS_SLOT = '\n  "motions": []';
const FRAGMENT_SEPARATOR = encodeUtf8(',\n    ');

/**
 * The report file, `JSON.stringify(report, null, 2)` and a line break, byte for byte, from each motion's fragment
 * (motionReportFragment of report.motions[k]) and the rest of the report.
 */
export function reportFileBytes(report: BuildReport, fragments: readonly Uint8Array[]): Uint8Array {
  return reportFileLayout(report, fragments).bytes;
}

/** reportFileBytes, and where in the file each motion's fragment lies: [byte offset, byte length] by motion. */
export function reportFileLayout(
  report: BuildReport,
  fragments: readonly Uint8Array[],
): { bytes: Uint8Array; fragments: [number, number][] } {
  const { pieces, fragments: where } = reportFilePieces(report, fragments);
  return { bytes: joinPieces(pieces), fragments: where };
}

/** reportFileLayout with the file as its pieces (the fragments are among them, not copied; see BuildOutput.pieces). */
export function reportFilePieces(
  report: BuildReport,
  fragments: readonly Uint8Array[],
): { pieces: Uint8Array[]; fragments: [number, number][] } {
  if (report.motions.length === 0)
    return { pieces: [encodeUtf8(`${JSON.stringify(report, null, 2)}\n`)], fragments: [] };
  const text = JSON.stringify({ ...report, motions: [] }, null, 2);
  const at = text.indexOf(MOTIONS_SLOT);
  const parts: Uint8Array[] = [encodeUtf8(`${text.slice(0, at)}\n  "motions": [\n    `)];
  const where: [number, number][] = [];
  let at0 = parts[0].byteLength;
  fragments.forEach((fragment, k) => {
    if (k > 0) {
      parts.push(FRAGMENT_SEPARATOR);
      at0 += FRAGMENT_SEPARATOR.byteLength;
    }
    parts.push(fragment);
    where.push([at0, fragment.byteLength]);
    at0 += fragment.byteLength;
  });
  parts.push(encodeUtf8(`\n  ]${text.slice(at + MOTIONS_SLOT.length)}\n`));
  return { pieces: parts, fragments: where };
}

/**
 * The .mar, the .sar and the report from every motion's compressed result, in
 * archive order. Depends only on its arguments (no clock, no finishing order),
 * so a build is byte-identical however its motions were compressed: serially,
 * by N workers, or from the cache. `madeParts` gives the report parts made
 * before (motionReportPart of this very build and result), so that the report
 * is not serialized again for those motions. `reportWarning` gives the report's text for each input warning.
 */
export function assembleBuild(
  prepared: PreparedBuild,
  results: readonly CompressedMotion[],
  budget?: BuildReportBudget,
  madeParts?: (k: number, result: CompressedMotion) => MotionReportPart | undefined,
  /**
   * The report's text for a warning about an input (its message unless the caller says otherwise): the Node side
   * keeps only the place of a warning about a file outside the project's folder (electron/build/reportWarnings.ts).
   */
  reportWarning: (w: FormatError) => string = (w) => w.message,
  /**
   * `pieces`: the .mar and the report as the pieces they are made of (BuildOutput.pieces), for a caller that writes
   * them itself (`actguy build`: a rebuild's are mostly the last build's bytes, 13 MB on the 1,000-clip bench, not
   * copied again into one buffer each). The app's build worker hands its outputs' buffers to main whole.
   */
  options: { pieces?: boolean } = {},
): BuildResult {
  const { project } = prepared;
  let marParts: Uint8Array[];
  let sar: Uint8Array;
  try {
    const aliasBlobs = prepared.aliases.map((a) => withMt3Name(results[a.resolved.targetIndex].bytes, a.resolved.hash));
    marParts = inFile(project.marPath, () => marPieces([...results.map((r) => r.bytes), ...aliasBlobs]));
    sar = inFile(project.sarPath, () =>
      writeSar(prepared.sarEntries, [
        ...prepared.motions.map((p) => p.resolved.hash),
        ...prepared.aliases.map((a) => a.resolved.hash),
      ]),
    );
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return { ok: false, errors: [e], warnings: prepared.warnings };
  }

  const parts = madeParts && prepared.motions.map((_, k) => madeParts(k, results[k]));
  const motions = prepared.motions.map((_, k) => parts?.[k]?.entry ?? motionReportEntry(prepared, k, results[k]));
  const aliases: BuildReportAlias[] = prepared.aliases.map((a) => ({
    index: a.resolved.index,
    name: a.resolved.name,
    hash: formatStrCode(a.resolved.hash),
    target: a.resolved.target,
    targetIndex: a.resolved.targetIndex,
    frameCount: a.frameCount,
    speed: a.resolved.speed,
    durationMs: a.durationMs,
  }));
  const sum = (f: (m: BuildReportMotion) => number) => motions.reduce((s, m) => s + f(m), 0);
  const report: BuildReport = {
    tool: 'actguy build',
    reportVersion: 1,
    project: project.projectFile,
    projectAbsolute: project.projectFileAbsolute,
    outputs: {
      mar: { path: project.marPath, bytes: marParts.reduce((n, piece) => n + piece.byteLength, 0) },
      sar: { path: project.sarPath, bytes: sar.byteLength },
      report: project.reportPath,
    },
    fps: project.fps,
    motions,
    aliases,
    ...(budget ? { budget } : {}),
    totals: {
      motions: motions.length,
      aliases: aliases.length,
      keys: sum((m) => m.keys),
      mtnBytes: sum((m) => m.mtnBytes),
      mt3Bytes: sum((m) => m.mt3Bytes),
      events: sum((m) => m.events),
    },
    warnings: [
      ...prepared.warnings.map(reportWarning),
      ...motions.flatMap((m) =>
        m.resampledFrom
          ? [
              `${m.name}: resampled from ${formatFps(m.resampledFrom.fps)} fps (frames 0..${m.resampledFrom.frameCount}) to ${formatFps(m.fps)} fps (frames 0..${m.frameCount})`,
            ]
          : [],
      ),
      ...motions.flatMap((m) => m.unmetTolerances.map((u) => `${m.name}: ${u}`)),
    ],
  };
  const layout = parts
    ? reportFilePieces(
        report,
        parts.map((part, k) => part?.fragment ?? motionReportFragment(motions[k])),
      )
    : undefined;
  const reportParts = layout?.pieces ?? [encodeUtf8(`${JSON.stringify(report, null, 2)}\n`)];
  const whole = (path: string, pieces: Uint8Array[]): BuildOutput =>
    options.pieces ? piecedOutput(path, pieces) : { path, bytes: pieces.length === 1 ? pieces[0] : joinPieces(pieces) };
  return {
    ok: true,
    outputs: [
      whole(project.marPath, marParts),
      { path: project.sarPath, bytes: sar },
      whole(project.reportPath, reportParts),
      ...mshOutputs(prepared),
    ],
    report,
    warnings: prepared.warnings,
    ...(layout && layout.fragments.length === motions.length ? { reportFragments: layout.fragments } : {}),
  };
}

/** prepareBuild then executeBuild: every error before any compression, outputs only when all is well. */
export function planBuild(
  project: ResolvedProject,
  readFile: ReadFile,
  onProgress?: (p: BuildProgress) => void,
): BuildResult {
  const prep = prepareBuild(project, readFile);
  if (!prep.ok) return prep;
  return executeBuild(prep.prepared, onProgress);
}

function worst(r: CompressedMotion, kind: 'translation' | 'rotation' | 'offset'): number {
  const e = r.channels.filter((c) => c.kind === kind).reduce((m, c) => Math.max(m, c.maxError), 0);
  return Number(e.toPrecision(4));
}

/**
 * The extra MSH output (outputs.msh): every motion exported with its own
 * tolerances (position, rotation and per-joint overrides as for MT3) to
 * DIR/<name>.res8, .res19 and .nodes.json; an alias gets its target's export
 * under its own name.
 */
function mshOutputs(prepared: PreparedBuild): BuildOutput[] {
  const dir = prepared.project.mshDir;
  if (dir === undefined) return [];

  const byMotion = prepared.motions.map((p) => {
    const r = p.resolved;
    const tolerances = {
      position: r.positionTolerance,
      rotationDeg: r.rotationToleranceDeg,
      rotationOverridesDeg: p.rotationOverridesDeg,
    };
    const result = inFile(r.mtnPath, () =>
      exportMshAnimation(p.motion, {
        positionTolerance: r.positionTolerance,
        rotationToleranceDeg: r.rotationToleranceDeg,
        rotationToleranceOverridesDeg: p.rotationOverridesDeg,
      }),
    );
    return { result, resources: writeMshResources(result.animation), tolerances, source: r.mtnPath };
  });
  const files = (name: string, e: (typeof byMotion)[number]): BuildOutput[] => {
    const json = mshNodesJson(
      e.result,
      e.resources,
      { source: e.source, res8: `${name}.res8`, res19: `${name}.res19` },
      e.tolerances,
    );
    const paths = mshFilesOf(mshPrefixIn(dir, name));
    return [
      { path: paths.res8, bytes: e.resources.res8.bytes },
      { path: paths.res19, bytes: e.resources.res19.bytes },
      { path: paths.nodes, bytes: encodeUtf8(`${JSON.stringify(json, null, 2)}\n`) },
    ];
  };
  return [
    ...prepared.motions.flatMap((p, k) => files(p.resolved.name, byMotion[k])),
    ...prepared.aliases.map((a) => files(a.resolved.name, byMotion[a.resolved.targetIndex])).flat(),
  ];
}
