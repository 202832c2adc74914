/**
 * Compressing a build's motions in parallel: a pool of worker threads (one
 * per job) that each take an MTN and the compressor's settings and return the
 * compressed motion. The results are placed by archive index, so the .mar,
 * .sar and report are byte-identical whatever the number of jobs and whatever
 * order the workers finish in. `actguy build --jobs N` and the app's build
 * use the same pool; `actguy export-msh --jobs N` uses it with the CLI's own
 * thread as the N-th job (workerCompressor's localJob).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startWorkerBundle } from '../workerBundles';
import { runOneShotWorker, type OneShotEnd } from '../oneShotWorker';
import { errorFromWire, errorToWire, type WireError } from '../wireError';
import {
  compressChannelShare,
  compressMotion,
  compressWithShares,
  type ChannelShare,
} from '../../shared/compress/compress';
import type { CompressOptions, CompressResult } from '../../shared/compress/types';
import { CompressCache } from '../../shared/compress/cache';
import { defaultShell } from '../../shared/compress/objectError';
import { bundleRefusedError, isBundleRefusal } from '../../shared/errors';
import { readMtn } from '../../shared/mtn/read';
import { resampleMotion } from '../../shared/motion/resample';
import { compressedMotionOf, type CompressedMotion, type KnownMotion } from '../../shared/project/plan';
import { verifyCompressed } from '../../shared/compress/verify';
import type { Motion } from '../../shared/motion/types';
import { fitMshNodes, type MshExportOptions, type MshNodeFit } from '../../shared/msh/export';
import { canonicalJson } from './buildCache';
import type { VerdictStore } from './verdicts';

/**
 * Compresses one motion given as MTN bytes, resampled to `resampleTo` fps first when given (the same code in a
 * worker and in-process, so N never changes a byte).
 */
export function compressMtnBytes(mtn: Uint8Array, options: CompressOptions, resampleTo?: number): CompressedMotion {
  return compressedMotionOf(compressMotion(motionOf(mtn, resampleTo), options));
}

function motionOf(mtn: Uint8Array, resampleTo: number | undefined): Motion {
  const read = readMtn(mtn);
  return resampleTo === undefined ? read : resampleMotion(read, resampleTo);
}

/** A cache entry to check before compressing: its MT3 bytes and its untrusted summary. */
interface PoolCandidate {
  bytes: Uint8Array;
  claim: Record<string, unknown>;
}

/** What a job gives back: the result, and what became of the candidate when there was one. */
interface PoolOutcome {
  result: CompressedMotion;
  /** 'accepted': the result is the candidate, verified; else why it was rejected (the result is then compressed). */
  candidate?: 'accepted' | { rejected: string };
}

/**
 * Checks a candidate against the motion (verifyCompressed) and takes it only when it holds and its summary is
 * exactly what the check recomputed (so a remembered verdict can later stand for the whole entry); otherwise
 * compresses. The same code in a worker and in-process.
 */
function verifyOrCompressMtnBytes(
  mtn: Uint8Array,
  options: CompressOptions,
  resampleTo: number | undefined,
  candidate: PoolCandidate,
): PoolOutcome {
  const motion = motionOf(mtn, resampleTo);
  const checked = verifyCompressed(motion, options, candidate.bytes, candidate.claim);
  let rejected: string;
  if (checked.ok) {
    const { bytes: _bytes, ...recomputed } = checked.value;
    if (canonicalJson(recomputed) === canonicalJson(candidate.claim))
      return { result: checked.value, candidate: 'accepted' };
    rejected = 'its summary is not what its MT3 gives';
  } else rejected = checked.reason;
  return { result: compressedMotionOf(compressMotion(motion, options)), candidate: { rejected } };
}

