import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  allowUnlessLinkedOut,
  canonicalPath,
  createPathPolicy,
  isInside,
  PathNotAllowedError,
  quotePath,
} from './pathPolicy';

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
    expect(() => policy.check(join(dir, 'outside', 'secret.mtn'), 'read')).toThrow(
      /refused to access .*secret\.mtn.*choose it with Open or Save As/,
    );
    expect(() => policy.check('/etc/passwd', 'read')).toThrow(PathNotAllowedError);
  });

  it('a file allowed read-only is read, never written; a later full grant wins and a read-only one never takes it back', () => {
    const policy = createPathPolicy();
    const sample = join(dir, 'outside', 'chosen.mtn');
    policy.allowFile(sample, { readOnly: true });
    expect(policy.check(sample, 'read')).toBe(canonicalPath(sample));
    expect(() => policy.check(sample, 'write')).toThrow(/refused to access .*chosen\.mtn: ActGuy opened it by itself/);
    expect(policy.isAllowed(sample)).toBe(true);
    expect(policy.mayWrite(sample)).toBe(false);
    policy.allowFile(sample);
    expect(policy.check(sample, 'write')).toBe(canonicalPath(sample));
    policy.allowFile(sample, { readOnly: true });
    expect(policy.mayWrite(sample)).toBe(true);
    // Under an allowed tree a read-only grant changes nothing.
    const inTree = join(dir, 'workspace', 'sub', 'a.mtn');
    policy.allowTree(join(dir, 'workspace'));
    policy.allowFile(inTree, { readOnly: true });
    expect(policy.check(inTree, 'write')).toBe(canonicalPath(inTree));
  });

  it('refuses escapes: "..", relative paths, NUL bytes and a symlink pointing outside the tree', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    expect(() => policy.check(join(dir, 'workspace', '..', 'outside', 'secret.mtn'), 'read')).toThrow(
      PathNotAllowedError,
    );
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
    expect(() => policy.check(join(dir, 'workspace', 'dangling.mtn'), 'write')).toThrow(
      /refused to access .*dangling\.mtn: it resolves to .*outside.*not-yet\.mtn/,
    );
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

describe('path policy: edges', () => {
  it('refuses a name holding a line break, and a link to one, for a read and a write, quoting it escaped (round 53)', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    for (const brk of ['\n', '\r', '\u2028', '\u2029']) {
      const forged = join(dir, 'workspace', 'sub', `a${brk}Saved walk.mtn`);
      writeFileSync(forged, 'x');
      for (const purpose of ['read', 'write'] as const) {
        const refusal = (() => {
          try {
            policy.check(forged, purpose);
          } catch (e) {
            return e as Error;
          }
          throw new Error('expected a refusal');
        })();
        expect(refusal).toBeInstanceOf(PathNotAllowedError);
        expect(refusal.message).toMatch(/holds a line break/);
        expect(refusal.message).not.toContain(brk);
      }
      const link = join(dir, 'workspace', `plain${brk.charCodeAt(0)}.mtn`);
      symlinkSync(forged, link);
      expect(() => policy.check(link, 'read')).toThrow(
        /resolves to .*a\\u00..Saved walk\.mtn|resolves to .*a\\u202.Saved walk\.mtn/,
      );
      expect(() => policy.check(link, 'read')).toThrow(/that path holds a line break/);
    }
    // Said as given, where it resolves to a plain name: a handler names the path as given.
    expect(() => policy.check(`${join(dir, 'workspace')}/x\nBuilt 9 motions: ok/../sub/a.mtn`, 'read')).toThrow(
      /x\\u000aBuilt 9 motions: ok.*the path holds a line break/,
    );
    // A tab is not a line break: it is shown as it is, and the file is read.
    writeFileSync(join(dir, 'workspace', 'sub', 'a\tb.mtn'), 'x');
    expect(policy.check(join(dir, 'workspace', 'sub', 'a\tb.mtn'), 'read')).toBe(
      join(dir, 'workspace', 'sub', 'a\tb.mtn'),
    );
  });

  it('quotePath keeps a path of 300 characters whole and shortens a longer one to its head and tail', () => {
    const p300 = `/${'a'.repeat(299)}`;
    expect(quotePath(p300)).toBe(p300);
    const p301 = `/${'b'.repeat(150)}${'c'.repeat(150)}`;
    const q = quotePath(p301);
    expect(q).toBe(`${p301.slice(0, 149)}…${p301.slice(-149)}`);
    expect(q).toHaveLength(299);
  });

  // Round 11 (docs/security.md). Mutation: quotePath without escapeControls: the refusal holds the raw line break.
  it('quotePath escapes control and bidi characters: a folder named with a line break cannot forge a line of a refusal', () => {
    const p = '/tmp/x\nActGuy allowed /home/me\u202Etxt.sev';
    expect(quotePath(p)).toBe('/tmp/x\\u000aActGuy allowed /home/me\\u202etxt.sev');
    expect(quotePath(`/${'a'.repeat(400)}\u001b`)).toMatch(/…a+\\u001b$/);
    expect(new PathNotAllowedError(p, 'not chosen').message).not.toMatch(/[\n\u202e]/);
  });

  it('its error is a PathNotAllowedError by name and keeps the refused path', () => {
    const policy = createPathPolicy();
    let error: PathNotAllowedError | null = null;
    try {
      policy.check('/nowhere/x.mtn', 'read');
    } catch (e) {
      error = e as PathNotAllowedError;
    }
    expect(error?.name).toBe('PathNotAllowedError');
    expect(error?.path).toBe('/nowhere/x.mtn');
  });

  it('a non-string path is refused as no path given, quoting at most 100 characters of it', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    for (const bad of [undefined, null, 42, {}])
      expect(() => policy.check(bad as unknown as string, 'read')).toThrow(/no path given/);
    let error: PathNotAllowedError | null = null;
    try {
      policy.check(['x'.repeat(250)] as unknown as string, 'read');
    } catch (e) {
      error = e as PathNotAllowedError;
    }
    expect(error).toBeInstanceOf(PathNotAllowedError);
    expect(error?.path).toBe('x'.repeat(100));
  });

  it('a path of exactly 4096 characters is still checked (the limit refuses longer ones only)', () => {
    const policy = createPathPolicy();
    const ws = canonicalPath(join(dir, 'workspace'));
    policy.allowTree(ws);
    let p = ws;
    while (p.length + 201 < 4096) p = join(p, 'd'.repeat(200));
    p = join(p, 'e'.repeat(4096 - p.length - 1));
    expect(p).toHaveLength(4096);
    expect(policy.check(p, 'read')).toBe(p);
    expect(() => policy.check(`${p}f`, 'read')).toThrow(/longer than 4096/);
  });

  it('reading needs no existing folder (a missing file is for the reader to report); writing does', () => {
    const policy = createPathPolicy();
    const ws = canonicalPath(join(dir, 'workspace'));
    policy.allowTree(ws);
    expect(policy.check(join(ws, 'missing', 'x.mtn'), 'read')).toBe(join(ws, 'missing', 'x.mtn'));
    expect(policy.isAllowed(join(ws, 'missing', 'x.mtn'))).toBe(true);
  });

  it('the folder above an allowed tree is not inside it', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace', 'sub'));
    expect(policy.isAllowed(join(dir, 'workspace', 'sub'))).toBe(true);
    expect(policy.isAllowed(join(dir, 'workspace'))).toBe(false);
    expect(policy.isAllowed(join(dir, 'workspace', 'sub', '..'))).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/..c')).toBe(true);
  });

  it('a link whose target climbs out through another link is resolved the way the file system does, not by spelling', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    mkdirSync(join(dir, 'outside', 'deep', 'dir'), { recursive: true });
    writeFileSync(join(dir, 'outside', 'deep', 'secret.mtn'), 'x');
    writeFileSync(join(dir, 'workspace', 'secret.mtn'), 'decoy');
    symlinkSync(join(dir, 'outside', 'deep', 'dir'), join(dir, 'workspace', 'a'));
    // workspace/b -> a/../secret.mtn: spelled, that is workspace/secret.mtn; on disk it is outside/deep/secret.mtn.
    symlinkSync(`a${sep}..${sep}secret.mtn`, join(dir, 'workspace', 'b')); // not join(): it would tidy the ".." away
    expect(() => policy.check(join(dir, 'workspace', 'b'), 'read')).toThrow(/resolves to .*outside.*deep.*secret\.mtn/);
  });

  it('resolves a missing path 20,000 levels deep, as a project may name one (one level at a time, it overflowed the stack)', () => {
    const ws = canonicalPath(join(dir, 'workspace'));
    const deep = `a${sep}`.repeat(20_000);
    expect(canonicalPath(join(ws, 'sub', deep, 'x.sev'))).toBe(join(ws, 'sub', deep, 'x.sev'));
    // Under a dangling link deep inside, the link is still followed to where a write would land.
    symlinkSync(join(dir, 'outside', 'nowhere'), join(ws, 'sub', 'gone'));
    expect(canonicalPath(join(ws, 'sub', 'gone', deep, 'x.sev'))).toBe(
      join(canonicalPath(join(dir, 'outside')), 'nowhere', deep, 'x.sev'),
    );
    // A file in the way keeps the rest as spelled.
    expect(canonicalPath(join(ws, 'sub', 'a.mtn', 'x'))).toBe(join(ws, 'sub', 'a.mtn', 'x'));
  });

  it('follows a chain of 40 dangling links and calls a 41st a loop', () => {
    const policy = createPathPolicy();
    const ws = canonicalPath(join(dir, 'workspace'));
    policy.allowTree(ws);
    const chain = (n: number, tag: string): string => {
      for (let i = 0; i < n; i++)
        symlinkSync(join(ws, i === n - 1 ? `${tag}-end.mtn` : `${tag}${i + 1}`), join(ws, `${tag}${i}`));
      return join(ws, `${tag}0`);
    };
    // Read: a write to a link to nothing is refused whatever the chain (round 50).
    expect(policy.check(chain(40, 'p'), 'read')).toBe(join(ws, 'p-end.mtn'));
    expect(() => policy.check(chain(41, 'q'), 'read')).toThrow(/symbolic links form a loop/);
    expect(() => policy.check(chain(41, 'r'), 'write')).toThrow(/symbolic links form a loop/);
  });

  // Mutation that fails: check without its danglingOutputProblem (the write is allowed, to `gone.mtn`).
  it('refuses a write to a link to nothing inside an allowed tree, naming the link; a read resolves it as before', () => {
    const policy = createPathPolicy();
    const ws = canonicalPath(join(dir, 'workspace'));
    policy.allowTree(ws);
    symlinkSync('gone.mtn', join(ws, 'as.mtn'));
    expect(policy.check(join(ws, 'as.mtn'), 'read')).toBe(join(ws, 'gone.mtn'));
    expect(() => policy.check(join(ws, 'as.mtn'), 'write')).toThrow(
      `ActGuy refused to access ${join(ws, 'as.mtn')}: it is a symbolic link to gone.mtn, which is not there; move that link away or write the output under another name; nothing was written`,
    );
    expect(policy.isAllowed(join(ws, 'as.mtn'))).toBe(true);
    writeFileSync(join(ws, 'gone.mtn'), 'x');
    expect(policy.check(join(ws, 'as.mtn'), 'write')).toBe(join(ws, 'gone.mtn'));
  });

  it('allowing a tree twice keeps one entry; a filtered tree and the same tree unfiltered are two grants', () => {
    const policy = createPathPolicy();
    const ws = canonicalPath(join(dir, 'workspace'));
    policy.allowTree(ws);
    policy.allowTree(join(ws, '.'));
    expect(policy.trees()).toEqual([ws]);
    const other = createPathPolicy();
    other.allowTree(ws, { extensions: ['WAV'] });
    other.allowTree(ws, { extensions: ['wav'] });
    expect(other.trees()).toEqual([]);
    expect(other.isAllowed(join(ws, 'sub', 'a.mtn'))).toBe(false);
    other.allowTree(ws);
    expect(other.trees()).toEqual([ws]);
    expect(other.isAllowed(join(ws, 'sub', 'a.mtn'))).toBe(true);
  });
});

