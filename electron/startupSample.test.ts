/**
 * The file the app opens at start-up by itself (the bundled sample) is only
 * read: the user did not choose it, so the page can open it and read the .sev
 * beside it, but cannot save over either, export beside them, or make them
 * recent files (a recent file is granted in full at the next start). Tested
 * through dispatchInvoke (what Electron IPC serves) and through the loopback
 * server's HTTP, with the sample outside any workspace as in the packaged app.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../shared/compress/request';
import type { OpenMotionOutcome } from '../shared/ipc/documents';
import type { IpcReply } from '../shared/ipc/transport';
import { readMtn } from '../shared/mtn/read';
import { decodeIpcFrame, encodeIpcFrame } from '../shared/ipc/codec';
import { loopbackDialogPort, type DialogPort } from './dialogPort';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { ASSETS, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { startLoopbackServer, type LoopbackServer } from './loopback/server';
import { inProcessTextChecker } from './project/textCheckJob';
import { createRecentFilesStore, type RecentFilesStore } from './recentFiles';

const compress = useCompressClientPerTest();

let dir: string;
/** Where the app's own files sit (resources/assets in a packaged app). */
let bundled: string;
let sample: string;
let sampleSev: string;
let recent: RecentFilesStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-startup-'));
  bundled = join(dir, 'resources', 'assets');
  mkdirSync(bundled, { recursive: true });
  for (const f of ['walk.mtn', 'walk.sev']) copyFileSync(join(ASSETS, f), join(bundled, f));
  sample = join(bundled, 'walk.mtn');
  sampleSev = join(bundled, 'walk.sev');
  mkdirSync(join(dir, 'ws'));
  recent = createRecentFilesStore(null);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function handlersFor(
  startupPath: string,
  workspaceRoot: string | null = null,
  dialogs: DialogPort = loopbackDialogPort,
): ApiHandlers {
  return testHandlers({
    app: { samplePath: sample, startupPath, transport: 'electron', nativeDialogs: true, workspaceRoot },
    recent,
    compress: compress(),
    dialogs,
    checkText: inProcessTextChecker,
  });
}

/** The bytes of every file of the sample's folder. */
const folderBytes = (): Record<string, string> =>
  Object.fromEntries(
    readdirSync(bundled)
      .sort()
      .map((f) => [f, readFileSync(join(bundled, f)).toString('base64')]),
  );

describe('the start-up sample grants reading it, nothing more', () => {
  it('through the handlers: it opens and its .sev is read, but no save, export or recent entry follows', async () => {
    const handlers = handlersFor(sample);
    const before = folderBytes();
    const call = (member: string, arg: unknown) => dispatchInvoke(handlers, member, arg) as Promise<IpcReply<unknown>>;

    const opened = await call('openMotion', { path: sample });
    expect(opened.ok).toBe(true);
    const { documentId } = (opened as { value: Extract<OpenMotionOutcome, { status: 'opened' }> }).value.motion;
    const sevText = await call('readProjectText', { path: sampleSev });
    expect(sevText).toMatchObject({ ok: true, value: { path: sampleSev, text: readFileSync(sampleSev, 'utf8') } });

    const refusals = [
      await call('saveSev', { path: sampleSev, text: 'sev 1\n' }),
      await call('saveMotion', { documentId, path: sample, mtnBytes: new Uint8Array(readFileSync(sample)) }),
      await call('exportMt3', {
        path: join(bundled, 'walk.mt3'),
        compress: compressRequestForMotion(readMtn(new Uint8Array(readFileSync(sample))), documentId, 1),
      }),
    ];
    for (const r of refusals) {
      expect(r.ok).toBe(false);
      expect((r as { error: { message: string } }).error.message).toMatch(
        /refused to access .*(opened it by itself|not a file you chose)/,
      );
    }
    expect((refusals[0] as { error: { message: string } }).error.message).toContain(sampleSev);
    expect(folderBytes()).toEqual(before);
    expect(recent.list()).toEqual([]);
  });

  it('a motion the user handed over on the command line is theirs: its .sev may be saved', async () => {
    const chosen = join(dir, 'ws', 'run.mtn');
    copyFileSync(sample, chosen);
    const handlers = handlersFor(chosen);
    expect((await dispatchInvoke(handlers, 'openMotion', { path: chosen })).ok).toBe(true);
    const saved = await dispatchInvoke(handlers, 'saveSev', {
      path: join(dir, 'ws', 'run.sev'),
      text: 'sev 1\nmotion run\n',
    });
    expect(saved).toMatchObject({ ok: true });
    expect(readFileSync(join(dir, 'ws', 'run.sev'), 'utf8')).toBe('sev 1\nmotion run\n');
    expect(recent.list().map((f) => f.path)).toEqual([chosen]);
  });

  it("the sample chosen with Open is the user's: then its .sev may be saved", async () => {
    const pickSample: DialogPort = {
      chooseFileToOpen: async () => sample,
      chooseFileToSave: async () => null,
      confirm: async () => false,
    };
    const handlers = handlersFor(sample, null, pickSample);
    expect((await dispatchInvoke(handlers, 'saveSev', { path: sampleSev, text: 'sev 1\nmotion walk\n' })).ok).toBe(
      false,
    );
    expect((await dispatchInvoke(handlers, 'openMotionDialog', undefined)).ok).toBe(true);
    expect(await dispatchInvoke(handlers, 'saveSev', { path: sampleSev, text: 'sev 1\nmotion walk\n' })).toMatchObject({
      ok: true,
    });
    expect(readFileSync(sampleSev, 'utf8')).toBe('sev 1\nmotion walk\n');
    expect(recent.list().map((f) => f.path)).toEqual([sample]);
  });

  it('through the loopback server: openMotion then saveSev on the .sev beside the sample leaves it unchanged', async () => {
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir);
    // The workspace is elsewhere: the sample is reachable only as the start-up file.
    const server: LoopbackServer = await startLoopbackServer({
      rendererDir,
      handlers: handlersFor(sample, join(dir, 'ws')),
    });
    try {
      const before = folderBytes();
      const rpc = async (member: string, arg: unknown): Promise<IpcReply<unknown>> => {
        const res = await fetch(`${server.origin}/rpc/${member}`, {
          method: 'POST',
          headers: { 'x-actguy-token': server.token },
          body: encodeIpcFrame(arg),
        });
        expect(res.status).toBe(200);
        return decodeIpcFrame(new Uint8Array(await res.arrayBuffer())) as IpcReply<unknown>;
      };
      expect((await rpc('openMotion', { path: sample })).ok).toBe(true);
      const overwrite = await rpc('saveSev', { path: sampleSev, text: 'sev 1\n# overwritten by the page\n' });
      expect(overwrite.ok).toBe(false);
      expect((overwrite as { error: { message: string } }).error.message).toMatch(/opened it by itself/);
      expect((await rpc('saveSev', { path: join(bundled, 'other.sev'), text: 'sev 1\n' })).ok).toBe(false);
      expect(folderBytes()).toEqual(before);
    } finally {
      await server.close();
    }
  });
});
