/**
 * The record of the last build read as the file it is at the moment of the read (round 22): a record put in its
 * place between a check and the read, as a link to another file, is never read through the link.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import * as realFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Called with each path the record's reader looks at, before the look (lstat or open). */
const seam = vi.hoisted(() => ({ touching: undefined as ((path: string) => void) | undefined }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const watched =
    <F extends (...args: never[]) => unknown>(f: F) =>
    (...args: Parameters<F>) => {
      const result = f(...args);
      if (typeof args[0] === 'string') seam.touching?.(args[0]);
      return result;
    };
  const before =
    <F extends (...args: never[]) => unknown>(f: F) =>
    (...args: Parameters<F>) => {
      if (typeof args[0] === 'string') seam.touching?.(args[0]);
      return f(...args);
    };
  const lstatSync = watched(fs.lstatSync as (...a: never[]) => unknown);
  const openSync = before(fs.openSync as (...a: never[]) => unknown);
  return { ...fs, default: { ...fs, lstatSync, openSync }, lstatSync, openSync };
});

const { readLastBuild } = await import('./lastBuild');

const dirs: string[] = [];
afterEach(() => {
  seam.touching = undefined;
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A record of the exact shape, whose plan is `plan`. */
function recordText(plan: string): string {
  const output = (name: string) => [`/p/out/${name}`, 10, '1', '1', '1', '1'];
  return JSON.stringify({
    tool: 'actguy last build',
    version: 2,
    project: '/p/p.actguy.json',
    code: 'code',
    plan,
    inputs: [],
    parts: [],
    outputs: [output('s.mar'), output('s.sar'), output('s.report.json')],
    summary: {
      outputs: { mar: { path: '/p/out/s.mar', bytes: 10 }, sar: { path: '/p/out/s.sar', bytes: 10 }, report: 'r' },
      totals: { motions: 0, aliases: 0, keys: 0, mtnBytes: 0, mt3Bytes: 0, events: 0 },
      warnings: [],
    },
  });
}

describe('the record of the last build, replaced while it is read', () => {
  it('a link put in its place after it was looked at is not followed', () => {
    const root = mkdtempSync(join(tmpdir(), 'actguy-record-swap-'));
    dirs.push(root);
    mkdirSync(join(root, 'last-builds'));
    const file = join(root, 'last-builds', 'r.json');
    writeFileSync(file, recordText('a'.repeat(64)));
    // What a received project holds: a record of its own, which the link leads to.
    const planted = join(root, 'planted.json');
    writeFileSync(planted, recordText('f'.repeat(64)));
    expect(readLastBuild(file)?.plan).toBe('a'.repeat(64));
    let swapped = false;
    seam.touching = (path) => {
      if (path !== file || swapped) return;
      swapped = true;
      unlinkSync(file);
      symlinkSync(planted, file);
    };
    const read = readLastBuild(file);
    expect(swapped).toBe(true);
    expect(realFs.lstatSync(file).isSymbolicLink()).toBe(true);
    // None, or the record that was there: never the one the link leads to.
    expect(read?.plan).not.toBe('f'.repeat(64));
  });
});
