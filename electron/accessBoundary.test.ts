/**
 * The file-access boundary, handler by handler: every invoke member that takes
 * a path is called through dispatchInvoke (what Electron IPC and the loopback
 * server both serve) with files outside the allowed set, spelled every way an
 * attacker would try. Each member has its own case, so deleting the policy
 * check from any one handler fails the case of that handler.
 */
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressMotion } from '../shared/compress/compress';
import { compressRequestForMotion } from '../shared/compress/request';
import { DEFAULT_TOLERANCES } from '../shared/compress/types';
import type { IpcReply } from '../shared/ipc/transport';
import { readMtn } from '../shared/mtn/read';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { ASSETS, noDialogs, testHandlers, openedMotion, useCompressClientPerTest } from './testing/handlerHarness';
import { inProcessBuild } from './testing/projectHarness';
import { inProcessImportRunner } from './interchange/importRunner';
import { inProcessTextChecker } from './project/textCheckJob';
import { ROOT_ONLY_BVH } from '../shared/testing/bvhFixtures';

const compress = useCompressClientPerTest();

/** Text inside every outside file a reply could carry (the outside .mtn files are the workspace motion's bytes). */
const MARKER = 'OUTSIDE-CONTENT';

let dir: string;
let ws: string;
let out: string;
let handlers: ApiHandlers;
let walkBytes: Uint8Array;

/** Every file under `root` with its bytes and modification time, to prove nothing outside was touched. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else files[full.slice(root.length)] = `${st.mtimeMs}:${readFileSync(full).toString('base64')}`;
    }
  };
  walk(root);
  return files;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-boundary-'));
  ws = join(dir, 'ws');
  out = join(dir, 'outside');
  cpSync(ASSETS, ws, { recursive: true });
  mkdirSync(out);
  walkBytes = new Uint8Array(readFileSync(join(ws, 'walk.mtn')));
  const mt3 = compressMotion(readMtn(walkBytes), { ...DEFAULT_TOLERANCES, name: 'walk' }).bytes;
  writeFileSync(join(ws, 'walk.mt3'), mt3);
  rmSync(join(ws, 'walk.mtn'));
  // In the workspace: a .mt3 without its skeleton beside it, and links that lead outside.
  writeFileSync(join(ws, 'mine.mtn'), walkBytes);
  // Outside: one file of every kind a handler takes, and a project naming workspace files with outputs outside.
  writeFileSync(join(out, 'skeleton.mtn'), walkBytes);
  writeFileSync(join(out, 'secret.mtn'), walkBytes);
  writeFileSync(join(out, 'secret.sev'), `# ${MARKER}\nsev 1\n`);
  writeFileSync(join(out, 'secret.json'), `{"${MARKER}": true}`);
  writeFileSync(join(out, 'secret.wav'), `RIFF${MARKER}WAVE`);
  writeFileSync(join(out, 'secret.bvh'), ROOT_ONLY_BVH);
  writeFileSync(join(out, 'secret.mt3'), mt3);
  writeFileSync(join(out, 'secret.glb'), 'glTF');
  copyFileSync(join(ASSETS, 'walk.sev'), join(out, 'walk.sev'));
  writeFileSync(
    join(out, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'mine', mtn: join(ws, 'mine.mtn') }],
      outputs: { mar: 'x.mar', sar: 'x.sar' },
    }),
  );
  symlinkSync(out, join(ws, 'linked'));
  for (const name of ['secret.sev', 'secret.json', 'secret.wav', 'secret.bvh', 'secret.mtn', 'p.actguy.json'])
    symlinkSync(join(out, name), join(ws, `link-${name}`));
  handlers = testHandlers({
    app: { startupPath: join(ws, 'mine.mtn'), workspaceRoot: ws },
    compress: compress(),
    launchBuild: inProcessBuild,
    runImport: inProcessImportRunner,
    checkText: inProcessTextChecker,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function call(member: string, arg: unknown): Promise<IpcReply<unknown>> {
  return dispatchInvoke(handlers, member, arg);
}

/** Opens the workspace motion and returns what the save and export members need. */
async function openMine(): Promise<{ documentId: string; compress: ReturnType<typeof compressRequestForMotion> }> {
  const { documentId } = await openedMotion(handlers, join(ws, 'mine.mtn'));
  return {
    documentId,
    compress: compressRequestForMotion(readMtn(walkBytes), documentId, 1),
  };
}

