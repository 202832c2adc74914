/**
 * Every worker thread of the app starts here, and a packaged app runs only the worker bundles it was built with.
 *
 * worker_threads loads a real file, so a packaged app keeps its workers (and the lazy chunks they require, such as
 * three.js for glTF import) beside app.asar, in app.asar.unpacked (electron-builder.yml `asarUnpack`). The asar
 * integrity fuse checks the archive only: a worker file changed there would run with everything the OS granted the
 * app. scripts/build.mjs therefore embeds each bundle's SHA-256 into main.cjs, which lies inside the checked archive,
 * and a packaged main requires them (`requireBundleDigests`, electron/main.ts). From then on `startWorkerBundle` reads the
 * file once, checks its digest, and runs those very bytes (Node's `eval` worker, through WORKER_LOADER below): a file
 * swapped after the check is never the one that runs. The loader checks each file the worker requires from beside
 * itself the same way, and hands the worker the same table, so a worker that starts workers of its own (the build
 * worker's compression pool) checks them too. A file that does not match is not run: the worker fails at once with a
 * message naming the file and saying the installation is damaged (docs/security.md, rounds 23 and 25).
 *
 * A checkout (`electron .`, the CLI, the loopback server, tests) requires no digests and starts each file as it is.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { BUNDLE_REFUSED, bundleRefusedError, isBundleRefusal } from '../shared/errors';

/** SHA-256 (lower-case hex) of each bundle a worker may load, by file name (`buildWorker.cjs`). */
export type BundleDigests = Readonly<Record<string, string>>;

/**
 * Inside a worker that `startWorkerBundle` checked: the table it was checked with, a parameter of the function
 * WORKER_LOADER wraps the bundle in (so the bundle's code sees it, and nothing outside the worker can set it).
 * Undeclared anywhere else.
 */
declare const __actguyBundleDigests: BundleDigests | undefined;

let required: BundleDigests | null = typeof __actguyBundleDigests === 'undefined' ? null : __actguyBundleDigests;

/** From now on every worker started here must match `digests` (null: none is checked, as in a checkout). */
export function requireBundleDigests(digests: BundleDigests | null): void {
  required = digests;
}

/** Why a bundle is not run; `path` is the file. The whole of what the user is told: no caller adds to it. */
export function bundleRefusal(path: string, why: 'unknown' | 'unreadable' | 'changed'): string {
  const what =
    why === 'unknown'
      ? 'is not one of its own files'
      : why === 'unreadable'
        ? 'cannot be read (missing, or not allowed)'
        : 'is not the file this ActGuy was built with (its SHA-256 differs)';
  return `ActGuy's installation is damaged: ${path} ${what}, so it was not run. Reinstall ActGuy.`;
}

/**
 * The most bytes a bundle may have: the largest the build makes (the three.js chunk) is about 1 MB, and a file of
 * more is not one it made. Refused from the open file's size, before a read and a hash of what could be gigabytes
 * (docs/security.md, after round 24). scripts/build.mjs refuses to embed the digest of a larger bundle.
 */
export const BUNDLE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The bytes of a bundle the table names; one that cannot be read is refused as a damaged installation too, and one
 * larger than BUNDLE_MAX_BYTES as changed (undefined).
 */
function bundleBytes(path: string): Buffer | undefined {
  try {
    // Never waiting: a FIFO in a bundle's place held the main process for good at the first worker (it reads as empty).
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      // The size of the file opened, not of the path, and no more than that is read (a file growing meanwhile).
      const size = fstatSync(fd).size;
      if (size > BUNDLE_MAX_BYTES) return undefined;
      const bytes = Buffer.alloc(size);
      for (let n = 0, got = 1; n < size && got > 0; n += got) got = readSync(fd, bytes, n, size - n, null);
      return bytes;
    } finally {
      closeSync(fd);
    }
  } catch {
    throw bundleRefusedError(bundleRefusal(path, 'unreadable'));
  }
}

/** The file's text, when its SHA-256 is the one `digests` gives its name; throws the refusal otherwise. */
export function verifiedBundleSource(path: string, digests: BundleDigests): string {
  const name = basename(path);
  const expected = Object.hasOwn(digests, name) ? digests[name] : undefined;
  if (!expected) throw bundleRefusedError(bundleRefusal(path, 'unknown'));
  const bytes = bundleBytes(path);
  if (!bytes || createHash('sha256').update(bytes).digest('hex') !== expected)
    throw bundleRefusedError(bundleRefusal(path, 'changed'));
  return bytes.toString('utf8');
}

/**
 * The code an `eval` worker runs to start a checked bundle: it compiles the bundle's text as Node's CommonJS loader
 * would (the same five parameters, the file's own name in stack traces, `require` resolved from the file's folder),
 * with the digests as a sixth parameter. A `require` of a file (a path, not a Node module) reads it, checks it and
 * compiles it the same way; Node's own modules are Node's, and any other name (a package) is refused. `%ARGS%` is the
 * JSON of [file, its text, digests, refusals for an unknown, an unreadable and a changed file (each with NUL where the
 * file's path goes), BUNDLE_REFUSED, BUNDLE_MAX_BYTES].
 */
