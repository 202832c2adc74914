// Builds the Node-side bundles with esbuild. `node scripts/build.mjs <target...> [--quiet]`
// Targets: cli, bench, fuzz, electron, all. Each bundle is CommonJS so it runs with plain `node FILE`.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const wanted = args.filter((a) => !a.startsWith('--'));

/** target -> list of [entry, outfile, options] */
const targets = {
  cli: [['electron/cli/actguy.ts', 'dist/cli/actguy.cjs', { banner: { js: '#!/usr/bin/env node' } }]],
  bench: [['scripts/bench.ts', 'dist/bench/bench.cjs', {}]],
  fuzz: [
    ['scripts/fuzz.ts', 'dist/fuzz/fuzz.cjs', {}],
    ['scripts/fuzz/worker.ts', 'dist/fuzz/fuzzWorker.cjs', {}],
  ],
  samples: [
    ['scripts/make-samples.ts', 'dist/gen/make-samples.cjs', {}],
    ['scripts/make-sample-walk.ts', 'dist/gen/make-sample-walk.cjs', {}],
  ],
  electron: [
    ['electron/main.ts', 'dist/electron/main.cjs', { external: ['electron'] }],
    ['electron/preload.ts', 'dist/electron/preload.cjs', { external: ['electron'] }],
    ['electron/compressWorker.ts', 'dist/electron/compressWorker.cjs', {}],
    ['electron/project/buildWorker.ts', 'dist/electron/buildWorker.cjs', {}],
    ['electron/interchange/importWorker.ts', 'dist/electron/importWorker.cjs', {}],
    ['electron/project/textCheckWorker.ts', 'dist/electron/textCheckWorker.cjs', {}],
    ['electron/loopback/serve.ts', 'dist/electron/loopback.cjs', {}],
  ],
};

const names = wanted.length === 0 || wanted.includes('all') ? Object.keys(targets) : wanted;
for (const name of names) {
  const list = targets[name];
  if (!list) {
    console.error(`build: unknown target ${name} (known: ${Object.keys(targets).join(', ')}, all)`);
    process.exit(2);
  }
  for (const [entry, outfile, extra] of list) {
    if (!existsSync(join(root, entry))) {
      if (!quiet) console.log(`build: skip ${entry} (not present)`);
      continue;
    }
    await build({
      entryPoints: [join(root, entry)],
      outfile: join(root, outfile),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'linked',
      logLevel: quiet ? 'error' : 'info',
      ...extra,
    });
  }
}
