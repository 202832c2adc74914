import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { root, sourceFingerprint } from './app-build.mjs';

it('the build fingerprint changes when a source file is added or touched, and returns when it is gone', () => {
  const probe = join(root, 'renderer', '__fingerprint_probe.ts');
  const before = sourceFingerprint();
  expect(sourceFingerprint()).toBe(before);
  try {
    writeFileSync(probe, 'export {};\n');
    const added = sourceFingerprint();
    expect(added).not.toBe(before);
    // Same size, newer modification time: an edit that keeps the length still rebuilds.
    utimesSync(probe, new Date(), new Date(Date.now() + 5000));
    expect(sourceFingerprint()).not.toBe(added);
  } finally {
    rmSync(probe, { force: true });
  }
  expect(sourceFingerprint()).toBe(before);
});
