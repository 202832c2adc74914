import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Renderer tests read bundled motions with `?inline` (a base64 data URL; they have no Node file access).
  assetsInclude: ['**/*.mtn'],
  test: {
    // e2e/*.spec.ts are Playwright's; e2e/*.test.ts test the helpers its fixtures use.
    include: [
      'shared/**/*.test.ts',
      'electron/**/*.test.ts',
      'renderer/**/*.test.{ts,tsx}',
      'scripts/**/*.test.ts',
      'e2e/**/*.test.ts',
    ],
    exclude: ['e2e/**/*.spec.ts', 'node_modules/**', 'dist/**'],
    testTimeout: 30000,
    // The CLI's bundle, built once for every file that runs it (electron/testing/cliGlobalSetup.ts).
    globalSetup: ['electron/testing/cliGlobalSetup.ts'],
    // The build cache's local verdicts (electron/build/verdicts.ts) go to a scratch folder, never the user's own.
    env: { ACTGUY_STATE_DIR: join(tmpdir(), 'actguy-vitest-state') },
  },
});
