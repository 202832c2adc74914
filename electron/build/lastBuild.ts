/**
 * The record of a project's last build (docs/cache.md, "Up to date"): a build whose every input and setting is
 * what the last successful build of the same project and outputs had, and whose outputs are still the very files
 * that build wrote, has nothing to do, as `make` knows from timestamps. It then writes nothing (no cache lookups,
 * no assembly, no commit) and says so.
 *
 * What decides a build's outputs: the content of every motion file (its SHA-256, as the local verdicts know it from
 * the file's stamp, verdicts.ts), the project as resolved (every setting, path, name and speed), the .sar's bytes (the
 * SEV files and SE tables as far as they matter), the warnings the build found while reading its inputs, and the code
 * (the compressor's and the assembly's; a motion's cache key is made of nothing else). The record holds the motion
 * files' digests, one digest of the rest (`plan`), and the stamp (size, times, inode, device) of each output as
 * committed.
 *
 * A rebuild that is not up to date takes from the last build's outputs what holds for it (carryCandidates, then
 * readCarriedAhead): a motion whose own part of the outputs is decided by exactly what decided it then (its file's digest,
 * its resolved settings, the project's rate, its SEV's slot and event counts, the code) keeps its MT3 from the old
 * .mar and its entry from the old report, byte for byte, with no cache lookup; the record holds, per motion, that
 * part's digest, where its entry lies in the report, and the figures the report's totals and warnings need.
 *
 * Like the local verdicts it lives in the user's own state folder, never in the project's or the cache's folder,
 * one file per project and set of outputs (`<state>/last-builds/<id>.json`), and it is read as untrusted input all
 * the same: anything not of the exact shape is ignored, and the build then runs in full. It can only ever make a
 * build do less when it matches the build exactly; it never names a file to touch.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { findExcessiveNesting } from '../../shared/json/nesting';
import { type BuildReport, type CompressedMotion, type PreparedBuild } from '../../shared/project/plan';
import { unmetLinesOf } from '../../shared/project/unmetLines';
import type { ResolvedProject } from '../../shared/project/types';
import { formatStrCode } from '../../shared/strcode';
import {
  MAR_HDR_DATA_BASE,
  MAR_HDR_MAGIC,
  MAR_HDR_NUM_MOTION,
  MAR_HEADER_SIZE,
  MAR_MAGIC,
  MAR_TABLE_ENTRY,
} from '../../shared/mar/constants';
import { writeSar } from '../../shared/sar/write';
import { FormatError } from '../../shared/errors';
import { writeFileAtomic, writeFileAtomicAsync } from '../fsutil';
import { trackWrite } from '../writeTurns';
import { canonicalPath, isInside, keyPath } from '../pathPolicy';
import {
  canonicalJson,
  COMPRESSOR_IDENTITY,
  makeStateFolder,
  readStampedNoFollow,
  readStampedNoFollowAhead,
  stateFolderProblem,
} from './buildCache';
import { commitLeftovers } from './commit';
import { sameStamp, stampFromFields, stampOf, type FileStamp } from './fileStamp';

declare const __ACTGUY_BUILD_DIGEST__: string | undefined;
/**
 * The code that turns compressed motions into outputs (shared/ and electron/build/, digested by scripts/build.mjs):
 * a build by another version of ActGuy is never taken for up to date.
 */
const BUILD_IDENTITY = `${COMPRESSOR_IDENTITY}:${typeof __ACTGUY_BUILD_DIGEST__ === 'string' ? __ACTGUY_BUILD_DIGEST__ : 'unbundled'}`;

const TOOL = 'actguy last build';
const VERSION = 2;
/** A record larger than this is not read (a 65,535-motion project's record is about 6 MB). */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;

/** One motion's part of the recorded outputs (the record's `parts`). */
export interface MotionPart {
  /** partDigest of the motion in that build. */
  digest: string;
  /** Where its entry lies in the report file: byte offset and length. */
  fragment: [number, number];
  totalKeys: number;
  mtnBytes: number;
  /** Its unmet tolerances, as the report's warnings give them. */
  unmet: string[];
}