describe('a write to a name granted as a file that is a symbolic link now (round 32)', () => {
  // Chosen (or opened) as a plain file, or as none, and made a link since by whoever may write its folder: the write
  // would replace the file the link leads to, another file the page may write. Mutation that fails: the check gone.
  it('is refused, naming where it leads; a read is checked as before; a link there when chosen is written through', () => {
    const policy = createPathPolicy();
    policy.allowTree(join(dir, 'workspace'));
    const chosen = join(dir, 'outside', 'chosen.mtn');
    const saveAs = join(dir, 'outside', 'new.mtn');
    policy.allowFile(chosen);
    policy.allowFile(saveAs);
    expect(policy.check(chosen, 'write')).toBe(canonicalPath(chosen));
    rmSync(chosen);
    symlinkSync(join(dir, 'workspace', 'sub', 'a.mtn'), chosen);
    symlinkSync(join(dir, 'workspace', 'sub', 'later.mtn'), saveAs);
    for (const [path, to] of [
      [chosen, 'a.mtn'],
      [saveAs, 'later.mtn'],
    ])
      expect(() => policy.check(path, 'write')).toThrow(
        `ActGuy refused to access ${path}: it is a symbolic link to ${join(canonicalPath(join(dir, 'workspace', 'sub')), to)} now, put there since it was chosen or opened, and ActGuy writes nothing through such a link: remove the link, or save a copy with Save As; nothing was written`,
      );
    // Read: the file it leads to is the workspace's, which the page may read anyway.
    expect(policy.check(chosen, 'read')).toBe(canonicalPath(join(dir, 'workspace', 'sub', 'a.mtn')));
    // A link that stood there when it was chosen: its target was granted, not its name.
    const linked = join(dir, 'outside', 'linked.mtn');
    symlinkSync(join(dir, 'outside', 'secret.mtn'), linked);
    policy.allowFile(linked);
    expect(policy.check(linked, 'write')).toBe(canonicalPath(join(dir, 'outside', 'secret.mtn')));
    // Inside a tree, a name is not granted on its own: a link there is the tree's (the user's workspace) as before.
    symlinkSync(join(dir, 'workspace', 'sub', 'a.mtn'), join(dir, 'workspace', 'alias.mtn'));
    expect(policy.check(join(dir, 'workspace', 'alias.mtn'), 'write')).toBe(
      canonicalPath(join(dir, 'workspace', 'sub', 'a.mtn')),
    );
  });
});

