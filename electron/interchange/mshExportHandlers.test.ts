/**
 * File > Export MSH in the main process: the three files as one unit, the
 * same bytes `actguy export-msh` writes, the path policy on every one of
 * them, and never onto the motion it was read from.
 */
import * as nodeFs from 'node:fs';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportMshFiles } from '../../shared/msh/files';
import { parseMshNodesJson } from '../../shared/msh/nodesJson';
import { readMshAnimation } from '../../shared/msh/read';
import { readMtn } from '../../shared/mtn/read';
import type { CommitFs } from '../build/commit';
import type { DialogPort } from '../dialogPort';
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

const compress = useCompressClientPerTest();

let dir: string;
let workspace: string;
let outside: string;
let handlers: ApiHandlers;
/** Save-dialog answers, in order, and the dialogs shown. */
let answers: ScriptedDialogs['answers'];
let shown: ScriptedDialogs['shown'];
/** File-system calls of the next commits replaced by the test (a failing rename or write). */
let inject: Partial<CommitFs>;

beforeEach(() => {
  ({ dir, workspace, outside } = tempWorkspace('actguy-msh-export-'));
  inject = {};
  const scripted = scriptedDialogs({ confirm: async () => true });
  ({ answers, shown } = scripted);
  const dialogs: DialogPort = { ...scripted, chooseFileToOpen: async () => null };
  // Every commit call goes through `inject` first, so a test can fail one chosen file-system call.
  const seam: Partial<CommitFs> = {
    writeFileSync: (p, d, o) => (inject.writeFileSync ?? ((pp, dd) => nodeFs.writeFileSync(pp, dd, o)))(p, d, o),
    renameSync: (a, b) => (inject.renameSync ?? nodeFs.renameSync)(a, b),
    // The app's export writes its temps off the main thread (commitOutputsAsync).
    writeAsync: async (p, d, o) =>
      inject.writeAsync ? inject.writeAsync(p, d, o) : nodeFs.promises.writeFile(p, d as Uint8Array, o),
  };
  handlers = testHandlers({
    app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    recentDir: dir,
    compress: compress(),
    dialogs,
    mshCommit: { fs: seam },
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const openWalk = (path = join(workspace, 'walk.mtn')) => openedMotion(handlers, path);

const TOL = { positionTolerance: 0.5, rotationToleranceDeg: 0.5 };
const trio = (prefix: string) => [`${prefix}.res8`, `${prefix}.res19`, `${prefix}.nodes.json`];
/** The three files' bytes (base64), or null for a missing one. */
const snapshot = (prefix: string) =>
  trio(prefix).map((p) => (existsSync(p) ? readFileSync(p).toString('base64') : null));

describe('File > Export MSH (main process)', () => {
  it('writes PREFIX.res8, .res19 and .nodes.json from the picked .res8: the bytes actguy export-msh writes, and they read back', async () => {
    const doc = await openWalk();
    answers.push(join(workspace, 'out.res8'));
    // The fit runs in a worker: the main process's event loop keeps turning meanwhile (a fit on this thread would block it).
    let turns = 0;
    let exporting = true;
    const turn = () => {
      turns++;
      if (exporting) setImmediate(turn);
    };
    setImmediate(turn);
    const r = await handlers.exportMshDialog({
      documentId: doc.documentId,
      ...TOL,
      rotationToleranceOverridesDeg: { 3: 0.25 },
      defaultName: 'walk.res8',
    });
    exporting = false;
    expect(turns).toBeGreaterThan(2);
    if (r.status !== 'exported') throw new Error('expected exported');
    expect(shown).toEqual([
      {
        title: 'Export MSH animation (.res8, .res19, .nodes.json)',
        defaultPath: join(workspace, 'walk.res8'),
        extensions: ['res8'],
      },
    ]);
    const prefix = join(workspace, 'out');
    expect(r.export.files).toEqual({ res8: `${prefix}.res8`, res19: `${prefix}.res19`, nodes: `${prefix}.nodes.json` });
    const expected = exportMshFiles(
      readMtn(readFileSync(SAMPLE_MTN)),
      { ...TOL, rotationToleranceOverridesDeg: { 3: 0.25 } },
      { source: 'walk.mtn', baseName: 'out' },
    );
    expect(readFileSync(`${prefix}.res8`).equals(Buffer.from(expected.res8))).toBe(true);
    expect(readFileSync(`${prefix}.res19`).equals(Buffer.from(expected.res19))).toBe(true);
    expect(readFileSync(`${prefix}.nodes.json`, 'utf8')).toBe(expected.nodesJson);
    expect(r.export).toMatchObject({
      totalKeys: expected.totalKeys,
      mapWords: expected.mapWords,
      frameCount: 133,
      nodeCount: 23,
      byteLengths: { res8: expected.res8.byteLength },
    });
    // The files validate as read back; the .nodes.json names the payloads beside it and the per-joint override.
    const nodesText = readFileSync(`${prefix}.nodes.json`, 'utf8');
    const parsed = parseMshNodesJson(nodesText, `${prefix}.nodes.json`);
    expect([parsed.res8File, parsed.res19File, parsed.source]).toEqual(['out.res8', 'out.res19', 'walk.mtn']);
    expect(JSON.parse(nodesText).tolerances.rotationOverridesDeg).toEqual({ 3: 0.25 });
    const a = readMshAnimation(
      new Uint8Array(readFileSync(`${prefix}.res8`)),
      new Uint8Array(readFileSync(`${prefix}.res19`)),
      parsed.attrs,
      parsed.nodes,
    );
    expect(a.nodes.map((n) => n.name)).toEqual(readMtn(readFileSync(SAMPLE_MTN)).joints.map((j) => j.name));
    // No temp, journal or lock file is left.
    expect(readdirSync(workspace).sort()).toEqual(['out.nodes.json', 'out.res19', 'out.res8', 'walk.mtn']);
  });

  it("replaces none of the three unless each is that file of an export: another tool's .res19 or JSON beside the pick stays", async () => {
    const doc = await openWalk();
    const prefix = join(workspace, 'hero');
    // The user picks hero.res8 (the dialog asked about that one); hero.res19 and hero.nodes.json are derived.
    for (const [ext, what, told] of [
      ['res19', 'the frame map', "an export's .nodes.json beside it names it, with its size"],
      ['nodes.json', 'the node list', 'those start {"format": "actguy msh-anim nodes"'],
      ['res8', 'the key pool', "an export's .nodes.json beside it names it, with its size"],
    ]) {
      const mine = `${prefix}.${ext}`;
      writeFileSync(mine, 'another tool made this\n');
      const before = snapshot(prefix);
      answers.push(`${prefix}.res8`);
      await expect(handlers.exportMshDialog({ documentId: doc.documentId, ...TOL })).rejects.toThrow(
        `Could not export ${prefix}.{res8,res19,nodes.json}: refused to replace ${mine}: it is already there and is not ${what} of an ActGuy MSH export (${told}); move that file away or export under another name; nothing was written`,
      );
      expect(snapshot(prefix)).toEqual(before);
      rmSync(mine);
    }
    // Its own export is replaced by the next one.
    answers.push(`${prefix}.res8`, `${prefix}.res8`);
    expect((await handlers.exportMshDialog({ documentId: doc.documentId, ...TOL })).status).toBe('exported');
    const first = snapshot(prefix);
    expect((await handlers.exportMshDialog({ documentId: doc.documentId, ...TOL })).status).toBe('exported');
    expect(snapshot(prefix)).toEqual(first);
    expect(readdirSync(workspace).sort()).toEqual(['hero.nodes.json', 'hero.res19', 'hero.res8', 'walk.mtn']);
  });

  // Round 4 (docs/architecture.md): the page's proposed name is offered only when it is one plain name
  // (offeredFileName). Mutation that fails: the handler's own check again (`..` opened the folder above).
  it("offers the page's name for the file only when it is one plain name, else the document's", async () => {
    const doc = await openWalk();
    const offered = async (defaultName: string) => {
      answers.push(null);
      await handlers.exportMshDialog({ documentId: doc.documentId, ...TOL, defaultName });
      return shown.at(-1)!.defaultPath;
    };
    for (const bad of ['..', '.', 'a\u0000b.res8', 'x'.repeat(256)])
      expect(await offered(bad)).toBe(join(workspace, 'walk.res8'));
    expect(await offered('run.res8')).toBe(join(workspace, 'run.res8'));
  });

  it('takes the prefix from whichever of the three the user names, or a bare prefix; a cancelled dialog writes nothing', async () => {
    const doc = await openWalk();
    answers.push(join(workspace, 'a.nodes.json'), join(workspace, 'b'), null);
    for (const prefix of ['a', 'b']) {
      const r = await handlers.exportMshDialog({ documentId: doc.documentId, ...TOL });
      expect(r.status === 'exported' && r.export.files.res8).toBe(join(workspace, `${prefix}.res8`));
      expect(snapshot(join(workspace, prefix)).every((b) => b !== null)).toBe(true);
    }
    expect(await handlers.exportMshDialog({ documentId: doc.documentId, ...TOL })).toEqual({ status: 'cancelled' });
    expect(readdirSync(workspace).length).toBe(7);
  });

  it('a pick grants the .res19 and .nodes.json beside it only where they really lie in its folder (a link out granted its target)', async () => {
    const doc = await openWalk();
    const picked = join(dir, 'picked');
    nodeFs.mkdirSync(picked);
    nodeFs.writeFileSync(join(outside, 'secret.json'), '{"secret": true}\n');
    symlinkSync(join(outside, 'secret.json'), join(picked, 'hero.nodes.json'));
    answers.push(join(picked, 'hero.res8'));
    const r = await dispatchInvoke(handlers, 'exportMshDialog', { documentId: doc.documentId, ...TOL });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/hero\.nodes\.json: it resolves to .*outside.secret\.json/);
    // Nothing was granted by way of the link: the page cannot read (or write) the file it leads to.
    const read = await dispatchInvoke(handlers, 'readProjectText', { path: join(outside, 'secret.json') });
    expect(read.ok).toBe(false);
    expect(readFileSync(join(outside, 'secret.json'), 'utf8')).toBe('{"secret": true}\n');
    expect(readdirSync(picked)).toEqual(['hero.nodes.json']);
  });

  it('checks every one of the three paths against the policy: outside the allowed set, nothing is written', async () => {
    const doc = await openWalk();
    const reply = await dispatchInvoke(handlers, 'exportMsh', {
      documentId: doc.documentId,
      ...TOL,
      path: join(outside, 'x.res8'),
    });
    expect(reply.ok).toBe(false);
    if (!reply.ok) expect(reply.error.message).toMatch(/refused to access .*outside.*x\.res8/);
    // Inside the workspace, but the .res19 beside it resolves (a link) to outside: refused as well.
    symlinkSync(join(outside, 'y.res19'), join(workspace, 'y.res19'));
    const viaLink = await dispatchInvoke(handlers, 'exportMsh', {
      documentId: doc.documentId,
      ...TOL,
      path: join(workspace, 'y.res8'),
    });
    expect(viaLink.ok).toBe(false);
    if (!viaLink.ok) expect(viaLink.error.message).toMatch(/y\.res19.*resolves to .*outside/);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(workspace, 'y.res8'))).toBe(false);
    // The renderer names the .res8 and nothing else; tolerances are checked before anything runs.
    for (const [arg, message] of [
      [{ path: join(workspace, 'z.mtn') }, /name the \.res8 file/],
      [{ path: join(workspace, 'z.res8'), positionTolerance: -1 }, /positionTolerance must be a number >= 0/],
      [
        { path: join(workspace, 'z.res8'), rotationToleranceOverridesDeg: { Hips: 1 } },
        /override key "Hips" is not a joint index/,
      ],
    ] as const) {
      const r = await dispatchInvoke(handlers, 'exportMsh', { documentId: doc.documentId, ...TOL, ...arg });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
    expect(readdirSync(workspace).sort()).toEqual(['walk.mtn', 'y.res19']);
    // A bad request shows no dialog.
    const bad = await dispatchInvoke(handlers, 'exportMshDialog', {
      documentId: doc.documentId,
      positionTolerance: Number.NaN,
      rotationToleranceDeg: 1,
    });
    expect(bad.ok).toBe(false);
    expect(shown).toEqual([]);
  });

  it('never writes over the motion it was read from, however the output is spelled', async () => {
    const doc = await openWalk();
    const before = readFileSync(join(workspace, 'walk.mtn'));
    symlinkSync(join(workspace, 'walk.mtn'), join(workspace, 'walk.nodes.json'));
    const r = await dispatchInvoke(handlers, 'exportMsh', {
      documentId: doc.documentId,
      ...TOL,
      path: join(workspace, 'walk.res8'),
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.message).toBe(
        `Could not export ${join(workspace, 'walk.nodes.json')}: it is ${join(workspace, 'walk.mtn')}, a file this motion was read from; choose another name (nothing was written)`,
      );
    expect(readFileSync(join(workspace, 'walk.mtn')).equals(before)).toBe(true);
    expect(existsSync(join(workspace, 'walk.res8'))).toBe(false);
  });

  it('is one unit: a failure at the 2nd or 3rd file leaves the old trio as it was and no temp file, and says so naming the files', async () => {
    const doc = await openWalk();
    const prefix = join(workspace, 'trio');
    const first = await handlers.exportMsh({ documentId: doc.documentId, ...TOL, path: `${prefix}.res8` });
    expect(first.status).toBe('exported');
    const old = snapshot(prefix);
    // Looser tolerances: every file of the new trio differs from the old one.
    const looser = { positionTolerance: 2, rotationToleranceDeg: 3 };
    const failures: [string, Partial<CommitFs>][] = [
      [
        'installing the .res19',
        { renameSync: (a, b) => (b.endsWith('trio.res19') ? fail('EIO') : nodeFs.renameSync(a, b)) },
      ],
      [
        'installing the .nodes.json',
        { renameSync: (a, b) => (b.endsWith('trio.nodes.json') ? fail('EIO') : nodeFs.renameSync(a, b)) },
      ],
      [
        'writing the .nodes.json',
        {
          writeAsync: async (p, d) =>
            p.includes('trio.nodes.json.actguy-new') ? fail('ENOSPC') : nodeFs.promises.writeFile(p, d as Uint8Array),
        },
      ],
    ];
    for (const [what, fsCalls] of failures) {
      inject = fsCalls;
      const r = await dispatchInvoke(handlers, 'exportMsh', {
        documentId: doc.documentId,
        ...looser,
        path: `${prefix}.res8`,
      });
      expect(r.ok, what).toBe(false);
      if (!r.ok)
        expect(r.error.message, what).toMatch(
          new RegExp(
            `^Could not export ${prefix}\\.\\{res8,res19,nodes\\.json\\}: cannot write ${prefix}\\.(res8|nodes\\.json).*; (the previous files were kept|nothing was written)$`,
          ),
        );
      expect(snapshot(prefix), what).toEqual(old);
      expect(readdirSync(workspace).sort(), what).toEqual(['trio.nodes.json', 'trio.res19', 'trio.res8', 'walk.mtn']);
    }
    // With the disk well again the new trio replaces the old one, all three.
    inject = {};
    const ok = await handlers.exportMsh({ documentId: doc.documentId, ...looser, path: `${prefix}.res8` });
    expect(ok.status).toBe('exported');
    snapshot(prefix).forEach((bytes, k) => expect(bytes, trio(prefix)[k]).not.toBe(old[k]));
  });
});

function fail(code: string): never {
  throw Object.assign(new Error(`${code}: injected failure`), { code });
}
