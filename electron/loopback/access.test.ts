/**
 * The loopback transport as an attacker meets it: the scenario (a
 * project saved in the workspace naming outside files must not widen access)
 * driven through the real HTTP client, body limits with a shared budget,
 * malformed URLs, bounded error replies, and open documents that are freed
 * when closed and capped in number.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressRequestForMotion } from '../../shared/compress/request';
import type { ActGuyApi } from '../../shared/ipc/api';
import { readMtn } from '../../shared/mtn/read';
import { decodeIpcFrame, encodeIpcFrame } from '../../shared/ipc/codec';
import { rawIpcFrame, sparseBombFrame } from '../../shared/testing/rawIpcFrame';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import { newDocumentId, type CompressClient } from '../compressClient';
import { loopbackDialogPort } from '../dialogPort';
import { MAX_OPEN_DOCUMENTS } from '../documents';
import type { ApiHandlers } from '../handlers';
import { ASSETS, testHandlers } from '../testing/handlerHarness';
import { inProcessBuild, settleBuild } from '../testing/projectHarness';
import { inProcessTextChecker } from '../project/textCheckJob';
import { MAX_BODY_BYTES, startLoopbackServer, type LoopbackServer, type LoopbackServerOptions } from './server';

/** A compress client that only records which documents are open (nothing here compresses). */
function recordingCompress(): CompressClient & { open_: Set<string>; closed: string[] } {
  const open_ = new Set<string>();
  const closed: string[] = [];
  return {
    open_,
    closed,
    open: ({ documentId }) => {
      const id = documentId ?? newDocumentId();
      open_.add(id);
      return id;
    },
    close: (id) => {
      open_.delete(id);
      closed.push(id);
    },
    compress: async (req) => {
      if (!open_.has(req.documentId)) throw new Error(`compress: document ${req.documentId} is not open`);
      return {
        status: 'superseded',
        documentId: req.documentId,
        revision: req.revision,
        supersededBy: req.revision + 1,
      };
    },
    exportMsh: async (req) => {
      throw new Error(`export MSH: not in this test (document ${req.documentId})`);
    },
    dispose: async () => {},
  };
}

let dir: string;
let ws: string;
let out: string;
let compress: ReturnType<typeof recordingCompress>;
let handlers: ApiHandlers;
let server: LoopbackServer;
let api: ActGuyApi;

async function serve(options: Partial<LoopbackServerOptions> = {}): Promise<void> {
  await server?.close();
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
  server = await startLoopbackServer({ rendererDir, handlers, ...options });
  api = createLoopbackClient({ baseUrl: server.origin, token: server.token });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-loopback-access-'));
  ws = join(dir, 'ws');
  out = join(dir, 'outside');
  cpSync(ASSETS, ws, { recursive: true });
  mkdirSync(out);
  writeFileSync(join(out, 'secret.sev'), '# OUTSIDE\nsev 1\n');
  writeFileSync(join(out, 'secret.json'), '{"outside": true}');
  compress = recordingCompress();
  handlers = testHandlers({
    app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
    compress,
    dialogs: loopbackDialogPort,
    launchBuild: inProcessBuild,
    checkText: inProcessTextChecker,
  });
  await serve();
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request; `hold` keeps the body open after writing `body` (the returned `finish` ends it). */
function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Uint8Array; hold?: boolean } = {},
): {
  done: Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>;
  finish: (rest?: Uint8Array) => void;
} {
  let finish: (rest?: Uint8Array) => void = () => {};
  const done = new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', fail);
    if (init.hold) {
      if (init.body) req.write(init.body);
      finish = (rest) => req.end(rest);
    } else req.end(init.body);
  });
  return { done, finish };
}

const rpcHeaders = (extra: Record<string, string> = {}) => ({ 'x-actguy-token': server.token, ...extra });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

describe('loopback: a project saved in the workspace never widens access', () => {
  it('saving a project that names outside files, then opening it and building it, reaches none of them', async () => {
    const project = join(ws, 'sample.actguy.json');
    const before = readdirSync(out).sort();
    const json = JSON.parse(readFileSync(project, 'utf8'));
    json.motions[2].sev = join(out, 'secret.sev');
    json.outputs = { mar: join(out, 'stage.mar'), sar: join(out, 'stage.sar') };
    const text = JSON.stringify(json, null, 2);
    // The page saves it (a valid project) and opens it again the way the in-app picker does.
    await api.saveProject({ path: project, text });
    const reopened = await api.openProject({ path: project });
    expect(reopened).toMatchObject({ status: 'opened', project: { text } });
    await expect(api.readProjectText({ path: join(out, 'secret.sev') })).rejects.toThrow(
      `ActGuy refused to access ${join(out, 'secret.sev')}`,
    );
    const build = await api.startBuild({ projectPath: project, projectText: text });
    const s = await settleBuild(() => api.getBuildStatus({ buildId: build.buildId }));
    expect(s.state).toBe('failed');
    expect(s.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(new RegExp(`^ActGuy refused to read ${join(out, 'secret.sev')}: `)),
      `ActGuy refused to write ${join(out, 'stage.mar')}: a build writes only inside the project's folder (${ws}) or the workspace`,
      `ActGuy refused to write ${join(out, 'stage.sar')}: a build writes only inside the project's folder (${ws}) or the workspace`,
      `ActGuy refused to write ${join(out, 'stage.report.json')}: a build writes only inside the project's folder (${ws}) or the workspace`,
    ]);
    await expect(api.saveProject({ path: join(out, 'secret.json'), text })).rejects.toThrow(/refused to access/);
    await expect(api.saveSev({ path: join(out, 'secret.sev'), text: 'sev 1\n' })).rejects.toThrow(/refused to access/);
    await expect(api.readProjectText({ path: `${ws}/../outside/secret.json` })).rejects.toThrow(/refused to access/);
    expect(readdirSync(out).sort()).toEqual(before);
    expect(readFileSync(join(out, 'secret.sev'), 'utf8')).toBe('# OUTSIDE\nsev 1\n');
  });
});

