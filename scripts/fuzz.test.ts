/**
 * The fuzz harness in CI: a short deterministic pass over every reader and
 * importer (the long pass is `npm run fuzz -- --count 100000`, see the
 * README), and the harness's own guarantees: inputs repeat exactly, every
 * kind of defect is detected, counted and saved, findings are minimized.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzInput, minimize, runOne, runRange, targetByName } from './fuzz/harness';
import { DEFECT_KINDS, TARGETS, judgeAsync } from './fuzz/targets';
import { FormatError } from '../shared/errors';

/** Inputs per format in CI: a few thousand, a few seconds each (a target may ask for fewer: ciCount). */
const CI_COUNT = 2000;

describe('short fuzz pass (CI)', () => {
  it.each(TARGETS.map((t) => t.name))(
    '%s: no crash, hang, invalid acceptance or unnamed error',
    async (format) => {
      const count = targetByName(format).ciCount ?? CI_COUNT;
      const { tally, findings } = await runRange(format, { seed: 1, from: 0, to: count, perSignature: 1 });
      expect(findings.map((f) => `${f.kind} #${f.index}: ${f.message}`)).toEqual([]);
      for (const k of DEFECT_KINDS) expect(tally.defects[k]).toBe(0);
      expect(tally.inputs).toBe(count);
      // The mutations must reach both sides of the reader: some inputs refused, some still valid.
      expect(tally.rejected).toBeGreaterThan(count / 20);
      expect(tally.accepted).toBeGreaterThan(count / 100);
    },
    180_000,
  );
});

describe('the harness itself', () => {
  it('gives the same bytes for the same (seed, format, index), other bytes for another index or seed', () => {
    for (const t of TARGETS) {
      const a = fuzzInput(t, 3, 41);
      expect(fuzzInput(t, 3, 41)).toEqual(a);
      const others = [fuzzInput(t, 3, 42), fuzzInput(t, 4, 41), fuzzInput(t, 3, 43)];
      expect(
        others.some((o) => o.byteLength !== a.byteLength || Buffer.compare(Buffer.from(o), Buffer.from(a)) !== 0),
      ).toBe(true);
    }
  });

  it('counts a thrown TypeError as a crash and an accepted-but-invalid result as invalid, in-process', async () => {
    const crash = await runRange('selftest-crash', { seed: 1, from: 0, to: 5 });
    expect(crash.tally.defects.crash).toBe(5);
    expect(crash.findings[0].message).toMatch(/^TypeError: /);
    const invalid = await runRange('selftest-invalid', { seed: 1, from: 0, to: 5 });
    expect(invalid.tally.defects.invalid).toBe(5);
    expect(invalid.findings[0].message).toBe('accepted, then: Error: a length is never negative');
  });

  it('judges a real reader: a FormatError is a rejection, a valid file is accepted', async () => {
    const sls = targetByName('sls');
    expect(await runOne(sls, new Uint8Array(Buffer.from('A 1\nB 0x2\n')))).toEqual({ outcome: 'accepted' });
    expect(await runOne(sls, new Uint8Array(Buffer.from('A 0x10000\n')))).toEqual({ outcome: 'rejected' });
    expect(await runOne(targetByName('mtn'), new Uint8Array(10))).toEqual({ outcome: 'rejected' });
  });

  it("counts an importer's refusal that names the file but no place as unnamed (how a caught TypeError reached the user)", async () => {
    const refuse = (place: { line?: number; offset?: number; where?: string }) => () =>
      Promise.reject(new FormatError('FBX', 'could not be imported (x is not a function)', place, 'x.fbx'));
    await expect(judgeAsync(refuse({}), () => undefined, 'x.fbx')).rejects.toMatchObject({
      kind: 'unnamed',
      message: expect.stringMatching(/^error names no place in x\.fbx: /),
    });
    for (const place of [{ line: 3 }, { offset: 12 }, { where: 'Objects' }])
      expect(await judgeAsync(refuse(place), () => undefined, 'x.fbx')).toBe('rejected');
  });

  it('minimizes a finding while it fails the same way', async () => {
    const t = targetByName('selftest-crash');
    const big = new Uint8Array(4000).fill(7);
    const small = await minimize(t, big, 'crash', 'TypeError: b.notAFunction is not a function');
    expect(small.byteLength).toBe(0);
    // A defect that needs a marker byte keeps it.
    const marked = {
      ...t,
      run: (b: Uint8Array) => (b.includes(0xee) ? t.run(b) : ('rejected' as const)),
    };
    const input = new Uint8Array(512).fill(1);
    input[300] = 0xee;
    expect(Array.from(await minimize(marked, input, 'crash', 'TypeError: b.notAFunction is not a function'))).toEqual([
      0xee,
    ]);
  });
});

