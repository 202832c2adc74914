import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { compressRequestForMotion } from '../../shared/compress/request';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { readGltfContainer, writeGlb } from '../../shared/interchange/gltf/glb';
import { fbxScene, writeFbxBinary } from '../../shared/interchange/fbx/testFixtures';
import { importMotionBytes } from '../../shared/interchange/importMotion';
import type { CompressRequest, CompressTolerances } from '../../shared/ipc/compress';
import type { Motion } from '../../shared/motion/types';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import { readMtn } from '../../shared/mtn/read';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import type { ApiHandlers } from '../handlers';
import { dispatchInvoke } from '../invokeReply';
import {
  SAMPLE_MTN,
  scriptedDialogs,
  tempWorkspace,
  testHandlers,
  type ScriptedDialogs,
  openedMotion,
  useCompressClientPerTest,
} from '../testing/handlerHarness';
import { suggestedName } from './interchangeHandlers';
import { workerImportRunner } from './importRunner';
import { hipsAtHeightBvh, SMALL_BVH } from '../../shared/testing/bvhFixtures';

const compress = useCompressClientPerTest();

// The import worker bundled as scripts/build.mjs does, so every import here crosses the real worker boundary.
const importWorkerPath = useBundledWorker(resolve(__dirname, 'importWorker.ts'));

let dir: string;
let workspace: string;
let outside: string;
let dialogs: ScriptedDialogs;
let handlers: ApiHandlers;

