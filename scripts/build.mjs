// Builds the Node-side bundles with esbuild. `node scripts/build.mjs <target...> [--quiet]`
// Targets: cli, bench, export-bench, fuzz, samples, heldout, held-runs, cli-sweep, digests, linear, electron, all. Each bundle is CommonJS so it runs with plain `node FILE`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAZY_CHUNKS } from './lazyChunks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const wanted = args.filter((a) => !a.startsWith('--'));

/** target -> list of [entry, outfile, options] */
const targets = {
  cli: [
    ['electron/cli/actguy.ts', 'dist/cli/actguy.cjs', { banner: { js: '#!/usr/bin/env node' } }],
    ['electron/build/compressPoolWorker.ts', 'dist/cli/compressPoolWorker.cjs', {}],
    // `actguy import`'s worker: the importer off the CLI's thread, so Ctrl+C is handled while a long file is parsed.
    ['electron/cli/importWorker.ts', 'dist/cli/importWorker.cjs', {}],
  ],
  bench: [
    // Playwright stays a runtime require: the renderer latency section drives Chromium with it.
    ['scripts/bench.ts', 'dist/bench/bench.cjs', { external: ['@playwright/test', 'playwright', 'playwright-core'] }],
    ['electron/build/compressPoolWorker.ts', 'dist/bench/compressPoolWorker.cjs', {}],
    ['electron/project/buildWorker.ts', 'dist/bench/buildWorker.cjs', {}],
  ],
  fuzz: [
    ['scripts/fuzz.ts', 'dist/fuzz/fuzz.cjs', {}],
    ['scripts/fuzz/worker.ts', 'dist/fuzz/fuzzWorker.cjs', {}],
  ],
  // Export All as the app's main runs it, timed (scripts/benchExportAll.ts).
  'export-bench': [
    ['scripts/benchExportAll.ts', 'dist/export-bench/benchExportAll.cjs', {}],
    ['electron/build/compressPoolWorker.ts', 'dist/export-bench/compressPoolWorker.cjs', {}],
    ['electron/project/buildWorker.ts', 'dist/export-bench/buildWorker.cjs', {}],
  ],
  // Held-out captures through the importers and compressor (`npm run heldout`, scripts/heldout.ts).
  heldout: [['scripts/heldout.ts', 'dist/heldout/heldout.cjs', {}]],
  // Keys inside held runs on the held-out captures, against the fewest (`npm run held-runs`, scripts/heldRuns.ts).
  'held-runs': [['scripts/heldRuns.ts', 'dist/held-runs/heldRuns.cjs', {}]],
  // The seam cases and held-out captures through the built CLI and project builds (`npm run cli-sweep`).
  // Beside it, the app's compress worker and the pool's, for the app's compress path (round 13).
  'cli-sweep': [
    ['scripts/cliSweep.ts', 'dist/cli-sweep/cliSweep.cjs', {}],
    ['electron/compressWorker.ts', 'dist/cli-sweep/compressWorker.cjs', {}],
    ['electron/build/compressPoolWorker.ts', 'dist/cli-sweep/compressPoolWorker.cjs', {}],
  ],
  // The SHA-256 of the outputs a compressor change must keep (scripts/compressDigests.ts).
  digests: [['scripts/compressDigests.ts', 'dist/digests/compressDigests.cjs', {}]],
  // Every reader at n and 8n on worst-case inputs (`npm run linear-time`, scripts/linearTime.ts).
  linear: [['scripts/linearTime.ts', 'dist/linear/linearTime.cjs', {}]],
  samples: [
    ['scripts/make-samples.ts', 'dist/gen/make-samples.cjs', {}],
    ['scripts/make-sample-walk.ts', 'dist/gen/make-sample-walk.cjs', {}],
  ],
  electron: [
    // Built last, with the SHA-256 of every other bundle of the target (workerDigests below).
    ['electron/main.ts', 'dist/electron/main.cjs', { external: ['electron'], workerDigests: true }],
    ['electron/preload.ts', 'dist/electron/preload.cjs', { external: ['electron'] }],
    ['electron/compressWorker.ts', 'dist/electron/compressWorker.cjs', {}],
    ['electron/project/buildWorker.ts', 'dist/electron/buildWorker.cjs', {}],
    ['electron/build/compressPoolWorker.ts', 'dist/electron/compressPoolWorker.cjs', {}],
    ['electron/interchange/importWorker.ts', 'dist/electron/importWorker.cjs', {}],
    ['electron/motionLoadWorker.ts', 'dist/electron/motionLoadWorker.cjs', {}],
    ['electron/project/textCheckWorker.ts', 'dist/electron/textCheckWorker.cjs', {}],
    ['electron/loopback/serve.ts', 'dist/electron/loopback.cjs', {}],
  ],
};

/**
 * A digest of the compressor's source, compiled into every bundle: the build
 * cache keys on it, so a changed compressor never reuses an old result even
 * when COMPRESSOR_VERSION was not bumped.
 */
function compressorDigest() {
  const h = createHash('sha256');
  for (const dir of ['shared/compress', 'shared/mt3', 'shared/math', 'shared/mtn', 'shared/motion']) {
    const abs = join(root, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .sort()) {
      h.update(`${dir}/${f}\0`);
      h.update(readFileSync(join(abs, f)));
    }
  }
  return h.digest('hex').slice(0, 16);
}
const digest = compressorDigest();

