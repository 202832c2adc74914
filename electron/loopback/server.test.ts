import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../../shared/compress/request';
import { ACTGUY_DIALOG_MEMBERS, ACTGUY_INVOKE_MEMBERS, type ActGuyApi } from '../../shared/ipc/api';
import type { CompressResponse } from '../../shared/ipc/compress';
import { decodeIpcFrame, encodeIpcFrame } from '../../shared/ipc/codec';
import { readMtn } from '../../shared/mtn/read';
import { createLoopbackClient, setInAppDialogs } from '../../renderer/transport/loopback';
import { loopbackDialogPort } from '../dialogPort';
import { SAMPLE_MTN, testHandlers, useCompressClientPerTest } from '../testing/handlerHarness';
import { startLoopbackServer, type LoopbackServer } from './server';

const compress = useCompressClientPerTest();

let dir: string;
let workspace: string;
let server: LoopbackServer;
let api: ActGuyApi;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-loopback-'));
  workspace = join(dir, 'workspace');
  const rendererDir = join(dir, 'renderer');
  mkdirSync(workspace);
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  copyFileSync(SAMPLE_MTN, join(workspace, 'walk.mtn'));
  const handlers = testHandlers({
    app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    compress: compress(),
    dialogs: loopbackDialogPort,
  });
  server = await startLoopbackServer({ rendererDir, handlers });
  api = createLoopbackClient({ baseUrl: server.origin, token: server.token });
});
afterEach(async () => {
  setInAppDialogs(null);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP request (custom Host and path allowed, unlike fetch). */
function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', fail);
    req.end(init.body);
  });
}

const rpc = (member: string, arg: unknown, headers: Record<string, string> = { 'x-actguy-token': server.token }) =>
  raw(`/rpc/${member}`, { method: 'POST', headers, body: encodeIpcFrame(arg) });

