/**
 * Open Recent's open of a listed file (recentFiles.ts openRecentFile, docs/security.md round 29) against a path that
 * reached another file at the open than it names at the look: a folder above it swapped for a link to elsewhere just
 * for the open, then back. node:fs's openSync is wrapped to open the other file for the paths in `detours`, which is
 * what such an open reaches, so the race is won every time and nothing is timed. Mutations that fail: the identity
 * check (device and inode of the name against the descriptor) removed (the other file's descriptor is answered).
 */
import type * as realFs from 'node:fs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

const detours = new Map<string, string>();
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((path: realFs.PathLike, ...rest: unknown[]) =>
    (fs.openSync as (...a: unknown[]) => number)(detours.get(String(path)) ?? path, ...rest)) as typeof fs.openSync;
  return { ...fs, openSync, default: { ...fs, openSync } };
});

const { openRecentFile } = await import('./recentFiles');
const { canonicalPath } = await import('./pathPolicy');

const dirs: string[] = [];
afterEach(() => {
  detours.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('refuses a descriptor that is not the file the path names when looked at, and answers it when it is', () => {
  const dir = canonicalPath(mkdtempSync(join(tmpdir(), 'actguy-recent-race-')));
  dirs.push(dir);
  const project = join(dir, 'a.actguy.json');
  const elsewhere = join(dir, 'secret.actguy.json');
  writeFileSync(project, '{"mine": true}');
  writeFileSync(elsewhere, '{"secret": true}');

  const plain = openRecentFile(project);
  expect('fd' in plain && readFileSync(plain.fd, 'utf8')).toBe('{"mine": true}');
  if ('fd' in plain) closeSync(plain.fd);

  detours.set(project, elsewhere);
  expect(openRecentFile(project)).toEqual({ problem: 'it is not there now (another file took its place)' });
});