/**
 * A digest of everything that turns compressed motions into a build's outputs (shared/ and electron/build/, and the
 * package's version): the record of a project's last build (electron/build/lastBuild.ts) holds it, so a build by
 * other code is never taken for up to date.
 */
function buildDigest() {
  const h = createHash('sha256');
  h.update(readFileSync(join(root, 'package.json')));
  const walk = (dir) => {
    const abs = join(root, dir);
    if (!existsSync(abs)) return;
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) {
        h.update(`${rel}\0`);
        h.update(readFileSync(join(root, rel)));
      }
    }
  };
  walk('shared');
  walk('electron/build');
  return h.digest('hex').slice(0, 16);
}
const outputsDigest = buildDigest();

/**
 * Resolves a lazy chunk's dynamic import (scripts/lazyChunks.mjs) to `require('./<file>')` beside the bundle,
 * and records which chunks the bundle used, so that each is built into that folder: `actguy compress` never
 * parses three.js, and `actguy import x.glb` loads it at the first glTF.
 */
function lazyChunks(used) {
  return {
    name: 'lazy-chunks',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import' || !args.path.startsWith('.')) return undefined;
        const target = resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
        const chunk = LAZY_CHUNKS.find((c) => join(root, c.module).replace(/\.ts$/, '') === target);
        if (!chunk) return undefined;
        used.add(chunk);
        return { path: `./${chunk.file}`, external: true };
      });
    },
  };
}

/**
 * The SHA-256 of each of `files` (output paths), by file name: main.cjs carries them, so that a packaged app runs
 * only the worker bundles it was built with from app.asar.unpacked, which app.asar's integrity check does not cover
 * (electron/workerBundles.ts).
 */
function bundleDigests(files) {
  return Object.fromEntries(
    [...files].sort().map((f) => {
      const bytes = readFileSync(join(root, f));
      // electron/workerBundles.ts BUNDLE_MAX_BYTES: a packaged app refuses a larger bundle unread.
      if (bytes.length > 64 * 1024 * 1024)
        throw new Error(`build: ${f} is larger than a worker bundle may be (64 MiB)`);
      return [basename(f), createHash('sha256').update(bytes).digest('hex')];
    }),
  );
}

const names = wanted.length === 0 || wanted.includes('all') ? Object.keys(targets) : wanted;
for (const name of names) {
  const list = targets[name];
  if (!list) {
    console.error(`build: unknown target ${name} (known: ${Object.keys(targets).join(', ')}, all)`);
    process.exit(2);
  }
  /** Lazy chunks to build, by output folder. */
  const chunksByDir = new Map();
  /** Every bundle this target wrote (output paths). */
  const written = new Set();
  const present = list.filter(([entry]) => {
    if (existsSync(join(root, entry))) return true;
    if (!quiet) console.log(`build: skip ${entry} (not present)`);
    return false;
  });
  for (const [entry, outfile, extra] of present) {
    if (extra.workerDigests) continue;
    const used = new Set();
    await bundle(entry, outfile, { ...extra, plugins: [lazyChunks(used)] });
    written.add(outfile);
    const dir = dirname(outfile);
    for (const c of used) chunksByDir.set(dir, new Set([...(chunksByDir.get(dir) ?? []), c]));
  }
  // A chunk may reach another (the commands chunk reaches three.js through glTF import): built the same way.
  for (const [dir, chunks] of chunksByDir) {
    const built = new Set();
    for (let c; (c = [...chunks].find((x) => !built.has(x)));) {
      built.add(c);
      await bundle(c.module, join(dir, c.file), { plugins: [lazyChunks(chunks)] });
      written.add(join(dir, c.file));
    }
  }
  // Last: the bundles that carry the others' digests. A lazy chunk such a bundle required would be read from beside
  // it without a check, so it may reach none.
  for (const [entry, outfile, extra] of present.filter(([, , x]) => x.workerDigests)) {
    const others = [...written].filter((f) => dirname(f) === dirname(outfile));
    const { workerDigests, ...options } = extra;
    const result = await bundle(entry, outfile, {
      ...options,
      define: { __ACTGUY_WORKER_DIGESTS__: JSON.stringify(workerDigests && bundleDigests(others)) },
      plugins: [lazyChunks(new Set())],
      metafile: true,
    });
    const chunk = Object.values(result.metafile.outputs)
      .flatMap((o) => o.imports)
      .find((i) => i.external && LAZY_CHUNKS.some((c) => i.path === `./${c.file}`));
    if (chunk) {
      console.error(`build: ${outfile} requires the lazy chunk ${chunk.path}, which nothing would check`);
      process.exit(1);
    }
  }
}

async function bundle(entry, outfile, extra) {
  return build({
    entryPoints: [join(root, entry)],
    outfile: join(root, outfile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // A dynamic import becomes a require() resolved beside the bundle (lazy chunks, and in Electron's asar).
    supported: { 'dynamic-import': false },
    sourcemap: 'linked',
    logLevel: quiet ? 'error' : 'info',
    ...extra,
    define: {
      __ACTGUY_COMPRESSOR_DIGEST__: JSON.stringify(digest),
      __ACTGUY_BUILD_DIGEST__: JSON.stringify(outputsDigest),
      ...extra.define,
    },
  });
}