/** Something that compresses motions, possibly several at once. */
export interface MotionCompressor {
  /** How many motions it compresses at the same time. */
  readonly jobs: number;
  /** `mtn` as its file, resampled to `resampleTo` fps first when given (in the worker: off the build's main thread). */
  compress(mtn: Uint8Array, options: CompressOptions, resampleTo?: number): Promise<CompressedMotion>;
  /** The same, checking a cache entry first (verifyOrCompressMtnBytes). */
  verifyOrCompress(
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo: number | undefined,
    candidate: PoolCandidate,
  ): Promise<PoolOutcome>;
  /**
   * Starts its workers now rather than at the first motion (a cold build: their start-up, loading the compressor's
   * bundle, then runs while the build's thread reads and checks the inputs): `workers` of them at most (default:
   * all: `jobs`, or `jobs - 1` when the calling thread is a job), counting those already started. Optional:
   * in-process has none.
   */
  start?(workers?: number): void;
  close(): Promise<void>;
}

/** The pool of worker threads: a MotionCompressor that can also hand back a long motion's channel shares. */
export interface PoolCompressor extends MotionCompressor {
  /**
   * The motion's channels compressed in `jobs` shares, one per worker (compressChannelShare), for the caller to put
   * together (compressWithShares, cacheChannelShares): the very channels of one compressMotion. Null when a share
   * failed (compress the motion whole then, so that its error is the one-job error).
   */
  channelShares(mtn: Uint8Array, options: CompressOptions, resampleTo?: number): Promise<ChannelShare[] | null>;
  /**
   * The motion's MSH node fits in `jobs` shares, one per worker (fitMshNodes), every node once: what
   * exportMshAnimation puts together into the very export of one thread. Null when a share failed.
   */
  mshNodeFits(mtn: Uint8Array, options: MshExportOptions): Promise<MshNodeFit[] | null>;
}

/** A request to a pool worker. */
export interface PoolRequest {
  id: number;
  mtn: Uint8Array;
  options: CompressOptions;
  resampleTo?: number;
  candidate?: PoolCandidate;
  /** Compress only this share of the motion's channels (compressChannelShare) and answer with it. */
  share?: { index: number; count: number };
  /** Fit only this share of the motion's MSH nodes (fitMshNodes, every count-th from the index-th) instead. */
  mshShare?: { options: MshExportOptions; index: number; count: number };
  /** Answer with compressMotion's whole result (its per-frame errors too), for `actguy compress` (compressOffThread). */
  whole?: true;
  /**
   * Put a long motion's shares together in a thread of its own (mergeOffThread): prepare the merge at once, then
   * wait for one MergeShares message and answer with the compressed motion.
   */
  merge?: true;
}

/** The shares a merge thread waits for (mergeOffThread), or `null` for none (it then ends without answering). */
interface MergeShares {
  shares: ChannelShare[] | null;
}

/**
 * A long motion's merge as its own thread runs it (compressPoolWorker.cjs started with a `merge` request): mergeFor
 * at once (while the pool compresses the shares), then compressWithShares once `port` brings them. Never throws: the
 * motion's error is the answer, as answerPoolRequest words it.
 */
export function serveMerge(
  req: PoolRequest,
  port: { once(event: 'message', listener: (m: MergeShares) => void): unknown; postMessage(reply: PoolReply): void },
): void {
  let early: { motion: Motion; cache: CompressCache } | undefined;
  try {
    early = mergeFor(req.mtn, req.options, req.resampleTo);
  } catch {
    // Put together as below, which reports the motion's error as one job does.
  }
  port.once('message', ({ shares }) => {
    if (!shares) return;
    try {
      const { motion, cache } = early ?? { motion: motionOf(req.mtn, req.resampleTo), cache: new CompressCache() };
      port.postMessage({
        id: req.id,
        ok: true,
        result: compressedMotionOf(compressWithShares(motion, req.options, shares, cache)),
      });
    } catch (e) {
      port.postMessage({ id: req.id, ok: false, error: errorToWire(e) });
    }
  });
}

