/**
 * A symbolic link to nothing at a single-file output's name (docs/security.md, round 49): `compress` without
 * --report, `export-gltf`, `import -o`, and the app's Save As and exports wrote the file in the link's place, the link
 * lost without a word, where a build refused it (round 48). They refuse it now in the build's words, and the app says
 * what is there -- that link, or a FIFO or a link to nothing where the output's folder goes -- where it said `a file is
 * in the way where a folder should be`.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import { readMtn } from '../shared/mtn/read';
import { SMALL_BVH } from '../shared/testing/bvhFixtures';
import { defaultTuning, serializeTuning, tuningPathOf } from '../shared/tuning/sidecar';
import { useBundledWorker } from './compress/buildWorkerForTests';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { writeFileAtomic } from './fsutil';
import { workerImportRunner } from './interchange/importRunner';
import { ASSETS, openedMotion, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';

const cli = join(__dirname, '..', 'dist', 'cli', 'actguy.cjs');
const compress = useCompressClientPerTest();
const importWorkerPath = useBundledWorker(resolve(__dirname, 'interchange', 'importWorker.ts'));

let ws: string;
let handlers: ApiHandlers;
beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-dangling-single-'));
  cpSync(ASSETS, ws, { recursive: true });
  handlers = testHandlers({
    app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
    compress: compress(),
    runImport: workerImportRunner(importWorkerPath()),
  });
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

function run(...args: string[]): { rc: number | null; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: ws, encoding: 'utf8', timeout: 120_000 });
  return { rc: r.status, err: r.stderr };
}

const refused = (name: string, to: string) =>
  `refused to replace ${name}: it is a symbolic link to ${to}, which is not there; move that link away or write the output under another name`;

const isLink = (path: string) => lstatSync(path).isSymbolicLink();

describe('a link to nothing at a single-file output', () => {
  // Mutation that fails: startAtomicWrite (fsutil.ts) without danglingOutputError (CLI rebuilt): each command exits 0
  // and the link is replaced by a file.
  it('`compress`, `export-gltf` and `import -o` refuse it, naming the link; the link stays', () => {
    expect(run('export-gltf', 'walk.mtn', '-o', 'real.glb', '--quiet').rc).toBe(0);
    symlinkSync('gone.mt3', join(ws, 'w.mt3'));
    symlinkSync('gone.glb', join(ws, 'w.glb'));
    symlinkSync('gone.mtn', join(ws, 'w.mtn'));
    const runs = [
      ['compress', run('compress', 'walk.mtn', '-o', 'w.mt3', '--no-tuning', '--quiet'), 'w.mt3', 'gone.mt3'],
      ['export-gltf', run('export-gltf', 'walk.mtn', '-o', 'w.glb', '--quiet'), 'w.glb', 'gone.glb'],
      ['import', run('import', 'real.glb', '-o', 'w.mtn', '--quiet'), 'w.mtn', 'gone.mtn'],
    ] as const;
    for (const [command, r, name, to] of runs) {
      expect(r.rc, command).toBe(1);
      expect(r.err.trim()).toBe(`actguy ${command}: ${refused(name, to)}; nothing was written`);
      expect(isLink(join(ws, name))).toBe(true);
      expect(existsSync(join(ws, to))).toBe(false);
    }
  }, 240_000);

  // Mutation that fails: the policy's write check (pathPolicy.ts) without danglingOutputProblem: each writes the file
  // the link names (`gone.*`), the link standing. Round 49 asked it in each handler, after the policy; round 50 moved it
  // into the policy's write check, so every write of the app refuses it in the policy's words.
  it("the app's Save As, Export .mt3, Export glTF and project save refuse it, saying the link", async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    const request = compressRequestForMotion(readMtn(mtnBytes), documentId, 1);
    const [mtn, mt3, glb, project] = ['as.mtn', 'as.mt3', 'as.glb', 'as.actguy.json'].map((n) => join(ws, n));
    symlinkSync('gone.mtn', mtn);
    symlinkSync('gone.mt3', mt3);
    symlinkSync('gone.glb', glb);
    symlinkSync('gone.actguy.json', project);
    const text = readFileSync(join(ws, 'sample.actguy.json'), 'utf8');
    const refusal = (path: string, to: string) => ({
      ok: false,
      error: {
        message: `ActGuy refused to access ${path}: it is a symbolic link to ${to}, which is not there; move that link away or write the output under another name; nothing was written`,
      },
    });
    expect(await dispatchInvoke(handlers, 'saveMotion', { documentId, path: mtn, mtnBytes })).toEqual(
      refusal(mtn, 'gone.mtn'),
    );
    expect(await dispatchInvoke(handlers, 'exportMt3', { path: mt3, compress: request })).toEqual(
      refusal(mt3, 'gone.mt3'),
    );
    expect(await dispatchInvoke(handlers, 'exportGltf', { documentId, source: 'source', mtnBytes, path: glb })).toEqual(
      refusal(glb, 'gone.glb'),
    );
    expect(await dispatchInvoke(handlers, 'saveProject', { path: project, text })).toEqual(
      refusal(project, 'gone.actguy.json'),
    );
    expect([mtn, mt3, glb, project].map(isLink)).toEqual([true, true, true, true]);
    expect(readdirSync(ws).filter((n) => n.startsWith('gone'))).toEqual([]);
  });

  // Round 50: the saved motion's tuning file, written with it, was judged by the policy alone, which resolved a link to
  // nothing at its name to the file it names: Save made `gone.json` beside it, the link standing. Export MSH and a batch
  // import refused such a link only at their commit, after the fit or the import; now before, in the policy's words.
  // Mutation that fails: the policy's write check without danglingOutputProblem (the tuning file is made where the
  // link leads; MSH and the import refuse in the commit's words, `refused to replace` / `cannot write`).
  it("the tuning file saved with a motion, Export MSH's three files and a batch import's .mtn refuse it too", async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    const tuningText = serializeTuning(defaultTuning(), readMtn(mtnBytes).joints);
    mkdirSync(join(ws, 't'));
    const mtn = join(ws, 't', 'w.mtn');
    symlinkSync('gone.json', tuningPathOf(mtn));
    const saved = await dispatchInvoke(handlers, 'saveMotion', { documentId, path: mtn, mtnBytes, tuningText });
    expect(saved.ok ? 'saved' : saved.error.message).toBe(
      `ActGuy refused to access ${tuningPathOf(mtn)}: it is a symbolic link to gone.json, which is not there; move that link away or write the output under another name; nothing was written`,
    );
    expect(readdirSync(join(ws, 't'))).toEqual([basename(tuningPathOf(mtn))]);
    for (const name of ['m1.res8', 'm2.res19', 'm3.nodes.json']) {
      symlinkSync('gone', join(ws, name));
      const prefix = join(ws, name.slice(0, 2));
      const r = await dispatchInvoke(handlers, 'exportMsh', {
        documentId,
        positionTolerance: 0.5,
        rotationToleranceDeg: 0.5,
        path: `${prefix}.res8`,
      });
      expect(r.ok ? 'exported' : r.error.message, name).toMatch(
        new RegExp(
          `^ActGuy refused to access ${join(ws, name).replace(/\./g, '\\.')}: it is a symbolic link to gone, `,
        ),
      );
      expect(readdirSync(ws).filter((n) => n.startsWith(name.slice(0, 2)))).toEqual([name]);
    }
    writeFileSync(join(ws, 'idle.bvh'), SMALL_BVH);
    symlinkSync('gone.mtn', join(ws, 'idle.mtn'));
    const batch = await handlers.importMotionBatch({ paths: [join(ws, 'idle.bvh')] });
    if (batch.status !== 'done') throw new Error(batch.status);
    expect(batch.items.map((i) => i.error)).toEqual([
      `ActGuy refused to access ${join(ws, 'idle.mtn')}: it is a symbolic link to gone.mtn, which is not there; move that link away or write the output under another name; nothing was written`,
    ]);
    expect(isLink(join(ws, 'idle.mtn'))).toBe(true);
    expect(readdirSync(ws).filter((n) => n.startsWith('gone'))).toEqual([]);
  });

  // Mutation that fails: the policy's folderMissing (pathPolicy.ts) answering `its folder … does not exist` whatever
  // is there, as before (the link's target, or the FIFO, said not to exist).
  it("the app's Save As into a folder that is a link to nothing, a FIFO or a file names what is there", async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(ws, 'walk.mtn'));
    symlinkSync('nothere', join(ws, 'ex'));
    spawnSync('mkfifo', [join(ws, 'pipe')]);
    writeFileSync(join(ws, 'plain'), '');
    const refusal = async (folder: string) => {
      const target = join(ws, folder, 'w.mtn');
      const r = await dispatchInvoke(handlers, 'saveMotion', { documentId, path: target, mtnBytes });
      return r.ok ? 'saved' : r.error.message.replace(`ActGuy refused to access ${target}: `, '');
    };
    expect(await refusal('ex')).toBe(`its folder ${join(ws, 'ex')} is a symbolic link to nothere, which is not there`);
    expect(await refusal('pipe')).toBe(`its folder ${join(ws, 'pipe')} is a named pipe (FIFO), not a folder`);
    expect(await refusal('plain')).toBe(`its folder ${join(ws, 'plain')} is a file, not a folder`);
    expect(await refusal('none')).toBe(`its folder ${join(ws, 'none')} does not exist`);
    expect(isLink(join(ws, 'ex'))).toBe(true);
    expect(existsSync(join(ws, 'nothere'))).toBe(false);
  });

  // Round 50: a link to a file at the name was replaced by the output, the file it leads to left as it was, as a build
  // did; both refuse it now. Mutation that fails: startAtomicWrite (fsutil.ts) without linkedFileOutputProblem (CLI
  // rebuilt): exit 0, the link replaced by a file.
  it('`compress` refuses a link to a file at its output, as a build does; the link and the file stay', () => {
    writeFileSync(join(ws, 'real.mt3'), 'old');
    symlinkSync('real.mt3', join(ws, 'w.mt3'));
    const r = run('compress', 'walk.mtn', '-o', 'w.mt3', '--no-tuning', '--quiet');
    expect(r.rc).toBe(1);
    expect(r.err.trim()).toBe(
      'actguy compress: refused to replace w.mt3: it is a symbolic link to real.mt3; an output is written neither through a link (the file it leads to was not named for it) nor over it (the link would be lost); remove the link, name the file it leads to, or write the output under another name; nothing was written',
    );
    expect(isLink(join(ws, 'w.mt3'))).toBe(true);
    expect(readFileSync(join(ws, 'real.mt3'), 'utf8')).toBe('old');
  }, 120_000);

  it("ActGuy's own files (`own`) still replace it, as anything at their names", () => {
    const own = join(ws, 'state.json');
    symlinkSync('gone.json', own);
    writeFileAtomic(own, '{}\n', { own: true });
    expect(isLink(own)).toBe(false);
    expect(readFileSync(own, 'utf8')).toBe('{}\n');
  });
});
