import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grantDroppedFile, type DropGrants } from './droppedFiles';
import { createPathPolicy } from './pathPolicy';

const dir = mkdtempSync(join(tmpdir(), 'actguy-drop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Grants into a real PathPolicy, recording what was granted how. */
function grantsInto() {
  const policy = createPathPolicy();
  const log: string[] = [];
  const grants: DropGrants = {
    grantChosen: (p) => {
      policy.allowFile(p);
      log.push(`chosen ${p}`);
      return {};
    },
    grantImport: (p) => {
      policy.allowFile(p);
      log.push(`import ${p}`);
    },
    rememberFolder: (p) => log.push(`folder ${p}`),
  };
  return { policy, log, grants };
}

describe('grantDroppedFile', () => {
  it('grants a dropped file of each kind ActGuy opens as a pick: before the drop the path is refused', () => {
    for (const [name, kind] of [
      ['walk.mtn', 'motion'],
      ['Take 1.BVH', 'import'],
      ['rig.glb', 'import'],
      ['walk.sev', 'sev'],
      ['sample.actguy.json', 'project'],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, 'x');
      const { policy, log, grants } = grantsInto();
      expect(policy.isAllowed(path)).toBe(false);
      expect(grantDroppedFile(path, grants)).toEqual({ status: 'granted', path, kind });
      expect(policy.isAllowed(path)).toBe(true);
      expect(log).toEqual([`${kind === 'import' ? 'import' : 'chosen'} ${path}`, `folder ${path}`]);
    }
  });

  it('refuses, granting nothing: no path, a relative path, a kind ActGuy does not open, a folder, a missing file', () => {
    writeFileSync(join(dir, 'notes.txt'), 'x');
    mkdirSync(join(dir, 'folder.mtn'));
    const cases: [unknown, RegExp][] = [
      ['', /no place on disk/],
      [undefined, /no place on disk/],
      [{ path: join(dir, 'walk.mtn') }, /no place on disk/],
      ['walk.mtn', /not a path ActGuy can open/],
      [`${dir}/a\0.mtn`, /not a path ActGuy can open/],
      [join(dir, 'notes.txt'), /notes\.txt: ActGuy cannot open this kind of file.*\.mtn, \.mt3/],
      [join(dir, 'folder.mtn'), /a folder, not a file/],
      [join(dir, 'gone.mtn'), /not there any more/],
    ];
    for (const [path, message] of cases) {
      const { log, grants } = grantsInto();
      expect(() => grantDroppedFile(path, grants)).toThrow(message);
      expect(log).toEqual([]);
    }
  });

  it('a .sev brings the project found beside it', () => {
    const sev = join(dir, 'run.sev');
    writeFileSync(sev, 'x');
    const { grants } = grantsInto();
    grants.grantChosen = () => ({ projectPath: join(dir, 'p.actguy.json') });
    expect(grantDroppedFile(sev, grants)).toEqual({
      status: 'granted',
      path: sev,
      kind: 'sev',
      projectPath: join(dir, 'p.actguy.json'),
    });
  });
});