/** A valid project text (for saveProject). */
const projectText = (): string => readFileSync(join(ASSETS, 'sample.actguy.json'), 'utf8');

/**
 * One case per member and path argument: the request for a path `p` (of the
 * member's file type) and the outside file it names by default.
 */
interface PathCase {
  member: string;
  /** The outside file's name in `out` (and `link-<name>` in the workspace for read cases). */
  file: string;
  request(p: string, ctx: { documentId: string; compress: unknown }): unknown;
  /** Writes need an existing folder: links to outside go through the linked folder. */
  writes?: boolean;
}

const CASES: PathCase[] = [
  { member: 'openMotion', file: 'secret.mtn', request: (p) => ({ path: p }) },
  {
    member: 'openMotion (skeletonPath)',
    file: 'secret.mtn',
    request: (p) => ({ path: join(ws, 'walk.mt3'), skeletonPath: p }),
  },
  {
    member: 'saveMotion',
    file: 'new.mtn',
    writes: true,
    request: (p, c) => ({ documentId: c.documentId, path: p, mtnBytes: walkBytes }),
  },
  { member: 'exportMt3', file: 'new.mt3', writes: true, request: (p, c) => ({ path: p, compress: c.compress }) },
  {
    member: 'exportGltf',
    file: 'new.glb',
    writes: true,
    request: (p, c) => ({ documentId: c.documentId, source: 'source', mtnBytes: walkBytes, path: p }),
  },
  { member: 'importMotion', file: 'secret.bvh', request: (p) => ({ path: p }) },
  { member: 'openProject', file: 'p.actguy.json', request: (p) => ({ path: p }) },
  { member: 'saveProject', file: 'secret.json', writes: true, request: (p) => ({ path: p, text: projectText() }) },
  { member: 'readProjectText', file: 'secret.sev', request: (p) => ({ path: p }) },
  { member: 'saveSev', file: 'secret.sev', writes: true, request: (p) => ({ path: p, text: 'sev 1\n' }) },
  {
    member: 'startBuild',
    file: 'p.actguy.json',
    request: (p) => ({ projectPath: p, projectText: readFileSync(join(out, 'p.actguy.json'), 'utf8') }),
  },
  { member: 'listSounds', file: '', request: (p) => ({ folder: p }) },
  { member: 'readSound', file: 'secret.wav', request: (p) => ({ path: p }) },
];

const memberOf = (c: PathCase): string => c.member.split(' ')[0];

