/**
 * How a scenario's hold (e2e/holdWorker.cjs) reaches the process that runs the app's work: the loopback server in
 * Chromium, Electron's main process in "electron". The hold is the preload's environment
 * (`{ ACTGUY_E2E_HOLD_EXPORT: '40' }`); none (`{}`) loads no preload (docs/testing.md, "Tests under load, round 9").
 */
import { join } from 'node:path';
import { repoRoot } from './electron-binary';

export type WorkHold = Record<string, string>;

/** The preload that holds a worker thread's later messages from the main thread. */
export const HOLD_PRELOAD = join(repoRoot, 'e2e', 'holdWorker.cjs');

/** The loopback server's environment: the hold's own, and the preload through `NODE_OPTIONS` (kept as it was). */
export function loopbackHoldEnv(hold: WorkHold, nodeOptions = process.env.NODE_OPTIONS): Record<string, string> {
  if (Object.keys(hold).length === 0) return {};
  return { ...hold, NODE_OPTIONS: `${nodeOptions ?? ''} --require ${JSON.stringify(HOLD_PRELOAD)}`.trim() };
}

/**
 * Electron's arguments for the preload, to go before the app's path: Playwright's Electron launcher deletes
 * `NODE_OPTIONS` from the environment it starts Electron with, and starts Electron's default app, which loads each
 * `-r MODULE` it finds before the app's path (as it loads Playwright's own loader) in the main process, before the
 * app's code runs. The hold's variables go in Electron's environment.
 */
export function electronHoldArgs(hold: WorkHold): string[] {
  return Object.keys(hold).length === 0 ? [] : ['-r', HOLD_PRELOAD];
}