/** A pool worker's answer: the compressed motion, or the error as it crosses the thread (wireError.ts). */
export type PoolReply =
  | ({ id: number; ok: true } & PoolOutcome)
  | { id: number; ok: true; share: ChannelShare }
  | { id: number; ok: true; mshFits: MshNodeFit[] }
  | { id: number; ok: true; whole: CompressResult }
  | { id: number; ok: false; error: WireError };

/** Runs one request (the worker's whole job); never throws. */
export function answerPoolRequest(req: PoolRequest): PoolReply {
  try {
    if (req.mshShare) {
      const { options, index, count } = req.mshShare;
      return {
        id: req.id,
        ok: true,
        mshFits: fitMshNodes(motionOf(req.mtn, req.resampleTo), options, (node) => node % count === index),
      };
    }
    if (req.whole) {
      const motion = motionOf(req.mtn, req.resampleTo);
      // Read: the bytes go, so that a long motion is not held twice while it compresses (the request is
      // compressOffThread's workerData, which the thread keeps to its end; docs/compression.md, round 7).
      req.mtn = new Uint8Array(0);
      return { id: req.id, ok: true, whole: compressMotion(motion, req.options) };
    }
    if (req.share)
      return {
        id: req.id,
        ok: true,
        share: compressChannelShare(motionOf(req.mtn, req.resampleTo), req.options, req.share.index, req.share.count),
      };
    if (req.candidate)
      return { id: req.id, ok: true, ...verifyOrCompressMtnBytes(req.mtn, req.options, req.resampleTo, req.candidate) };
    return { id: req.id, ok: true, result: compressMtnBytes(req.mtn, req.options, req.resampleTo) };
  } catch (e) {
    return { id: req.id, ok: false, error: errorToWire(e) };
  }
}

/** The side of a message port a pool worker answers on (its parentPort). */
interface PoolPort {
  on(event: 'message', listener: (req: PoolRequest) => void): unknown;
  postMessage(reply: PoolReply): void;
}

/**
 * Answers the pool's requests on `port`, one at a time (the pool worker's whole body).
 *
 * The reply is copied, never transferred: transferring detaches the MT3's buffer, and the first detach in an
 * isolate invalidates V8's array-buffer-detaching protector, which throws away every optimized function that reads
 * a typed array and recompiles it with detach checks. Measured on the bench project (120 motions): one worker
 * compiled 333 functions with TurboFan instead of 189, and a two-worker build spent 11.7 CPU-s instead of 8.8.
 * An MT3 is a few kilobytes; copying it costs nothing in comparison.
 */
export function servePoolRequests(port: PoolPort): void {
  port.on('message', (req) => port.postMessage(answerPoolRequest(req)));
}

/** The outcome of a reply to a whole-motion request; throws its error. */
function wholeOutcome(reply: PoolReply): PoolOutcome {
  if (!reply.ok) throw errorFromWire(reply.error);
  if ('share' in reply || 'mshFits' in reply || 'whole' in reply)
    throw new Error('a compression worker answered a whole motion with a share');
  return { result: reply.result, candidate: reply.candidate };
}

/**
 * A motion whose MTN is at least this large is compressed in shares of its channels, one per job
 * (compressChannelShare), when the pool has more than one: about 330 frames of a 31-joint capture. Below it, the
 * shares' fixed costs (each reads the motion, and the pool's thread puts them together) outweigh the gain.
 */
export const SHARE_MIN_MTN_BYTES = 512 * 1024;

/**
 * A motion in shares whose MTN is at least this large is put together in a thread of its own (mergeOffThread), not
 * on the build's: reading it, its source's points and the merge take about a second per 30 MB of MTN there, and a
 * Ctrl+C waits for whatever of that runs on the build's thread (docs/security.md, round 38). Below it the merge stays
 * on the build's thread, where it costs no thread start and runs warm (docs/compression.md, "Jobs").
 */
export const MERGE_OFF_THREAD_MIN_MTN_BYTES = 16 * 1024 * 1024;

