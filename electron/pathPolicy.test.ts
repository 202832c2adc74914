import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPathPolicy, PathNotAllowedError } from './pathPolicy';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-policy-'));
  mkdirSync(join(dir, 'workspace', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'workspace', 'sub', 'a.mtn'), 'x');
  writeFileSync(join(dir, 'outside', 'secret.mtn'), 'x');
  writeFileSync(join(dir, 'outside', 'chosen.mtn'), 'x');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('path policy', () => {
  it('allows files under an allowed tree and files allowed one by one, nothing else', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    policy.allowFile(join(dir, 'outside', 'chosen.mtn'));
    expect(policy.check(join(dir, 'workspace', 'sub', 'a.mtn'), 'read')).toContain('a.mtn');
    expect(policy.check(join(dir, 'outside', 'chosen.mtn'), 'read')).toContain('chosen.mtn');
    expect(() => policy.check(join(dir, 'outside', 'secret.mtn'), 'read')).toThrow(PathNotAllowedError);
    expect(() => policy.check(join(dir, 'outside', 'secret.mtn'), 'read')).toThrow(/refused to access .*secret\.mtn.*choose it with Open or Save As/);
    expect(() => policy.check('/etc/passwd', 'read')).toThrow(PathNotAllowedError);
  });

  it('refuses escapes: "..", relative paths, NUL bytes and a symlink pointing outside the tree', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    expect(() => policy.check(join(dir, 'workspace', '..', 'outside', 'secret.mtn'), 'read')).toThrow(PathNotAllowedError);
    expect(() => policy.check('sub/a.mtn', 'read')).toThrow(/only absolute paths/);
    expect(() => policy.check(`${join(dir, 'workspace', 'sub', 'a.mtn')}\0.png`, 'read')).toThrow(/NUL/);
    expect(() => policy.check('', 'read')).toThrow(/no path/);
    symlinkSync(join(dir, 'outside'), join(dir, 'workspace', 'link'));
    expect(() => policy.check(join(dir, 'workspace', 'link', 'secret.mtn'), 'read')).toThrow(PathNotAllowedError);
    // A sibling folder whose name merely starts with the root's name is not inside it.
    mkdirSync(join(dir, 'workspace-evil'));
    expect(() => policy.check(join(dir, 'workspace-evil', 'x.mtn'), 'write')).toThrow(PathNotAllowedError);
  });

  it('allows writing a new file under the tree only when its folder exists', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    expect(policy.check(join(dir, 'workspace', 'sub', 'new.mtn'), 'write')).toContain('new.mtn');
    expect(() => policy.check(join(dir, 'workspace', 'missing', 'new.mtn'), 'write')).toThrow(/does not exist/);
    expect(policy.isAllowed(join(dir, 'outside', 'secret.mtn'))).toBe(false);
  });

  it('follows a dangling link to where a write would land, and refuses a link loop', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    symlinkSync(join(dir, 'outside', 'not-yet.mtn'), join(dir, 'workspace', 'dangling.mtn'));
    expect(() => policy.check(join(dir, 'workspace', 'dangling.mtn'), 'write')).toThrow(/refused to access .*dangling\.mtn: it resolves to .*outside.*not-yet\.mtn/);
    symlinkSync(join(dir, 'workspace', 'b.mtn'), join(dir, 'workspace', 'a.mtn'));
    symlinkSync(join(dir, 'workspace', 'a.mtn'), join(dir, 'workspace', 'b.mtn'));
    expect(() => policy.check(join(dir, 'workspace', 'a.mtn'), 'read')).toThrow(/symbolic links form a loop/);
  });

  it('a tree allowed for some file types allows its folder and those files only', () => {
    const policy = createPathPolicy();
    mkdirSync(join(dir, 'outside', 'sounds'));
    writeFileSync(join(dir, 'outside', 'sounds', 'a.wav'), 'x');
    writeFileSync(join(dir, 'outside', 'sounds', 'a.json'), 'x');
    policy.allowTree(join(dir, 'outside', 'sounds'), { extensions: ['wav'] });
    expect(policy.isAllowed(join(dir, 'outside', 'sounds'))).toBe(true);
    expect(policy.isAllowed(join(dir, 'outside', 'sounds', 'a.wav'))).toBe(true);
    expect(policy.isAllowed(join(dir, 'outside', 'sounds', 'a.json'))).toBe(false);
    expect(policy.isAllowed(join(dir, 'outside', 'secret.mtn'))).toBe(false);
    expect(policy.trees()).toEqual([]);
  });

  it('refuses an over-long path and quotes only its head and tail', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    const long = join(dir, 'workspace', `${'a'.repeat(5000)}.mtn`);
    let message = '';
    try {
      policy.check(long, 'read');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^ActGuy refused to access .*…a+\.mtn: the path is longer than 4096 characters$/);
    expect(message.length).toBeLessThan(400);
  });
});