describe('npm run fuzz (the CLI with its worker and watchdog)', () => {
  const repo = resolve(__dirname, '..');
  let dir = '';
  let cli = '';
  beforeAll(async () => {
    // Two levels below the repository, as dist/fuzz/ is, so the bundled assets path holds.
    mkdirSync(join(repo, 'dist'), { recursive: true });
    dir = mkdtempSync(join(repo, 'dist', 'fuzz-test-'));
    cli = join(dir, 'fuzz.cjs');
    const common = {
      bundle: true,
      platform: 'node' as const,
      format: 'cjs' as const,
      target: 'node20',
      logLevel: 'error' as const,
    };
    await build({ ...common, entryPoints: [join(repo, 'scripts', 'fuzz.ts')], outfile: cli });
    await build({
      ...common,
      entryPoints: [join(repo, 'scripts', 'fuzz', 'worker.ts')],
      outfile: join(dir, 'fuzzWorker.cjs'),
    });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fuzz = (args: string[]) =>
    spawnSync(process.execPath, [cli, ...args, '--out', join(dir, 'repro')], { encoding: 'utf8', timeout: 120_000 });
  const row = (stdout: string, format: string) => {
    const cells = stdout
      .split('\n')
      .find((l) => l.startsWith(`${format} `))!
      .trim()
      .split(/\s+/);
    const head = ['format', 'inputs', 'accepted', 'rejected', ...DEFECT_KINDS];
    return Object.fromEntries(head.map((h, i) => [h, cells[i]]));
  };

  it('prints the table and exits 0 when a real format has no defects', () => {
    const r = fuzz(['--format', 'sls,mtn', '--count', '200', '--seed', '9']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(row(r.stdout, 'sls')).toMatchObject({ inputs: '200', crash: '0', hang: '0', memory: '0' });
    expect(row(r.stdout, 'mtn').inputs).toBe('200');
    expect(r.stdout).toMatch(/^total +400 /m);
  }, 120_000);

  it('stops an input that spins past the time limit, counts it as a hang and saves it, then goes on', () => {
    const r = fuzz(['--format', 'selftest-hang', '--count', '2', '--time-limit', '150']);
    expect(r.status).toBe(1);
    expect(row(r.stdout, 'selftest-hang')).toMatchObject({ inputs: '2', hang: '2' });
    const saved = readdirSync(join(dir, 'repro', 'selftest-hang')).sort();
    expect(saved).toEqual([
      'hang-seed1-input0.bin',
      'hang-seed1-input0.txt',
      'hang-seed1-input1.bin',
      'hang-seed1-input1.txt',
    ]);
    expect(readFileSync(join(dir, 'repro', 'selftest-hang', 'hang-seed1-input0.txt'), 'utf8')).toMatch(
      /hang: still running after 150 ms of CPU time \(twice\)/,
    );
  }, 120_000);

  it('stops an input that grows the process past the memory limit and counts it', () => {
    const r = fuzz(['--format', 'selftest-memory', '--count', '1', '--memory-mb', '256']);
    expect(r.status).toBe(1);
    expect(row(r.stdout, 'selftest-memory')).toMatchObject({ inputs: '1', memory: '1' });
    expect(existsSync(join(dir, 'repro', 'selftest-memory', 'memory-seed1-input0.bin'))).toBe(true);
  }, 120_000);

  it('refuses an unknown format or option with a message', () => {
    const r = fuzz(['--format', 'nope']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^fuzz: unknown format "nope" \(known: mtn, mt3, /);
  });
});