beforeEach(() => {
  ({ dir, workspace, outside } = tempWorkspace('actguy-interchange-'));
  dialogs = scriptedDialogs({ confirm: async () => true });
  handlers = testHandlers({
    app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    recentDir: dir,
    compress: compress(),
    dialogs,
    runImport: workerImportRunner(importWorkerPath()),
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A compress request with the motion's own key flags and flags. */
function requestFor(
  m: Motion,
  documentId: string,
  tolerances: CompressTolerances = DEFAULT_TOLERANCES,
): CompressRequest {
  return compressRequestForMotion(m, documentId, 1, tolerances);
}

/** A GLB of the sample with a second clip "Run" (the same tracks, no ActGuy extras). */
function twoClipGlb(): Uint8Array {
  const { json, bin } = readGltfContainer(motionToGlb(readMtn(readFileSync(SAMPLE_MTN)), { animationName: 'Walk' }));
  const run = JSON.parse(JSON.stringify(json.animations![0]));
  run.name = 'Run';
  delete run.extras;
  json.animations!.push(run);
  return writeGlb(json, bin);
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
};

describe('File > Import', () => {
  it('imports a BVH as a new unsaved document that compresses, and Save As proposes <name>.mtn beside the source', async () => {
    const bvh = join(workspace, 'small take.bvh');
    writeFileSync(bvh, SMALL_BVH);
    const r = await handlers.importMotion({ path: bvh });
    if (r.status !== 'imported') throw new Error(`expected imported, got ${r.status}`);
    expect(r.motion.name).toBe('small_take');
    expect(r.motion.sourceKind).toBe('bvh');
    expect(r.motion.clip).toBeNull();
    expect(r.motion.warnings.map((w) => w.code)).toEqual(['rate-snapped']); // Frame Time 0.0333333 is read as exactly 30 fps
    const m = readMtn(r.motion.mtnBytes);
    expect(m.joints.map((j) => j.name)).toEqual(['Hips', 'Spine']);
    expect(m.frameCount).toBe(4);
    expect(m.fps).toBe(30);
    // The root position channels become the root translation.
    expect(Array.from(m.translation.subarray(4 * 4, 4 * 4 + 3))).toEqual([4, 90, 8]);

    // The new document is known to main like an opened one: it compresses and saves.
    const c = await handlers.compressMotion(requestFor(m, r.motion.documentId));
    expect(c.status).toBe('done');
    dialogs.answers.push(join(workspace, 'small_take.mtn'));
    const saved = await handlers.saveMotionAsDialog({
      documentId: r.motion.documentId,
      mtnBytes: r.motion.mtnBytes,
      defaultName: 'small_take.mtn',
    });
    expect(dialogs.shown[0].defaultPath).toBe(join(workspace, 'small_take.mtn'));
    expect(saved.status).toBe('saved');
    expect(new Uint8Array(readFileSync(join(workspace, 'small_take.mtn')))).toEqual(r.motion.mtnBytes);
  });

  it('applies fps and scale, and the dialog member allows the file chosen outside the workspace', async () => {
    const bvh = join(outside, 'take.bvh');
    writeFileSync(bvh, SMALL_BVH);
    // Not chosen yet: refused by the path policy.
    const refused = await dispatchInvoke(handlers, 'importMotion', { path: bvh });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/refused to access .*take\.bvh/);

    dialogs.answers.push(bvh);
    const r = await handlers.importMotionDialog({ fps: 15, scale: 2 });
    expect(dialogs.shown[0].extensions).toEqual(expect.arrayContaining(['bvh', 'glb', 'gltf']));
    if (r.status !== 'imported') throw new Error(`expected imported, got ${r.status}`);
    const m = readMtn(r.motion.mtnBytes);
    expect(m.fps).toBe(15);
    expect(m.frameCount).toBe(2); // 4 frames of 1/30 s = 0.133 s -> floor(0.133 * 15) = 2
    expect(m.translation[1]).toBeCloseTo(180, 4); // 90 * scale 2
    // Once chosen, the path works directly too (a re-import at another rate).
    expect((await handlers.importMotion({ path: bvh })).status).toBe('imported');

    dialogs.answers.push(null);
    expect(await handlers.importMotionDialog({})).toEqual({ status: 'cancelled' });
  });

  it("the dialog's BVH positions reach the import worker, one file and a batch; one the page made up is refused", async () => {
    const crawl = join(workspace, 'crawl.bvh');
    writeFileSync(crawl, hipsAtHeightBvh(30));
    const hips = (bytes: Uint8Array) => readMtn(bytes).translation[1];
    // Judged: added to the rest height, with the warning that names the choice.
    const judged = await handlers.importMotion({ path: crawl });
    if (judged.status !== 'imported') throw new Error(`expected imported, got ${judged.status}`);
    expect(hips(judged.motion.mtnBytes)).toBe(120);
    expect(judged.motion.warnings.map((w) => w.code)).toContain('positions-added');
    dialogs.answers.push(crawl);
    const local = await handlers.importMotionDialog({ fps: 30, scale: 1, bvhPositions: 'local' });
    if (local.status !== 'imported') throw new Error(`expected imported, got ${local.status}`);
    expect(hips(local.motion.mtnBytes)).toBe(30);
    expect(local.motion.warnings.map((w) => w.code)).toEqual(['rate-snapped']);
    const standing = join(workspace, 'standing.bvh');
    writeFileSync(standing, hipsAtHeightBvh(90));
    const batch = await handlers.importMotionBatch({ paths: [crawl, standing], bvhPositions: 'added' });
    if (batch.status !== 'done') throw new Error(`expected done, got ${batch.status}`);
    expect(batch.failed).toBe(0);
    expect(hips(readFileSync(join(workspace, 'standing.mtn')))).toBe(180);
    const made = await dispatchInvoke(handlers, 'importMotion', { path: crawl, bvhPositions: 'sideways' });
    expect(made.ok).toBe(false);
    if (!made.ok)
      expect(made.error.message).toBe('importMotion: bvhPositions must be one of auto, added, local, found "sideways"');
  });

  it('a two-clip glTF asks for the clip; the pick imports under "<file>_<clip>"', async () => {
    const glb = join(workspace, 'hero.glb');
    writeFileSync(glb, twoClipGlb());
    const ask = await handlers.importMotion({ path: glb });
    if (ask.status !== 'chooseClip') throw new Error(`expected chooseClip, got ${ask.status}`);
    expect(ask.path).toBe(glb);
    expect(ask.clips.map((c) => [c.index, c.name])).toEqual([
      [0, 'Walk'],
      [1, 'Run'],
    ]);
    expect(ask.clips[0].duration).toBeGreaterThan(1);

    const r = await handlers.importMotion({ path: glb, clip: 1 });
    if (r.status !== 'imported') throw new Error(`expected imported, got ${r.status}`);
    expect(r.motion.name).toBe('hero_Run');
    expect(r.motion.clip).toBe('Run');
    expect(r.motion.sourceKind).toBe('gltf');
    const walk = readMtn(readFileSync(SAMPLE_MTN));
    const m = readMtn(r.motion.mtnBytes);
    expect(m.joints.length).toBe(walk.joints.length);
    expect(m.frameCount).toBe(walk.frameCount);

    // An unknown clip is an error naming the file, not another question.
    const bad = await dispatchInvoke(handlers, 'importMotion', { path: glb, clip: 'Jump' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.formatKind).toBe('GLTF');
      expect(bad.error.message).toContain('hero.glb');
      expect(bad.error.message).toContain('no animation clip "Jump"');
    }
  });

  it('imports an FBX in the import worker: a two-clip file asks for the clip with the lengths, the pick imports under "<file>_<clip>" with a summary', async () => {
    const fbx = join(workspace, 'mocap.fbx');
    writeFileSync(fbx, writeFbxBinary(fbxScene({ clips: ['Idle', 'Walk'], frames: 31 })));
    dialogs.answers.push(fbx);
    const ask = await handlers.importMotionDialog({});
    expect(dialogs.shown[0].extensions).toEqual(expect.arrayContaining(['fbx']));
    if (ask.status !== 'chooseClip') throw new Error(`expected chooseClip, got ${ask.status}`);
    expect(ask.clips).toEqual([
      { index: 0, name: 'Idle', duration: expect.closeTo(1, 5) },
      { index: 1, name: 'Walk', duration: expect.closeTo(1, 5) },
    ]);
    const r = await handlers.importMotion({ path: fbx, clip: 1 });
    if (r.status !== 'imported') throw new Error(`expected imported, got ${r.status}`);
    expect([r.motion.name, r.motion.clip, r.motion.sourceKind]).toEqual(['mocap_Walk', 'Walk', 'fbx']);
    expect(r.motion.summary).toBe(
      'clip "Walk" (2 of 2), 3 bones, 1.00 s at 30 fps; file unit centimetres (UnitScaleFactor 1), positions x 1 to centimetres',
    );
    expect(readMtn(r.motion.mtnBytes).joints.map((j) => j.name)).toEqual(['Hips', 'Spine', 'Head']);
    const broken = join(workspace, 'broken.fbx');
    writeFileSync(broken, writeFbxBinary(fbxScene()).subarray(0, 1600));
    const bad = await dispatchInvoke(handlers, 'importMotion', { path: broken });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.formatKind).toBe('FBX');
      expect(bad.error.message).toMatch(/broken\.fbx \[FBX\] \(offset \d+\): .*truncated/);
    }
  });

  it('several files chosen: chosenMany, then importMotionBatch writes one .mtn per clip beside them through the worker, all or nothing on request', async () => {
    const paths = ['walk take.bvh', 'idle.fbx', 'hero.fbx'].map((f) => join(workspace, f));
    writeFileSync(paths[0], SMALL_BVH);
    writeFileSync(paths[1], writeFbxBinary(fbxScene({ frames: 7 })));
    writeFileSync(paths[2], writeFbxBinary(fbxScene({ clips: ['Jump', 'Crouch'], frames: 4 })));
    const many: string[][] = [];
    const picked = { ...dialogs, chooseFilesToOpen: async () => many.shift() ?? null };
    const h = testHandlers({
      app: { workspaceRoot: workspace },
      recentDir: dir,
      compress: compress(),
      dialogs: picked,
      runImport: workerImportRunner(importWorkerPath()),
    });
    many.push(paths.slice(1));
    expect(await h.importMotionDialog({})).toEqual({ status: 'chosenMany', paths: paths.slice(1) });

    // One file fails (its name breaks the motion-name rule): all or nothing writes nothing and says which.
    const refused = await h.importMotionBatch({ paths, allOrNothing: true });
    if (refused.status !== 'done') throw new Error(refused.status);
    expect(refused.failed).toBe(1);
    expect(refused.items.map((i) => [i.name, i.error === null])).toEqual([
      ['walk take', false],
      ['idle', true],
      ['hero_Jump', true],
      ['hero_Crouch', true],
    ]);
    expect(refused.items[0].error).toContain('motion name "walk take" has whitespace');
    expect(refused.written).toEqual([]);
    expect(existsSync(join(workspace, 'idle.mtn'))).toBe(false);

    // A name the open project already uses is refused (the renderer passes the project's names).
    const taken = await h.importMotionBatch({ paths: paths.slice(1), allOrNothing: true, reservedNames: ['idle'] });
    if (taken.status !== 'done') throw new Error(taken.status);
    expect(taken.items[0].error).toBe('the project already has a motion named "idle"');
    expect(taken.written).toEqual([]);

    const done = await h.importMotionBatch({ paths: paths.slice(1), allOrNothing: true, fps: 15 });
    if (done.status !== 'done') throw new Error(done.status);
    expect(done.failed).toBe(0);
    expect(done.written).toEqual(['idle.mtn', 'hero_Jump.mtn', 'hero_Crouch.mtn'].map((f) => join(workspace, f)));
    expect(done.items[0].shape).toBe('3 joints, frames 0..3 at 15 fps');
    expect(readMtn(readFileSync(join(workspace, 'hero_Crouch.mtn'))).joints.map((j) => j.name)).toEqual([
      'Hips',
      'Spine',
      'Head',
    ]);
    // A path outside the allowed set is refused before anything runs.
    const out = await dispatchInvoke(h, 'importMotionBatch', { paths: [join(outside, 'x.bvh')] });
    expect(out.ok).toBe(false);
  });

  it('reads the external buffer of a .gltf from its folder only', async () => {
    const { json, bin } = readGltfContainer(motionToGlb(readMtn(readFileSync(SAMPLE_MTN))));
    const gltfWith = (uri: string): string =>
      JSON.stringify({ ...json, buffers: [{ byteLength: bin!.byteLength, uri }] });
    mkdirSync(join(workspace, 'bin'));
    writeFileSync(join(workspace, 'bin', 'walk data.bin'), bin!);
    writeFileSync(join(workspace, 'beside.gltf'), gltfWith('bin/walk%20data.bin'));
    const ok = await handlers.importMotion({ path: join(workspace, 'beside.gltf') });
    expect(ok.status).toBe('imported');

    writeFileSync(join(dir, 'secret.bin'), bin!);
    for (const [name, uri] of [
      ['up.gltf', '../secret.bin'],
      ['abs.gltf', join(dir, 'secret.bin')],
      ['scheme.gltf', 'file:///etc/passwd'],
    ]) {
      writeFileSync(join(workspace, name), gltfWith(uri));
      const r = await dispatchInvoke(handlers, 'importMotion', { path: join(workspace, name) });
      expect(r.ok, name).toBe(false);
      if (!r.ok) {
        expect(r.error.formatKind).toBe('GLTF');
        expect(r.error.message).toContain(name);
        expect(r.error.message).toMatch(/outside the folder|only from the file's folder/);
      }
    }
    // A link inside the folder that leads out of it is refused as well.
    symlinkSync(join(dir, 'secret.bin'), join(workspace, 'link.bin'));
    writeFileSync(join(workspace, 'link.gltf'), gltfWith('link.bin'));
    const link = await dispatchInvoke(handlers, 'importMotion', { path: join(workspace, 'link.gltf') });
    expect(link.ok).toBe(false);
    if (!link.ok) expect(link.error.message).toContain('outside the folder');
  });

  it('the external buffer of a .gltf is an input of the motion: Save, Export glTF and Export MSH onto it are refused', async () => {
    // A received .gltf whose buffer is a file of an output's kind: hero.mtn (Save's default name), take.glb, take.res8.
    const { json, bin } = readGltfContainer(motionToGlb(readMtn(readFileSync(SAMPLE_MTN))));
    for (const [buffer, member, arg] of [
      ['hero.mtn', 'saveMotion', {}],
      ['take.glb', 'exportGltf', { source: 'source' }],
      ['take.res8', 'exportMsh', { positionTolerance: 0.5, rotationToleranceDeg: 0.5 }],
    ] as const) {
      const bufferPath = join(workspace, buffer);
      writeFileSync(bufferPath, bin!);
      writeFileSync(
        join(workspace, 'hero.gltf'),
        JSON.stringify({ ...json, buffers: [{ byteLength: bin!.byteLength, uri: buffer }] }),
      );
      const imported = await handlers.importMotion({ path: join(workspace, 'hero.gltf') });
      if (imported.status !== 'imported') throw new Error(`expected an import, got ${imported.status}`);
      const { documentId, mtnBytes } = imported.motion;
      const r = await dispatchInvoke(handlers, member, {
        documentId,
        path: bufferPath,
        mtnBytes,
        ...arg,
      });
      expect(r, buffer).toEqual({
        ok: false,
        error: {
          message: `Could not ${member === 'saveMotion' ? 'save' : 'export'} ${bufferPath}: it is ${bufferPath}, a file this motion was read from; choose another name (nothing was written)`,
        },
      });
      expect(new Uint8Array(readFileSync(bufferPath))).toEqual(bin);
    }
  });

  it('refuses other file types, bad options and broken files with readable messages', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'HIERARCHY');
    writeFileSync(join(workspace, 'broken.bvh'), SMALL_BVH.replace('0 90 0 0 0 0 0 0 0', '0 90 0 0 0 0 0 0'));
    const cases: [unknown, RegExp][] = [
      [{ path: join(workspace, 'notes.txt') }, /takes \.bvh, \.glb, \.gltf or \.fbx/],
      [{ path: join(workspace, 'missing.bvh') }, /missing\.bvh: the file does not exist/],
      [{ path: join(workspace, 'broken.bvh'), fps: 0 }, /fps must be a number > 0/],
      [{ path: join(workspace, 'broken.bvh'), scale: -1 }, /scale must be a number > 0/],
      [{ path: join(workspace, 'broken.bvh'), clip: 0 }, /clip can be chosen for glTF\/GLB and FBX files only/],
      [{ path: join(workspace, 'broken.bvh') }, /broken\.bvh.*\[BVH\]|broken\.bvh:\d+/],
    ];
    for (const [arg, message] of cases) {
      const r = await dispatchInvoke(handlers, 'importMotion', arg);
      expect(r.ok, JSON.stringify(arg)).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
  });

  it('a broken file comes back from the import worker with its problem in plain words, to import again', async () => {
    writeFileSync(join(workspace, 'broken.bvh'), SMALL_BVH.replace('0 90 0 0 0 0 0 0 0', '0 90 0 0 0 0 0 0'));
    const r = await dispatchInvoke(handlers, 'importMotion', { path: join(workspace, 'broken.bvh') });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.formatKind).toBe('BVH');
    expect(r.error.plain?.file).toBe('broken.bvh');
    expect(r.error.plain?.lead).toMatch(/at line \d+/);
    expect(r.error.plain?.advice).toMatch(/in a text editor, then import it again\.$/);
  });

  it('an import worker that cannot start is a readable error that names the file', async () => {
    writeFileSync(join(workspace, 'take.bvh'), SMALL_BVH);
    const broken = testHandlers({
      app: { workspaceRoot: workspace },
      recentDir: dir,
      compress: compress(),
      dialogs,
      runImport: workerImportRunner(join(dir, 'no-such-worker.cjs')),
    });
    const r = await dispatchInvoke(broken, 'importMotion', { path: join(workspace, 'take.bvh') });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/^Could not import .*take\.bvh: the import/);
    // In plain words too, as a bad file is; the message above stays the Details.
    if (!r.ok)
      expect(r.error.plain).toMatchObject({ file: 'take.bvh', lead: expect.stringMatching(/^the importer stopped/) });
  });

  it('each file of a batch that fails to import (not a bad file) is said in plain words too, as a single import is', async () => {
    writeFileSync(join(workspace, 'take.bvh'), SMALL_BVH);
    writeFileSync(join(workspace, 'other.bvh'), SMALL_BVH);
    const broken = testHandlers({
      app: { workspaceRoot: workspace },
      recentDir: dir,
      compress: compress(),
      dialogs,
      runImport: workerImportRunner(join(dir, 'no-such-worker.cjs')),
    });
    const r = await broken.importMotionBatch({ paths: ['take.bvh', 'other.bvh'].map((f) => join(workspace, f)) });
    if (r.status !== 'done') throw new Error(r.status);
    expect(r.items.map((i) => [i.plain?.file, i.plain?.lead.startsWith('the importer stopped')])).toEqual([
      ['take.bvh', true],
      ['other.bvh', true],
    ]);
    expect(r.items[0].error).toMatch(/^Could not import .*take\.bvh: the import/);
  });

  it('cancelImport stops an import in progress: it ends cancelled and opens no document', async () => {
    const bvh = join(workspace, 'take.bvh');
    writeFileSync(bvh, SMALL_BVH);
    // importMotion hands the job to the worker before its first await; the cancel comes while the worker starts.
    const pending = handlers.importMotion({ path: bvh });
    expect(await handlers.cancelImport(undefined)).toEqual({ cancelled: 1 });
    expect(await pending).toEqual({ status: 'cancelled' });
    expect(await handlers.cancelImport(undefined)).toEqual({ cancelled: 0 });
    // The next import is not affected.
    expect((await handlers.importMotion({ path: bvh })).status).toBe('imported');
  });

  it('an import that runs past its time budget is stopped with a message naming the file', async () => {
    writeFileSync(join(workspace, 'take.bvh'), SMALL_BVH);
    // A 1 ms budget: no worker starts, parses and answers that fast.
    const slow = testHandlers({
      app: { workspaceRoot: workspace },
      recentDir: dir,
      compress: compress(),
      dialogs,
      runImport: workerImportRunner(importWorkerPath(), 1),
    });
    const r = await dispatchInvoke(slow, 'importMotion', { path: join(workspace, 'take.bvh') });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.message).toMatch(
        /^Could not import .*take\.bvh: stopped after 0\.001 s, the most an import may take/,
      );
    if (!r.ok) expect(r.error.plain?.lead).toMatch(/^it took longer than the 0\.001 s an import may take/);
  });

  it('suggests names made of letters, digits, _ and -', () => {
    expect(suggestedName('01_03', null)).toBe('01_03');
    expect(suggestedName('my take (2)', 'Run Fast')).toBe('my_take_2_Run_Fast');
    expect(suggestedName('###', null)).toBe('motion');
  });
});

