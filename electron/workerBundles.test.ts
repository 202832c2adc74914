import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_REFUSED } from '../shared/errors';
import {
  BUNDLE_MAX_BYTES,
  bundleRefusal,
  requireBundleDigests,
  startWorkerBundle,
  verifiedBundleSource,
  type BundleDigests,
} from './workerBundles';

/** Stands for app.asar.unpacked/dist/electron: the bundles a packaged app starts its workers from. */
const dir = mkdtempSync(join(tmpdir(), 'actguy-bundles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => requireBundleDigests(null));

const sha256 = (name: string) =>
  createHash('sha256')
    .update(readFileSync(join(dir, name)))
    .digest('hex');

/** `dir`/`name`.ts bundled with what it imports into `dir`/`name`.cjs, as scripts/build.mjs bundles a worker. */
function bundleBeside(name: string): Promise<unknown> {
  return build({
    entryPoints: [join(dir, `${name}.ts`)],
    outfile: join(dir, `${name}.cjs`),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
}

/** What the worker said first, or how it failed: its error's message and code, or its exit code. */
function firstWord(w: Worker): Promise<{ message: unknown } | { error: string; code: unknown } | { exit: number }> {
  return new Promise((done) => {
    w.once('message', (message: unknown) => {
      done({ message });
      void w.terminate();
    });
    w.once('error', (e) => done({ error: e.message, code: (e as { code?: unknown }).code }));
    w.once('exit', (exit) => done({ exit }));
  });
}

beforeAll(async () => {
  // A worker as scripts/build.mjs makes one: CommonJS, requiring a lazy chunk from beside itself.
  writeFileSync(
    join(dir, 'entry.cjs'),
    `'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const chunk = require('./chunk.cjs');
parentPort.postMessage({ data: workerData, chunk: chunk.value, dir: __dirname, file: __filename });
`,
  );
  writeFileSync(join(dir, 'chunk.cjs'), `exports.value = 'from the chunk';\n`);
  writeFileSync(join(dir, 'leaf.cjs'), `require('node:worker_threads').parentPort.postMessage('leaf ran');\n`);
  // A worker that starts a worker of its own, bundled with this module (as the build worker starts its pool).
  writeFileSync(
    join(dir, 'nested.ts'),
    `import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { startWorkerBundle } from ${JSON.stringify(resolve(__dirname, 'workerBundles'))};
const leaf = startWorkerBundle(join(__dirname, 'leaf.cjs'));
leaf.once('message', (m) => parentPort!.postMessage(m));
leaf.once('error', (e) => parentPort!.postMessage('leaf refused: ' + e.message));
`,
  );
  await bundleBeside('nested');
});

/** Every bundle of `dir` with its digest now. */
const allDigests = (): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => [f, sha256(f)]),
  );

describe('worker bundles in a packaged app (round 23)', () => {
  it('runs a bundle that matches its digest, from its own folder, with its data and the chunk it requires', async () => {
    requireBundleDigests(allDigests());
    const said = await firstWord(startWorkerBundle(join(dir, 'entry.cjs'), { workerData: { job: 7 } }));
    expect(said).toEqual({
      message: { data: { job: 7 }, chunk: 'from the chunk', dir, file: join(dir, 'entry.cjs') },
    });
  });

  // Mutations that fail: the digest compared with itself (no check); the check skipped when digests are required.
  it('refuses a bundle changed after the build, naming the file; nothing of it runs', async () => {
    const digests = allDigests();
    const original = readFileSync(join(dir, 'entry.cjs'));
    appendFileSync(join(dir, 'entry.cjs'), `require('node:worker_threads').parentPort.postMessage('tampered');\n`);
    try {
      requireBundleDigests(digests);
      expect(await firstWord(startWorkerBundle(join(dir, 'entry.cjs')))).toEqual({
        error: bundleRefusal(join(dir, 'entry.cjs'), 'changed'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      writeFileSync(join(dir, 'entry.cjs'), original);
    }
  });

  // Round 24, a swap right after the check (TOCTOU). Mutation that fails: the loader requiring the entry from disk
  // (`load(entry, readFileSync(entry, 'utf8'))`) instead of running the text that was checked.
  it('runs the bytes it checked: a bundle swapped right after the check is not the one that runs', async () => {
    const digests = allDigests();
    const original = readFileSync(join(dir, 'entry.cjs'));
    requireBundleDigests(digests);
    const w = startWorkerBundle(join(dir, 'entry.cjs'), { workerData: 'checked' });
    // The worker thread has not started yet: its file is replaced before it could read anything.
    writeFileSync(join(dir, 'entry.cjs'), `require('node:worker_threads').parentPort.postMessage('swapped in');\n`);
    try {
      expect(await firstWord(w)).toEqual({
        message: expect.objectContaining({ data: 'checked', chunk: 'from the chunk' }),
      });
    } finally {
      writeFileSync(join(dir, 'entry.cjs'), original);
    }
  });

  it('refuses a bundle the build did not make', async () => {
    const { ['entry.cjs']: _left, ...others } = allDigests();
    requireBundleDigests(others);
    expect(await firstWord(startWorkerBundle(join(dir, 'entry.cjs')))).toEqual({
      error: bundleRefusal(join(dir, 'entry.cjs'), 'unknown'),
      code: BUNDLE_REFUSED,
    });
  });

  // Mutations that fail: a missing bundle, or a missing chunk it requires, failing with Node's ENOENT (each caller then
  // words it as its own job's failure) instead of the damaged installation.
  it('refuses a bundle, or a chunk it requires, that the table names but that cannot be read', async () => {
    const digests = { ...allDigests(), 'gone.cjs': '0'.repeat(64) };
    requireBundleDigests(digests);
    expect(await firstWord(startWorkerBundle(join(dir, 'gone.cjs')))).toEqual({
      error: bundleRefusal(join(dir, 'gone.cjs'), 'unreadable'),
      code: BUNDLE_REFUSED,
    });
    writeFileSync(
      join(dir, 'needsGone.cjs'),
      `require('./gone.cjs');
`,
    );
    try {
      requireBundleDigests({ ...digests, 'needsGone.cjs': sha256('needsGone.cjs') });
      expect(await firstWord(startWorkerBundle(join(dir, 'needsGone.cjs')))).toEqual({
        error: bundleRefusal(join(dir, 'gone.cjs'), 'unreadable'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      rmSync(join(dir, 'needsGone.cjs'));
    }
  });

  // Mutations that fail: the loader's require handing a file to Node's own require (unchecked); its refusal without
  // BUNDLE_REFUSED (the import would then report three.js's chunk as the glTF's defect, round 25).
  it('refuses a changed chunk the checked bundle requires from beside itself', async () => {
    writeFileSync(join(dir, 'chunk.cjs'), `exports.value = 'tampered';\n`);
    const digests = {
      ...allDigests(),
      'chunk.cjs': createHash('sha256').update(`exports.value = 'from the chunk';\n`).digest('hex'),
    };
    try {
      requireBundleDigests(digests);
      expect(await firstWord(startWorkerBundle(join(dir, 'entry.cjs')))).toEqual({
        error: bundleRefusal(join(dir, 'chunk.cjs'), 'changed'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      writeFileSync(join(dir, 'chunk.cjs'), `exports.value = 'from the chunk';\n`);
    }
  });

  // Mutations that fail: the loader not passing the digests to the bundle (the nested worker starts unchecked); the
  // module's table not taken from them.
  it('a checked worker checks the workers it starts', async () => {
    const digests: BundleDigests = allDigests();
    requireBundleDigests(digests);
    expect(await firstWord(startWorkerBundle(join(dir, 'nested.cjs')))).toEqual({ message: 'leaf ran' });
    requireBundleDigests({ ...digests, 'leaf.cjs': '0'.repeat(64) });
    expect(await firstWord(startWorkerBundle(join(dir, 'nested.cjs')))).toEqual({
      message: `leaf refused: ${bundleRefusal(join(dir, 'leaf.cjs'), 'changed')}`,
    });
  });

  // Round 24. Mutation that fails: the bundle read without O_NONBLOCK (the main process waits on the FIFO for good).
  it("a FIFO in a bundle's place is refused at once, not waited on", async () => {
    const digests = allDigests();
    const original = readFileSync(join(dir, 'entry.cjs'));
    rmSync(join(dir, 'entry.cjs'));
    expect(spawnSync('mkfifo', [join(dir, 'entry.cjs')]).status).toBe(0);
    try {
      requireBundleDigests(digests);
      expect(await firstWord(startWorkerBundle(join(dir, 'entry.cjs')))).toEqual({
        error: bundleRefusal(join(dir, 'entry.cjs'), 'changed'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      rmSync(join(dir, 'entry.cjs'));
      writeFileSync(join(dir, 'entry.cjs'), original);
    }
    // The chunk it requires, read by the loader in the worker (mutation: the loader's read without O_NONBLOCK).
    const chunk = readFileSync(join(dir, 'chunk.cjs'));
    rmSync(join(dir, 'chunk.cjs'));
    expect(spawnSync('mkfifo', [join(dir, 'chunk.cjs')]).status).toBe(0);
    try {
      expect(await firstWord(startWorkerBundle(join(dir, 'entry.cjs')))).toEqual({
        error: bundleRefusal(join(dir, 'chunk.cjs'), 'changed'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      rmSync(join(dir, 'chunk.cjs'));
      writeFileSync(join(dir, 'chunk.cjs'), chunk);
    }
  });

  // Round 24. Mutation that fails: the loader handing a bare name to Node's require, which finds a package in any
  // node_modules from the bundle's folder up (app.asar.unpacked/node_modules, Resources/node_modules, ...), unchecked.
  it("a checked bundle requires Node's own modules only: a package by name is refused, not found and run", async () => {
    const planted = join(dir, 'node_modules', 'planted');
    mkdirSync(planted, { recursive: true });
    writeFileSync(join(planted, 'index.js'), `module.exports = 'planted package ran';\n`);
    writeFileSync(
      join(dir, 'bare.cjs'),
      `require('node:worker_threads').parentPort.postMessage(require('planted'));\n`,
    );
    try {
      requireBundleDigests(allDigests());
      expect(await firstWord(startWorkerBundle(join(dir, 'bare.cjs')))).toEqual({
        error: bundleRefusal('planted', 'unknown'),
        code: BUNDLE_REFUSED,
      });
    } finally {
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      rmSync(join(dir, 'bare.cjs'));
    }
  });

  // After round 24. Mutations that fail: bundleBytes without the size check (the big bundle, its digest the table's,
  // runs; the 5 GB one is refused as unreadable); the loader's read without it (the big chunk runs).
  it('a bundle, or a chunk it requires, larger than any the build makes is refused from its size, not read', async () => {
    // Sparse: a worker that runs, then a comment of NULs up to one byte past the most.
    const big = join(dir, 'big.cjs');
    const head = `require('node:worker_threads').parentPort.postMessage('big ran');\n//`;
    writeFileSync(big, head);
    truncateSync(big, BUNDLE_MAX_BYTES + 1);
    writeFileSync(join(dir, 'needsBig.cjs'), `require('./big.cjs');\n`);
    // The table names each file's real digest: only its size keeps it from running.
    requireBundleDigests({ ...allDigests(), 'huge.cjs': '0'.repeat(64) });
    // 5 GB, more than Node reads into one buffer: the code before had refused it as unreadable.
    const huge = join(dir, 'huge.cjs');
    writeFileSync(huge, head);
    truncateSync(huge, 5 * 1024 ** 3);
    try {
      for (const [start, refused] of [
        [big, big],
        [join(dir, 'needsBig.cjs'), big],
        [huge, huge],
      ])
        expect(await firstWord(startWorkerBundle(start))).toEqual({
          error: bundleRefusal(refused, 'changed'),
          code: BUNDLE_REFUSED,
        });
    } finally {
      for (const f of [big, huge, join(dir, 'needsBig.cjs')]) rmSync(f);
    }
  });

  // Round 26, held: the limit is the largest size taken, not the first refused. Mutation that fails: bundleBytes
  // refusing a file of exactly BUNDLE_MAX_BYTES (`>=`).
  it('a bundle of exactly the most bytes is read and checked; one byte more is refused', () => {
    const edge = join(dir, 'edge.cjs');
    writeFileSync(edge, '//');
    truncateSync(edge, BUNDLE_MAX_BYTES);
    try {
      const digests = { 'edge.cjs': sha256('edge.cjs') };
      expect(verifiedBundleSource(edge, digests)).toHaveLength(BUNDLE_MAX_BYTES);
      truncateSync(edge, BUNDLE_MAX_BYTES + 1);
      expect(() => verifiedBundleSource(edge, digests)).toThrow(bundleRefusal(edge, 'changed'));
    } finally {
      rmSync(edge);
    }
  });

  it('a checkout requires no digests: the file runs as it is', async () => {
    writeFileSync(join(dir, 'dev.cjs'), `require('node:worker_threads').parentPort.postMessage('dev');\n`);
    expect(await firstWord(startWorkerBundle(join(dir, 'dev.cjs')))).toEqual({ message: 'dev' });
  });

  // Mutation that fails: any of the app's worker threads started with `new Worker` again.
  it("every worker thread of the app's own code starts through startWorkerBundle", () => {
    const offenders: string[] = [];
    const visit = (folder: string) => {
      for (const e of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, e.name);
        if (e.isDirectory()) visit(path);
        else if (/\.ts$/.test(e.name) && !/\.test\.ts$|workerBundles\.ts$/.test(e.name))
          if (/new Worker\(/.test(readFileSync(path, 'utf8'))) offenders.push(path);
      }
    };
    visit(__dirname);
    expect(offenders).toEqual([]);
  });
});

// Node 20 aborted a build once in about 300 runs as the pool ended its workers: a background compile task of a
// worker's isolate outlived the isolate's place in Node's platform (docs/testing.md, "Worker teardown"). V8 prints
// with --trace-opt how it compiles each function, from whichever thread. Mutation that fails: startWorkerBundle
// without compileWorkersOnTheirThread (the worker's hot function compiles ConcurrencyMode::kConcurrent).
describe('worker teardown (Node 20)', () => {
  it("a worker started here optimises on its own thread: no background compile task outlives the worker's isolate", async () => {
    writeFileSync(
      join(dir, 'hot.cjs'),
      `function actguyHotLoop(n) { let s = 0; for (let i = 0; i < n; i++) s += String(i).length; return s; }
let t = 0;
for (let j = 0; j < 20000; j++) t += actguyHotLoop(40);
require('node:worker_threads').parentPort.postMessage(t);
`,
    );
    writeFileSync(
      join(dir, 'starts.ts'),
      `import { join } from 'node:path';
import { startWorkerBundle } from ${JSON.stringify(resolve(__dirname, 'workerBundles'))};
const w = startWorkerBundle(join(__dirname, 'hot.cjs'));
w.once('message', () => void w.terminate());
`,
    );
    await bundleBeside('starts');
    const r = spawnSync(process.execPath, ['--trace-opt', join(dir, 'starts.cjs')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const compiles = r.stdout.split('\n').filter((l) => /^\[compiling method .*actguyHotLoop/.test(l));
    expect(compiles.length, r.stdout.slice(0, 2000)).toBeGreaterThan(0);
    expect(compiles.filter((l) => !/ConcurrencyMode::kSynchronous/.test(l))).toEqual([]);
  }, 60_000);
});
