import { defineConfig } from '@playwright/test';
import type { AppFixtureOptions } from './e2e/fixtures';

/**
 * End-to-end scenarios (e2e/*.spec.ts) drive the real renderer:
 * - project "chromium": Debian's Chromium (/usr/bin/chromium) against the loopback
 *   transport; Playwright's own browser download is never used.
 * - project "electron": the same scenarios through Playwright's _electron when an
 *   Electron binary is installed; otherwise each test is skipped with the reason.
 * Screenshots the scenarios take go to e2e-output/screenshots/, failure artefacts
 * to e2e-output/test-results/.
 */
export default defineConfig<AppFixtureOptions>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e-output/test-results',
  globalSetup: './e2e/global-setup.ts',
  // The machine is small and shared: one browser at a time keeps timings honest.
  workers: 1,
  fullyParallel: false,
  // On CI a failed scenario runs once more and a pass on that second run is listed as "flaky" in the log, so a
  // timing accident on a loaded 2-core machine (a lost drag gesture, CI on 68284dc) is seen without blocking the
  // landing; a scenario that fails twice still fails the run. Locally nothing is retried.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    viewport: { width: 1600, height: 1000 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // WebGL for the three.js viewport without a GPU: Chromium's software ANGLE backend.
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--ignore-gpu-blocklist',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { appMode: 'loopback' } },
    { name: 'electron', use: { appMode: 'electron' } },
  ],
});