/** What the CLI prints of a build: the report without its per-motion entries. */
export type BuildSummary = Pick<BuildReport, 'outputs' | 'totals' | 'warnings' | 'budget'>;

/** The paths a record is about: the project file and its three outputs, absolute. */
export interface LastBuildTarget {
  project: string;
  outputs: readonly string[];
}

export interface LastBuildRecord {
  code: string;
  plan: string;
  /** The SHA-256 of each motion's file, in archive order. */
  inputs: string[];
  /** Per motion, what lets a later build carry its part of the outputs (null: not recorded). */
  parts: (MotionPart | null)[];
  outputs: { path: string; stamp: FileStamp }[];
  summary: BuildSummary;
}

/** The target of a build of `projectFile` with these outputs: the record's key, every path keyPath'd. */
export function lastBuildTarget(projectFile: string, outputs: readonly string[]): LastBuildTarget {
  return { project: keyPath(projectFile), outputs: outputs.map(keyPath) };
}

/**
 * The project as the plan digests it, whatever the spelling of its path (the CLI keeps the paths as the user spelled
 * them, for its messages; the app's are absolute): each input's path relative to the project's folder, which is how
 * the project names them, and no project file or output paths, which the target holds as real paths (keyPath). Worked
 * out from the strings alone, no file-system call per motion: a folder reached through a link may make the same
 * relative path another file, but then the plan's other parts (the motion files' digests, the .sar's bytes) differ
 * unless the files are the same bytes, and the same bytes make the same outputs.
 */
function projectAsKeyed(project: ResolvedProject): ResolvedProject {
  const dir = dirname(resolve(project.projectFile));
  const rel = (p: string) => relative(dir, resolve(p));
  const opt = (p: string | undefined) => (p === undefined ? undefined : rel(p));
  return {
    ...project,
    projectFile: '',
    projectFileAbsolute: undefined,
    motions: project.motions.map((m) => ({ ...m, mtnPath: rel(m.mtnPath), sevPath: opt(m.sevPath) })),
    slsPath: opt(project.slsPath),
    seDefinePath: opt(project.seDefinePath),
    marPath: '',
    sarPath: '',
    reportPath: '',
    mshDir: opt(project.mshDir),
  };
}

/** Where the record of `target` lives in `stateDir` (undefined: no record kept, see lastBuildPlace). */
function recordFile(stateDir: string, target: LastBuildTarget): string {
  const id = createHash('sha256')
    .update([target.project, ...target.outputs].join('\0'))
    .digest('hex')
    .slice(0, 32);
  return join(resolve(stateDir), 'last-builds', `${id}.json`);
}

/**
 * Whether a record may be kept for `target` in `stateDir` at all: not when the state folder lies inside the project's
 * folder or the cache folder (a folder people share must not be able to say a build is up to date).
 */
export function lastBuildPlace(stateDir: string, target: LastBuildTarget, cacheDir: string): string | undefined {
  const state = resolve(stateDir);
  let realState: string;
  try {
    realState = canonicalPath(state);
  } catch {
    realState = state;
  }
  for (const folder of [dirname(target.project), resolve(cacheDir)]) {
    let real: string;
    try {
      real = canonicalPath(folder);
    } catch {
      real = folder;
    }
    if (isInside(folder, state) || isInside(real, state) || isInside(real, realState)) return undefined;
  }
  // No record read from, or kept in, a state folder others may write (made the user's alone first when it is
  // theirs: round 30).
  if (stateFolderProblem(state, true) ?? stateFolderProblem(join(state, 'last-builds'))) return undefined;
  return recordFile(stateDir, target);
}

