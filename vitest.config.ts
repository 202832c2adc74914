import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Renderer tests read bundled motions with `?inline` (a base64 data URL; they have no Node file access).
  assetsInclude: ['**/*.mtn'],
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30000,
  },
});
