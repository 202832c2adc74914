/**
 * A .sev a picked project names outside its own folder (by `../`, by its absolute path, or through a link in the
 * folder) is read for the editor with `outsideProject` set, so that the editor says so beside the file's name: a
 * received project naming `../../other/walk.sev` had the user edit, and save over, another project's events while the
 * editor showed only `walk.sev` (docs/security.md, round 35; round 34's open item).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testProjectHandlers } from '../testing/projectHarness';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A received project folder, and another project of the user's beside it with its own walk.sev. */
function folders(): { dir: string; other: string } {
  const h = mkdtempSync(join(tmpdir(), 'actguy-outside-sev-'));
  dirs.push(h);
  const dir = join(h, 'received');
  const other = join(h, 'mine');
  mkdirSync(dir);
  mkdirSync(other);
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(dir, f));
  copyFileSync(join(ASSETS, 'walk.sev'), join(other, 'walk.sev'));
  return { dir, other };
}

function project(dir: string, motions: { name: string; sev: string }[]): string {
  const file = join(dir, 'p.actguy.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      motions: motions.map((m) => ({ name: m.name, mtn: 'walk.mtn', sev: m.sev })),
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    }),
  );
  return file;
}

describe("readProjectText says when a project's file lies outside its folder", () => {
  // Mutation that fails: readProjectText never setting outsideProject (every outside case); setting it by the path as
  // spelled, links not resolved (the link case is missed).
  it('by ../, by absolute path, through a link, and a .sev not written yet; not for its own files', async () => {
    const { dir, other } = folders();
    symlinkSync(join(other, 'walk.sev'), join(dir, 'linked.sev'));
    const file = project(dir, [
      { name: 'walk', sev: 'walk.sev' },
      { name: 'up', sev: '../mine/walk.sev' },
      { name: 'abs', sev: join(other, 'walk.sev') },
      { name: 'link', sev: 'linked.sev' },
      { name: 'fresh', sev: '../mine/fresh.sev' },
      { name: 'own', sev: 'own.sev' },
    ]);
    const { h, openPicked } = testProjectHandlers();
    await openPicked(file);
    const read = (path: string) => h.readProjectText({ path, project: file });
    expect(await read(join(dir, 'walk.sev'))).not.toHaveProperty('outsideProject');
    expect(await read(join(dir, 'own.sev'))).toEqual({ path: join(dir, 'own.sev'), text: null, loadedAs: 'none' });
    for (const path of [join(dir, '..', 'mine', 'walk.sev'), join(other, 'walk.sev'), join(dir, 'linked.sev')]) {
      const r = await read(path);
      expect(r.outsideProject, path).toBe(true);
      expect(r.text, path).toContain('sev 1');
    }
    expect(await read(join(dir, '..', 'mine', 'fresh.sev'))).toMatchObject({ text: null, outsideProject: true });
    // Without the project named, nothing is said (a .sev opened on its own has no project folder).
    expect(await h.readProjectText({ path: join(other, 'walk.sev') })).not.toHaveProperty('outsideProject');
    // A project that is not a string is refused, as every argument of the wrong type is.
    await expect(h.readProjectText({ path: join(dir, 'walk.sev'), project: 7 as unknown as string })).rejects.toThrow(
      /project/,
    );
  });
});