describe('allowUnlessLinkedOut: what is named beside a chosen file', () => {
  it('grants a plain file and a folder inside the folder, and nothing a symbolic link inside it carries out', () => {
    const folder = join(dir, 'workspace', 'sub');
    mkdirSync(join(dir, 'outside', 'sounds'));
    writeFileSync(join(dir, 'outside', 'sounds', 'se.wav'), 'x');
    symlinkSync(join(dir, 'outside', 'secret.mtn'), join(folder, 'walk.sev'));
    symlinkSync(join(dir, 'outside', 'sounds'), join(folder, 'sounds'));
    mkdirSync(join(folder, 'own'));
    writeFileSync(join(folder, 'own', 'se.wav'), 'x');
    const policy = createPathPolicy();
    expect(allowUnlessLinkedOut(policy, folder, join(folder, 'a.mtn'))).toBe(true);
    expect(allowUnlessLinkedOut(policy, folder, join(folder, 'walk.sev'))).toBe(false);
    expect(allowUnlessLinkedOut(policy, folder, join(folder, 'sounds'), { as: 'tree', extensions: ['wav'] })).toBe(
      false,
    );
    expect(allowUnlessLinkedOut(policy, folder, join(folder, 'own'), { as: 'tree', extensions: ['wav'] })).toBe(true);
    expect(policy.check(join(folder, 'a.mtn'), 'write')).toBe(canonicalPath(join(folder, 'a.mtn')));
    expect(policy.isAllowed(join(folder, 'own', 'se.wav'))).toBe(true);
    // Neither the link nor where it leads is granted.
    for (const refused of [
      join(folder, 'walk.sev'),
      join(dir, 'outside', 'secret.mtn'),
      join(folder, 'sounds', 'se.wav'),
      join(dir, 'outside', 'sounds', 'se.wav'),
    ])
      expect(policy.isAllowed(refused)).toBe(false);
  });

  it('keeps the grant it is asked for: read-only stays read-only, a tree grants only its extensions', () => {
    const folder = join(dir, 'workspace', 'sub');
    writeFileSync(join(folder, 'se.txt'), 'x');
    const policy = createPathPolicy();
    allowUnlessLinkedOut(policy, folder, join(folder, 'a.mtn'), { as: 'file', readOnly: true });
    allowUnlessLinkedOut(policy, dirname(folder), folder, { as: 'tree', extensions: ['wav'] });
    expect(policy.isAllowed(join(folder, 'a.mtn'))).toBe(true);
    expect(policy.mayWrite(join(folder, 'a.mtn'))).toBe(false);
    expect(policy.isAllowed(join(folder, 'se.txt'))).toBe(false);
  });
});

