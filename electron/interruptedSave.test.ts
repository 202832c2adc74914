/**
 * A Save of a motion with its tuning file killed after its commit point leaves a journal beside the `.mtn` that says to
 * install the new pair. An open of the motion finishes it (round 40); a build read the `.mtn` there as it was, the
 * motion from before the Save (or none, for a first Save), and built the archive from it. Now the build refuses such a
 * motion naming the journal and what finishes it, and the open finishes it also where the `.mtn` is not there yet
 * (docs/security.md, round 41, continued). The kill is the commit's own test seam, a `CommitKilled` at the first
 * install, which leaves the journal, the temps and no lock, as a SIGKILL there does (loopback/motionSaveKill.test.ts).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMtn } from '../shared/mtn/read';
import { defaultTuning, serializeTuning, tuningPathOf } from '../shared/tuning/sidecar';
import { buildProject } from './build/build';
import { COMMIT_JOURNAL_SUFFIX, commitOutputs } from './build/commit';
import { inProcessCompressor } from './build/compressPool';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { createRecentFilesStore } from './recentFiles';

const compress = useCompressClientPerTest();
let ws: string;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-interrupted-save-'));
  cpSync(ASSETS, ws, { recursive: true });
  writeFileSync(
    join(ws, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
      resample: true,
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

/** The pair `walk.mtn` (the 60 fps motion's bytes) and its tuning file committed, the process "killed" at the first install. */
function saveKilledPastCommitPoint(mtn: string): Uint8Array {
  const newer = new Uint8Array(readFileSync(join(ws, 'walk_60fps.mtn')));
  const tuning = serializeTuning(defaultTuning(), readMtn(newer).joints);
  const files = [
    { path: mtn, bytes: newer },
    { path: tuningPathOf(mtn), bytes: new TextEncoder().encode(tuning) },
  ];
  const killed = Object.assign(new Error('killed'), { name: 'CommitKilled' });
  expect(() =>
    commitOutputs(files, {
      onStep: (_, label) => {
        if (label === 'install 1') throw killed;
      },
    }),
  ).toThrow('killed');
  expect(existsSync(`${mtn}${COMMIT_JOURNAL_SUFFIX}`)).toBe(true);
  return newer;
}

/** The messages of a build that failed (none for one that built). */
const messages = (r: Awaited<ReturnType<typeof buildProject>>) =>
  r.ok ? '' : r.errors.map((e) => e.message).join('\n');

const build = () =>
  buildProject(join(ws, 'p.actguy.json'), {
    compressor: inProcessCompressor(),
    cacheDir: null,
    stateDir: join(ws, 'state'),
  });

describe("a motion's Save killed past its commit point", () => {
  // Mutation that fails: build.ts without interruptedSaves (the archive is built from the motion saved over).
  it('a build refuses the motion, naming the journal, and writes nothing', async () => {
    const mtn = join(ws, 'walk.mtn');
    const before = readFileSync(mtn);
    saveKilledPastCommitPoint(mtn);
    const refused = await build();
    expect(refused.ok).toBe(false);
    expect(messages(refused)).toContain(
      `motion walk: a Save of ${mtn} in ActGuy was interrupted and left ${mtn}${COMMIT_JOURNAL_SUFFIX} beside it, so ` +
        'the file there is the motion from before that Save; open',
    );
    expect(readFileSync(mtn)).toEqual(before);
    expect(existsSync(join(ws, 'out'))).toBe(false);
  }, 60_000);

  // Mutation that fails: finishInterruptedSave only beside a `.mtn` that is there (the open fails: no such file).
  it('a first Save: the build says the motion is not there yet, and an open of its name finishes the Save', async () => {
    const mtn = join(ws, 'walk.mtn');
    unlinkSync(mtn);
    const newer = saveKilledPastCommitPoint(mtn);
    const refused = await build();
    expect(messages(refused)).toContain('so the motion is not there yet; open');
    const handlers = testHandlers({ app: { startupPath: mtn, workspaceRoot: ws }, compress: compress() });
    const opened = await openedMotion(handlers, mtn);
    expect(opened.recovered).toMatch(/^walk\.mtn: an interrupted save was completed/);
    expect(Buffer.from(opened.mtnBytes).equals(Buffer.from(newer))).toBe(true);
    expect(readdirSync(ws).filter((n) => n.includes('.actguy-') && !n.endsWith('.actguy-tuning.json'))).toEqual([]);
    const built = await build();
    expect(messages(built)).toBe('');
    expect(built.ok).toBe(true);
  }, 60_000);
});

// Mutation audit, round 3 (docs/testing.md): finishInterruptedSave looking beside the path as given, before the
// policy's check, answered an open of a path never granted with the words about the journal beside it: whether a
// file is there, in a folder the window may not read, is not the page's to learn.
describe('an open of a path the window may not read', () => {
  it('is refused by the policy first: nothing beside it is looked at or named', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'actguy-interrupted-elsewhere-'));
    try {
      const mtn = join(elsewhere, 'walk.mtn');
      cpSync(join(ws, 'walk.mtn'), mtn);
      writeFileSync(`${mtn}${COMMIT_JOURNAL_SUFFIX}`, '{}');
      const handlers = testHandlers({
        app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
        compress: compress(),
      });
      const refused = await handlers.openMotion({ path: mtn }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(refused?.name).toBe('PathNotAllowedError');
      expect(refused?.message).not.toContain(COMMIT_JOURNAL_SUFFIX);
      expect(readFileSync(`${mtn}${COMMIT_JOURNAL_SUFFIX}`, 'utf8')).toBe('{}');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

// Mutation audit, round 3 (docs/testing.md): a motion listed in Open Recent is judged on the descriptor the open reads;
// when its open finishes an interrupted Save, that descriptor is the file from before the Save, so it is judged again.
// Without that, the page showed the motion the Save replaced while the new one lay on disk.
describe('a listed motion whose open finishes an interrupted Save', () => {
  it('shows the motion the Save wrote, not the one its first look judged', async () => {
    const mtn = join(ws, 'walk.mtn');
    const newer = saveKilledPastCommitPoint(mtn);
    const recent = createRecentFilesStore(null);
    recent.add({ path: mtn, name: 'walk', kind: 'mtn' });
    const handlers = testHandlers({ app: { workspaceRoot: null }, compress: compress(), recent });
    const opened = await openedMotion(handlers, mtn);
    expect(opened.recovered).toMatch(/^walk\.mtn: an interrupted save was completed/);
    expect(Buffer.from(opened.mtnBytes).equals(Buffer.from(newer))).toBe(true);
  }, 60_000);
});
