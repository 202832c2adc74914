// Builds what the app runs: the renderer (Vite -> dist/renderer) and the Electron-side bundles
// (esbuild -> dist/electron: main, preload, compress worker, loopback server).
// Used by `npm start`, `npm run web` and the Playwright global setup.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds both halves; throws with a one-line reason when a build fails (the tools print details above it). */
export async function buildApp({ quiet = true } = {}) {
  const electron = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'electron', ...(quiet ? ['--quiet'] : [])], { stdio: 'inherit', cwd: root });
  if (electron.status !== 0) throw new Error('building the Electron bundles failed (see above)');
  const { build } = await import('vite');
  try {
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  } catch (e) {
    throw new Error(`building the renderer failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
  }
}

// `node scripts/app-build.mjs`: build both halves (npm run build:app; packaging runs it first).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildApp({ quiet: false }).catch((e) => {
    console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}
