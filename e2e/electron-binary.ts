import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in e2e/). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron executable, or null when the npm package is there without its binary (a blocked download). */
export function electronBinary(): string | null {
  try {
    const path = createRequire(join(repoRoot, 'package.json'))('electron') as unknown;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export const ELECTRON_SKIP_REASON =
  'project "electron" skipped: the Electron binary is not installed (its download was blocked); the same scenarios run in Chromium over the loopback transport';