const WORKER_LOADER = `'use strict';
(() => {
  const { createHash } = require('node:crypto');
  const { closeSync, constants, fstatSync, openSync, readSync } = require('node:fs');
  const { createRequire, isBuiltin } = require('node:module');
  const { basename, dirname, isAbsolute, resolve } = require('node:path');
  const { compileFunction } = require('node:vm');
  const [entry, entrySource, digests, unknown, unreadable, changed, code, maxBytes] = %ARGS%;
  const refuse = (template, path) => Object.assign(new Error(template.split('\\0').join(path)), { code });
  const verified = (path) => {
    const name = basename(path);
    const expected = Object.hasOwn(digests, name) ? digests[name] : undefined;
    if (!expected) throw refuse(unknown, path);
    let bytes;
    try {
      const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      try {
        const size = fstatSync(fd).size;
        if (size <= maxBytes) {
          bytes = Buffer.alloc(size);
          for (let n = 0, got = 1; n < size && got > 0; n += got) got = readSync(fd, bytes, n, size - n, null);
        }
      } finally {
        closeSync(fd);
      }
    } catch {
      throw refuse(unreadable, path);
    }
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== expected) throw refuse(changed, path);
    return bytes.toString('utf8');
  };
  const modules = new Map();
  const load = (filename, source) => {
    const module = { exports: {}, id: filename, filename, loaded: false };
    modules.set(filename, module);
    const nodeRequire = createRequire(filename);
    const fileRequire = (request) => {
      // Node's own modules only: a package by name would be found in any node_modules from here up, unchecked.
      if (!request.startsWith('.') && !isAbsolute(request)) {
        if (!isBuiltin(request)) throw refuse(unknown, request);
        return nodeRequire(request);
      }
      const path = resolve(dirname(filename), request);
      const loaded = modules.get(path);
      return loaded ? loaded.exports : load(path, verified(path)).exports;
    };
    const params = ['exports', 'require', 'module', '__filename', '__dirname', '__actguyBundleDigests'];
    compileFunction(source, params, { filename }).call(
      module.exports, module.exports, fileRequire, module, filename, dirname(filename), digests,
    );
    module.loaded = true;
    return module;
  };
  load(entry, entrySource);
})();
`;

let workerCompilesOnItsThread = false;

/**
 * Worker threads started from now on optimise their hot functions on their own thread, not in V8's background
 * compile tasks. Node 20 unregisters a worker's isolate from its platform before it disposes of it, and a compile
 * task still running for that isolate in between aborts the whole process (`Assertion failed: (data.first) !=
 * nullptr` in `NodePlatform::ForIsolate`, from `IncrementalMarkingJob::ScheduleTask`): seen once in about 300
 * `actguy build --jobs 2` runs, as the pool ended its workers after the outputs were written (exit 134, a core dump
 * with the worker thread in `Isolate::Deinit` waiting for that task). A worker isolate created without background
 * recompilation has no such task. V8 reads the flag when an isolate is created, so the process's own isolate, which
 * Node drains before it tears it down, keeps its background compiles (docs/testing.md, "Worker teardown").
 */
function compileWorkersOnTheirThread(): void {
  if (workerCompilesOnItsThread) return;
  setFlagsFromString('--no-concurrent-recompilation');
  workerCompilesOnItsThread = true;
}

/**
 * Starts the worker bundle at `path`. With digests required, only a file that matches its digest runs (from the
 * bytes checked); any other gives a worker that fails at once with the refusal (an error whose `code` is
 * BUNDLE_REFUSED), which each caller reports as it is, once, and not as the failure of the job it was given.
 */
export function startWorkerBundle(path: string, options: WorkerOptions = {}): Worker {
  compileWorkersOnTheirThread();
  if (!required) return new Worker(path, options);
  let source: string;
  try {
    source = verifiedBundleSource(path, required);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const code = isBundleRefusal(e) ? BUNDLE_REFUSED : undefined;
    return new Worker(
      `throw Object.assign(new Error(${JSON.stringify(message)}), { code: ${JSON.stringify(code)} });`,
      {
        eval: true,
      },
    );
  }
  const args = JSON.stringify([
    path,
    source,
    required,
    bundleRefusal('\0', 'unknown'),
    bundleRefusal('\0', 'unreadable'),
    bundleRefusal('\0', 'changed'),
    BUNDLE_REFUSED,
    BUNDLE_MAX_BYTES,
  ]);
  // A function as the replacement: a `$` in the bundle's text stays as it is.
  return new Worker(
    WORKER_LOADER.replace('%ARGS%', () => args),
    { ...options, eval: true },
  );
}
