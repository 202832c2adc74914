/**
 * The loopback client against a server that closes a kept-alive connection as a request arrives on it, as Node's
 * server does at its `keepAliveTimeout` (5 s) when the client's own idle timer (3 s, on a 1 s grain) was late: the
 * race `motionSaveKill.test.ts` met once on a loaded machine, "not reachable (fetch failed)" (docs/testing.md, "Tests
 * under load, round 2"). Here it is made on purpose: the stand-in server answers one request per connection, keeping
 * the connection, and resets the connection at the next. The client's message names the cause; a client on
 * freshConnectionFetch never sends on a kept connection.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import { encodeIpcFrame } from '../../shared/ipc/codec';
import { freshConnectionFetch } from '../testing/loopbackChild';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  // The client keeps its connections (60 s, as told): they end with the server.
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
});

/** A server that answers the first request of a connection (kept alive, "timeout=60") and resets the connection at a second one. */
async function closingAtSecondRequest(): Promise<{ origin: string; connections: () => number }> {
  let connections = 0;
  const reply = encodeIpcFrame({ ok: true, value: { folder: '/w', files: [] } });
  server = createServer((socket: Socket) => {
    connections++;
    sockets.add(socket);
    let requests = 0;
    let seen = '';
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      // A request is whole once its body (Content-Length bytes after the head) is in.
      const head = seen.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, head))?.[1] ?? 0);
      if (seen.length < head + 4 + length) return;
      seen = seen.slice(head + 4 + length);
      if (++requests > 1) {
        // Closed as idle the moment the request came: unread bytes make the close a reset.
        socket.resetAndDestroy();
        return;
      }
      const keep = !/\r\nconnection: *close\r\n/i.test(`\r\n${chunk.toString('latin1')}`);
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: ${reply.byteLength}\r\n` +
          (keep ? 'Connection: keep-alive\r\nKeep-Alive: timeout=60\r\n\r\n' : 'Connection: close\r\n\r\n'),
      );
      socket.write(reply);
      if (!keep) socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { origin: `http://127.0.0.1:${address.port}`, connections: () => connections };
}

describe('a kept-alive connection the server closes as the next request comes', () => {
  it("fails that request with Node's fetch, and the client's message keeps the cause", async () => {
    const { origin } = await closingAtSecondRequest();
    const api = createLoopbackClient({ baseUrl: origin, token: 't' });
    let err: Error | null = null;
    // Node's fetch hands the connection back once the answer is read, a turn of the event loop after the body: the
    // next request goes on it then (a few tries: none may fail for want of a kept connection).
    for (let i = 0; i < 5 && !err; i++) {
      err = await api.listWorkspace({ extensions: ['mtn'] }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      await new Promise((next) => setImmediate(next));
    }
    // "fetch failed" alone was all it said; the cause is the connection's end (undici: "other side closed", or a reset).
    expect(err?.message).toMatch(
      /^ActGuy's local server is not reachable \(fetch failed: .*(closed|ECONNRESET|reset).*\)/,
    );
  });

  it('never happens with freshConnectionFetch: each request on a connection of its own', async () => {
    const { origin, connections } = await closingAtSecondRequest();
    const api = createLoopbackClient({ baseUrl: origin, token: 't', fetchImpl: freshConnectionFetch });
    for (let i = 0; i < 5; i++) {
      await expect(api.listWorkspace({ extensions: ['mtn'] })).resolves.toEqual({ folder: '/w', files: [] });
      await new Promise((next) => setImmediate(next));
    }
    expect(connections()).toBe(5);
  });
});