describe('loopback server limits', () => {
  it('refuses a body over 64 MiB from its Content-Length with 413, before reading it', async () => {
    expect(MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    const big = raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders({ 'Content-Length': String(MAX_BODY_BYTES + 1) }),
      body: new Uint8Array(16),
      hold: true,
    });
    const r = await big.done;
    expect(r.status).toBe(413);
    expect(r.body.toString()).toBe(
      `request body of ${MAX_BODY_BYTES + 1} bytes is over the ${MAX_BODY_BYTES}-byte limit`,
    );
    expect(server.bodyBytesInFlight()).toBe(0);
  });

  it('refuses a chunked body that grows past the limit, and keeps serving', async () => {
    await serve({ maxBodyBytes: 1000, bodyBudgetBytes: 4000 });
    const r = await raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders({ 'Transfer-Encoding': 'chunked' }),
      body: new Uint8Array(3000),
    }).done;
    expect(r.status).toBe(413);
    await until(() => server.bodyBytesInFlight() === 0);
    const ok = await raw('/rpc/getAppInfo', { method: 'POST', headers: rpcHeaders(), body: encodeIpcFrame(undefined) })
      .done;
    expect(ok.status).toBe(200);
  });

  it('concurrent uploads share one byte budget: one over it gets 503 until the first is done', async () => {
    await serve({ maxBodyBytes: 1000, bodyBudgetBytes: 1500 });
    const first = raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders({ 'Content-Length': '1000' }),
      body: new Uint8Array(10),
      hold: true,
    });
    await until(() => server.bodyBytesInFlight() === 1000);
    const second = await raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders({ 'Content-Length': '600' }),
      body: new Uint8Array(600),
    }).done;
    expect(second.status).toBe(503);
    expect(second.body.toString()).toMatch(/receiving other uploads/);
    // A small one still fits beside the first.
    const small = await raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders(),
      body: encodeIpcFrame(undefined),
    }).done;
    expect(small.status).toBe(200);
    first.finish(new Uint8Array(990));
    expect((await first.done).status).toBe(400); // zeros are not an IPC frame: refused as a bad body, after reading it
    await until(() => server.bodyBytesInFlight() === 0);
    const again = await raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders({ 'Content-Length': '600' }),
      body: new Uint8Array(600),
    }).done;
    expect(again.status).toBe(400);
  });

  it('a 300-byte request whose sparse arrays claim 256 MiB each is refused with 413 before they are allocated; the handler never runs', async () => {
    const seen: unknown[] = [];
    const compressMotion = handlers.compressMotion;
    handlers.compressMotion = async (arg) => {
      seen.push(arg);
      return compressMotion(arg);
    };
    const bomb = sparseBombFrame(2, 256 * 1024 * 1024);
    expect(bomb.byteLength).toBeLessThan(320);
    const replies = await Promise.all(
      Array.from(
        { length: 4 },
        () => raw('/rpc/compressMotion', { method: 'POST', headers: rpcHeaders(), body: bomb }).done,
      ),
    );
    for (const r of replies) {
      expect(r.status).toBe(413);
      expect(r.body.toString()).toBe(`request body decodes to more than the ${MAX_BODY_BYTES}-byte limit`);
    }
    expect(seen).toEqual([]);
    expect(server.bodyBytesInFlight()).toBe(0);
  });

  it('a 3 MiB request of `{},` that would parse to a million objects is refused with 413 before it is parsed; the handler never runs', async () => {
    // Three bytes of `{},` parse to more than a hundred (round 39): 60 MiB of them held 2.6 GB on the server's thread.
    const seen: unknown[] = [];
    const saveSev = handlers.saveSev;
    handlers.saveSev = async (arg) => {
      seen.push(arg);
      return saveSev(arg);
    };
    const bomb = rawIpcFrame(`[${'{},'.repeat(1_000_000)}0]`);
    expect(bomb.byteLength).toBeLessThan(3.1 * 1024 * 1024);
    const r = await raw('/rpc/saveSev', { method: 'POST', headers: rpcHeaders(), body: bomb }).done;
    expect(r.status).toBe(413);
    expect(r.body.toString()).toBe(`request body decodes to more than the ${MAX_BODY_BYTES}-byte limit`);
    expect(seen).toEqual([]);
    expect(server.bodyBytesInFlight()).toBe(0);
  });

  it('what a request decodes to stays reserved from the shared budget while its handler runs', async () => {
    await serve({ maxBodyBytes: 64 * 1024, bodyBudgetBytes: 100 * 1024 });
    let open = (): void => {};
    const gate = new Promise<void>((r) => (open = r));
    const compressMotion = handlers.compressMotion;
    handlers.compressMotion = async (arg) => {
      await gate;
      return compressMotion(arg);
    };
    // 60 KiB decoded from a 100-byte body: under the per-request cap, but two do not fit in the budget at once.
    const claim = sparseBombFrame(1, 60 * 1024);
    const first = raw('/rpc/compressMotion', { method: 'POST', headers: rpcHeaders(), body: claim }).done;
    await until(() => server.bodyBytesInFlight() >= 60 * 1024);
    const second = await raw('/rpc/compressMotion', { method: 'POST', headers: rpcHeaders(), body: claim }).done;
    expect(second.status).toBe(503);
    open();
    expect((await first).status).toBe(200);
    expect(server.bodyBytesInFlight()).toBe(0);
    expect((await raw('/rpc/compressMotion', { method: 'POST', headers: rpcHeaders(), body: claim }).done).status).toBe(
      200,
    );
  });

  it('answers malformed URLs with 400', async () => {
    const page = await raw(`/?token=${server.token}`).done;
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    for (const path of [`/%E0%A4%A?token=${'x'}`, '/%E0%A4%A', `/%00?token=t`, '//[']) {
      const withToken = path.includes('token=') ? path.replace(/token=[^&]*/, `token=${server.token}`) : path;
      const r = await raw(withToken, { headers: { Cookie: cookie } }).done;
      expect(r.status, path).toBe(400);
      expect(r.body.toString()).toBe('malformed URL');
    }
  });

  it('error replies quote at most a short piece of the request', async () => {
    const longName = `x${'y'.repeat(8000)}`;
    const r = await raw(`/rpc/${longName}`, { method: 'POST', headers: rpcHeaders(), body: encodeIpcFrame(undefined) })
      .done;
    expect(r.status).toBe(404);
    expect(r.body.length).toBeLessThan(120);
    const bad = await raw('/rpc/getAppInfo', {
      method: 'POST',
      headers: rpcHeaders(),
      body: new Uint8Array(5000).fill(65),
    }).done;
    expect(bad.status).toBe(400);
    expect(bad.body.length).toBeLessThan(200);
    const longPath = `/${'a'.repeat(100000)}.sev`;
    const reply = decodeIpcFrame(
      new Uint8Array(
        (
          await raw('/rpc/readProjectText', {
            method: 'POST',
            headers: rpcHeaders(),
            body: encodeIpcFrame({ path: longPath }),
          }).done
        ).body,
      ),
    ) as { ok: boolean; error: { message: string } };
    expect(reply.ok).toBe(false);
    expect(reply.error.message).toBe(
      'readProjectText: path is longer than 4096 characters: no file ActGuy opens or writes has so long a path',
    );
    expect(reply.error.message.length).toBeLessThan(500);
  });
});

