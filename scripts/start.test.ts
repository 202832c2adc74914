import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

it('npm start without an Electron binary prints one line pointing to npm run web and exits non-zero, no stack trace', () => {
  // Point the electron package at an empty folder: exactly what a blocked binary download leaves behind.
  const empty = mkdtempSync(join(tmpdir(), 'actguy-noelectron-'));
  try {
    const r = spawnSync(process.execPath, [resolve(__dirname, 'start.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'ActGuy: the Electron binary is not installed (its download was blocked); run `npm run web` to use ActGuy in a browser.\n',
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
