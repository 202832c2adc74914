import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Renderer tests read bundled motions with `?inline` (a base64 data URL; they have no Node file access).
  assetsInclude: ['**/*.mtn'],
  test: {
    // e2e/*.spec.ts are Playwright's; e2e/*.test.ts test the helpers its fixtures use.
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'e2e/**/*.test.ts'],
    exclude: ['e2e/**/*.spec.ts', 'node_modules/**', 'dist/**'],
    testTimeout: 30000,
  },
});