describe('every handler that takes a path enforces the policy', () => {
  for (const c of CASES) {
    it(`${c.member}: an outside file is refused, naming the path, and nothing outside changes`, async () => {
      const ctx = await openMine();
      const before = snapshot(out);
      const target = c.file ? join(out, c.file) : out;
      const reply = await call(memberOf(c), c.request(target, ctx));
      expect(reply).toEqual({
        ok: false,
        error: { message: expect.stringContaining(`ActGuy refused to access ${target}: `) },
      });
      expect(snapshot(out)).toEqual(before);
    });

    it(`${c.member}: "..", a symbolic link, URL-encoding, a NUL byte and a relative path do not get outside either`, async () => {
      const ctx = await openMine();
      const before = snapshot(out);
      const name = c.file;
      const tail = name ? `/${name}` : '';
      const refused: [string, RegExp][] = [
        [`${ws}/../outside${tail}`, /refused to access/],
        [`${ws}/sub/../../outside${tail}`, /refused to access/],
        [join(ws, 'linked', name), /refused to access .*: it resolves to /],
        [`${join(ws, 'mine.mtn')}\0${join(out, name)}`, /refused to access .*: the path contains a NUL character/],
        [`ws/../outside${tail}`, /refused to access .*: only absolute paths are accepted/],
      ];
      if (!c.writes && name) refused.push([join(ws, `link-${name}`), /refused to access .*: it resolves to /]);
      for (const [p, expected] of refused) {
        const reply = await call(memberOf(c), c.request(p, ctx));
        expect(reply.ok, p).toBe(false);
        if (!reply.ok) expect(reply.error.message, p).toMatch(expected);
      }
      // Percent-escapes are not decoded: such a path names a file of that literal name, in the workspace or nowhere.
      for (const p of [
        `${ws}/%2e%2e/outside${tail}`,
        `${ws}/%2E%2E%2Foutside%2F${name || 'x'}`,
        `${ws}/..%2Foutside${tail}`,
      ]) {
        const reply = await call(memberOf(c), c.request(p, ctx));
        const text = JSON.stringify(reply, (_k, v) =>
          v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v,
        );
        expect(text, p).not.toContain(MARKER);
        if (reply.ok && typeof (reply.value as { path?: unknown }).path === 'string')
          expect((reply.value as { path: string }).path.startsWith(ws), p).toBe(true);
      }
      expect(snapshot(out)).toEqual(before);
    });
  }

  it('startBuild: a project in the workspace that names an outside input is refused before anything is read', async () => {
    const json = JSON.parse(projectText());
    json.motions[0].mtn = join(out, 'secret.mtn');
    json.outputs = { mar: 'out/a.mar', sar: 'out/a.sar' };
    const reply = await call('startBuild', {
      projectPath: join(ws, 'sample.actguy.json'),
      projectText: JSON.stringify(json),
    });
    expect(reply).toMatchObject({
      ok: true,
      value: {
        state: 'failed',
        errors: [
          {
            message: `ActGuy refused to read ${join(out, 'secret.mtn')}: it is not in the workspace, not named by a project you opened with Open Project, and not a file you chose (add it with its dialog, or reopen the project)`,
            file: join(out, 'secret.mtn'),
          },
        ],
      },
    });
  });

  it('startBuild: outputs outside the project folder and the workspace are refused, naming each path', async () => {
    const json = JSON.parse(projectText());
    json.outputs = { mar: join(out, 'a.mar'), sar: 'linked/a.sar' };
    const reply = await call('startBuild', {
      projectPath: join(ws, 'sample.actguy.json'),
      projectText: JSON.stringify(json),
    });
    expect(reply.ok && (reply.value as { errors: { message: string }[] }).errors.map((e) => e.message)).toEqual([
      `ActGuy refused to write ${join(out, 'a.mar')}: a build writes only inside the project's folder (${ws}) or the workspace`,
      `ActGuy refused to write ${join(ws, 'linked', 'a.sar')}: a build writes only inside the project's folder (${ws}) or the workspace`,
      `ActGuy refused to write ${join(out, 'a.report.json')}: a build writes only inside the project's folder (${ws}) or the workspace`,
    ]);
    expect(readdirSync(out).filter((f) => f.startsWith('a.'))).toEqual([]);
  });

  it('listWorkspace lists no file that resolves outside the workspace, and listSounds skips links out of its folder', async () => {
    const listing = await handlers.listWorkspace({});
    const paths = listing.files.map((f) => f.relativePath);
    expect(paths).toContain('mine.mtn');
    expect(paths).toContain('sounds/SE_FOOT_L.wav');
    expect(paths.filter((p) => p.includes('link') || p.includes('secret'))).toEqual([]);
    symlinkSync(join(out, 'secret.wav'), join(ws, 'sounds', 'zz_link.wav'));
    const sounds = await handlers.listSounds({ folder: join(ws, 'sounds') });
    expect(sounds.sounds.length).toBeGreaterThan(0);
    expect(sounds.sounds.map((s) => s.name)).not.toContain('zz_link');
  });

  it('a save or export onto a file the motion was read from is refused, however it is spelled', async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, {
      path: join(ws, 'walk.mt3'),
      skeletonPath: join(ws, 'mine.mtn'),
    });
    const before = [readFileSync(join(ws, 'walk.mt3')), readFileSync(join(ws, 'mine.mtn'))];
    const request = compressRequestForMotion(readMtn(mtnBytes), documentId, 1);
    const exported = await call('exportMt3', { path: `${ws}/./walk.mt3`, compress: request });
    expect(exported).toEqual({
      ok: false,
      error: {
        message: `Could not export ${join(ws, 'walk.mt3')}: it is ${join(ws, 'walk.mt3')}, a file this motion was read from; choose another name (nothing was written)`,
      },
    });
    symlinkSync(join(ws, 'mine.mtn'), join(ws, 'alias.mtn'));
    for (const p of [`${ws}/sub/../mine.mtn`, join(ws, 'alias.mtn')]) {
      const saved = await call('saveMotion', { documentId, path: p, mtnBytes });
      expect(saved.ok, p).toBe(false);
      if (!saved.ok) expect(saved.error.message).toMatch(new RegExp(`a file this motion was read from`));
    }
    expect([readFileSync(join(ws, 'walk.mt3')), readFileSync(join(ws, 'mine.mtn'))]).toEqual(before);
    // A glTF export of an imported .glb may not replace the .glb it came from.
    const mine = await openMine();
    await handlers.exportGltf({
      documentId: mine.documentId,
      source: 'source',
      mtnBytes: walkBytes,
      path: join(ws, 'take.glb'),
    });
    const imported = await handlers.importMotion({ path: join(ws, 'take.glb') });
    if (imported.status !== 'imported') throw new Error('not imported');
    const glbBefore = readFileSync(join(ws, 'take.glb'));
    const back = await call('exportGltf', {
      documentId: imported.motion.documentId,
      source: 'source',
      mtnBytes: imported.motion.mtnBytes,
      path: join(ws, 'take.glb'),
    });
    expect(back).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('a file this motion was read from') },
    });
    expect(readFileSync(join(ws, 'take.glb')).equals(glbBefore)).toBe(true);
  });

  it('an unexpected exception is reported as FILE: message, never as a bare JS message', async () => {
    const broken = {
      readSound: async () => {
        throw new TypeError('buffers.forEach is not a function');
      },
      getAppInfo: async () => {
        throw new RangeError('Invalid array length');
      },
    } as unknown as ApiHandlers;
    expect(await dispatchInvoke(broken, 'readSound', { path: '/songs/a.wav' })).toEqual({
      ok: false,
      error: { message: '/songs/a.wav: buffers.forEach is not a function' },
    });
    expect(await dispatchInvoke(broken, 'getAppInfo', undefined)).toEqual({
      ok: false,
      error: { message: 'getAppInfo: Invalid array length' },
    });
    // Errors the handlers raise on purpose already name the file and pass through unchanged.
    expect(await call('readSound', { path: join(ws, 'notes.txt') })).toEqual({
      ok: false,
      error: { message: `${join(ws, 'notes.txt')}: not a sound file (wav, ogg, mp3, flac)` },
    });
  });

  it('an .mt3 picked in a dialog is decoded with the skeleton beside it only when that skeleton may be read', async () => {
    const picked = testHandlers({
      app: await handlers.getAppInfo(undefined),
      compress: compress(),
      dialogs: { ...noDialogs, chooseFileToOpen: async () => join(out, 'secret.mt3') },
      checkText: inProcessTextChecker,
    });
    // out/secret.mtn lies beside out/secret.mt3, but only the .mt3 was picked.
    expect(await picked.openMotionDialog(undefined)).toMatchObject({
      status: 'needsSkeleton',
      path: join(out, 'secret.mt3'),
    });
    expect(await picked.openMotion({ path: join(ws, 'walk.mt3'), skeletonPath: join(ws, 'mine.mtn') })).toMatchObject({
      status: 'opened',
    });
  });
});
