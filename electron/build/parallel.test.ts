import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { buildProject } from './build';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { FormatError } from '../../shared/errors';
import {
  answerPoolRequest,
  compressMtnBytes,
  inProcessCompressor,
  mergeFor,
  MERGE_OFF_THREAD_MIN_MTN_BYTES,
  servePoolRequests,
  SHARE_MIN_MTN_BYTES,
  workerCompressor,
  type MotionCompressor,
  type PoolReply,
  type PoolRequest,
} from './compressPool';
import { planBuild } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { compressChannelShare, compressMotion, compressWithShares } from '../../shared/compress/compress';
import { defaultShell } from '../../shared/compress/objectError';
import { readMtn } from '../../shared/mtn/read';

/**
 * `build --jobs N` compresses on worker threads, and the outputs are
 * byte-identical whatever N is and whatever order the motions finish in.
 */
const ASSETS = join(__dirname, '..', '..', 'assets');
const poolWorker = useBundledWorker(resolve(__dirname, 'compressPoolWorker.ts'));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-parallel-'));
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [
        { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' },
        { name: 'walk_2', mtn: 'walk.mtn', tolerances: { rotationDeg: 2 } },
        { name: 'walk_4', mtn: 'walk.mtn', tolerances: { rotationDeg: 4, position: 2 } },
        {
          name: 'walk_tight',
          mtn: 'walk.mtn',
          tolerances: { rotationDeg: 0.25 },
          rotationOverridesDeg: { LeftFoot: 0.1 },
        },
        { name: 'walk_1', mtn: 'walk.mtn', tolerances: { rotationDeg: 1 } },
      ],
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Builds with this compressor (no cache) and returns the three outputs' bytes plus the order motions finished in. */
async function buildWith(compressor: MotionCompressor): Promise<{ files: Buffer[]; finished: number[] }> {
  const finished: number[] = [];
  try {
    const r = await buildProject(join(dir, 'p.actguy.json'), {
      compressor,
      cacheDir: null,
      onProgress: (m) => finished.push(m.index),
    });
    if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  } finally {
    await compressor.close();
  }
  return {
    files: ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => readFileSync(join(dir, 'out', f))),
    finished,
  };
}

/** In-process compression whose results are held back so they arrive in the given order. */
function finishingIn(order: number[]): MotionCompressor {
  const inner = inProcessCompressor();
  const waiting: { n: number; release: () => void }[] = [];
  let calls = 0;
  let next = 0;
  const flush = () => {
    for (;;) {
      const w = waiting.find((x) => x.n === order[next]);
      if (!w) return;
      next++;
      w.release();
    }
  };
  return {
    jobs: order.length,
    verifyOrCompress: () => Promise.reject(new Error('this build has no cache')),
    async compress(mtn, options) {
      const n = calls++;
      const result = await inner.compress(mtn, options);
      await new Promise<void>((release) => {
        waiting.push({ n, release });
        flush();
      });
      return result;
    },
    close: inner.close,
  };
}