describe('File > Export glTF', () => {
  // Round 4 (docs/architecture.md): the page's proposed name is offered only when it is one plain name
  // (offeredFileName). Mutation that fails: the handler's own check again (`..` opened the folder above).
  it("offers the page's name for the file only when it is one plain name, else the document's", async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const offered = async (defaultName: string) => {
      dialogs.answers.push(null);
      await handlers.exportGltfDialog({ documentId, source: 'source', mtnBytes, defaultName });
      return dialogs.shown.at(-1)!.defaultPath;
    };
    for (const bad of ['..', '.', 'a\u0000b.glb', 'two\nlines.glb', 'x'.repeat(256), 'sub/x.glb'])
      expect(await offered(bad)).toBe(join(workspace, 'walk.glb'));
    expect(await offered('take 2.glb')).toBe(join(workspace, 'take 2.glb'));
  });

  it('exports the source and the compressed motion as GLBs that import back with the same skeleton and frames', async () => {
    const opened = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const walk = readMtn(opened.mtnBytes);
    const documentId = opened.documentId;

    dialogs.answers.push(join(workspace, 'walk_source'));
    const src = await handlers.exportGltfDialog({ documentId, source: 'source', mtnBytes: opened.mtnBytes });
    expect(dialogs.shown[0].defaultPath).toBe(join(workspace, 'walk.glb'));
    if (src.status !== 'exported') throw new Error('source export cancelled');
    expect(src.file.path).toBe(join(workspace, 'walk_source.glb'));
    expect(src.file.totalKeys).toBeNull();
    const srcBack = (await importMotionBytes(new Uint8Array(readFileSync(src.file.path)), 'walk_source.glb')).motion;
    expect(srcBack.joints.map((j) => j.name)).toEqual(walk.joints.map((j) => j.name));
    expect(srcBack.frameCount).toBe(walk.frameCount);
    expect(maxDiff(srcBack.rotation, walk.rotation)).toBeLessThan(1e-5);

    // Loose tolerances so the compressed motion visibly differs from the source.
    const tolerances = { positionTolerance: 5, rotationToleranceDeg: 8, offsetTolerance: 5 };
    dialogs.answers.push(join(workspace, 'walk_compressed.glb'));
    const cmp = await handlers.exportGltfDialog({
      documentId,
      source: 'compressed',
      mtnBytes: opened.mtnBytes,
      compress: requestFor(walk, documentId, tolerances),
    });
    expect(dialogs.shown[1].defaultPath).toBe(join(workspace, 'walk_compressed.glb'));
    if (cmp.status !== 'exported') throw new Error('compressed export cancelled');
    const inProcess = compressMotion(walk, { ...tolerances, name: 'walk' });
    expect(cmp.file.totalKeys).toBe(inProcess.totalKeys);
    const cmpBack = (await importMotionBytes(new Uint8Array(readFileSync(cmp.file.path)), 'walk_compressed.glb'))
      .motion;
    expect(cmpBack.joints.map((j) => j.name)).toEqual(walk.joints.map((j) => j.name));
    expect(cmpBack.frameCount).toBe(walk.frameCount);
    expect([cmp.file.jointCount, cmp.file.frameCount]).toEqual([walk.joints.length, walk.frameCount]);
    // It is the decoded MT3 (what the game plays), not the source.
    const decoded = decodeMt3ToMotion(inProcess.mt3, walk);
    expect(maxDiff(cmpBack.rotation, decoded.rotation)).toBeLessThan(1e-5);
    expect(maxDiff(cmpBack.rotation, walk.rotation)).toBeGreaterThan(1e-3);
  });

  it('refuses a path outside the allowed set, a non-.glb name and a missing compress request', async () => {
    const opened = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    const base = { documentId: opened.documentId, mtnBytes: opened.mtnBytes };
    const cases: [unknown, RegExp][] = [
      [{ ...base, source: 'source', path: join(outside, 'x.glb') }, /refused to access/],
      [{ ...base, source: 'source', path: join(workspace, 'x.gltf') }, /must end in \.glb/],
      [{ ...base, source: 'compressed', path: join(workspace, 'x.glb') }, /compress: expected an object/],
      [{ ...base, source: 'both', path: join(workspace, 'x.glb') }, /source must be 'source' or 'compressed'/],
      [{ ...base, documentId: 'nope', source: 'source', path: join(workspace, 'x.glb') }, /not open/],
    ];
    for (const [arg, message] of cases) {
      const r = await dispatchInvoke(handlers, 'exportGltf', arg);
      expect(r.ok, JSON.stringify(Object.keys(arg as object))).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
    expect(existsSync(join(outside, 'x.glb'))).toBe(false);
    expect(existsSync(join(workspace, 'x.glb'))).toBe(false);
  });
});
