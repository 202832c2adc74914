/**
 * Round 12 (docs/security.md): an output whose name (or whole path) leaves no room for the files ActGuy writes beside
 * it failed with ENAMETOOLONG, naming `….actguy-lock` (a file the user never named), only at the commit: `actguy
 * compress -o NAME` compressed first. Every command's outputs are now checked before any work (findOutputClashes,
 * which every writing command calls first), and every write refuses such a name by itself (ownFileNameProblem).
 * Mutations that fail: the `tooLong` check in findOutputClashes removed (the CLI tests: the input is then read, and
 * the write fails with ENAMETOOLONG); outputNameLengthProblem's name check off (the name tests), its path check off
 * (the path test); ownFileNameProblem not calling it (the writeFileAtomic test), or writeFileAtomic asking with the
 * commit's room (the same test: the name at the limit is refused).
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../fsutil';
import { FILE_NAME_MAX_BYTES } from '../../shared/fileSystemLimits';
import { longestOwnSuffixBytes, outputNameLengthProblem, PATH_MAX_BYTES } from '../tempFiles';
import { runCli } from './main';

const ASSETS = join(__dirname, '..', '..', 'assets');
let dir: string;
let err: string[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-namelen-'));
  copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function cli(...argv: string[]): Promise<number> {
  err = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  return runCli(argv);
}

/** A file name of `bytes` UTF-8 bytes ending in `ext`. */
const nameOf = (bytes: number, ext: string) => `${'n'.repeat(bytes - ext.length)}${ext}`;
/** The longest output name there is room for on this machine, in this process. */
const roomy = () => FILE_NAME_MAX_BYTES - longestOwnSuffixBytes();

describe('output names too long for the files beside them', () => {
  it('outputNameLengthProblem: a name one byte past the room, and a path past PATH_MAX, are refused', () => {
    expect(outputNameLengthProblem(join(dir, nameOf(roomy(), '.mt3')))).toBeUndefined();
    expect(outputNameLengthProblem(join(dir, nameOf(roomy() + 1, '.mt3')))).toMatch(
      new RegExp(`is ${roomy() + 1} bytes long; .* give it a name of at most ${roomy()} bytes$`),
    );
    // Multi-byte characters count as their UTF-8 bytes.
    expect(outputNameLengthProblem(join(dir, `${'é'.repeat(Math.ceil(roomy() / 2))}.mt3`))).toBeDefined();
    const deep = join(dir, ...Array.from({ length: Math.ceil(PATH_MAX_BYTES / 100) }, () => 'd'.repeat(99)), 'x.mt3');
    expect(outputNameLengthProblem(deep)).toMatch(/passes the 4095 a path may have/);
  });

  it('compress -o NAME is refused before the input is read, naming -o, nothing written', async () => {
    const long = nameOf(roomy() + 1, '.mt3');
    // The input does not exist: the refusal comes first, so nothing was read (let alone compressed).
    expect(await cli('compress', join(dir, 'missing.mtn'), '-o', join(dir, long))).not.toBe(0);
    expect(err.join('\n')).toMatch(
      /-o: the file name "n+… \(\d+ characters\) is \d+ bytes long; ActGuy writes its temp/,
    );
    expect(err.join('\n')).not.toMatch(/ENAMETOOLONG|missing\.mtn/);
    expect(await cli('compress', join(dir, 'walk.mtn'), '-o', join(dir, long), '--quiet')).not.toBe(0);
    expect(err.join('\n')).not.toContain('ENAMETOOLONG');
    expect(readdirSync(dir)).toEqual(['walk.mtn']);
    // At the limit it is written.
    const fits = nameOf(roomy(), '.mt3');
    expect(await cli('compress', join(dir, 'walk.mtn'), '-o', join(dir, fits), '--quiet')).toBe(0);
    expect(existsSync(join(dir, fits))).toBe(true);
    rmSync(join(dir, fits));
  });

  it('other commands: --report, pack-mar -o, build -o OUTDIR too deep', async () => {
    expect(
      await cli(
        'compress',
        join(dir, 'walk.mtn'),
        '-o',
        join(dir, 'w.mt3'),
        '--report',
        join(dir, nameOf(250, '.json')),
      ),
    ).not.toBe(0);
    expect(err.join('\n')).toContain('--report: the file name');
    expect(await cli('pack-mar', '-o', join(dir, nameOf(roomy() + 1, '.mar')), join(dir, 'missing.mt3'))).not.toBe(0);
    expect(err.join('\n')).toContain('-o: the file name');
    const deep = join(dir, ...Array.from({ length: 41 }, () => 'd'.repeat(99)));
    expect(await cli('build', join(ASSETS, 'sample.actguy.json'), '-o', deep, '--no-cache')).not.toBe(0);
    expect(err.join('\n')).toMatch(/outputs\.mar: the path "[^ ]+ \(\d+ characters\) is \d+ bytes long once absolute/);
    expect(readdirSync(dir)).toEqual(['walk.mtn']);
  });

  it("the app's saves (writeFileAtomic) refuse such a name by itself, with the room a single temp needs", () => {
    const room = FILE_NAME_MAX_BYTES - longestOwnSuffixBytes('single');
    expect(room).toBeGreaterThan(roomy());
    const target = join(dir, nameOf(room + 1, '.mtn'));
    expect(() => writeFileAtomic(target, 'x')).toThrow(/is \d+ bytes long; ActGuy writes its temp/);
    expect(readdirSync(dir)).toEqual(['walk.mtn']);
    writeFileAtomic(join(dir, nameOf(room, '.mtn')), 'x');
    expect(existsSync(join(dir, nameOf(room, '.mtn')))).toBe(true);
    rmSync(join(dir, nameOf(room, '.mtn')));
  });
});