/** Whether a motion is worth compressing in channel shares (long enough, and not in the skeleton-aware mode). */
export function sharesPay(mtnBytes: number, options: CompressOptions): boolean {
  return options.objectTolerance === undefined && mtnBytes >= SHARE_MIN_MTN_BYTES;
}

/**
 * The motion of a long MTN and a compression cache whose object-space memo holds the source's points (the part of
 * objectSpaceError that does not depend on the keys), ready for compressWithShares: the bytes are those of a fresh
 * cache, which would compute the same points from the same motion.
 */
export function mergeFor(
  mtn: Uint8Array,
  options: CompressOptions,
  resampleTo: number | undefined,
): { motion: Motion; cache: CompressCache } {
  const motion = motionOf(mtn, resampleTo);
  const cache = new CompressCache();
  if (options.objectTolerance === undefined && options.measureObjectError !== false)
    cache.objectMemo.sourceFor(motion, options.shell ?? defaultShell(motion));
  return { motion, cache };
}

/**
 * A long motion's MSH node fits from `pool`, one share of the nodes per job (PoolCompressor.mshNodeFits), or null to
 * fit them on one thread: a share failed, or the fits do not name each of the motion's `nodes` exactly once (the
 * one-thread fit then reports any error as one thread does).
 */
export async function mshFitsInShares(
  pool: PoolCompressor,
  mtn: Uint8Array,
  options: MshExportOptions,
  nodes: number,
): Promise<MshNodeFit[] | null> {
  const fits = await pool.mshNodeFits(mtn, options);
  return fits && fits.length === nodes && new Set(fits.map((f) => f.node)).size === nodes ? fits : null;
}

/** A compression running in a worker thread of its own (compressOffThread). */
export interface OffThreadCompression {
  /**
   * compressMotion's result, as the worker made it (a FormatError keeps its kind and place, not its file), or
   * `stopped` once stop() ended the worker.
   */
  result: Promise<CompressResult | { stopped: true }>;
  /** Ends the worker now (Ctrl+C): `result` then says `stopped`. */
  stop(): void;
}

/** What compressPoolWorker.cjs is started with to answer one request and end (compressOffThread). */
export interface OneRequest {
  request: PoolRequest;
}

/**
 * Compresses one motion in a worker thread of its own (compressPoolWorker.cjs, runOneShotWorker: the thread ends
 * with the job, however it ends), so that the calling thread stays free to handle a signal: `actguy compress` ran
 * compressMotion on its main thread, and Ctrl+C waited for the compression to end (seconds to minutes for a long
 * capture at fine tolerances; docs/cli.md, "Exit status"). The same code as in-process (answerPoolRequest), so the
 * bytes are the same. Undefined where the worker bundle is missing (unbundled tests): the caller compresses on its
 * own thread then. `mtn` is handed to the thread, not copied: its buffer is transferred (a copy first where `mtn` is
 * a view into a larger buffer), so the caller's view is empty once the thread starts (docs/compression.md, round 7).
 */
export function compressOffThread(
  mtn: Uint8Array,
  options: CompressOptions,
  workerPath = defaultPoolWorkerPath(),
): OffThreadCompression | undefined {
  if (!existsSync(workerPath)) return undefined;
  const stopper = new AbortController();
  const own = mtn.byteOffset === 0 && mtn.byteLength === mtn.buffer.byteLength && mtn.buffer instanceof ArrayBuffer;
  const bytes = own ? mtn : mtn.slice();
  const data: OneRequest = { request: { id: 0, mtn: bytes, options, whole: true } };
  const transferList = [bytes.buffer as ArrayBuffer];
  const result = runOneShotWorker<PoolReply>(workerPath, data, { signal: stopper.signal, transferList }).then(
    (ended): CompressResult | { stopped: true } => {
      switch (ended.end) {
        case 'answer':
          if (!ended.value.ok) throw errorFromWire(ended.value.error);
          if ('whole' in ended.value) return ended.value.whole;
          throw new Error('the compression worker answered with a part of the motion');
        case 'cancelled':
          return { stopped: true };
        case 'overBudget':
          throw new Error('the compression worker ran past its time'); // no budget is set: never
        case 'refused':
          // A damaged installation, not the input's doing: the refusal as it is (workerBundles.ts).
          throw bundleRefusedError(ended.message);
        case 'failed':
          throw new Error(
            ended.exitCode === undefined
              ? `the compression worker failed: ${ended.detail}`
              : `the compression worker stopped unexpectedly (exit code ${ended.exitCode})`,
          );
      }
    },
  );
  return { result, stop: () => stopper.abort() };
}

