/**
 * BuildCache.touch (docs/cache.md, "Limits"): a carried or up-to-date motion's entry is made recent so the size
 * limit evicts the unused ones first, but at most once a day (one lstat otherwise: an up-to-date build of 1,000
 * motions would write 1,000 times), and only at an entry's own place (a key is a SHA-256 in hex, never a path).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openBuildCache, REFRESH_MS } from './buildCache';

let root: string;
let cache: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'actguy-touch-'));
  cache = join(root, 'a', 'b', 'cache');
  mkdirSync(cache, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A file at `path` last changed `ms` ago; returns that time. */
function aged(path: string, ms: number): number {
  writeFileSync(path, 'x');
  const t = (Date.now() - ms) / 1000;
  utimesSync(path, t, t);
  return statSync(path).mtimeMs;
}

describe('BuildCache.touch', () => {
  it('makes an entry recent once it is a day old, and leaves a younger one as it is', () => {
    const key = 'ab'.repeat(32);
    mkdirSync(join(cache, 'ab'));
    const entry = join(cache, 'ab', `${key}.mt3c`);
    const young = aged(entry, REFRESH_MS / 2);
    openBuildCache(cache).touch(key);
    expect(statSync(entry).mtimeMs).toBe(young);
    aged(entry, REFRESH_MS + 60_000);
    openBuildCache(cache).touch(key);
    expect(Date.now() - statSync(entry).mtimeMs).toBeLessThan(REFRESH_MS / 2);
  });

  it('takes a key for a SHA-256 only: one that is a path touches nothing outside the cache', () => {
    // The shard of '../..' is the cache's parent, a folder: only the key's own check keeps this out.
    const outside = join(root, 'outside.mt3c');
    const before = aged(outside, 3 * REFRESH_MS);
    openBuildCache(cache).touch('../../outside');
    expect(statSync(outside).mtimeMs).toBe(before);
  });
});
