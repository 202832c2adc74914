/**
 * The app's Build and Export MSH with a planted commit journal
 * (docs/safety-journal.md): each hostile journal is refused, the reply the
 * renderer shows names the journal and says how to clear it, and every file
 * stays byte-identical. A legitimate interrupted commit is still finished,
 * and the reply says so.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ExportMshOutcome } from '../shared/ipc/interchange';
import { commitOutputs } from './build/commit';
import { host, processStart } from './tempFiles';
import { HOSTILE_JOURNALS, hashTree, journalOf, outsideFolder } from './build/hostileJournalsForTests';
import { useBuiltCompressWorker } from './compress/buildWorkerForTests';
import { createCompressClient, type CompressClient } from './compressClient';
import type { DialogPort } from './dialogPort';
import { dispatchInvoke } from './invokeReply';
import { ASSETS, noDialogs, testHandlers, openedMotion } from './testing/handlerHarness';
import { inProcessBuild, testProjectHandlers } from './testing/projectHarness';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** A scratch tree: `proj/` (the project, or the motion the user opened) and `outside/`. */
function scratch(): { root: string; proj: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'actguy-app-journal-'));
  dirs.push(root);
  const proj = join(root, 'proj');
  mkdirSync(proj);
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h']) copyFileSync(join(ASSETS, f), join(proj, f));
  return { root, proj, outside: outsideFolder(root) };
}

const refusal = (journal: string) => `refused the commit journal ${journal}: `;
const HOW_TO_CLEAR = 'move the journal aside (rename or delete it) and run again';

describe("the app's Build with a planted journal", () => {
  /**
   * A one-motion project, opened the way File > Open Project does (picked in the dialog), and a build of it (a dry
   * run with `true`); `handlers` as testProjectHandlers takes them.
   */
  async function projectBuild(proj: string, handlers: Parameters<typeof testProjectHandlers>[0] = {}) {
    const project = join(proj, 'p.actguy.json');
    writeFileSync(
      project,
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
      }),
    );
    const { openPicked, build: buildOf } = testProjectHandlers(handlers);
    const text = await openPicked(project);
    const build = (dryRun = false) => buildOf(project, text, dryRun);
    const outputs = ['stage.mar', 'stage.sar', 'stage.report.json'].map((f) => join(proj, 'out', f));
    return { build, outputs, inputs: [join(proj, 'walk.mtn'), join(proj, 'walk.sev')] };
  }

  it.each(HOSTILE_JOURNALS.map((h) => [h.name, h] as const))(
    '%s: the build fails with the refusal, every file byte-identical',
    async (_, hostile) => {
      const { root, proj, outside } = scratch();
      const { build, outputs, inputs } = await projectBuild(proj);
      expect((await build()).state).toBe('done');
      hostile.plant({ outputs, inputs, outside });
      const before = hashTree(root);
      const s = await build();
      expect(s.state).toBe('failed');
      expect(s.errors).toHaveLength(1);
      expect(s.errors[0].message).toContain(refusal(journalOf(outputs)));
      expect(s.errors[0].message).toContain(HOW_TO_CLEAR);
      expect(hashTree(root)).toEqual(before);
    },
    30_000,
  );

  it('refuses the journal before the build starts: nothing is compressed first', async () => {
    const { root, proj, outside } = scratch();
    let launched = 0;
    const { build, outputs, inputs } = await projectBuild(proj, {
      launchBuild: (...args: Parameters<typeof inProcessBuild>) => {
        launched++;
        return inProcessBuild(...args);
      },
    });
    mkdirSync(join(proj, 'out'));
    HOSTILE_JOURNALS[0].plant({ outputs, inputs, outside });
    const before = hashTree(root);
    const s = await build();
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message)).toEqual([expect.stringContaining(refusal(journalOf(outputs)))]);
    expect(launched).toBe(0);
    expect(hashTree(root)).toEqual(before);
    // A check (dry run) commits nothing: it runs, and every file but its cache entry stays as it is.
    expect((await build(true)).state).toBe('done');
    expect(launched).toBe(1);
    const after = hashTree(root);
    for (const f of Object.keys(after)) if (f.includes('.actguy-cache')) delete after[f];
    expect(after).toEqual(before);
  }, 30_000);

  it('refuses a lock another live run holds before the build starts: nothing is compressed, the lock is left', async () => {
    const { root, proj } = scratch();
    let launched = 0;
    const { build, outputs } = await projectBuild(proj, {
      launchBuild: (...args: Parameters<typeof inProcessBuild>) => {
        launched++;
        return inProcessBuild(...args);
      },
    });
    mkdirSync(join(proj, 'out'));
    // Held by the test runner's parent, alive: a lock naming this process would be one it left earlier.
    const lock = `${outputs[0]}.actguy-lock`;
    writeFileSync(lock, `${host()} ${process.ppid} ${Date.now()} ${processStart(process.ppid)}`);
    const before = hashTree(root);
    const s = await build();
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message)).toEqual([expect.stringContaining(lock)]);
    expect(launched).toBe(0);
    expect(hashTree(root)).toEqual(before);
    // Once the other run is done (its lock gone), the same Build runs.
    rmSync(lock);
    expect((await build()).state).toBe('done');
    expect(launched).toBe(1);
  }, 30_000);

  it('a real interrupted commit of these outputs is finished first, and the build says so', async () => {
    const { proj } = scratch();
    const { build, outputs } = await projectBuild(proj);
    expect((await build()).state).toBe('done');
    // A commit that stopped after its journal, before installing anything (a failure at the first install).
    let step = 0;
    const interrupted = () =>
      commitOutputs(
        // The report of a real commit is a report (the build replaces only a build report there).
        outputs.map((path, k) => ({
          path,
          bytes: new TextEncoder().encode(k === 2 ? '{"tool": "actguy build", "interrupted": true}' : 'interrupted'),
        })),
        {
          onStep: (_, label) => {
            if (label === 'install 1' && step++ === 0)
              throw Object.assign(new Error('killed'), { name: 'CommitKilled' });
          },
        },
      );
    expect(interrupted).toThrow('killed');
    expect(readFileSync(journalOf(outputs), 'utf8')).toContain('"state": "forward"');
    const s = await build();
    expect(s.state, JSON.stringify(s.errors)).toBe('done');
    expect(s.warnings).toEqual([
      expect.stringMatching(/^note: an interrupted build was completed: .*stage\.mar.* hold its outputs$/),
    ]);
    expect(readFileSync(outputs[0], 'utf8')).not.toBe('interrupted');
  }, 30_000);
});

