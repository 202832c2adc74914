import { chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
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
      [join(dir, 'folder.mtn'), /folder\.mtn: a folder, not a file\. Nothing was opened\./],
      [join(dir, 'gone.mtn'), /gone\.mtn: it is not there \(no such file or directory\)\. Nothing was opened\./],
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

  // Round 30. A drop looked only for "there and a plain file" (statSync, which follows a link), so a link planted in a
  // shared folder, or another user's file there, dropped onto the window was granted as the user's pick, where a file
  // the OS hands over is refused (systemFiles.ts handedOverProblem, round 29). Now a drop is judged by the same look
  // and refused in the same words. CI runs as root: the other user's file is given to user 65534 with chown; as any
  // other user the case is left out (only root can give a file away). Mutations that fail: grantDroppedFile back on
  // statSync (the link and the other user's file are granted); handedOverProblem without its link case or its owner
  // case (one each).
  it("refuses, as a file the OS hands over is refused and in its words: a link, a FIFO, another user's file", () => {
    const mine = join(dir, 'mine.mtn');
    writeFileSync(mine, 'x');
    const link = join(dir, 'link.mtn');
    symlinkSync(mine, link);
    const fifo = join(dir, 'pipe.mtn');
    execFileSync('mkfifo', [fifo]);
    const theirs = join(dir, 'theirs.mtn');
    writeFileSync(theirs, 'x');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(theirs, 65534, 65534);
    const cases: [string, string][] = [
      [link, `${link}: it is a symbolic link to ${mine}; open that file itself. Nothing was opened.`],
      [fifo, `${fifo}: it is not a plain file (a pipe, socket or device). Nothing was opened.`],
      ...(asRoot
        ? [
            [
              theirs,
              `${theirs}: it belongs to another user (user id 65534); copy it to a folder of yours to open it. Nothing was opened.`,
            ] as [string, string],
          ]
        : []),
    ];
    for (const [path, message] of cases) {
      const { policy, log, grants } = grantsInto();
      expect(() => grantDroppedFile(path, grants)).toThrow(message);
      expect(log).toEqual([]);
      expect(policy.isAllowed(path)).toBe(false);
      expect(policy.isAllowed(mine)).toBe(false);
    }
    // The link's target, dropped itself, is granted.
    expect(grantDroppedFile(mine, grantsInto().grants)).toMatchObject({ status: 'granted', path: mine });
  });
});
