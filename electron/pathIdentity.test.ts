import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOutputClashes, OutputClashError, refuseOutputClashes, sameFile } from './pathIdentity';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'actguy-identity-'));
  dirs.push(d);
  return d;
}

describe('sameFile', () => {
  it('sees one file through ./, .., relative, absolute, symlink and hard-link spellings', () => {
    const d = tempDir();
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'a.mtn'), 'x');
    symlinkSync(join(d, 'a.mtn'), join(d, 'link.mtn'));
    linkSync(join(d, 'a.mtn'), join(d, 'hard.mtn'));
    symlinkSync(join(d, 'sub'), join(d, 'subLink'));
    const a = join(d, 'a.mtn');
    expect(sameFile(a, join(d, '.', 'a.mtn'))).toBe(true);
    expect(sameFile(a, join(d, 'sub', '..', 'a.mtn'))).toBe(true);
    expect(sameFile(a, relative(process.cwd(), a))).toBe(true);
    expect(sameFile(a, join(d, 'link.mtn'))).toBe(true);
    expect(sameFile(a, join(d, 'hard.mtn'))).toBe(true);
    // files that do not exist yet compare by their canonical path (links in the folder resolved)
    expect(sameFile(join(d, 'sub', 'new.mar'), join(d, 'subLink', 'new.mar'))).toBe(true);
    expect(sameFile(join(d, 'sub', 'new.mar'), join(d, 'sub', 'other.mar'))).toBe(false);
    expect(sameFile(a, join(d, 'b.mtn'))).toBe(false);
  });

  it('case spellings: the same file only where the file system ignores case', () => {
    const d = tempDir();
    writeFileSync(join(d, 'walk.mtn'), 'x');
    writeFileSync(join(d, 'WALK.mtn'), 'y');
    // This folder is case-sensitive (two files exist), so the spellings are two files.
    expect(sameFile(join(d, 'walk.mtn'), join(d, 'WALK.mtn'))).toBe(false);
  });
});