describe("the app's Build of a project with outputs.msh, after an interrupted commit", () => {
  it("completes a half-installed export of other tolerances first: its new .res8 beside the old node list is not taken for another tool's file", async () => {
    const { proj } = scratch();
    const project = join(proj, 'p.actguy.json');
    const textOf = (rotationDeg: number) =>
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev', tolerances: { rotationDeg } }],
        seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
        outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar', msh: 'out/msh' },
      });
    writeFileSync(project, textOf(0.5));
    const { openPicked, build } = testProjectHandlers();
    await openPicked(project);
    const names = [
      'stage.mar',
      'stage.sar',
      'stage.report.json',
      'msh/walk.res8',
      'msh/walk.res19',
      'msh/walk.nodes.json',
    ];
    const files = names.map((f) => join(proj, 'out', f));
    expect((await build(project, textOf(3))).state).toBe('done');
    const other = files.map((f) => readFileSync(f));
    expect((await build(project, textOf(0.5))).state).toBe('done');
    const current = files.map((f) => readFileSync(f));
    expect(other[3].length).not.toBe(current[3].length);
    // The 3-degree build's commit, stopped after installing its .res8 (the 4th file) and before the rest.
    const interrupted = () =>
      commitOutputs(
        files.map((path, k) => ({ path, bytes: new Uint8Array(other[k]) })),
        {
          onStep: (_, label) => {
            if (label === 'install 5') throw Object.assign(new Error('killed'), { name: 'CommitKilled' });
          },
        },
      );
    expect(interrupted).toThrow('killed');
    expect(readFileSync(files[3])).toEqual(other[3]);
    expect(readFileSync(files[5])).toEqual(current[5]);
    const s = await build(project, textOf(0.5));
    expect(s.state, JSON.stringify(s.errors)).toBe('done');
    expect(s.warnings).toContainEqual(
      expect.stringMatching(/^note: an interrupted build was completed: .*stage\.mar.* hold its outputs$/),
    );
    // The .mar, .sar and the export are the 0.5-degree build's again (the report carries its own times).
    for (const k of [0, 1, 3, 4, 5]) expect(readFileSync(files[k]), names[k]).toEqual(current[k]);
  }, 60_000);
});