describe('open documents', () => {
  it('are freed when closed, and past the cap the least recently used one is closed', async () => {
    const ids: string[] = [];
    const motion = readMtn(new Uint8Array(readFileSync(join(ws, 'walk.mtn'))));
    for (let i = 0; i < MAX_OPEN_DOCUMENTS + 2; i++) {
      const r = await api.openMotion({ path: join(ws, 'walk.mtn') });
      if (r.status !== 'opened') throw new Error('not opened');
      ids.push(r.motion.documentId);
      // The first document stays in use: it is never the one evicted.
      if (i > 0)
        expect((await api.compressMotion(compressRequestForMotion(motion, ids[0], i))).status).toBe('superseded');
    }
    expect(compress.open_.size).toBe(MAX_OPEN_DOCUMENTS);
    expect(compress.closed).toEqual([ids[1], ids[2]]);
    expect(compress.open_.has(ids[0])).toBe(true);
    await api.closeDocument({ documentId: ids[5] });
    expect(compress.open_.has(ids[5])).toBe(false);
    const mtnBytes = new Uint8Array(readFileSync(join(ws, 'walk.mtn')));
    for (const id of [ids[1], ids[5]])
      await expect(api.saveMotion({ documentId: id, path: join(ws, 'walk.mtn'), mtnBytes })).rejects.toThrow(
        `document ${id} is not open`,
      );
  });
});