/** The digest of everything but the compressed results that decides the outputs (see the file comment). */
export function planDigest(prepared: PreparedBuild): string | undefined {
  const body = planBody(prepared);
  if (body === undefined) return undefined; // the build itself reports the .sar's error
  const h = createHash('sha256');
  h.update(BUILD_IDENTITY);
  h.update('\0');
  h.update(body.project);
  h.update('\0');
  h.update(body.sar);
  h.update('\0');
  // The warnings are hashed at each call: they are a list the build may still add to before it plans (build.ts).
  h.update(JSON.stringify(prepared.warnings.map((w) => w.message)));
  return h.digest('hex');
}

/**
 * The costly parts of planDigest, made once per build (a rebuild that is not up to date makes them while it waits for
 * the pool, warmPlanDigest, and records them after): the project as keyed, in canonical JSON (a 1,000-motion project
 * is about 0.3 MB of it), and the .sar's bytes. Neither the resolved project nor the SEV entries of a prepared build
 * change once it is made. Undefined when the .sar cannot be made.
 */
function planBody(prepared: PreparedBuild): { project: string; sar: Uint8Array } | undefined {
  if (planBodies.has(prepared)) return planBodies.get(prepared);
  let body: { project: string; sar: Uint8Array } | undefined;
  try {
    body = {
      project: canonicalJson(projectAsKeyed(prepared.project)),
      sar: writeSar(prepared.sarEntries, [
        ...prepared.motions.map((p) => p.resolved.hash),
        ...prepared.aliases.map((a) => a.resolved.hash),
      ]),
    };
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
  }
  planBodies.set(prepared, body);
  return body;
}
const planBodies = new WeakMap<PreparedBuild, { project: string; sar: Uint8Array } | undefined>();

/** Makes planDigest's costly parts of `prepared` now (a rebuild's idle time while the pool compresses). */
export function warmPlanDigest(prepared: PreparedBuild): void {
  planBody(prepared);
}