describe('network paths (round 6)', () => {
  it('a network path no grant spells is refused before it is resolved; one chosen, or inside a chosen folder, passes to the usual check', () => {
    const policy = createPathPolicy();
    // (`\\\\host\\share` is not an absolute path on Linux or macOS: refused there as relative, before this.)
    const unc = process.platform === 'win32' ? ['\\\\evil\\share\\walk.mtn', '\\\\?\\C:\\walk.mtn'] : [];
    for (const p of ['//evil/share/walk.mtn', '//srv/share/ws/../../evil/x.mtn', ...unc]) {
      expect(() => policy.check(p, 'read'), p).toThrow(/it is a network path that was not chosen/);
      expect(policy.mayWrite(p), p).toBe(false);
      expect(policy.isAllowed(p), p).toBe(false);
    }
    policy.allowTree('//srv/share/ws');
    policy.allowFile('\\\\srv\\share\\one.mtn');
    // Spelled as granted (either separator, any letter case), they reach the usual check, which allows them here.
    expect(policy.check('//srv/share/ws/a/walk.mtn', 'read')).toBe(canonicalPath('//srv/share/ws/a/walk.mtn'));
    expect(policy.isAllowed('//srv/share/ws/b.sev')).toBe(true);
    expect(() => policy.check('//SRV/Share/ws/b.sev', 'read')).not.toThrow(/network path/);
    expect(() => policy.check('//srv/share/one.mtn', 'read')).not.toThrow(/network path/);
    expect(() => policy.check('//srv/share/two.mtn', 'read')).toThrow(/it is a network path that was not chosen/);
    expect(() => policy.check('//srv/share/ws/../other/x.mtn', 'read')).toThrow(/network path that was not chosen/);
  });
});