describe('loopback server', () => {
  it('listens on 127.0.0.1 only, and its URL carries the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses every request without the right token with 403', async () => {
    expect((await raw('/')).status).toBe(403);
    expect((await raw('/?token=wrong')).status).toBe(403);
    expect((await raw('/assets/app.js')).status).toBe(403);
    expect((await rpc('getAppInfo', undefined, {})).status).toBe(403);
    expect((await rpc('getAppInfo', undefined, { 'x-actguy-token': 'nope' })).status).toBe(403);
    // The query token does not authorise RPCs (a link cannot drive the API); the header does.
    expect(
      (await raw(`/rpc/getAppInfo?token=${server.token}`, { method: 'POST', body: encodeIpcFrame(undefined) })).status,
    ).toBe(403);
    expect((await raw('/rpc/notAMember')).status).toBe(403);
  });

  it('refuses a foreign Host (DNS rebinding) and a cross-origin caller', async () => {
    expect((await raw(`/?token=${server.token}`, { headers: { Host: `evil.example:${server.port}` } })).status).toBe(
      403,
    );
    expect(
      (await rpc('getAppInfo', undefined, { 'x-actguy-token': server.token, Origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect((await rpc('getAppInfo', undefined, { 'x-actguy-token': server.token, Origin: server.origin })).status).toBe(
      200,
    );
  });

  it('serves the renderer with CSP and a token cookie, and nothing outside the renderer folder', async () => {
    const page = await raw(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    expect(cookie).toMatch(new RegExp(`^actguy-page-${server.port}=[0-9a-f]{64}$`));
    const script = await raw('/assets/app.js', { headers: { Cookie: cookie } });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect((await raw(`/..%2fsecret.txt?token=${server.token}`)).status).toBe(404);
    expect((await raw(`/%2e%2e/secret.txt?token=${server.token}`)).status).toBe(404);
  });

  it('its cookie never holds the token: a cookie reaches every port of 127.0.0.1, and what it holds opens static files alone', async () => {
    // A browser sends 127.0.0.1's cookies to every port of it (cookies are not isolated by port): another local
    // server the user opens, another user's among them, reads the cookie. Its value must not drive the API.
    const page = await raw(`/?token=${server.token}`);
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    const key = cookie.slice(cookie.indexOf('=') + 1);
    expect(cookie).not.toContain(server.token);
    expect(key).not.toBe(server.token);
    expect((await rpc('getAppInfo', undefined, { 'x-actguy-token': key })).status).toBe(403);
    expect((await rpc('getAppInfo', undefined, { 'x-actguy-token': key, Cookie: cookie })).status).toBe(403);
    expect((await raw('/', { headers: { Cookie: cookie } })).status).toBe(200);
    // The token itself in a cookie opens nothing: only the page key there, the token in the query or the header.
    expect((await raw('/', { headers: { Cookie: `actguy-page-${server.port}=${server.token}` } })).status).toBe(403);
  });

  it("does not serve a sibling folder whose name starts with the renderer folder's (renderer-private beside renderer)", async () => {
    const sibling = join(dir, 'renderer-private');
    mkdirSync(sibling);
    writeFileSync(join(sibling, 'secret.txt'), 'sibling secret');
    for (const path of ['/..%2frenderer-private%2fsecret.txt', '/..%2Frenderer-private/secret.txt']) {
      const r = await raw(`${path}?token=${server.token}`);
      expect(r.status, path).toBe(404);
      expect(r.body.toString()).not.toContain('sibling secret');
    }
    // The same file inside the renderer folder is served: the 404 above is the folder check, not a missing file.
    writeFileSync(join(dir, 'renderer', 'secret.txt'), 'inside');
    expect((await raw(`/secret.txt?token=${server.token}`)).status).toBe(200);
  });

  it('serves every invoke member of the API and 404s any other name', async () => {
    for (const member of ACTGUY_INVOKE_MEMBERS) {
      const res = await rpc(member, undefined);
      expect(res.status, member).toBe(200);
      const reply = decodeIpcFrame(new Uint8Array(res.body)) as { ok: boolean; error?: { message: string } };
      if (!reply.ok) expect(reply.error!.message).not.toMatch(/unknown API member|has no handler/);
    }
    for (const name of ['constructor', '__proto__', 'readFile', 'onMenuCommand', 'getAppInfo/../x'])
      expect((await rpc(name, undefined)).status, name).toBe(404);
  });

  it('carries the API end to end: open the sample, compress with typed arrays both ways, errors as messages', async () => {
    const info = await api.getAppInfo();
    expect(info).toMatchObject({
      transport: 'loopback',
      nativeDialogs: false,
      workspaceRoot: expect.stringContaining('workspace'),
    });
    const opened = await api.openMotion({ path: info.startupPath });
    if (opened.status !== 'opened') throw new Error(opened.status);
    expect(opened.motion.mtnBytes).toBeInstanceOf(Uint8Array);
    const motion = readMtn(opened.motion.mtnBytes);
    const S = motion.frameCount + 1;
    const r = (await api.compressMotion(
      compressRequestForMotion(motion, opened.motion.documentId, 1, {
        positionTolerance: 0.5,
        rotationToleranceDeg: 0.5,
        offsetTolerance: 0.5,
      }),
    )) as CompressResponse;
    expect(r.status).toBe('done');
    expect(r.channels[1].errors).toBeInstanceOf(Float64Array);
    expect(r.channels[1].errors.length).toBe(S);
    expect(r.mt3.rotations[0].rotation).toBeInstanceOf(Int16Array);
    await expect(api.openMotion({ path: join(dir, 'secret.txt') })).rejects.toThrow(/refused to access/);
  });

  it('serves dialog members in the page with the registered in-app picker, never on the server', async () => {
    await expect(api.openMotionDialog()).rejects.toThrow(/no in-app file picker registered/);
    const asked: string[] = [];
    setInAppDialogs({
      pickPath: async ({ mode, listing, extensions }) => {
        asked.push(`${mode}:${extensions.join(',')}:${listing.files.map((f) => f.relativePath).join(',')}`);
        return mode === 'open' ? listing.files[0].path : `${listing.root}/copy`;
      },
      confirm: async () => false,
    });
    const opened = await api.openMotionDialog();
    expect(opened.status).toBe('opened');
    if (opened.status !== 'opened') return;
    const saved = await api.saveMotionAsDialog({
      documentId: opened.motion.documentId,
      mtnBytes: opened.motion.mtnBytes,
    });
    expect(saved).toMatchObject({ status: 'saved', file: { name: 'copy' } });
    expect(asked).toEqual(['open:mtn,mt3,mar:walk.mtn', 'save:mtn:walk.mtn']);
    expect(await api.confirmDiscardChanges({ documentName: 'walk', action: 'close' })).toBe(false);
    // The server-side dialog members exist but refuse: there is no UI behind them.
    for (const member of ACTGUY_DIALOG_MEMBERS) {
      const reply = decodeIpcFrame(
        new Uint8Array((await rpc(member, { documentId: opened.motion.documentId, compress: {} })).body),
      ) as { ok: boolean };
      expect(reply.ok, member).toBe(false);
    }
  });
});

describe('the port npm run web asks for', () => {
  it('is taken when free; when another program holds it, anyPortIfTaken listens on a free one instead of failing', async () => {
    const rendererDir = join(dir, 'renderer');
    const handlers = testHandlers({
      app: { workspaceRoot: workspace },
      compress: compress(),
      dialogs: loopbackDialogPort,
    });
    // The port the per-test server got is taken now.
    const taken = server.port;
    await expect(startLoopbackServer({ rendererDir, handlers, port: taken })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    const other = await startLoopbackServer({ rendererDir, handlers, port: taken, anyPortIfTaken: true });
    try {
      expect(other.port).toBeGreaterThan(0);
      expect(other.port).not.toBe(taken);
      expect(other.origin).toBe(`http://127.0.0.1:${other.port}`);
      const res = await fetch(`${other.origin}/`, { headers: { cookie: '' } });
      expect(res.status).toBe(403); // served, and still asks for its own token
    } finally {
      await other.close();
    }
    // Free again: the asked-for port is the one it listens on.
    await server.close();
    const same = await startLoopbackServer({ rendererDir, handlers, port: taken, anyPortIfTaken: true });
    server = same; // closed by afterEach
    expect(same.port).toBe(taken);
  });
});
