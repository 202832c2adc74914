/**
 * Fuzz target `loopback-request` (round 5, docs/testing.md): whole HTTP requests, as bytes on a socket, to the real
 * loopback server (`startLoopbackServer`, electron/loopback/server.ts) as `npm run web` runs it, so every decoder a
 * request meets is fuzzed together: Node's request parser, the Host and Origin checks, the URL, the token in the query,
 * the header and the cookie, the RPC member's name, the body's length and reading, its IPC frame
 * (`decodeIpcFrameSized`) and the static file's path (`rendererFileOf`). `ipc-frame` fuzzes the frame alone.
 *
 * The server serves a scratch renderer folder of two files and answers every RPC member with a fake handler (no file
 * is touched); a folder beside it holds a secret. `{PORT}` and `{TOKEN}` in an input are this run's port and token.
 * Each answer on the connection is judged: a status the server does not give (500 "internal error" among them) is a
 * defect, a file served must be one of the renderer's (never the secret), an RPC's answer must be an IPC reply, and
 * the server must answer or close within 30 s of wall time (nothing else in the process waits on it). An input is
 * accepted when some answer is a 200, else rejected.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACTGUY_INVOKE_MEMBERS } from '../../shared/ipc/api';
import { decodeIpcFrame, encodeIpcFrame } from '../../shared/ipc/codec';
import type { ApiHandlers } from '../../electron/handlers';
import { startLoopbackServer, TOKEN_HEADER, type LoopbackServer } from '../../electron/loopback/server';
import { mutateBinary, mutateText, pick, type Rng } from './mutate';
import { FuzzDefect, type FuzzTarget, type Outcome } from './judge';

/** What the renderer folder serves, by file; anything else in a 200 is a file from elsewhere. */
const SERVED = ['<!doctype html><title>INDEX</title>', 'console.log("APP")'];
const SECRET = 'SECRET-beside-the-renderer';
/** The statuses the server answers with (Node's own parser adds 400, 413, 414 and 431 for what it cannot read). */
const STATUSES = new Set([200, 400, 403, 404, 405, 413, 414, 431, 503, 505]);

let server: Promise<LoopbackServer> | undefined;
function loopback(): Promise<LoopbackServer> {
  server ??= (() => {
    // One folder per process, made again by each worker of `npm run fuzz` (they run one after another in the process):
    // a stopped worker runs no exit handler, so a folder per worker was left behind. Removed at a normal exit; after
    // `npm run fuzz` or a test process that is stopped, the one folder (three small files) stays.
    const dir = join(tmpdir(), `actguy-fuzz-loopback-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const rendererDir = join(dir, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), SERVED[0]);
    writeFileSync(join(rendererDir, 'assets', 'app.js'), SERVED[1]);
    mkdirSync(join(dir, 'renderer-other'));
    writeFileSync(join(dir, 'renderer-other', 'secret.txt'), SECRET);
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    // Every member answers at once with what it was given, so the request's decoding is what is judged.
    const handlers = new Proxy({}, { get: () => (arg: unknown) => Promise.resolve({ got: typeof arg }) });
    // A small body limit: the refusals of a body over it are reached by a mutated Content-Length alone.
    return startLoopbackServer({ rendererDir, handlers: handlers as ApiHandlers, maxBodyBytes: 1 << 16 });
  })();
  return server;
}

const request = (head: string[], body: Uint8Array = new Uint8Array()) =>
  new Uint8Array(
    Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\nContent-Length: ${body.byteLength}\r\n\r\n`), body]),
  );

function seeds(): Uint8Array[] {
  const frame = encodeIpcFrame({ path: '/p/walk.mtn', bytes: new Uint8Array([1, 2, 3]), n: 1.5, list: [null, true] });
  return [
    request(['GET /?token={TOKEN} HTTP/1.1', 'Host: 127.0.0.1:{PORT}']),
    request([
      'GET /assets/app.js?token={TOKEN} HTTP/1.1',
      'Host: localhost:{PORT}',
      'Cookie: a=b; actguy-page-{PORT}=x',
    ]),
    // Escapes the URL keeps and the renderer's path decodes: out of the folder, and into the one beside it.
    request(['HEAD /..%2fsecret.txt?token={TOKEN} HTTP/1.1', 'Host: 127.0.0.1:{PORT}']),
    request(['GET /..%2Frenderer-other%2fsecret.txt?token={TOKEN} HTTP/1.1', 'Host: 127.0.0.1:{PORT}']),
    request(
      [
        `POST /rpc/${ACTGUY_INVOKE_MEMBERS[1]} HTTP/1.1`,
        'Host: 127.0.0.1:{PORT}',
        `${TOKEN_HEADER}: {TOKEN}`,
        'Origin: http://127.0.0.1:{PORT}',
      ],
      frame,
    ),
  ];
}