/** Compresses on the calling thread, one motion at a time (--jobs 1, and hosts without the worker bundle). */
export function inProcessCompressor(): MotionCompressor {
  return {
    jobs: 1,
    compress: async (mtn, options, resampleTo) => {
      return wholeOutcome(answerPoolRequest({ id: 0, mtn, options, resampleTo })).result;
    },
    verifyOrCompress: async (mtn, options, resampleTo, candidate) => {
      return wholeOutcome(answerPoolRequest({ id: 0, mtn, options, resampleTo, candidate }));
    },
    close: async () => {},
  };
}

/**
 * Starts the pool's workers at once when the build is cold: no local verdicts for its cache folder (or no cache),
 * so every motion goes to the pool, to be compressed or to have its cache entry verified there. Their start-up
 * then overlaps prepareBuild's reading of the inputs instead of following it (docs/compression.md).
 *
 * A rebuild this user's builds verified before starts a worker for each motion file the verdicts do not know by
 * its stamp (a changed or new file: `known`, which prepareBuild asks of every motion, answers nothing), up to the
 * jobs, as soon as prepareBuild meets it, so that its start-up overlaps the rest of prepareBuild and the lookups of
 * the unchanged motions (docs/cache.md); a rebuild where nothing changed starts none. Returns the `known` to give
 * prepareBuild.
 */
export function startWhenCold(
  compressor: MotionCompressor,
  remembered: VerdictStore | undefined,
  known: (mtnPath: string) => KnownMotion | undefined,
): (mtnPath: string) => KnownMotion | undefined {
  if (!remembered) {
    compressor.start?.();
    return known;
  }
  let unknown = 0;
  return (mtnPath) => {
    const k = known(mtnPath);
    if (!k) compressor.start?.(++unknown);
    return k;
  };
}

/** The machine's cores: the default number of jobs. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/** Where the pool worker bundle lies beside the running bundle (dist/cli or dist/electron). */
export function defaultPoolWorkerPath(): string {
  return join(__dirname, 'compressPoolWorker.cjs');
}

/**
 * A pool of `jobs` worker threads running compressPoolWorker.cjs. Requests
 * queue and go to the first free worker; a worker that dies fails its request
 * and is replaced. A worker whose bundle is refused (a damaged installation,
 * workerBundles.ts) fails its request with the refusal as it is, which the
 * build reports once, not as each motion's failure (compressMotions). While
 * more than one request is queued, a busy worker is also sent its next one in
 * advance, so that it never waits while this thread is busy (putting a long
 * motion's shares together, hashing, writing the cache).
 *
 * With `localJob` (`actguy export-msh`), the calling thread is the jobs-th job and `jobs - 1` workers the others: an idle
 * worker always gets the next request, and this thread takes one only when no worker is free, answers it with
 * `localJob` (answerPoolRequest: the code a worker runs, so the bytes are the same), then yields to the event loop
 * (setImmediate) so that the workers' replies and the next dispatches go first (docs/compression.md, "Jobs"); the
 * requests sent in advance are what keeps a worker from waiting for this thread to yield.
 * Never for a thread that must stay responsive (the app's main process or its build worker's progress).
 */