describe("the app's Export MSH with a planted journal", () => {
  const workerPath = useBuiltCompressWorker();
  let compress: CompressClient;
  beforeAll(() => {
    compress = createCompressClient({ workerPath: workerPath() });
  });
  afterAll(async () => {
    await compress.dispose();
  });

  async function exporter(proj: string) {
    const dialogs: DialogPort = { ...noDialogs, confirm: async () => true };
    const recentDir = mkdtempSync(join(tmpdir(), 'actguy-recent-'));
    dirs.push(recentDir);
    const handlers = testHandlers({
      app: { startupPath: join(proj, 'walk.mtn'), workspaceRoot: proj },
      recentDir,
      compress,
      dialogs,
    });
    const opened = await openedMotion(handlers, join(proj, 'walk.mtn'));
    const prefix = join(proj, 'walk');
    const outputs = [`${prefix}.res8`, `${prefix}.res19`, `${prefix}.nodes.json`];
    const exportMsh = (rotationToleranceDeg = 0.5) =>
      dispatchInvoke(handlers, 'exportMsh', {
        documentId: opened.documentId,
        positionTolerance: 0.5,
        rotationToleranceDeg,
        path: outputs[0],
      });
    return { exportMsh, outputs, inputs: [join(proj, 'walk.mtn'), join(proj, 'walk.sev')] };
  }

  it.each(HOSTILE_JOURNALS.map((h) => [h.name, h] as const))(
    '%s: the export is refused naming the journal, every file byte-identical',
    async (_, hostile) => {
      const { root, proj, outside } = scratch();
      const { exportMsh, outputs, inputs } = await exporter(proj);
      expect((await exportMsh()).ok).toBe(true);
      hostile.plant({ outputs, inputs, outside });
      const before = hashTree(root);
      const r = await exportMsh();
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.message).toMatch(
          /^Could not export .*walk\.\{res8,res19,nodes\.json\}: refused the commit journal /,
        );
        expect(r.error.message).toContain(refusal(journalOf(outputs)));
        expect(r.error.message).toContain(HOW_TO_CLEAR);
      }
      expect(hashTree(root)).toEqual(before);
    },
    30_000,
  );

  it('a real interrupted export of these files is finished first, and the reply says so', async () => {
    const { proj } = scratch();
    const { exportMsh, outputs } = await exporter(proj);
    // What the interrupted export was writing: a real export (of other tolerances, so other sizes), since an
    // existing .res8/.res19 is replaced only when its node list names it with its size (mshOutputKinds.ts).
    expect((await exportMsh(2)).ok).toBe(true);
    const other = outputs.map((path) => readFileSync(path));
    expect((await exportMsh()).ok).toBe(true);
    const current = outputs.map((path) => readFileSync(path));
    expect(other[0].length).not.toBe(current[0].length);
    const interrupted = () =>
      commitOutputs(
        outputs.map((path, k) => ({ path, bytes: new Uint8Array(other[k]) })),
        {
          onStep: (_, label) => {
            if (label === 'install 2') throw Object.assign(new Error('killed'), { name: 'CommitKilled' });
          },
        },
      );
    expect(interrupted).toThrow('killed');
    // Half installed: the new .res8 beside the old node list.
    expect(readFileSync(outputs[0])).toEqual(other[0]);
    expect(readFileSync(outputs[2])).toEqual(current[2]);
    const r = await exportMsh();
    expect(r.ok).toBe(true);
    const value = r.ok ? (r.value as ExportMshOutcome) : undefined;
    if (value?.status === 'exported')
      expect(value.export.warnings).toEqual([
        expect.stringMatching(/^note: an interrupted build was completed: .*walk\.res8.* hold its outputs$/),
      ]);
    else throw new Error(`expected exported: ${JSON.stringify(r)}`);
    expect(outputs.map((path) => readFileSync(path))).toEqual(current);
  }, 30_000);
});