describe('findOutputClashes', () => {
  it("names an output that is an input, and an output given twice, in the user's spellings", () => {
    const d = tempDir();
    writeFileSync(join(d, 'a.mtn'), 'x');
    const problems = findOutputClashes(
      [{ path: join(d, 'a.mtn'), role: 'the input' }],
      [
        { path: join(d, '.', 'a.mtn'), role: '-o' },
        { path: join(d, 'r.json'), role: '--report' },
        { path: join(d, 'x', '..', 'r.json'), role: 'the other' },
      ],
    );
    expect(problems).toEqual([
      `-o ${join(d, '.', 'a.mtn')} is the input ${join(d, 'a.mtn')}; an output never overwrites an input`,
      `the other ${join(d, 'x', '..', 'r.json')} is also --report ${join(d, 'r.json')}; each output needs a file of its own`,
    ]);
    expect(() =>
      refuseOutputClashes([{ path: join(d, 'a.mtn'), role: 'the input' }], [{ path: join(d, 'a.mtn'), role: '-o' }]),
    ).toThrow(OutputClashError);
    expect(() =>
      refuseOutputClashes([{ path: join(d, 'a.mtn'), role: 'the input' }], [{ path: join(d, 'b.mt3'), role: '-o' }]),
    ).not.toThrow();
  });

  it('where every output exists (a rebuild), an input that is one of them by a link, a hard link or another spelling is still named among many that are not', () => {
    const d = tempDir();
    mkdirSync(join(d, 'out'));
    for (const o of ['a.mar', 'a.sar', 'a.json']) writeFileSync(join(d, 'out', o), o);
    const inputs = Array.from({ length: 50 }, (_, k) => {
      writeFileSync(join(d, `m${k}.mtn`), `m${k}`);
      return { path: join(d, `m${k}.mtn`), role: `motion ${k}` };
    });
    symlinkSync(join(d, 'out', 'a.mar'), join(d, 'link.mtn'));
    linkSync(join(d, 'out', 'a.sar'), join(d, 'hard.sev'));
    symlinkSync(join(d, 'out'), join(d, 'outLink'));
    inputs.splice(10, 0, { path: join(d, 'link.mtn'), role: 'the link' });
    inputs.splice(30, 0, { path: join(d, 'hard.sev'), role: 'the hard link' });
    inputs.push({ path: join(d, 'outLink', '.', 'a.json'), role: 'the spelling' });
    inputs.push({ path: join(d, 'missing.mtn'), role: 'the missing input' }, { path: d, role: 'the folder' });
    const outputs = ['a.mar', 'a.sar', 'a.json'].map((o) => ({ path: join(d, 'out', o), role: o }));
    expect(findOutputClashes(inputs, outputs)).toEqual([
      `a.mar ${join(d, 'out', 'a.mar')} is the link ${join(d, 'link.mtn')}; an output never overwrites an input`,
      `a.sar ${join(d, 'out', 'a.sar')} is the hard link ${join(d, 'hard.sev')}; an output never overwrites an input`,
      `a.json ${join(d, 'out', 'a.json')} is the spelling ${join(d, 'outLink', '.', 'a.json')}; an output never overwrites an input`,
    ]);
    // One output not there yet: every input gets its whole identity, with the same answers for the others.
    rmSync(join(d, 'out', 'a.json'));
    expect(findOutputClashes(inputs, outputs)).toEqual([
      `a.mar ${join(d, 'out', 'a.mar')} is the link ${join(d, 'link.mtn')}; an output never overwrites an input`,
      `a.sar ${join(d, 'out', 'a.sar')} is the hard link ${join(d, 'hard.sev')}; an output never overwrites an input`,
      `a.json ${join(d, 'out', 'a.json')} is the spelling ${join(d, 'outLink', '.', 'a.json')}; an output never overwrites an input`,
    ]);
  });

  it('two outputs differing only in case clash where their folder does not exist yet; in an existing case-sensitive folder they do not', () => {
    const d = tempDir();
    const fresh = join(d, 'new', 'out');
    expect(
      findOutputClashes(
        [],
        [
          { path: join(fresh, 'stage.mar'), role: 'mar' },
          { path: join(fresh, 'STAGE.mar'), role: 'sar' },
        ],
      ),
    ).toEqual([
      `sar ${join(fresh, 'STAGE.mar')} and mar ${join(fresh, 'stage.mar')} differ only in letter case, and their folder does not exist yet (where it ignores case they are one file); give the outputs names that differ in more than case`,
    ]);
    // This folder exists and is case-sensitive (two files differing in case live in it): two files, no clash.
    writeFileSync(join(d, 'probe'), 'x');
    writeFileSync(join(d, 'PROBE'), 'y');
    expect(
      findOutputClashes(
        [],
        [
          { path: join(d, 'stage.mar'), role: 'mar' },
          { path: join(d, 'STAGE.mar'), role: 'sar' },
        ],
      ),
    ).toEqual([]);
    expect(
      findOutputClashes(
        [],
        [
          { path: join(fresh, 'stage.mar'), role: 'mar' },
          { path: join(fresh, 'stage.sar'), role: 'sar' },
        ],
      ),
    ).toEqual([]);
    // Round 55. Mutation that fails: the fold as NFC and lower case (the dotless i and I were two names).
    expect(
      findOutputClashes(
        [],
        [
          { path: join(fresh, 'idle.json'), role: 'report' },
          { path: join(fresh, '\u0131dle.json'), role: 'msh' },
        ],
      ),
    ).toEqual([
      `msh ${join(fresh, '\u0131dle.json')} and report ${join(fresh, 'idle.json')} differ only in letter case, and their folder does not exist yet (where it ignores case they are one file); give the outputs names that differ in more than case`,
    ]);
  });
});

// Round 11 (docs/security.md). Mutation: the `lookalike` check in findOutputClashes removed: both cases pass
// unrefused (the project build below then writes its report and an MSH node list to one file on macOS).
describe('outputs whose names differ only in Unicode form', () => {
  it('clash in a folder yet to be made and in an existing one, whatever this disk does with them', () => {
    const d = tempDir();
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    for (const dir of [join(d, 'new'), d]) {
      const problems = findOutputClashes(
        [],
        [
          { path: join(dir, nfd, 'walk.nodes.json'), role: 'outputs.report' },
          { path: join(dir, 'x.mar'), role: 'outputs.mar' },
          { path: join(dir, nfc, 'walk.nodes.json'), role: 'outputs.msh walk.nodes.json' },
        ],
      );
      expect(problems).toEqual([
        `outputs.msh walk.nodes.json ${join(dir, nfc, 'walk.nodes.json')} and outputs.report ${join(dir, nfd, 'walk.nodes.json')} differ only in the Unicode form of their names (they look alike, and macOS takes them for one file); give the outputs names that differ in more than that`,
      ]);
    }
    // Names of one form that differ in letters are two files.
    expect(
      findOutputClashes(
        [],
        [
          { path: join(d, nfc, 'a.json'), role: 'a' },
          { path: join(d, nfc, 'b.json'), role: 'b' },
        ],
      ),
    ).toEqual([]);
  });
});
