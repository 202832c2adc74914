/**
 * Round 11 (docs/security.md): a project written on macOS names `café.sev` with `é` as one code point (NFC) while
 * the file unpacked from its archive spells it `e` + U+0301 (NFD), or the reverse; or names `Walk.sev` for
 * `walk.sev`. macOS and Windows open either spelling, Linux only the one on disk, and both print alike: the build
 * said "no such file or directory" beside a file that looks exactly like the one named. The message now names the
 * file of the other spelling. Mutation: `otherSpellingHint` returning undefined: every expectation of a hint fails.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject } from './build';
import { readInputFile } from './files';

const dir = mkdtempSync(join(tmpdir(), 'actguy-spelling-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ASSETS = join(__dirname, '..', '..', 'assets');
const NFC = 'caf\u00e9.sev';
const NFD = 'cafe\u0301.sev';

describe('a missing input whose name is on disk in another spelling', () => {
  it('names the file of the other Unicode form (NFD on disk, NFC named, and the reverse)', () => {
    writeFileSync(join(dir, NFD), 'x');
    writeFileSync(join(dir, 'n\u00e4he.sev'), 'x'); // NFC on disk
    expect(() => readInputFile(join(dir, NFC))).toThrow(
      `no such file or directory; the folder has ${JSON.stringify(NFD)}, the same name in another Unicode form (NFD, as macOS writes it)`,
    );
    expect(() => readInputFile(join(dir, 'na\u0308he.sev'))).toThrow(
      'the same name in another Unicode form (NFC); rename the file or the path that names it',
    );
  });

  it('names the file that differs only in letter case, and says nothing more when there is none', () => {
    writeFileSync(join(dir, 'Walk.SEV'), 'x');
    expect(() => readInputFile(join(dir, 'walk.sev'))).toThrow(
      'no such file or directory; the folder has "Walk.SEV", which differs only in letter case',
    );
    expect(() => readInputFile(join(dir, 'other.sev'))).toThrow(/^no such file or directory$/);
    expect(() => readInputFile(join(dir, 'no-folder', 'x.sev'))).toThrow(/^no such file or directory$/);
  });

  it('reaches the build: the project error at motions[0].sev names the NFD file', async () => {
    const p = mkdtempSync(join(dir, 'p-'));
    for (const f of ['walk.mtn', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(p, f));
    writeFileSync(join(p, NFD), readFileSync(join(ASSETS, 'walk.sev')));
    const project = join(p, 'p.actguy.json');
    writeFileSync(
      project,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: NFC }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
      }),
    );
    const r = await buildProject(project, { cacheDir: null });
    expect(r.ok).toBe(false);
    const said = r.ok ? '' : r.errors.map((e) => e.message).join('\n');
    expect(said).toContain('(motions[0].sev)');
    expect(said).toContain(`the folder has ${JSON.stringify(NFD)}, the same name in another Unicode form`);
  });
});
