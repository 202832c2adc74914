/**
 * Where the app's Build keeps its cache (docs/cache.md): `.actguy-cache/` in
 * the folder of a project the user picked, or inside the workspace; never
 * beside a file that is not a project, never beside a project only opened by
 * path outside the workspace (the start-up sample), never through a link.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assetsProjectCopy, testProjectHandlers } from '../testing/projectHarness';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A copy of assets/ (one motion, to stay quick) whose outputs go inside the copy. */
function projectFolder(): { dir: string; project: string; text: string } {
  const copy = assetsProjectCopy('actguy-appcache-', { motions: ['walk'] });
  dirs.push(copy.dir);
  return copy;
}

/** Every `.actguy-cache` under a folder. */
const caches = (dir: string) =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.actguy-cache'));
const entryCount = (cache: string) =>
  readdirSync(cache, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.mt3c')).length;

describe("the app's build cache", () => {
  it('a picked project keeps its cache in its own folder', async () => {
    const { dir, project, text } = projectFolder();
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const s = await build(project, text);
    expect(s.state).toBe('done');
    expect(caches(dir)).toEqual(['.actguy-cache']);
    expect(entryCount(join(dir, '.actguy-cache'))).toBe(1);
  });

  it('a project in the workspace keeps its cache in its folder, inside the workspace', async () => {
    const { dir, project, text } = projectFolder();
    const { policy, build } = testProjectHandlers();
    policy.allowTree(dir);
    expect((await build(project, text, true)).state).toBe('done');
    expect(caches(dir)).toEqual(['.actguy-cache']);
  });

  it('a project only opened by path outside the workspace (the start-up sample) writes no cache anywhere', async () => {
    const { dir, project, text } = projectFolder();
    const { policy, build } = testProjectHandlers();
    for (const f of ['sample.actguy.json', 'walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
      policy.allowFile(join(dir, f));
    // A check still compresses (and reports that Build would refuse the outputs, which lie outside what was chosen).
    const s = await build(project, text, true);
    expect(s.state).toBe('failed');
    expect(s.state === 'failed' && s.errors.map((e) => e.message).join('\n')).toMatch(/refused to write/);
    expect(caches(dir)).toEqual([]);
  });

  it('a build of a file that is not a project writes no cache beside it', async () => {
    const { dir, text } = projectFolder();
    const { policy, build } = testProjectHandlers();
    const ws = tempDir('actguy-ws-');
    policy.allowTree(ws);
    policy.allowTree(dir);
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', 'notes.sev'), 'sev 1\n');
    // Project text naming the real inputs, sent for a .sev in the workspace.
    const absolute = JSON.parse(text);
    for (const m of absolute.motions) {
      m.mtn = join(dir, m.mtn);
      if (m.sev) m.sev = join(dir, m.sev);
    }
    absolute.seTables = { sls: join(dir, 'default.sls'), seDefine: join(dir, 'se_define.h') };
    const s = await build(join(ws, 'sub', 'notes.sev'), JSON.stringify(absolute), true);
    expect(s.state).toBe('done');
    expect(caches(ws)).toEqual([]);
    expect(caches(dir)).toEqual([]);
  });

  it('a .actguy-cache that is a link out of the project folder is not followed', async () => {
    const { dir, project, text } = projectFolder();
    const outside = tempDir('actguy-outside-');
    symlinkSync(outside, join(dir, '.actguy-cache'));
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const s = await build(project, text);
    expect(s.state).toBe('done');
    expect(readdirSync(outside)).toEqual([]);
    expect(lstatSync(join(dir, '.actguy-cache')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, 'out', 'stage.mar'))).toBe(true);
  });
});
