import { ELECTRON_SKIP_REASON, electronBinary } from './electron-binary';

/**
 * Builds the app once before the scenarios (dist/renderer with Vite, dist/electron
 * with esbuild), unless ACTGUY_E2E_SKIP_BUILD=1 (the bundles are already fresh), and
 * says up front whether the Electron project can run.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.ACTGUY_E2E_SKIP_BUILD !== '1') {
    const { buildApp } = await import('../scripts/app-build.mjs');
    await buildApp({ quiet: true });
  }
  if (!electronBinary()) console.log(`e2e: ${ELECTRON_SKIP_REASON}`);
}
