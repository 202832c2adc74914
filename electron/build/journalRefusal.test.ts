/**
 * A commit journal is input, not an instruction (docs/safety-journal.md): a
 * planted journal that does not provably belong to exactly the outputs being
 * written is refused by name and no file changes, whether the commit is
 * reached through commitOutputs, recovery alone or the real `actguy build`.
 * The legitimate cases (a real interrupted commit completed or rolled back)
 * are in commit.test.ts and commitKill.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from './build';
import { commitOutputs, recoverOutputs } from './commit';
import { inProcessCompressor, type MotionCompressor } from './compressPool';
import { writeBuiltWalkProject } from '../testing/builtProject';
import { HOSTILE_JOURNALS, hashTree, journalOf, outsideFolder, type JournalScene } from './hostileJournalsForTests';

const root = join(__dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'actguy-journal-'));
  dirs.push(d);
  return d;
}

const refusal = (journal: string) => `refused the commit journal ${journal}: `;
const HOW_TO_CLEAR =
  'so nothing was changed. If no ActGuy run is writing these outputs, move the journal aside (rename or delete it) and run again';

describe('commitOutputs and recoverOutputs refuse a journal they did not write for these outputs', () => {
  it.each(HOSTILE_JOURNALS.map((h) => [h.name, h] as const))('%s', (_, hostile) => {
    const dir = tempDir();
    const proj = join(dir, 'proj');
    mkdirSync(join(proj, 'out'), { recursive: true });
    const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
    const inputs = [join(proj, 'walk.mtn'), join(proj, 'walk.sev')];
    for (const p of [...outputs, ...inputs]) writeFileSync(p, `old ${p}\n`);
    const scene: JournalScene = { outputs, inputs, outside: outsideFolder(dir) };
    hostile.plant(scene);
    const before = hashTree(dir);
    const files = outputs.map((path) => ({ path, bytes: new TextEncoder().encode('new\n') }));
    for (const run of [() => commitOutputs(files), () => recoverOutputs(outputs)]) {
      let message = '';
      try {
        run();
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toContain(refusal(journalOf(outputs)));
      expect(message).toContain(HOW_TO_CLEAR);
      expect(hashTree(dir)).toEqual(before);
    }
  });

  it('says what is wrong: bad JSON, an old journal without its outputs, an entry outside the outputs, a temp not of our naming', () => {
    const dir = tempDir();
    const outputs = [join(dir, 'a.mar'), join(dir, 'a.sar')];
    const journal = journalOf(outputs);
    const files = outputs.map((path) => ({ path, bytes: new Uint8Array([1]) }));
    const entries = outputs.map((path) => ({ path, temp: `${path}.actguy-new.h.1.a.tmp`, backup: null }));
    const cases: [unknown, string][] = [
      [
        '{"tool": "actguy commit" "state": 1}',
        "it is not valid JSON (Expected ',' or '}' after property value in JSON at position 25",
      ],
      [
        { tool: 'actguy commit', version: 1, state: 'forward', entries },
        'it does not name the outputs it belongs to (journal version 1; this ActGuy writes version 2)',
      ],
      [
        { tool: 'actguy commit', version: 2, state: 'forward', outputs: [outputs[0], join(dir, 'keep.txt')], entries },
        `output 2 "${join(dir, 'keep.txt')}" is not one of the outputs of this run`,
      ],
      [
        {
          tool: 'actguy commit',
          version: 2,
          state: 'forward',
          outputs,
          entries: [entries[0], { ...entries[1], temp: join(dir, 'x') }],
        },
        `entry 2: "${join(dir, 'x')}" is not a temp file of "${outputs[1]}" (a.sar.actguy-new.….tmp beside it)`,
      ],
      [
        { tool: 'actguy commit', version: 2, state: 'sideways', outputs, entries },
        'its state "sideways" is neither "forward" nor "back"',
      ],
    ];
    for (const [content, why] of cases) {
      writeFileSync(journal, typeof content === 'string' ? content : JSON.stringify(content));
      expect(() => commitOutputs(files)).toThrow(`${refusal(journal)}${why}`);
    }
  });
});

describe('actguy build with a planted journal', () => {
  const cli = join(root, 'dist', 'cli', 'actguy.cjs');
  let template: string;
  beforeAll(() => {
    template = mkdtempSync(join(tmpdir(), 'actguy-journal-cli-'));
    writeBuiltWalkProject(template);
  }, 60_000);
  afterAll(() => rmSync(template, { recursive: true, force: true }));

  it.each(HOSTILE_JOURNALS.map((h) => [h.name, h] as const))(
    '%s: exits 1 naming the journal, every file byte-identical',
    (_, hostile) => {
      const dir = tempDir();
      const proj = join(dir, 'proj');
      cpSync(template, proj, { recursive: true });
      const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
      expect(readFileSync(outputs[0]).byteLength).toBeGreaterThan(0);
      hostile.plant({ outputs, inputs: [join(proj, 'walk.mtn'), join(proj, 'walk.sev')], outside: outsideFolder(dir) });
      const before = hashTree(dir);
      // Run from the project folder, so relative entries would land on the project's own files.
      const r = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--quiet', '--no-cache'], {
        cwd: proj,
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`actguy build: ${refusal(journalOf(outputs))}`);
      expect(r.stderr).toContain(HOW_TO_CLEAR);
      expect(hashTree(dir)).toEqual(before);
    },
    30_000,
  );

  it("a journal naming the outputs as /proc/self/cwd/… (run from the project folder) never reaches the user's MSH files", () => {
    // Round 13 (docs/security.md): the outputs spelled through the working folder's link are the outputs, by identity,
    // wherever the user unpacked the folder. State back, no temps: the roll-back deleted the user's own walk.res8 and
    // walk.nodes.json (which a build replaces only when they are an export's) and the build then wrote its own, exit 0.
    const dir = tempDir();
    const proj = join(dir, 'proj');
    cpSync(template, proj, { recursive: true });
    const project = JSON.parse(readFileSync(join(proj, 'p.actguy.json'), 'utf8'));
    project.outputs.msh = '.';
    writeFileSync(join(proj, 'p.actguy.json'), JSON.stringify(project));
    writeFileSync(join(proj, 'walk.res8'), "another tool's key pool\n");
    writeFileSync(join(proj, 'walk.nodes.json'), '{"mine": "my own node list"}\n');
    const named = [
      'out/stage.mar',
      'out/stage.sar',
      'out/stage.report.json',
      'walk.res8',
      'walk.res19',
      'walk.nodes.json',
    ];
    const spelled = named.map((n) => `/proc/self/cwd/${n}`);
    const journal = join(proj, 'out', 'stage.mar.actguy-commit');
    writeFileSync(
      journal,
      JSON.stringify({
        tool: 'actguy commit',
        version: 2,
        state: 'back',
        outputs: spelled,
        entries: spelled.map((path) => ({ path, temp: `${path}.actguy-new.h.1.a.tmp`, backup: null })),
      }),
    );
    const before = hashTree(dir);
    const r = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--quiet', '--no-cache'], {
      cwd: proj,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`actguy build: ${refusal(journal)}`);
    expect(hashTree(dir)).toEqual(before);
  }, 30_000);

  it('refuses the journal before any work: nothing is compressed first', async () => {
    const dir = tempDir();
    const proj = join(dir, 'proj');
    cpSync(template, proj, { recursive: true });
    const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
    HOSTILE_JOURNALS[0].plant({ outputs, inputs: [join(proj, 'walk.mtn')], outside: outsideFolder(dir) });
    const before = hashTree(dir);
    let compressed = 0;
    const compressor: MotionCompressor = {
      jobs: 1,
      compress: async () => {
        compressed++;
        throw new Error('compressed before the journal was checked');
      },
      verifyOrCompress: async () => {
        compressed++;
        throw new Error('compressed before the journal was checked');
      },
      close: async () => {},
    };
    await expect(
      buildProject(join(proj, 'p.actguy.json'), { compressor, cacheDir: null, stateDir: join(dir, 'state') }),
    ).rejects.toThrow(refusal(journalOf(outputs)));
    expect(compressed).toBe(0);
    expect(hashTree(dir)).toEqual(before);
    // A dry run commits nothing: the journal is not its business.
    const dry = await buildProject(join(proj, 'p.actguy.json'), {
      compressor: inProcessCompressor(),
      cacheDir: null,
      stateDir: join(dir, 'state'),
      dryRun: true,
    });
    expect(dry.ok).toBe(true);
  });

  // Round 24: the check before the work is not what protects the outputs; the commit's own check under its lock is.
  // Mutation that fails: the commit's recoverLocked skipped (the journal under the lock not read), the build then ok.
  it('a journal planted after the check before the work, while the motions compress, is refused at the commit', async () => {
    const dir = tempDir();
    const proj = join(dir, 'proj');
    cpSync(template, proj, { recursive: true });
    const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
    const before = outputs.map((p) => readFileSync(p));
    const real = inProcessCompressor();
    let planted = false;
    const plantOnce = () => {
      if (planted) return;
      planted = true;
      HOSTILE_JOURNALS[0].plant({ outputs, inputs: [join(proj, 'walk.mtn')], outside: outsideFolder(dir) });
    };
    const compressor: MotionCompressor = {
      ...real,
      compress: (...a) => (plantOnce(), real.compress(...a)),
      verifyOrCompress: (...a) => (plantOnce(), real.verifyOrCompress(...a)),
    };
    await expect(
      buildProject(join(proj, 'p.actguy.json'), { compressor, cacheDir: null, stateDir: join(dir, 'state') }),
    ).rejects.toThrow(refusal(journalOf(outputs)));
    expect(planted).toBe(true);
    expect(outputs.map((p) => readFileSync(p))).toEqual(before);
  });

  it('after the journal is moved aside, the build runs and rewrites every output', () => {
    const dir = tempDir();
    const proj = join(dir, 'proj');
    cpSync(template, proj, { recursive: true });
    const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
    const good = outputs.map((p) => readFileSync(p));
    writeFileSync(outputs[1], 'damaged');
    // A report cut short keeps its first line, so it is a report still; one damaged from its first byte is moved
    // away first, as the refusal says (receivedProject.test.ts).
    writeFileSync(outputs[2], readFileSync(outputs[2]).subarray(0, 30));
    HOSTILE_JOURNALS[0].plant({ outputs, inputs: [join(proj, 'walk.mtn')], outside: outsideFolder(dir) });
    const build = () =>
      spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--quiet', '--no-cache'], {
        cwd: proj,
        encoding: 'utf8',
      });
    expect(build().status).toBe(1);
    renameSync(journalOf(outputs), `${journalOf(outputs)}.refused`);
    const r = build();
    expect(r.status, r.stderr).toBe(0);
    // The .mar and .sar are the same bytes again; the report is written anew (it records the build's time).
    expect(outputs.slice(0, 2).map((p, k) => readFileSync(p).equals(good[k]))).toEqual([true, true]);
    expect(JSON.parse(readFileSync(outputs[2], 'utf8')).outputs.mar.path).toBe('out/stage.mar');
  }, 30_000);
});