describe('parallel builds', () => {
  it('are byte-identical for 1, 2 and 3 worker threads and for any finishing order', async () => {
    const one = await buildWith(inProcessCompressor());
    for (const jobs of [2, 3]) {
      const many = await buildWith(workerCompressor(poolWorker(), jobs));
      many.files.forEach((f, k) => expect(f.equals(one.files[k]), `jobs ${jobs}, file ${k}`).toBe(true));
      // The CLI's pool: this thread is one of the jobs.
      const cli = await buildWith(workerCompressor(poolWorker(), jobs, answerPoolRequest));
      cli.files.forEach((f, k) =>
        expect(f.equals(one.files[k]), `jobs ${jobs} with this thread, file ${k}`).toBe(true),
      );
    }
    // Motions are sent largest first; hold the results back so they finish in reverse, then shuffled.
    for (const order of [
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
    ]) {
      const shuffled = await buildWith(finishingIn(order));
      expect(new Set(shuffled.finished).size).toBe(5);
      shuffled.files.forEach((f, k) => expect(f.equals(one.files[k]), `order ${order}, file ${k}`).toBe(true));
    }
  }, 120000);

  it('a long motion compressed in shares of its channels across 2 and 3 workers gives the bytes of one job', async () => {
    const ldir = mkdtempSync(join(tmpdir(), 'actguy-parallel-long-'));
    try {
      copyFileSync(join(ASSETS, 'cmu_01_01.mtn'), join(ldir, 'cmu.mtn'));
      // Large enough to go in shares (the pool splits only long motions).
      expect(statSync(join(ldir, 'cmu.mtn')).size).toBeGreaterThanOrEqual(SHARE_MIN_MTN_BYTES);
      writeFileSync(
        join(ldir, 'l.actguy.json'),
        JSON.stringify({
          version: 1,
          motions: [
            { name: 'cmu', mtn: 'cmu.mtn' },
            {
              name: 'cmu_classic',
              mtn: 'cmu.mtn',
              tolerances: { rotationDeg: 1, method: 'classic' },
              rotationOverridesDeg: { Head: 0.1 },
            },
          ],
          outputs: { mar: 'out/l.mar', sar: 'out/l.sar' },
        }),
      );
      const outputs = async (compressor: MotionCompressor) => {
        try {
          const r = await buildProject(join(ldir, 'l.actguy.json'), { compressor, cacheDir: null });
          if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
        } finally {
          await compressor.close();
        }
        return ['l.mar', 'l.sar', 'l.report.json'].map((f) => readFileSync(join(ldir, 'out', f)));
      };
      const one = await outputs(inProcessCompressor());
      for (const jobs of [2, 3]) {
        const many = await outputs(workerCompressor(poolWorker(), jobs));
        many.forEach((f, k) => expect(f.equals(one[k]), `jobs ${jobs}, file ${k}`).toBe(true));
        // The CLI's pool: one share of each motion on this thread, the others on jobs - 1 workers.
        const here: number[] = [];
        const cli = await outputs(
          workerCompressor(poolWorker(), jobs, (req) => {
            if (req.share) here.push(req.share.index);
            return answerPoolRequest(req);
          }),
        );
        expect(here.length, `jobs ${jobs}: shares answered on this thread`).toBeGreaterThan(0);
        cli.forEach((f, k) => expect(f.equals(one[k]), `jobs ${jobs} with this thread, file ${k}`).toBe(true));
      }
    } finally {
      rmSync(ldir, { recursive: true, force: true });
    }
  }, 180000);

  it('a long motion past MERGE_OFF_THREAD_MIN_MTN_BYTES is put together in a thread of its own, with the bytes of one job', async () => {
    // A merge on the build's thread holds a Ctrl+C until it ends: about a second per 30 MB of MTN (round 38).
    const cmu = new Uint8Array(readFileSync(join(ASSETS, 'cmu_01_01.mtn')));
    const options = { name: 'cmu', positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5 };
    const one = compressMtnBytes(cmu, options);
    // The bound as the pool's (the cmu capture is 1 MB): the merge goes to its own thread, and this thread prepares none.
    const far = workerCompressor(poolWorker(), 2, undefined, SHARE_MIN_MTN_BYTES);
    try {
      const merged = await far.compress(cmu, options);
      expect(far.mergesOffThread).toBe(1);
      expect(far.mergesPreparedEarly).toBe(0);
      expect(Buffer.from(merged.bytes).equals(Buffer.from(one.bytes))).toBe(true);
      expect(merged.objectError).toEqual(one.objectError);
      // Resampled in the merge's thread as in the shares'.
      const resampled = await far.compress(cmu, options, 60);
      expect(Buffer.from(resampled.bytes).equals(Buffer.from(compressMtnBytes(cmu, options, 60).bytes))).toBe(true);
    } finally {
      await far.close();
    }
    // Below the default bound, this thread puts it together, as before.
    expect(cmu.byteLength).toBeLessThan(MERGE_OFF_THREAD_MIN_MTN_BYTES);
    const near = workerCompressor(poolWorker(), 2);
    try {
      expect(Buffer.from((await near.compress(cmu, options)).bytes).equals(Buffer.from(one.bytes))).toBe(true);
      expect(near.mergesOffThread).toBe(0);
    } finally {
      await near.close();
    }
  }, 120000);

  it('the finishing order really varies (the test above is not vacuous)', async () => {
    const a = await buildWith(finishingIn([4, 3, 2, 1, 0]));
    const b = await buildWith(finishingIn([0, 1, 2, 3, 4]));
    expect(a.finished).not.toEqual(b.finished);
    expect(b.finished).toEqual([0, 1, 2, 3, 4]);
    expect(a.finished[0]).not.toBe(0);
  }, 60000);

  it('a motion resampled in the workers (its file as read goes to the pool) gives the bytes of the in-memory build', async () => {
    const rdir = mkdtempSync(join(tmpdir(), 'actguy-parallel-resample-'));
    try {
      copyFileSync(join(ASSETS, 'walk_60fps.mtn'), join(rdir, 'w60.mtn'));
      copyFileSync(join(ASSETS, 'walk.mtn'), join(rdir, 'walk.mtn'));
      const text = JSON.stringify({
        version: 1,
        resample: true,
        motions: [
          { name: 'w60', mtn: 'w60.mtn' },
          { name: 'walk', mtn: 'walk.mtn' },
          { name: 'w60_2', mtn: 'w60.mtn', tolerances: { rotationDeg: 2 } },
        ],
        outputs: { mar: 'out/r.mar', sar: 'out/r.sar' },
      });
      const projectPath = join(rdir, 'r.actguy.json');
      writeFileSync(projectPath, text);
      // The reference: shared/'s build, compressing each prepared (resampled in memory) motion itself.
      const parsed = parseProject(text, projectPath);
      const reference = planBuild(parsed.resolved!, (path) => new Uint8Array(readFileSync(path)));
      if (!reference.ok) throw new Error(reference.errors.map((e) => e.message).join('\n'));
      const refMar = reference.outputs.find((o) => o.path.endsWith('r.mar'))!.bytes;
      for (const compressor of [
        inProcessCompressor(),
        workerCompressor(poolWorker(), 2),
        workerCompressor(poolWorker(), 2, answerPoolRequest),
      ]) {
        try {
          const r = await buildProject(projectPath, { compressor, cacheDir: null });
          if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
          expect(r.report!.motions.map((m) => m.resampledFrom?.fps ?? null)).toEqual([60, null, 60]);
        } finally {
          await compressor.close();
        }
        expect(Buffer.from(readFileSync(join(rdir, 'out', 'r.mar'))).equals(Buffer.from(refMar))).toBe(true);
      }
    } finally {
      rmSync(rdir, { recursive: true, force: true });
    }
  }, 120000);

  it('a motion that fails in a worker is reported against its file; nothing is written', async () => {
    const compressor = workerCompressor(poolWorker(), 2);
    const broken: MotionCompressor = {
      jobs: 2,
      compress: (mtn, options) => compressor.compress(options.name === 'walk_4' ? mtn.subarray(0, 40) : mtn, options),
      verifyOrCompress: () => Promise.reject(new Error('this build has no cache')),
      close: () => compressor.close(),
    };
    const before = readFileSync(join(dir, 'out', 'stage.mar'));
    const r = await buildProject(join(dir, 'p.actguy.json'), { compressor: broken, cacheDir: null });
    await broken.close();
    if (r.ok) throw new Error('expected a failure');
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(new RegExp(`^${join(dir, 'walk.mtn').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\[MTN\\]`)),
    ]);
    expect(readFileSync(join(dir, 'out', 'stage.mar')).equals(before)).toBe(true);
  }, 60000);

  it('a pool worker copies each answer instead of transferring it, so its own buffers are never detached', () => {
    // A transfer would detach the MT3's buffer in the worker, and V8 would then recompile every typed-array
    // function of that worker (servePoolRequests); the answer must still arrive whole.
    const { port1, port2 } = new MessageChannel();
    let onRequest: ((req: PoolRequest) => void) | undefined;
    const sent: { reply: PoolReply }[] = [];
    servePoolRequests({
      on: (_event, listener) => {
        onRequest = listener;
      },
      postMessage: (reply: PoolReply, ...extra: unknown[]) => {
        sent.push({ reply });
        (port1.postMessage as (v: unknown, ...rest: unknown[]) => void)(reply, ...extra);
      },
    });
    const mtn = new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn')));
    const options: PoolRequest['options'] = {
      name: 'walk',
      positionTolerance: 0.5,
      rotationToleranceDeg: 1,
      offsetTolerance: 0.5,
    };
    onRequest!({ id: 7, mtn, options });
    try {
      expect(sent).toHaveLength(1);
      const { reply } = sent[0];
      if (!reply.ok) throw new Error(reply.error.message);
      if (!('result' in reply)) throw new Error('a whole request was answered with a share');
      // Posted through a real port: a transferred buffer would read as empty here.
      const expected = compressMtnBytes(mtn, options).bytes;
      expect(reply.result.bytes.byteLength).toBe(expected.byteLength);
      const received = receiveMessageOnPort(port2)?.message as PoolReply;
      expect(
        received.ok && 'result' in received && Buffer.from(received.result.bytes).equals(Buffer.from(expected)),
      ).toBe(true);
    } finally {
      port1.close();
    }
  }, 60000);

  it('a cold build starts the pool before it reads the inputs; a rebuild its builds verified starts it only when needed', async () => {
    const events: string[] = [];
    const watched = (): MotionCompressor => ({
      ...inProcessCompressor(),
      start: (workers?: number) => events.push(workers === undefined ? 'start' : `start ${workers}`),
    });
    const readFile = (path: string) => {
      events.push(basename(path) === 'walk.mtn' ? 'read walk.mtn' : 'read');
      return new Uint8Array(readFileSync(path));
    };
    const cacheDir = join(dir, 'cache-start');
    const stateDir = join(dir, 'state-start');
    const build = async () => {
      events.length = 0;
      const r = await buildProject(join(dir, 'p.actguy.json'), { compressor: watched(), cacheDir, stateDir, readFile });
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      return [...events];
    };
    const cold = await build();
    expect(cold[0]).toBe('start');
    expect(cold.filter((e) => e === 'start')).toHaveLength(1);
    // Everything verified by the build above: no motion goes to the pool, so nothing starts it.
    expect((await build()).filter((e) => e.startsWith('start'))).toEqual([]);
    // The motion file's stamp changes (same bytes, another time): its motions are no longer known by their stamp,
    // so a worker starts for each as soon as prepareBuild meets them, before it reads the file.
    const mtn = join(dir, 'walk.mtn');
    const { atime, mtime } = statSync(mtn);
    utimesSync(mtn, new Date(2001, 0, 1), new Date(2001, 0, 1));
    try {
      const touched = await build();
      expect(touched).toContain('start 1');
      expect(touched.indexOf('start 1')).toBeLessThan(touched.indexOf('read walk.mtn'));
    } finally {
      utimesSync(mtn, atime, mtime);
    }
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }, 60000);

  it('start() spawns the pool threads at once, before any motion is sent', async () => {
    // A Worker's thread exists as soon as it is constructed, so the process's task count tells (Linux /proc).
    const threads = () => readdirSync('/proc/self/task').length;
    const pool = workerCompressor(poolWorker(), 2);
    try {
      const before = threads();
      pool.start!(1); // a rebuild's first changed motion: one worker
      expect(threads() - before).toBe(1);
      pool.start!(5); // never more than the jobs
      expect(threads() - before).toBe(2);
      pool.start!();
      pool.start!(); // already started: no more
      expect(threads() - before).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("start() in the CLI's pool spawns jobs - 1 threads: this thread is the other job", async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const pool = workerCompressor(poolWorker(), 3, answerPoolRequest);
    try {
      const before = threads();
      pool.start!(1);
      expect(threads() - before).toBe(1);
      pool.start!();
      pool.start!(5);
      expect(threads() - before).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

/**
 * The CLI's pool (workerCompressor with a local job) against a stand-in worker that answers at once, or once the
 * test opens its gate (an Int32Array on a SharedArrayBuffer sent in the request: [opened, requests answered]), so
 * that which thread takes which request does not depend on timing.
 */
describe('the calling thread as one of the jobs', () => {
  let fakeDir = '';
  let fakeWorker = '';
  beforeAll(() => {
    fakeDir = mkdtempSync(join(tmpdir(), 'actguy-fake-pool-'));
    fakeWorker = join(fakeDir, 'fakePoolWorker.cjs');
    writeFileSync(
      fakeWorker,
      `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (req) => {
  if (req.options.name === 'die') process.exit(3);
  const gate = req.options.gate;
  if (gate) while (Atomics.load(gate, 0) === 0) Atomics.wait(gate, 0, 0, 20);
  parentPort.postMessage({ id: req.id, ok: true, result: { bytes: new Uint8Array(0), by: 'worker ' + req.options.name } });
  if (gate) { Atomics.add(gate, 1, 1); Atomics.notify(gate, 1); }
});
`,
    );
  });
  afterAll(() => rmSync(fakeDir, { recursive: true, force: true }));

  const walk = new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn')));
  const gateOf = () => new Int32Array(new SharedArrayBuffer(8));
  const open = (gate: Int32Array) => {
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  const request = (name: string, gate?: Int32Array) =>
    ({ name, positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5, gate }) as PoolRequest['options'];
  const by = (r: unknown) => (r as { by: string }).by;
  /** A local job that records what it ran and answers with a stand-in (or runs `during` first). */
  const recordingJob = (ran: string[], during?: (req: PoolRequest) => void) => (req: PoolRequest) => {
    ran.push(req.options.name);
    during?.(req);
    return { id: req.id, ok: true as const, result: { by: `here ${req.options.name}` } as never };
  };

  it('takes a request only when no worker is free; a worker holds its next request and never waits for this thread', async () => {
    const ran: string[] = [];
    const gate = gateOf();
    const pool = workerCompressor(
      fakeWorker,
      2,
      recordingJob(ran, () => {
        // While this runs, the worker answers a and then b, which it was sent in advance.
        open(gate);
        for (let i = 0, n; i < 2 && (n = Atomics.load(gate, 1)) < 2; i++) Atomics.wait(gate, 1, n, 10000);
      }),
    );
    try {
      // An idle worker gets the request: nothing runs here.
      pool.start!();
      expect(by(await pool.compress(walk, request('warm')))).toBe('worker warm');
      expect(by(await pool.compress(walk, request('alone')))).toBe('worker alone');
      expect(ran).toEqual([]);
      // a keeps the worker busy and b waits in its port; c runs here; the worker, free again by the next turn, gets d.
      const [a, b, c, d] = await Promise.all(
        ['a', 'b', 'c', 'd'].map((n) => pool.compress(walk, request(n, n === 'a' || n === 'b' ? gate : undefined))),
      );
      expect([by(a), by(b), by(c), by(d)]).toEqual(['worker a', 'worker b', 'here c', 'worker d']);
      expect(ran).toEqual(['c']);
    } finally {
      await pool.close();
    }
  });

  it('the pure pool too: a busy worker holds its next request while more than one waits, so it never waits for this thread', async () => {
    const gate = gateOf();
    const pool = workerCompressor(fakeWorker, 1);
    try {
      pool.start!();
      // a keeps the worker busy; b goes with it (two more wait); c stays here for whichever worker is free first.
      const all = Promise.all(
        ['a', 'b', 'c'].map((n) => pool.compress(walk, request(n, n === 'c' ? undefined : gate))),
      );
      open(gate);
      // This thread is busy (as when it puts a long motion's shares together): the worker answers a and then b all
      // the same, since b was sent to it in advance.
      for (let i = 0, n; i < 2 && (n = Atomics.load(gate, 1)) < 2; i++) Atomics.wait(gate, 1, n, 10000);
      expect(Atomics.load(gate, 1)).toBe(2);
      expect((await all).map(by)).toEqual(['worker a', 'worker b', 'worker c']);
    } finally {
      await pool.close();
    }
  });

  it('a request sent in advance to a worker that dies goes to the next worker: only the request it was answering fails', async () => {
    const pool = workerCompressor(fakeWorker, 1);
    try {
      pool.start!();
      // b is sent with 'die' (two more wait behind it); the worker exits on 'die', before it reads b.
      const settled = await Promise.allSettled(['die', 'b', 'c'].map((n) => pool.compress(walk, request(n))));
      expect(settled[0].status).toBe('rejected');
      expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/a compression worker stopped/);
      expect(settled.slice(1).map((r) => (r.status === 'fulfilled' ? by(r.value) : String(r.reason)))).toEqual([
        'worker b',
        'worker c',
      ]);
    } finally {
      await pool.close();
    }
  });

  it("a long motion's merge is prepared on this thread while its shares are with the workers", async () => {
    const cmu = new Uint8Array(readFileSync(join(ASSETS, 'cmu_01_01.mtn')));
    expect(cmu.byteLength).toBeGreaterThanOrEqual(SHARE_MIN_MTN_BYTES);
    const gate = gateOf();
    const pool = workerCompressor(fakeWorker, 2);
    try {
      pool.start!();
      // The stand-in workers hold both shares until the gate opens (and then answer with no channels, which the
      // merge then compresses here: the bytes are still those of one job).
      const options = request('long', gate);
      const result = pool.compress(cmu, options);
      for (let i = 0; i < 5 && pool.mergesPreparedEarly === 0; i++) await new Promise((r) => setImmediate(r));
      expect(pool.mergesPreparedEarly).toBe(1);
      open(gate);
      const [merged, one] = [await result, compressMtnBytes(cmu, options)];
      expect(Buffer.from(merged.bytes).equals(Buffer.from(one.bytes))).toBe(true);
      expect(merged.objectError).toEqual(one.objectError);
    } finally {
      await pool.close();
    }
  }, 60000);

  it("mergeFor holds the source's points, which the merge of the shares uses as they are, with the bytes of one job", () => {
    const cmu = new Uint8Array(readFileSync(join(ASSETS, 'cmu_01_01.mtn')));
    const options = request('long');
    const { motion, cache } = mergeFor(cmu, options, undefined);
    const shell = defaultShell(motion);
    expect(cache.objectMemo.holdsSourceFor(motion, shell)).toBe(true);
    const points = cache.objectMemo.sourceFor(motion, shell);
    const shares = [0, 1].map((k) => compressChannelShare(motion, options, k, 2));
    const merged = compressWithShares(motion, options, shares, cache);
    // The merge's object-space error ran on this very memo (every frame, the first time), and did not compute the
    // source's points again.
    expect(cache.objectMemo.recomputedFrames).toBe(motion.frameCount + 1);
    expect(cache.objectMemo.sourceFor(motion, shell)).toBe(points);
    const one = compressMotion(readMtn(cmu), options);
    expect(Buffer.from(merged.bytes).equals(Buffer.from(one.bytes))).toBe(true);
    expect(merged.objectError).toEqual(one.objectError);
  }, 60000);

  it('a worker that dies fails only its own request, and a new worker replaces it when this thread is busy', async () => {
    const ran: string[] = [];
    const pool = workerCompressor(fakeWorker, 2, recordingJob(ran));
    try {
      pool.start!();
      expect(by(await pool.compress(walk, request('warm')))).toBe('worker warm');
      await expect(pool.compress(walk, request('die'))).rejects.toThrow('a compression worker stopped: exit code 3');
      // x waits for this thread's next turn; y comes before it: a fresh worker takes x, this thread y.
      const [x, y] = await Promise.all([pool.compress(walk, request('x')), pool.compress(walk, request('y'))]);
      expect([by(x), by(y)]).toEqual(['worker x', 'here y']);
      expect(ran).toEqual(['y']);
    } finally {
      await pool.close();
    }
  });

  it('a failing request on this thread rejects only its own promise, with its FormatError kind and place', async () => {
    const gate = gateOf();
    const pool = workerCompressor(fakeWorker, 2, answerPoolRequest);
    try {
      const a = pool.compress(walk, request('a', gate));
      const b = pool.compress(walk, request('b', gate));
      // The worker holds a and b: c and d run here, c on a cut-off file.
      const c = pool.compress(walk.subarray(0, 40), request('c'));
      const d = pool.compress(walk, request('d'));
      const expected = (() => {
        try {
          compressMtnBytes(walk.subarray(0, 40), request('c'));
        } catch (e) {
          return e as FormatError;
        }
        throw new Error('a cut-off MTN compressed');
      })();
      const error = await c.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(FormatError);
      expect({ ...(error as FormatError), message: (error as Error).message }).toEqual({
        ...expected,
        message: expected.message,
      });
      expect(Buffer.from((await d).bytes).equals(Buffer.from(compressMtnBytes(walk, request('d')).bytes))).toBe(true);
      open(gate);
      expect([by(await a), by(await b)]).toEqual(['worker a', 'worker b']);
    } finally {
      await pool.close();
    }
  });

  it('close() between two turns of this thread stops it: what was queued is rejected and nothing more runs here', async () => {
    const ran: string[] = [];
    const gate = gateOf();
    const pool = workerCompressor(fakeWorker, 2, recordingJob(ran));
    const settled = (p: Promise<unknown>) =>
      p.then(
        (r) => by(r),
        (e: Error) => e.message,
      );
    const held = ['a', 'b'].map((n) => settled(pool.compress(walk, request(n, gate))));
    const c = pool.compress(walk, request('c'));
    const rest = ['d', 'e'].map((n) => settled(pool.compress(walk, request(n))));
    // The worker holds a and b; c ran here and its turn ended; the next turn is due: the build is stopped now.
    expect(by(await c)).toBe('here c');
    open(gate);
    await pool.close();
    expect(await Promise.all([...held, ...rest])).toEqual(Array(4).fill('the build was stopped'));
    // The turn that was due comes and goes without running anything.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['c']);
    await expect(pool.compress(walk, request('f'))).rejects.toThrow('the compression pool is closed');
  });
});

/**
 * A pool worker that fails as it loads (a thrown error at the bundle's top level, not a refusal of the bundle) or
 * while it answers (an uncaught throw): each request fails once, naming the error, a new worker is started for the
 * next, and close() still ends. Mutations that fail: died() not rejecting the request it held (the request never
 * settles: each test waits for it); died() putting the held request back at the head of the queue as a request
 * sent in advance is (one request restarts for good on a worker that fails at load).
 */
describe('a pool worker that throws', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'actguy-throwing-pool-'));
    writeFileSync(join(dir, 'atLoad.cjs'), `throw new Error('broken at load');\n`);
    writeFileSync(
      join(dir, 'whileAnswering.cjs'),
      `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (req) => {
  if (req.options.name === 'throw') throw new Error('broken on ' + req.options.name);
  parentPort.postMessage({ id: req.id, ok: true, result: { bytes: new Uint8Array(0), by: 'worker ' + req.options.name } });
});
`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const walk = new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn')));
  const request = (name: string) =>
    ({ name, positionTolerance: 0.5, rotationToleranceDeg: 1, offsetTolerance: 0.5 }) as PoolRequest['options'];

  it('at load: each request fails once with the error, on a worker of its own; close() ends', async () => {
    const pool = workerCompressor(join(dir, 'atLoad.cjs'), 2);
    try {
      const settled = await Promise.allSettled(['a', 'b', 'c'].map((n) => pool.compress(walk, request(n))));
      expect(settled.map((s) => s.status === 'rejected' && String(s.reason))).toEqual(
        Array(3).fill('Error: a compression worker stopped: broken at load'),
      );
      // The next request gets a fresh worker, which fails the same way: the pool is not left without threads.
      await expect(pool.compress(walk, request('d'))).rejects.toThrow('a compression worker stopped: broken at load');
    } finally {
      await pool.close();
    }
    await expect(pool.compress(walk, request('e'))).rejects.toThrow('the compression pool is closed');
  });

  it('while answering: only that request fails; the next is answered by a new worker', async () => {
    const pool = workerCompressor(join(dir, 'whileAnswering.cjs'), 1);
    try {
      await expect(pool.compress(walk, request('throw'))).rejects.toThrow(
        'a compression worker stopped: broken on throw',
      );
      expect((await pool.compress(walk, request('after'))) as unknown as { by: string }).toMatchObject({
        by: 'worker after',
      });
    } finally {
      await pool.close();
    }
  });
});
