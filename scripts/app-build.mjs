// Builds what the app runs: the renderer (Vite -> dist/renderer) and the Electron-side bundles
// (esbuild -> dist/electron: main, preload, compress worker, loopback server).
// Used by `npm start`, `npm run web` and the Playwright global setup. When nothing the bundles are made from
// changed since the last successful build (dist/.app-build-stamp), the build is skipped (`--force` rebuilds).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What the bundles are built from: every source folder and the build configuration. */
const INPUTS = [
  'renderer',
  'shared',
  'electron',
  'scripts/build.mjs',
  'scripts/app-build.mjs',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
];
/** What a build leaves; a missing one means the build must run. */
const OUTPUTS = [
  'dist/renderer/index.html',
  'dist/electron/main.cjs',
  'dist/electron/preload.cjs',
  'dist/electron/compressWorker.cjs',
  'dist/electron/loopback.cjs',
];
const STAMP = join(root, 'dist', '.app-build-stamp');

/** A fingerprint of the inputs: path, size and modification time of every file (not the contents: fast). */
export function sourceFingerprint() {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (!existsSync(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort())
        if (name !== 'node_modules' && !name.startsWith('.')) visit(join(path, name));
    } else {
      hash.update(`${relative(root, path)}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  for (const p of INPUTS) visit(join(root, p));
  return hash.digest('hex');
}

/**
 * What the stamp records: the inputs' fingerprint and the build mode. Always a production build: a build started
 * from a test runner (NODE_ENV=test) must not leave a development React behind for `npm run web` to serve; an
 * older stamp without the mode rebuilds.
 */
const BUILD_MODE = 'production';
const stampOf = (fingerprint) => `${fingerprint} ${BUILD_MODE}`;

/** True when the last successful build was made from exactly the current inputs and its outputs are there. */
export function appBuildIsFresh() {
  if (!OUTPUTS.every((o) => existsSync(join(root, o)))) return false;
  try {
    return readFileSync(STAMP, 'utf8').trim() === stampOf(sourceFingerprint());
  } catch {
    return false;
  }
}

/**
 * Builds both halves unless they are fresh (`force` rebuilds anyway); throws with a one-line reason when a build
 * fails (the tools print details above it). Resolves to true when it built, false when it skipped.
 */
export async function buildApp({ quiet = true, force = false } = {}) {
  if (!force && appBuildIsFresh()) {
    if (!quiet)
      console.log('ActGuy: the app bundles are up to date (nothing changed since the last build); --force rebuilds.');
    return false;
  }
  const before = sourceFingerprint();
  const electron = spawnSync(
    process.execPath,
    [join(root, 'scripts', 'build.mjs'), 'electron', ...(quiet ? ['--quiet'] : [])],
    { stdio: 'inherit', cwd: root },
  );
  if (electron.status !== 0) throw new Error('building the Electron bundles failed (see above)');
  const { build } = await import('vite');
  // Vite takes React's build (production or development) from NODE_ENV when it is set: vitest sets it to "test".
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = BUILD_MODE;
  try {
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info', mode: BUILD_MODE });
  } catch (e) {
    throw new Error(`building the renderer failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  // Stamped with the inputs as they were when the build started: an edit during the build rebuilds next time.
  writeFileSync(STAMP, `${stampOf(before)}\n`);
  return true;
}

// `node scripts/app-build.mjs`: build both halves (npm run build:app; packaging runs it first).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildApp({ quiet: false, force: process.argv.includes('--force') }).catch((e) => {
    console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