describe('grantedBeside: what is granted only beside an opened motion (round 31)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'actguy-beside-policy-'));
    mkdirSync(join(root, 'sounds'));
    for (const f of ['walk.sev', 'walk.mtn.actguy-tuning.json', join('sounds', 'SE_A.wav')])
      writeFileSync(join(root, f), 'x');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stays beside until a grant without `beside` (a pick, a project, the workspace) makes it chosen', () => {
    const policy = createPathPolicy();
    const sev = join(root, 'walk.sev');
    const sound = join(root, 'sounds', 'SE_A.wav');
    policy.allowFile(sev, { beside: true });
    policy.allowTree(join(root, 'sounds'), { extensions: ['wav'], beside: true });
    expect([policy.grantedBeside(sev), policy.grantedBeside(sound)]).toEqual([true, true]);
    expect(policy.grantedBeside(join(root, 'walk.mtn.actguy-tuning.json'))).toBe(false); // not granted at all
    policy.allowFile(sev, { beside: true, readOnly: true });
    expect(policy.grantedBeside(sev)).toBe(true);
    policy.allowFile(sev);
    policy.allowFile(sev, { beside: true }); // a later open beside a motion leaves a pick a pick
    expect(policy.grantedBeside(sev)).toBe(false);
    policy.allowTree(join(root, 'sounds'), { extensions: ['wav'] });
    expect(policy.grantedBeside(sound)).toBe(false);
    const other = createPathPolicy();
    other.allowFile(sev, { beside: true });
    other.allowTree(root);
    expect(other.grantedBeside(sev)).toBe(false);
  });
});