const TOKENS = [
  '{TOKEN}',
  '{PORT}',
  '?token={TOKEN}',
  '..',
  '%2e%2e',
  '%2f',
  '%5c',
  '%00',
  '%E0%A4%A',
  '//',
  '\\',
  '/rpc/',
  'renderer-other',
  'secret.txt',
  'index.html',
  '\r\n',
  'Content-Length: 99999999',
  'Content-Length: -1',
  'Transfer-Encoding: chunked',
  `${TOKEN_HEADER}: {TOKEN}`,
  'Cookie: actguy-page-{PORT}=',
  'Origin: null',
  'Host: localhost:{PORT}',
  '__proto__',
  'constructor',
  ...ACTGUY_INVOKE_MEMBERS.slice(0, 6),
];

function mutate(rnd: Rng, seed: Uint8Array): Uint8Array {
  if (rnd() < 0.15) return mutateBinary(rnd, seed);
  const head = Buffer.from(seed).indexOf('\r\n\r\n');
  // The head as text; the body (an IPC frame) stays bytes, damaged now and then.
  let text = Buffer.from(seed.subarray(0, head)).toString('latin1');
  let body = seed.subarray(head + 4);
  const n = 1 + pick(rnd, 3);
  for (let k = 0; k < n; k++) text = mutateText(rnd, text, TOKENS, 1 << 14);
  if (body.byteLength && rnd() < 0.3) body = mutateBinary(rnd, body);
  return new Uint8Array(Buffer.concat([Buffer.from(`${text}\r\n\r\n`, 'latin1'), body]));
}

/**
 * Sends the bytes and gets everything the server answers until it closes. `Connection: close` is put after the request
 * line, so the server closes once it has answered the first request; the socket is half-closed only when the server
 * has been quiet for 250 ms (a request it still waits the rest of: a Content-Length past the body, a cut head), as a
 * half-close ends an answer still being made. The wait decides no verdict: an answer cut by it is an empty one, a
 * rejection.
 */
function exchange(port: number, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const line = bytes.indexOf('\r\n');
    const sent =
      line < 0
        ? bytes
        : Buffer.concat([bytes.subarray(0, line + 2), Buffer.from('Connection: close\r\n'), bytes.subarray(line + 2)]);
    const socket = connect(port, '127.0.0.1', () => socket.write(sent));
    socket.setTimeout(250, () => socket.end());
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new FuzzDefect('hang', 'the server neither answered nor closed within 30 s'));
    }, 30_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer: what came is judged
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
  });
}

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** The answers on the connection, one after another (each with its Content-Length; without one, the rest). */
function answers(all: Buffer): Answer[] {
  const out: Answer[] = [];
  let at = 0;
  while (at < all.length) {
    const end = all.indexOf('\r\n\r\n', at);
    if (end < 0)
      throw new FuzzDefect(
        'invalid',
        `an answer cut off in its head: ${JSON.stringify(all.subarray(at, at + 80).toString('latin1'))}`,
      );
    const lines = all.subarray(at, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0]);
    if (!status) throw new FuzzDefect('invalid', `not an HTTP answer: ${JSON.stringify(lines[0].slice(0, 80))}`);
    const headers = new Map(
      lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    // A HEAD's answer names its length and holds no body: the next answer starts right after its head.
    const bodyless = all.subarray(end + 4, end + 13).toString('latin1') === 'HTTP/1.1 ';
    const length = bodyless
      ? 0
      : headers.has('content-length')
        ? Number(headers.get('content-length'))
        : all.length - end - 4;
    out.push({ status: Number(status[1]), headers, body: all.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

async function run(input: Uint8Array): Promise<Outcome> {
  const s = await loopback();
  const bytes = Buffer.from(
    Buffer.from(input).toString('latin1').replaceAll('{PORT}', String(s.port)).replaceAll('{TOKEN}', s.token),
    'latin1',
  );
  let served = false;
  for (const a of answers(await exchange(s.port, bytes))) {
    const what = `${a.status} ${JSON.stringify(a.body.subarray(0, 120).toString('utf8'))}`;
    if (!STATUSES.has(a.status)) throw new FuzzDefect(a.status === 500 ? 'crash' : 'invalid', `answered ${what}`);
    if (a.body.includes(SECRET)) throw new FuzzDefect('invalid', `served a file outside the renderer: ${what}`);
    if (a.status !== 200) continue;
    served = true;
    if (a.headers.get('content-type') === 'application/octet-stream') {
      let reply: unknown;
      try {
        reply = decodeIpcFrame(new Uint8Array(a.body));
      } catch (e) {
        throw new FuzzDefect('invalid', `an RPC answer that is no IPC frame (${(e as Error).message})`);
      }
      if (typeof (reply as { ok?: unknown })?.ok !== 'boolean')
        throw new FuzzDefect('invalid', `an RPC answer that is no reply: ${JSON.stringify(reply).slice(0, 120)}`);
    } else if (a.body.length && !SERVED.includes(a.body.toString('utf8')))
      throw new FuzzDefect('invalid', `served something that is no file of the renderer: ${what}`);
  }
  return served ? 'accepted' : 'rejected';
}

// A request the server waits the rest of costs its 250 ms of quiet: CI's short pass takes 500 (`npm run fuzz` its --count).
export const loopbackRequestTarget: FuzzTarget = {
  name: 'loopback-request',
  ext: 'http',
  seeds,
  mutate,
  run,
  ciCount: 500,
};