/** The stamp of an output as it is now, when it is a plain file (lstat: a link is not an output this tool wrote). */
export function outputStamp(path: string): FileStamp | undefined {
  try {
    const st = fs.lstatSync(path, { bigint: true });
    return st.isFile() ? stampOf(st) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The record in `file`, when it is one of exactly the expected shape, else undefined. Read as the verdicts are
 * (readStampedNoFollow): the file opened is the one checked, never through a link, never waited on, never read past
 * the limit. An lstat then a plain read followed a link or waited on a FIFO put there between the two (round 22).
 */
export function readLastBuild(file: string): LastBuildRecord | undefined {
  const got = readStampedNoFollow(file, MAX_FILE_BYTES, false, true);
  if (got === undefined || got === 'link') return undefined;
  return parseLastBuild(got.data.toString('utf8'));
}

/** Parses a record's text, or undefined for anything not of the exact shape (exported for the tests and the fuzzer). */
export function parseLastBuild(text: string): LastBuildRecord | undefined {
  // Nested past any shape of ours: dropped unparsed. 30 MB of `[` (within MAX_FILE_BYTES) took a build 53 s and
  // 1.4 GB in JSON.parse (docs/security.md, round 49).
  if (findExcessiveNesting(text)) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(doc) || doc.tool !== TOOL || doc.version !== VERSION) return undefined;
  const { code, plan, inputs, outputs, summary } = doc;
  if (typeof code !== 'string' || typeof plan !== 'string' || !HEX64.test(plan)) return undefined;
  if (!Array.isArray(inputs) || !inputs.every((k) => typeof k === 'string' && HEX64.test(k))) return undefined;
  if (!Array.isArray(outputs) || outputs.length !== 3) return undefined;
  const stamps: LastBuildRecord['outputs'] = [];
  for (const o of outputs) {
    if (!Array.isArray(o) || o.length !== 6 || typeof o[0] !== 'string') return undefined;
    const stamp = stampFromFields(o[1], o[2], o[3], o[4], o[5]);
    if (!stamp) return undefined;
    stamps.push({ path: o[0] as string, stamp });
  }
  const s = parseSummary(summary);
  if (!s) return undefined;
  const parts = parseParts(doc.parts, inputs.length);
  if (!parts) return undefined;
  return { code, plan, inputs: inputs as string[], parts, outputs: stamps, summary: s };
}

function parseParts(v: unknown, count: number): (MotionPart | null)[] | undefined {
  if (!Array.isArray(v) || v.length !== count) return undefined;
  const out: (MotionPart | null)[] = [];
  for (const p of v) {
    if (p === null) {
      out.push(null);
      continue;
    }
    if (!Array.isArray(p) || p.length !== 6) return undefined;
    const [digest, at, length, totalKeys, mtnBytes, unmet] = p as unknown[];
    if (typeof digest !== 'string' || !HEX64.test(digest)) return undefined;
    if (![at, length, totalKeys, mtnBytes].every(isCount) || (length as number) < 2) return undefined;
    if (!Array.isArray(unmet) || !unmet.every(isText)) return undefined;
    out.push({
      digest,
      fragment: [at as number, length as number],
      totalKeys: totalKeys as number,
      mtnBytes: mtnBytes as number,
      unmet: unmet as string[],
    });
  }
  return out;
}

function parseSummary(v: unknown): BuildSummary | undefined {
  if (!isObject(v) || !isObject(v.outputs) || !isObject(v.totals) || !Array.isArray(v.warnings)) return undefined;
  const { mar, sar, report } = v.outputs;
  const file = (f: unknown) =>
    isObject(f) && isText(f.path) && Number.isSafeInteger(f.bytes) && (f.bytes as number) >= 0;
  if (!file(mar) || !file(sar) || !isText(report)) return undefined;
  const t = v.totals;
  const names = ['motions', 'aliases', 'keys', 'mtnBytes', 'mt3Bytes', 'events'] as const;
  if (!names.every((n) => Number.isSafeInteger(t[n]) && (t[n] as number) >= 0)) return undefined;
  if (!v.warnings.every(isText)) return undefined;
  const f = (x: unknown) => ({ path: (x as { path: string }).path, bytes: (x as { bytes: number }).bytes });
  return {
    outputs: { mar: f(mar), sar: f(sar), report },
    totals: {
      motions: t.motions as number,
      aliases: t.aliases as number,
      keys: t.keys as number,
      mtnBytes: t.mtnBytes as number,
      mt3Bytes: t.mt3Bytes as number,
      events: t.events as number,
    },
    warnings: v.warnings as string[],
  };
}

/**
 * Whether the build of `prepared` is the last one recorded in `file`: the same code, the same motion files
 * (`digestOf(k)`: the SHA-256 of motion k's file as the local verdicts know it from its stamp, undefined when they do
 * not), the same plan, and the outputs still the files it committed, with no commit journal or lock beside them.
 * Returns the recorded summary when it is, else undefined.
 */
export function upToDate(
  record: LastBuildRecord | undefined,
  target: LastBuildTarget,
  prepared: PreparedBuild,
  digestOf: (k: number) => string | undefined,
): BuildSummary | undefined {
  if (!record || record.code !== BUILD_IDENTITY || record.inputs.length !== prepared.motions.length) return undefined;
  for (let k = 0; k < prepared.motions.length; k++) {
    const digest = digestOf(k);
    if (digest === undefined || digest !== record.inputs[k]) return undefined;
  }
  if (record.outputs.some((o, k) => o.path !== target.outputs[k])) return undefined;
  if (commitLeftovers(target.outputs[0])) return undefined;
  for (const o of record.outputs) {
    const now = outputStamp(o.path);
    if (!now || !sameStamp(now, o.stamp)) return undefined;
  }
  if (planDigest(prepared) !== record.plan) return undefined;
  return summaryAsBuilt(record, target, prepared);
}

/**
 * The recorded summary, when it says of this build only what this build knows to be so: the outputs' paths as the
 * target names them (keyPath'd, pendingLastBuild), their sizes as the files just checked are, the counts of motions
 * and aliases, and the warnings found while reading the inputs first. The record is local state, but read as
 * untrusted all the same: an up-to-date build prints this summary, so a record that named other files or sizes would
 * be believed on screen. It is returned with the outputs' paths as this build spells them (a relative path is the
 * user's working folder's).
 */
function summaryAsBuilt(
  record: LastBuildRecord,
  target: LastBuildTarget,
  prepared: PreparedBuild,
): BuildSummary | undefined {
  const { summary: s, outputs } = record;
  const { project } = prepared;
  const sameOutputs =
    s.outputs.mar.path === target.outputs[0] &&
    s.outputs.sar.path === target.outputs[1] &&
    s.outputs.report === target.outputs[2] &&
    s.outputs.mar.bytes === outputs[0].stamp.size &&
    s.outputs.sar.bytes === outputs[1].stamp.size;
  const sameCounts = s.totals.motions === prepared.motions.length && s.totals.aliases === prepared.aliases.length;
  const sameWarnings = prepared.warnings.every((w, k) => s.warnings[k] === w.message);
  if (!sameOutputs || !sameCounts || !sameWarnings) return undefined;
  return {
    ...s,
    outputs: {
      mar: { ...s.outputs.mar, path: project.marPath },
      sar: { ...s.outputs.sar, path: project.sarPath },
      report: project.reportPath,
    },
  };
}

/**
 * The record of a build, all but its outputs' stamps (known only once committed): made where the build ran (the
 * app's build worker), written with them where the commit ran (writeLastBuild). A plain object (it crosses threads).
 */
export interface PendingLastBuild {
  plan: string;
  inputs: string[];
  parts: unknown[];
  summary: BuildSummary;
  /**
   * When the cache entries of the build's motions were last all made recent, in ms since the epoch, when that is not
   * now (motions carried without touching their entries, lastBuildUse): the record's file is given that time.
   */
  recentAt?: number;
}

/** The record of a build (what writeLastBuild writes but the stamps), or undefined when it cannot be kept. */
export function pendingLastBuild(
  prepared: PreparedBuild,
  digestOf: (k: number) => string | undefined,
  summary: BuildSummary,
  motions?: { results: readonly CompressedMotion[]; fragments: readonly [number, number][] | undefined },
): PendingLastBuild | undefined {
  try {
    const inputs = prepared.motions.map((_, k) => digestOf(k));
    if (inputs.some((d) => d === undefined)) return undefined;
    const parts = prepared.motions.map((_, k) => {
      const r = motions?.results[k];
      const at = motions?.fragments?.[k];
      return r && at
        ? [partDigest(prepared, k, inputs[k]!), at[0], at[1], r.totalKeys, r.mtnBytes, unmetLinesOf(prepared, k, r)]
        : null;
    });
    const plan = planDigest(prepared);
    if (!plan) return undefined;
    const { outputs, totals, warnings } = summary;
    // The outputs' paths as the target names them (keyPath), whoever spelled them: summaryAsBuilt compares them so.
    const keyed = {
      mar: { ...outputs.mar, path: keyPath(outputs.mar.path) },
      sar: { ...outputs.sar, path: keyPath(outputs.sar.path) },
      report: keyPath(outputs.report),
    };
    return { plan, inputs: inputs as string[], parts, summary: { outputs: keyed, totals, warnings } };
  } catch {
    return undefined;
  }
}

/**
 * Writes the record of a build that has just committed its outputs (`pending`, from pendingLastBuild; `stamps`:
 * each output's as the commit installed it), or removes the old one when there is none to write.
 */
export function writeLastBuild(
  file: string,
  target: LastBuildTarget,
  pending: PendingLastBuild | undefined,
  stamps: readonly (FileStamp | undefined)[],
): void {
  try {
    const text = recordText(target, pending, stamps);
    if (text === undefined) return forget(file);
    if (makeStateFolder(dirname(file))) return;
    writeFileAtomic(file, text, { durable: false, own: true });
    if (pending!.recentAt !== undefined) fs.lutimesSync(file, pending!.recentAt / 1000, pending!.recentAt / 1000);
  } catch {
    forget(file);
  }
}

/**
 * writeLastBuild with the write off the main thread (the app's Build, project/buildRunner.ts): the same record, written
 * the same way (a temp renamed into place, not flushed, the record's time set after; any failure removes the old
 * record), its temp written in Node's thread pool. Two of one file, a write and a removal included, end in the order
 * they were asked for (recordTurns), so a removal asked after a write is never undone by the write ending later. It
 * counts among the writes a quit waits for (writesInFlight). Never rejects.
 */
export function writeLastBuildAsync(
  file: string,
  target: LastBuildTarget,
  pending: PendingLastBuild | undefined,
  stamps: readonly (FileStamp | undefined)[],
): Promise<void> {
  const key = resolve(file);
  const turn = (recordTurns.get(key) ?? Promise.resolve()).then(async () => {
    try {
      const text = recordText(target, pending, stamps);
      if (text === undefined) return forget(file);
      if (makeStateFolder(dirname(file))) return;
      await writeFileAtomicAsync(file, text, { durable: false, own: true });
      if (pending!.recentAt !== undefined) fs.lutimesSync(file, pending!.recentAt / 1000, pending!.recentAt / 1000);
    } catch {
      forget(file);
    }
  });
  recordTurns.set(key, turn);
  void turn.then(() => {
    if (recordTurns.get(key) === turn) recordTurns.delete(key);
  });
  return trackWrite(() => turn);
}

/** The last record write queued for each record file (writeLastBuildAsync): the next one starts once it has ended. */
const recordTurns = new Map<string, Promise<void>>();

/** The record's text, or undefined when there is none to keep (no pending record, or an output not installed). */
function recordText(
  target: LastBuildTarget,
  pending: PendingLastBuild | undefined,
  stamps: readonly (FileStamp | undefined)[],
): string | undefined {
  if (!pending) return undefined;
  const outputs: unknown[] = [];
  for (const [k, path] of target.outputs.entries()) {
    const s = stamps[k];
    if (!s) return undefined;
    outputs.push([path, s.size, s.mtimeNs, s.ctimeNs, s.ino, s.dev]);
  }
  return JSON.stringify({
    tool: TOOL,
    version: VERSION,
    project: target.project,
    code: BUILD_IDENTITY,
    plan: pending.plan,
    inputs: pending.inputs,
    parts: pending.parts,
    outputs,
    summary: pending.summary,
  });
}

/** Removes the record of a build that could not be recorded (so an older one is never taken for it). */
export function forget(file: string): void {
  try {
    if (fs.lstatSync(file).isFile()) fs.unlinkSync(file);
  } catch {
    /* none there */
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * A control character other than a tab or a line break (C0, DEL, C1: U+009B is a terminal's CSI). The tool's own
 * messages escape them (shared/errors.ts escapeControls), so a record's text that holds one was not written by it, and
 * printing it would let the record drive the terminal.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const isText = (v: unknown): v is string => typeof v === 'string' && !CONTROL.test(v);

/**
 * The digest of what decides motion k's own part of the outputs, its MT3 and its entry in the report, given its
 * file's SHA-256 `digest`: the code, the file, the motion as the project resolves it (index, name, paths, every
 * compression setting, speed, resampling), the project's rate, and its SEV's slot and event counts. (Its compression
 * settings are made of the resolved motion and its skeleton, which is in the file.)
 */
export function partDigest(prepared: PreparedBuild, k: number, digest: string): string {
  let memo = partDigests.get(prepared);
  if (!memo) partDigests.set(prepared, (memo = new Map()));
  const known = memo.get(k);
  if (known && known[0] === digest) return known[1];
  const p = prepared.motions[k];
  const e = prepared.sarEntries[k];
  const part = createHash('sha256')
    .update(
      [
        BUILD_IDENTITY,
        digest,
        JSON.stringify(p.resolved),
        String(prepared.project.fps),
        String(e ? e.seCodes.length : -1),
        String(e ? e.events.length : -1),
      ].join('\0'),
    )
    .digest('hex');
  memo.set(k, [digest, part]);
  return part;
}
/** partDigest's, by build and motion (a rebuild works them out to carry motions, and again to record itself). */
const partDigests = new WeakMap<PreparedBuild, Map<number, [string, string]>>();

/** What a rebuild takes from the last build's outputs: each carried motion's result and its report entry's bytes. */
export interface Carried {
  results: Map<number, CompressedMotion>;
  fragments: Map<number, Uint8Array>;
}

/**
 * The motions of `prepared` whose part of the outputs (partDigest) is what it was in the last build recorded in
 * `record`, by archive index: those the build may take from that build's outputs (readCarriedAhead), as long as the
 * record was made by the same code for these outputs. Works only from the record and the motions' digests (no
 * output is read), so that the build can send the other motions to the pool first and read the old outputs while
 * the pool compresses them. Undefined when none.
 */
export function carryCandidates(
  record: LastBuildRecord | undefined,
  target: LastBuildTarget,
  prepared: PreparedBuild,
  digestOf: (k: number) => string | undefined,
): number[] | undefined {
  if (!record || record.code !== BUILD_IDENTITY) return undefined;
  if (record.outputs.some((o, k) => o.path !== target.outputs[k])) return undefined;
  const wanted: number[] = [];
  for (let k = 0; k < prepared.motions.length; k++) {
    const part = record.parts[k];
    const digest = part && digestOf(k);
    if (part && digest && part.digest === partDigest(prepared, k, digest)) wanted.push(k);
  }
  return wanted.length ? wanted : undefined;
}

/**
 * The motions `wanted` (carryCandidates of this `record`), taken from the last build's .mar and report: only when
 * its outputs are still the very files it committed (the recorded stamps, unchanged while read; a commit journal
 * beside them is the commit's to deal with, as in any build), and every piece lies where the record says (in
 * bounds; an entry that opens with the motion's index, name and hash and states the recorded figures). The function
 * returned answers undefined when any of it does not hold: then nothing is carried.
 *
 * The two outputs are read off the build's thread: the reads begin now (each file opened as the cache opens its
 * entries, readStampedNoFollowAhead: no link followed, the stamp of the very file opened checked here) and the
 * function returned waits for them, checks both outputs still have the recorded stamp at their paths, and takes the
 * motions. A rebuild after one file changed reads the last build's 13 MB while its thread compresses that file
 * (docs/cache.md, "What it costs"). The descriptors close when the reads end, so a build that never takes (it failed
 * first) leaves none open.
 */
export function readCarriedAhead(
  record: LastBuildRecord,
  wanted: readonly number[],
): (prepared: PreparedBuild) => Promise<Carried | undefined> {
  if (wanted.length === 0) return () => Promise.resolve(undefined);
  const ahead = (o: { path: string; stamp: FileStamp }) =>
    readStampedNoFollowAhead(o.path, (stamp) => sameStamp(stamp, o.stamp));
  const reads = Promise.all([ahead(record.outputs[0]), ahead(record.outputs[2])]);
  return async (prepared) => {
    const [mar, report] = await reads;
    if (!mar || !report) return undefined;
    // Still the files read, at their paths, now that both reads are done.
    for (const o of [record.outputs[0], record.outputs[2]]) {
      const after = outputStamp(o.path);
      if (!after || !sameStamp(after, o.stamp)) return undefined;
    }
    const bytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return carriedFrom(record, prepared, wanted, bytes(mar.data), bytes(report.data));
  };
}

/** readCarriedAhead's checks and results, on the bytes of the last build's `.mar` and report as read. */
function carriedFrom(
  record: LastBuildRecord,
  prepared: PreparedBuild,
  wanted: readonly number[],
  mar: Uint8Array,
  report: Uint8Array,
): Carried | undefined {
  const dv = new DataView(mar.buffer, mar.byteOffset, mar.byteLength);
  if (mar.byteLength < MAR_HEADER_SIZE || dv.getUint32(MAR_HDR_MAGIC, true) !== MAR_MAGIC) return undefined;
  const entries = dv.getUint32(MAR_HDR_NUM_MOTION, true);
  const base = dv.getUint32(MAR_HDR_DATA_BASE, true);
  if (entries < record.parts.length || MAR_HEADER_SIZE + MAR_TABLE_ENTRY * entries > mar.byteLength) return undefined;
  const carried: Carried = { results: new Map(), fragments: new Map() };
  for (const k of wanted) {
    const part = record.parts[k];
    if (!part) return undefined;
    const offset = dv.getUint32(MAR_HEADER_SIZE + MAR_TABLE_ENTRY * k, true);
    const size = dv.getUint32(MAR_HEADER_SIZE + MAR_TABLE_ENTRY * k + 4, true);
    const [at, length] = part.fragment;
    if (base + offset + size > mar.byteLength || at + length > report.byteLength) return undefined;
    if (report[at] !== 0x7b || report[at + length - 1] !== 0x7d) return undefined; // { ... }
    const mt3 = mar.subarray(base + offset, base + offset + size);
    const fragment = report.subarray(at, at + length);
    if (!entryHolds(fragment, prepared, k, part, size)) return undefined;
    carried.results.set(k, {
      bytes: mt3,
      totalKeys: part.totalKeys,
      mt3Bytes: size,
      mtnBytes: part.mtnBytes,
      ratio: size > 0 ? part.mtnBytes / size : 0,
      ms: 0,
      method: 'refined',
      objectError: null,
      channels: [],
      warnings: part.unmet.map((message) => ({
        kind: 'rotation',
        joint: -1,
        frame: -1,
        error: 0,
        tolerance: 0,
        message,
      })),
    });
    carried.fragments.set(k, fragment);
  }
  return carried;
}

/**
 * Whether `fragment` is motion k's entry with the figures the record gives for it: it opens with the motion's index,
 * name and hash, and states the recorded keys, sizes and unmet tolerances (what the new report's totals and warnings
 * are made from), as the report writes them (JSON.stringify, two spaces, the entry at depth two).
 */
function entryHolds(
  fragment: Uint8Array,
  prepared: PreparedBuild,
  k: number,
  part: MotionPart,
  mt3Bytes: number,
): boolean {
  const r = prepared.motions[k].resolved;
  // Compared as UTF-8 bytes, as the report writes them: the fragment is never decoded (a thousand entries of a few
  // kilobytes each made into strings cost more than the rest of the check).
  const bytes = Buffer.from(fragment.buffer, fragment.byteOffset, fragment.byteLength);
  const startsWith = (text: string) => {
    const b = Buffer.from(text, 'utf8');
    return b.byteLength <= bytes.byteLength && bytes.compare(b, 0, b.byteLength, 0, b.byteLength) === 0;
  };
  const includes = (text: string) => bytes.indexOf(Buffer.from(text, 'utf8')) >= 0;
  const at = (field: string, value: unknown) => `\n      ${JSON.stringify(field)}: ${JSON.stringify(value)}`;
  const head = `{${at('index', r.index)},${at('name', r.name)},${at('hash', formatStrCode(r.hash))},`;
  const sizes = `${at('keys', part.totalKeys)},${at('mtnBytes', part.mtnBytes)},${at('mt3Bytes', mt3Bytes)},`;
  const unmet =
    part.unmet.length === 0
      ? `${at('unmetTolerances', [])},`
      : `${at('unmetTolerances', []).slice(0, -1)}\n${part.unmet.map((u) => `        ${JSON.stringify(u)}`).join(',\n')}\n      ],`;
  // One entry, whole: its closing brace (the only line of an entry at its depth that closes one) is its last byte.
  // A fragment stretched over the next entries held all the rest and was carried, those entries and all, into the
  // new report (round 22).
  const close = Buffer.from('\n    }', 'utf8');
  return (
    startsWith(head) &&
    includes(sizes) &&
    includes(unmet) &&
    bytes.indexOf(close) === bytes.byteLength - close.byteLength
  );
}
