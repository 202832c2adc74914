/**
 * judgeFile judges the file the policy allowed, not what is at its name a moment later (docs/security.md, round 44).
 * Round 43's judgeFile asked the policy of the path, then the identity of whatever was at the path in a second system
 * call: a file swapped in between was judged as the file then there. The swap is made in judgeSeam.checked, right
 * after the policy's check, as whoever may write the project's folder could make it.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPathPolicy } from '../pathPolicy';
import { judgeFile, judgeSeam } from './files';

const dirs: string[] = [];
const realSeam = { ...judgeSeam };
afterEach(() => {
  Object.assign(judgeSeam, realSeam);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A workspace the policy allows (`project/walk.mtn` in it) and a folder beside it that it does not. */
function setUp() {
  const work = mkdtempSync(join(tmpdir(), 'actguy-judge-'));
  const other = mkdtempSync(join(tmpdir(), 'actguy-judge-other-'));
  dirs.push(work, other);
  mkdirSync(join(work, 'project'));
  writeFileSync(join(work, 'project', 'walk.mtn'), 'walk');
  mkdirSync(join(other, 'project'));
  writeFileSync(join(other, 'project', 'walk.mtn'), 'secret');
  writeFileSync(join(other, 'secret.mtn'), 'secret');
  const policy = createPathPolicy();
  policy.allowTree(work);
  return { work, other, policy, walk: join(work, 'project', 'walk.mtn') };
}

const identity = (path: string) => {
  const st = statSync(path, { bigint: true });
  return `${st.dev}:${st.ino}`;
};

/** Makes `swap` happen once, right after the policy's check. */
const swapAfterCheck = (swap: () => void) => {
  judgeSeam.checked = () => {
    judgeSeam.checked = () => undefined;
    swap();
  };
};

