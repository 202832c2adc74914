/**
 * A size checked on one file and a read of another (docs/security.md, round 14): five readers stat'ed a path, refused
 * it when too large, then read the path again with no limit, so a file swapped in between (a folder shared with the
 * sender: a synced or network folder they can still write) was read whole. Each swap is made here by statSync itself
 * (node:fs's, wrapped: it reports the file that was there), so the race is won every time and nothing is timed. Each test names its mutation:
 * the read back without its limit.
 */
import * as realFs from 'node:fs';
import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync, closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Paths whose statSync reports another file (the small one that was there when it was checked) while the path holds
 * the big one: what a stat sees when the file is swapped right after it, however many stats a reader takes first.
 */
const swaps = new Map<string, string>();
/** Bytes read by readSync since the test began (what was read is counted, never timed). */
const counted = { bytes: 0 };
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const statSync = ((path: realFs.PathLike, options?: realFs.StatSyncOptions) =>
    fs.statSync(swaps.get(String(path)) ?? path, options)) as typeof fs.statSync;
  const readSync = ((...a: Parameters<typeof fs.readSync>) => {
    const n = (fs.readSync as (...b: unknown[]) => number)(...a);
    counted.bytes += n;
    return n;
  }) as typeof fs.readSync;
  return { ...fs, statSync, readSync, default: { ...fs, statSync, readSync } };
});

/** Puts `bytes` (sparse: a few blocks on disk) at `path`, and has statSync report the file `path` held before. */
function swapIn(path: string, bytes: number | string): void {
  const before = `${path}.before`;
  realFs.copyFileSync(path, before);
  if (typeof bytes === 'string') writeFileSync(path, bytes);
  else {
    closeSync(openSync(path, 'w'));
    truncateSync(path, bytes);
  }
  swaps.set(path, before);
}

const { runCli } = await import('./cli/main');
const { findProjectOfSar } = await import('./build/sarNames');
const { externalBufferReader } = await import('./interchange/importJob');
const { testProjectHandlers } = await import('./testing/projectHarness');
const { testHandlers, tempWorkspace, scriptedDialogs, useCompressClientPerTest, SAMPLE_MTN } =
  await import('./testing/handlerHarness');

const ASSETS = join(__dirname, '..', 'assets');
let dir: string;
beforeEach(() => {
  counted.bytes = 0;
  dir = mkdtempSync(join(tmpdir(), 'actguy-swap-'));
});
afterEach(() => {
  swaps.clear();
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const compress = useCompressClientPerTest();

describe('a file swapped in after its size was checked is not read whole', () => {
  it('actguy compress: the tuning file beside the motion', async () => {
    // Mutation killed: readTuningFile's readBytes without its limit: the 1 MiB of NULs swapped in is read, and the
    // command fails on it as text ("not valid UTF-8"/JSON) rather than on its size.
    copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
    const tuning = join(dir, 'walk.mtn.actguy-tuning.json');
    writeFileSync(tuning, '{"version": 1}');
    swapIn(tuning, 1024 * 1024);
    const err: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const code = await runCli(['compress', join(dir, 'walk.mtn'), '-o', join(dir, 'walk.mt3')]);
    expect(code).not.toBe(0);
    expect(err.join('\n')).toMatch(/1048576 bytes, more than the 65536 ActGuy reads of a tuning file/);
    expect(realFs.existsSync(join(dir, 'walk.mt3'))).toBe(false);
    expect(counted.bytes).toBeLessThan(1024 * 1024);
  });

  it("the app's Open: the tuning file beside the motion", async () => {
    // Mutation killed: readTuningBeside's readBytes without its limit: the tuning read is 1 MiB of NULs, refused as
    // not UTF-8 text, not by its size.
    const ws = tempWorkspace('actguy-swap-app-');
    try {
      const handlers = testHandlers({
        app: { samplePath: SAMPLE_MTN, startupPath: join(ws.workspace, 'walk.mtn'), workspaceRoot: ws.workspace },
        recentDir: ws.dir,
        compress: compress(),
        dialogs: scriptedDialogs(),
      });
      const motion = join(ws.workspace, 'walk.mtn');
      const tuning = join(ws.workspace, 'walk.mtn.actguy-tuning.json');
      writeFileSync(tuning, '{"version": 1}');
      swapIn(tuning, 1024 * 1024);
      const opened = await handlers.openMotion({ path: motion });
      expect(opened.status).toBe('opened');
      const t = opened.status === 'opened' ? opened.motion.tuning : null;
      expect(t && 'error' in t && t.error).toMatch(/1048576 bytes, more than the 65536 ActGuy reads of a tuning file/);
    } finally {
      rmSync(ws.dir, { recursive: true, force: true });
    }
  });

  it("the app's audition of a sound", async () => {
    // Mutation killed: readSound's readBytes without its limit: 32 MiB come back.
    const { h, policy } = testProjectHandlers();
    policy.allowTree(dir);
    const wav = join(dir, 'step.wav');
    writeFileSync(wav, new Uint8Array(44));
    swapIn(realFs.realpathSync(wav), 32 * 1024 * 1024);
    // The outcome in words (a 32 MiB value would be printed whole when the test fails).
    const outcome = await h.readSound({ path: wav }).then(
      (r) => `read ${r.bytes.byteLength} bytes`,
      (e: Error) => e.message,
    );
    expect(outcome).toMatch(/33554432 bytes, more than the 16777216/);
    expect(counted.bytes).toBeLessThan(1024 * 1024);
  });

  it("import: a .gltf's external buffer", () => {
    // Mutation killed: readLimited's readBytes without its limit: the 600 MiB swapped in is read.
    const buffer = join(dir, 'anim.bin');
    writeFileSync(buffer, new Uint8Array(16));
    swapIn(buffer, 600 * 1024 * 1024);
    counted.bytes = 0;
    expect(() => externalBufferReader(join(dir, 'anim.gltf'))('anim.bin')).toThrow(
      /629145600 bytes, more than the 536870912 ActGuy reads of an import source/,
    );
    expect(counted.bytes).toBeLessThan(1024 * 1024);
  });

  it('actguy info: the build report beside a .sar', () => {
    // Mutation killed: findProjectOfSar's read without its limit: the 80 MiB swapped in is read.
    const sar = join(dir, 'stage.sar');
    const report = join(dir, 'stage.report.json');
    const project = join(dir, 'p.actguy.json');
    writeFileSync(project, '{}');
    writeFileSync(report, JSON.stringify({ tool: 'actguy build', projectAbsolute: project }));
    expect(findProjectOfSar(sar)).toEqual({ project, report });
    // An 80 MiB report (sparse) swapped in: read whole, up to the 1 GiB of a binary input, it was.
    swapIn(report, 80 * 1024 * 1024);
    counted.bytes = 0;
    expect(findProjectOfSar(sar)).toBeUndefined();
    expect(counted.bytes).toBeLessThan(1024 * 1024);
  });
});