export function workerCompressor(
  workerPath: string,
  jobs: number,
  localJob?: (req: PoolRequest) => PoolReply,
  mergeOffThreadFrom = MERGE_OFF_THREAD_MIN_MTN_BYTES,
): PoolCompressor & { readonly mergesPreparedEarly: number; readonly mergesOffThread: number } {
  type Pending = {
    req: PoolRequest;
    resolve: (r: PoolReply) => void;
    reject: (e: Error) => void;
    /** Called when the request goes to a worker (not while it waits in the queue). */
    sent?: () => void;
  };
  const queue: Pending[] = [];
  const idle: Worker[] = [];
  /** Each busy worker's requests in the order it answers them (two at most: see pump). */
  const busy = new Map<Worker, Pending[]>();
  const workers = localJob ? jobs - 1 : jobs;
  let live = 0;
  let nextId = 1;
  let closed = false;
  /** A turn of the local job is scheduled: it will take the head of the queue. */
  let localDue = false;
  /** Long motions whose merge this thread prepared while their shares were compressed (inShares). */
  let preparedEarly = 0;
  /** Long motions put together in a thread of their own (mergeOffThread), and the stops of those still running. */
  let offThread = 0;
  const merging = new Set<AbortController>();

  const settle = (p: Pending, reply: PoolReply) => {
    if (reply.ok) p.resolve(reply);
    else p.reject(errorFromWire(reply.error));
  };

  const spawn = (): Worker => {
    const w = startWorkerBundle(workerPath);
    live++;
    w.on('message', (reply: PoolReply) => {
      const held = busy.get(w);
      const p = held?.shift();
      if (!held?.length) {
        busy.delete(w);
        idle.push(w);
      }
      if (p) settle(p, reply);
      pump();
    });
    /** `refusal`: the bundle was refused (a damaged installation): what the held requests fail with, as it is. */
    const died = (why: string, refusal?: Error) => {
      const held = busy.get(w) ?? [];
      busy.delete(w);
      const i = idle.indexOf(w);
      if (i >= 0) idle.splice(i, 1);
      live--;
      // The request it was answering fails; one it was sent in advance never started, and goes back to the head of
      // the queue for the next worker (a refused bundle fails them all: any worker would be refused).
      const [current, ...ahead] = held;
      current?.reject(refusal ?? new Error(`a compression worker stopped: ${why}`));
      if (refusal) for (const p of ahead) p.reject(refusal);
      else queue.unshift(...ahead);
      if (!closed) pump();
    };
    w.on('error', (e) => died(e.message, isBundleRefusal(e) ? e : undefined));
    w.on('exit', (code) => {
      if (busy.has(w) || idle.includes(w)) died(`exit code ${code}`);
    });
    w.unref();
    return w;
  };

  /** One request on this thread, then the next turn only after the event loop went round (pump schedules it). */
  const localTurn = () => {
    localDue = false;
    const p = queue.shift(); // none after close(), which empties the queue
    if (!p) return;
    let reply: PoolReply;
    try {
      reply = localJob!(p.req);
    } catch (e) {
      reply = { id: p.req.id, ok: false, error: errorToWire(e) };
    }
    settle(p, reply);
    pump();
  };

  const dispatch = (w: Worker, p: Pending) => {
    const held = busy.get(w);
    if (held) held.push(p);
    else busy.set(w, [p]);
    w.ref();
    // The MTN bytes are the caller's copy: send without transferring, so a caller may still hash them.
    w.postMessage(p.req);
    p.sent?.();
  };

  const pump = () => {
    while (queue.length) {
      let w = idle.pop();
      if (!w) {
        // The local job takes the head of the queue at its next turn: a new worker only for what lies beyond it.
        if (live >= workers || (localJob && queue.length <= 1)) break;
        w = spawn();
      }
      dispatch(w, queue.shift()!);
    }
    // A worker that finishes while this thread is busy (a local job's request, or putting a long motion's shares
    // together, which takes a cold build's thread tenths of a second) would wait for it before it gets its next
    // request: while more than one request is queued, each worker holds its next one already (docs/compression.md,
    // "Jobs"). The last one stays here, for whichever worker is free first.
    for (const [w, held] of busy) {
      if (queue.length <= 1) break;
      if (held.length === 1) dispatch(w, queue.shift()!);
    }
    if (localJob && queue.length && !localDue) {
      localDue = true;
      setImmediate(localTurn);
    }
    for (const w of idle) w.unref();
  };

  const send = (req: Omit<PoolRequest, 'id'>, sent?: () => void): Promise<PoolReply> => {
    if (closed) return Promise.reject(new Error('the compression pool is closed'));
    return new Promise<PoolReply>((resolve, reject) => {
      queue.push({ req: { id: nextId++, ...req }, resolve, reject, sent });
      pump();
    });
  };
  const run = async (
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo: number | undefined,
    candidate: PoolCandidate | undefined,
  ): Promise<PoolOutcome> =>
    wholeOutcome(
      await send({
        mtn,
        options,
        ...(resampleTo === undefined ? {} : { resampleTo }),
        ...(candidate ? { candidate } : {}),
      }),
    );

  /** PoolCompressor.channelShares: one share per job; `sent` is called when the first share goes to a worker. */
  const channelShares = async (
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo?: number,
    sent?: () => void,
  ): Promise<ChannelShare[] | null> => {
    const resample = resampleTo === undefined ? {} : { resampleTo };
    try {
      const replies = await Promise.all(
        Array.from({ length: jobs }, (_, index) =>
          send({ mtn, options, ...resample, share: { index, count: jobs } }, index === 0 ? sent : undefined),
        ),
      );
      return replies.map((r) => (r.ok && 'share' in r ? r.share : []));
    } catch (e) {
      if (closed || isBundleRefusal(e)) throw e;
      return null;
    }
  };
  /** PoolCompressor.mshNodeFits: one share of the nodes per job. */
  const mshNodeFits = async (mtn: Uint8Array, options: MshExportOptions): Promise<MshNodeFit[] | null> => {
    try {
      const replies = await Promise.all(
        Array.from({ length: jobs }, (_, index) =>
          // An MSH share has its own options; the compressor's are not read.
          send({ mtn, options: {} as CompressOptions, mshShare: { options, index, count: jobs } }),
        ),
      );
      return replies.flatMap((r) => (r.ok && 'mshFits' in r ? r.mshFits : []));
    } catch (e) {
      if (closed || isBundleRefusal(e)) throw e;
      return null;
    }
  };
  /**
   * A long motion in shares of its channels, one per job, put together on this thread (compressWithShares: the
   * very bytes of one compressMotion, whatever the number of jobs). Null when a share failed: the motion is then
   * compressed whole, so that its error is the one a one-job build reports.
   *
   * Once its first share is with a worker, this thread reads the motion and computes the source's points of the
   * object-space error (most of that error's work, and the same whatever the keys) at its next idle turn, so that
   * putting the shares together, which waits for the last share, only decodes and checks the keys
   * (docs/compression.md, "Jobs"). Not before: a motion still queued holds no memory of this thread's.
   */
  /**
   * inShares for a motion of MERGE_OFF_THREAD_MIN_MTN_BYTES or more: the merge runs in a thread of its own, started
   * when the first share is with a worker (it prepares the merge meanwhile, as this thread does for a shorter one),
   * so that this thread stays free to handle a signal; close() ends it. The same code (mergeFor, compressWithShares),
   * so the bytes are those of one job.
   */
  const mergeOffThread = async (
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo: number | undefined,
  ): Promise<CompressedMotion | null> => {
    const stopper = new AbortController();
    let thread: Worker | undefined;
    let ended: Promise<OneShotEnd<PoolReply>> | undefined;
    const start = () => {
      if (closed || ended) return;
      merging.add(stopper);
      const request: PoolRequest = {
        id: 0,
        mtn,
        options,
        ...(resampleTo === undefined ? {} : { resampleTo }),
        merge: true,
      };
      ended = runOneShotWorker<PoolReply>(workerPath, { request } satisfies OneRequest, {
        signal: stopper.signal,
        onWorker: (w) => (thread = w),
      });
    };
    try {
      const shares = await channelShares(mtn, options, resampleTo, () => setImmediate(start));
      if (!shares) return null;
      start();
      thread?.postMessage({ shares } satisfies MergeShares);
      const end = await ended!;
      switch (end.end) {
        case 'answer':
          offThread++;
          return wholeOutcome(end.value).result;
        case 'cancelled':
          throw new Error('the build was stopped');
        case 'refused':
          throw bundleRefusedError(end.message);
        default:
          // The thread did not start or stopped without answering: put together here, as before.
          return mergeHere(mtn, options, resampleTo, shares);
      }
    } finally {
      merging.delete(stopper);
      stopper.abort();
    }
  };
  const mergeHere = (
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo: number | undefined,
    shares: ChannelShare[],
  ): CompressedMotion => {
    const { motion, cache } = mergeFor(mtn, options, resampleTo);
    return compressedMotionOf(compressWithShares(motion, options, shares, cache));
  };
  const inShares = async (
    mtn: Uint8Array,
    options: CompressOptions,
    resampleTo: number | undefined,
  ): Promise<CompressedMotion | null> => {
    if (mtn.byteLength >= mergeOffThreadFrom) return mergeOffThread(mtn, options, resampleTo);
    let early: { motion: Motion; cache: CompressCache } | undefined;
    let tried = false;
    let back = false;
    const prepare = () => {
      if (tried || closed) return;
      tried = true;
      try {
        early = mergeFor(mtn, options, resampleTo);
        if (!back) preparedEarly++;
      } catch {
        // Put together as before, which reports the motion's error as one job does.
      }
    };
    const shares = await channelShares(mtn, options, resampleTo, () => setImmediate(prepare));
    back = true;
    if (!shares) return null;
    prepare();
    const { motion, cache } = early ?? { motion: motionOf(mtn, resampleTo), cache: new CompressCache() };
    return compressedMotionOf(compressWithShares(motion, options, shares, cache));
  };

  return {
    jobs,
    channelShares,
    mshNodeFits,
    /** How many long motions' merges were prepared before their last share came back (for the tests). */
    get mergesPreparedEarly() {
      return preparedEarly;
    },
    /** How many long motions were put together in a thread of their own (for the tests). */
    get mergesOffThread() {
      return offThread;
    },
    start(wanted = jobs) {
      if (closed) return;
      for (let n = live; n < Math.min(workers, wanted); n++) idle.push(spawn());
    },
    compress: async (mtn, options, resampleTo) => {
      const shared = jobs > 1 && sharesPay(mtn.byteLength, options) ? await inShares(mtn, options, resampleTo) : null;
      return shared ?? (await run(mtn, options, resampleTo, undefined)).result;
    },
    verifyOrCompress: (mtn, options, resampleTo, candidate) => run(mtn, options, resampleTo, candidate),
    async close() {
      closed = true;
      for (const stop of merging) stop.abort();
      const all = [...idle, ...busy.keys()];
      idle.length = 0;
      for (const [, held] of busy) for (const p of held) p.reject(new Error('the build was stopped'));
      busy.clear();
      for (const p of queue.splice(0)) p.reject(new Error('the build was stopped'));
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}

/**
 * The compressor for `jobs` jobs: in-process for 1, else the worker pool when
 * its bundle is there. (Unbundled runs, such as unit tests that do not build
 * the worker, compress in-process: the bytes are the same either way.)
 */
export function compressorFor(jobs: number, workerPath = defaultPoolWorkerPath()): MotionCompressor {
  if (jobs <= 1 || !existsSync(workerPath)) return inProcessCompressor();
  return workerCompressor(workerPath, jobs);
}