describe('judgeFile judges the file the policy allowed', () => {
  it('a plain file, and a link inside the allowed folder, are judged as the file they are (no swap)', () => {
    const { work, policy, walk } = setUp();
    expect(judgeFile(walk, policy)).toEqual({ path: walk, identity: identity(walk) });
    symlinkSync('walk.mtn', join(work, 'project', 'run.mtn'));
    expect(judgeFile(join(work, 'project', 'run.mtn'), policy).identity).toBe(identity(walk));
    expect(judgeFile(join(work, 'project', 'none.mtn'), policy).identity).toBeNull();
  });

  // Mutation that fails: round 43's order (the policy's check, then the identity asked by name: the link's target).
  it('a file swapped for a link to a file the policy refuses after the check is not judged as that file', () => {
    const { other, policy, walk } = setUp();
    swapAfterCheck(() => {
      renameSync(walk, `${walk}.aside`);
      symlinkSync(join(other, 'secret.mtn'), walk);
    });
    expect(judgeFile(walk, policy)).toEqual({ path: walk, identity: null });
  });

  // Mutation that fails: the open following a link at a name that was none when checked (without /proc, the link's
  // target is then opened and the path allowed, asked again by name, leads to it too).
  it('without /proc, a link put at the name after the check is not opened', () => {
    const { other, policy, walk } = setUp();
    judgeSeam.openedAt = () => undefined;
    swapAfterCheck(() => {
      renameSync(walk, `${walk}.aside`);
      symlinkSync(join(other, 'secret.mtn'), walk);
    });
    expect(judgeFile(walk, policy).identity).toBeNull();
  });

  // Mutation that fails: the file opened not judged where the kernel says it lies (a folder above the name swapped for
  // a link after the check opens the other folder's file of that name, which no O_NOFOLLOW refuses).
  it.runIf(process.platform === 'linux')('a folder above it swapped for a link after the check: refused', () => {
    const { work, other, policy, walk } = setUp();
    swapAfterCheck(() => {
      renameSync(join(work, 'project'), join(work, 'project.aside'));
      symlinkSync(join(other, 'project'), join(work, 'project'));
    });
    expect(judgeFile(walk, policy).identity).toBeNull();
  });

  // Round 45: without /proc, the file opened was compared with the file at the path allowed asked by name, links
  // followed, so a folder above it swapped for a link (or for another folder) led that look to the other folder's
  // file too. Mutations that fail: the folders not looked at after the open (the link); the folders compared by kind
  // alone, not by identity (the folder renamed in); the file at the path allowed looked at following a link (stat).
  it('without /proc, a folder above it swapped for a link, or for another folder, after the check: refused', () => {
    for (const swap of ['link', 'folder'] as const) {
      const { work, other, policy, walk } = setUp();
      judgeSeam.openedAt = () => undefined;
      swapAfterCheck(() => {
        renameSync(join(work, 'project'), join(work, 'project.aside'));
        if (swap === 'link') symlinkSync(join(other, 'project'), join(work, 'project'));
        else renameSync(join(other, 'project'), join(work, 'project'));
      });
      expect(judgeFile(walk, policy).identity, swap).toBeNull();
    }
  });

  // Mutation that fails: the file at the path allowed looked at before the open rather than after it (the link then
  // led that look to the other file too, and the folders were as checked again by the second look).
  it('without /proc, a folder above it swapped for a link after the check and swapped back after the open: refused', () => {
    const { work, other, policy, walk } = setUp();
    judgeSeam.openedAt = () => undefined;
    swapAfterCheck(() => {
      renameSync(join(work, 'project'), join(work, 'project.aside'));
      symlinkSync(join(other, 'project'), join(work, 'project'));
    });
    judgeSeam.opened = () => {
      rmSync(join(work, 'project'));
      renameSync(join(work, 'project.aside'), join(work, 'project'));
    };
    expect(judgeFile(walk, policy).identity).toBeNull();
  });

  it('without /proc, the file a link inside leads to swapped for a link out after the check: refused', () => {
    const { work, other, policy, walk } = setUp();
    const run = join(work, 'project', 'run.mtn');
    symlinkSync('walk.mtn', run);
    judgeSeam.openedAt = () => undefined;
    swapAfterCheck(() => {
      renameSync(walk, `${walk}.aside`);
      symlinkSync(join(other, 'secret.mtn'), walk);
    });
    expect(judgeFile(run, policy).identity).toBeNull();
  });

  it('without /proc, a file judged with no swap is judged as itself, and a link inside as the file it leads to', () => {
    const { work, policy, walk } = setUp();
    judgeSeam.openedAt = () => undefined;
    expect(judgeFile(walk, policy).identity).toBe(identity(walk));
    symlinkSync('walk.mtn', join(work, 'project', 'run.mtn'));
    expect(judgeFile(join(work, 'project', 'run.mtn'), policy).identity).toBe(identity(walk));
  });

  // Mutation that fails: the identity kept without judging what was opened (the link is followed, as the policy
  // followed the one it checked, to the file it leads to now).
  it('a link inside swapped for a link to a file the policy refuses after the check: refused, with /proc or without', () => {
    for (const kernel of [true, false]) {
      const { work, other, policy } = setUp();
      const run = join(work, 'project', 'run.mtn');
      symlinkSync('walk.mtn', run);
      judgeSeam.openedAt = kernel ? realSeam.openedAt : () => undefined;
      swapAfterCheck(() => {
        rmSync(run);
        symlinkSync(join(other, 'secret.mtn'), run);
      });
      expect(judgeFile(run, policy).identity, kernel ? 'with /proc' : 'without').toBeNull();
    }
  });

  it('a path the policy refuses is judged as nothing, and not opened', () => {
    const { other, policy } = setUp();
    let opened = false;
    judgeSeam.checked = () => (opened = true);
    expect(judgeFile(join(other, 'secret.mtn'), policy).identity).toBeNull();
    expect(opened).toBe(false);
  });
});
