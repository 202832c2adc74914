/**
 * The loopback transport: serves the built renderer and the ActGuyApi
 * handlers over HTTP so the real renderer runs in a plain browser (npm run
 * web, Playwright). It is a development and test tool, never part of the
 * packaged app (electron-builder.yml leaves it out).
 *
 * Security: it listens on 127.0.0.1 only; every request needs the random
 * per-run token (403 otherwise; the page's own script and style requests carry
 * a cookie holding another per-run key, which opens static files only: a
 * cookie is sent to every port of the host, docs/security.md round 39); the Host header must name the loopback
 * address (defeats DNS rebinding); RPCs need the token in a custom header
 * (so another site cannot post a form to it) and a same-origin Origin when the
 * browser sends one; only members of ACTGUY_INVOKE_MEMBERS are served (404
 * otherwise); static files come only from the renderer folder.
 *
 * Limits: a request body is at most 64 MiB and all bodies being received at
 * once share a budget (413 / 503 beyond, before the bytes are kept); what a
 * body decodes to is bounded the same way, before it is allocated (a few
 * bytes can name a 256 MiB sparse array), and stays reserved from the shared
 * budget until the reply is sent (docs/limits.md); a
 * malformed URL gets 400; an error reply quotes at most a short piece of
 * what the request said.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { decodeIpcFrameSized, encodeIpcFrame, IpcFrameTooLargeError } from '../../shared/ipc/codec';
import { isInvokeMember } from '../../shared/ipc/transport';
import type { ApiHandlers } from '../handlers';
import { dispatchInvoke } from '../invokeReply';
import { CONTENT_SECURITY_POLICY, rendererContentType, rendererFileOf } from '../security';

/** Header carrying the token on RPCs (same name as renderer/transport/loopback.ts). */
export const TOKEN_HEADER = 'x-actguy-token';
/** Largest RPC body accepted (a 100-joint MTN of 10,000 frames is about 12 MiB). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Bytes of request bodies held at once across concurrent uploads. */
export const BODY_BUDGET_BYTES = 2 * MAX_BODY_BYTES;
/** Longest piece of a request (a member name, a path) an error reply quotes. */
const ECHO_MAX = 64;

/** A piece of the request for an error reply: short, and JSON-quoted so no control character goes back raw. */
function echo(s: string): string {
  return JSON.stringify(s.length <= ECHO_MAX ? s : `${s.slice(0, ECHO_MAX)}…`);
}

/** A request refused with an HTTP status (413 too large, 503 over the shared budget). */
class BodyRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface LoopbackServerOptions {
  /** The built renderer (dist/renderer, with index.html). */
  rendererDir: string;
  handlers: ApiHandlers;
  /** Defaults to 32 random bytes as hex. */
  token?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /**
   * When `port` is taken, listen on a free port instead of failing (npm run web's usual port: the browser keeps the
   * app's preferences per address, docs/tuner.md). The server's `port` says which one it got.
   */
  anyPortIfTaken?: boolean;
  /** Largest request body (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Bytes of bodies held at once across concurrent requests (default BODY_BUDGET_BYTES). */
  bodyBudgetBytes?: number;
}

export interface LoopbackServer {
  /** The page to open, token included: http://127.0.0.1:PORT/?token=... */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Bytes of request bodies reserved right now (tests watch uploads start and end with it). */
  bodyBytesInFlight(): number;
  close(): Promise<void>;
}

export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const tokenBytes = Buffer.from(token, 'utf8');
  // The cookie's key: never the token. A browser sends a cookie of 127.0.0.1 (or localhost) to every port of it, so
  // any other local server the user opens, another user's among them, reads it (docs/security.md, round 39). This
  // key opens the renderer's static files, which are no secret; only the token (in a header) drives the API.
  const pageKeyBytes = Buffer.from(randomBytes(32).toString('hex'), 'utf8');
  const rendererDir = resolve(options.rendererDir);
  let port = 0;
  const cookieName = (): string => `actguy-page-${port}`;

  const matches = (candidate: string | null | undefined, secret: Buffer): boolean => {
    if (!candidate) return false;
    const c = Buffer.from(candidate, 'utf8');
    return c.length === secret.length && timingSafeEqual(c, secret);
  };
  const tokenMatches = (candidate: string | null | undefined): boolean => matches(candidate, tokenBytes);

  const cookieToken = (req: IncomingMessage): string | null => {
    for (const part of (req.headers.cookie ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === cookieName()) return v.join('=');
    }
    return null;
  };

  const send = (
    res: ServerResponse,
    status: number,
    body: string | Uint8Array,
    type = 'text/plain; charset=utf-8',
    extra: Record<string, string> = {},
  ): void => {
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
      ...extra,
    });
    res.end(body);
  };

  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const budget = options.bodyBudgetBytes ?? BODY_BUDGET_BYTES;
  let inFlight = 0;

  /**
   * Reads a body within the limits: a declared Content-Length is reserved
   * from the shared budget before any byte is read; bytes beyond what was
   * declared (or of a chunked body) are reserved as they arrive. The
   * reservation is returned when the request ends, fails or is refused.
   */
  const readBody = (req: IncomingMessage): Promise<Uint8Array> =>
    new Promise((resolveBody, reject) => {
      const declared = req.headers['content-length'] === undefined ? 0 : Number(req.headers['content-length']);
      if (!Number.isSafeInteger(declared) || declared < 0) return reject(new BodyRefused(400, 'bad Content-Length'));
      if (declared > maxBody)
        return reject(new BodyRefused(413, `request body of ${declared} bytes is over the ${maxBody}-byte limit`));
      if (inFlight + declared > budget)
        return reject(new BodyRefused(503, 'the server is receiving other uploads; try again when they are done'));
      let reserved = declared;
      inFlight += reserved;
      let done = false;
      const release = (): void => {
        if (done) return;
        done = true;
        inFlight -= reserved;
      };
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        if (done) return;
        size += c.length;
        const refuse = (e: BodyRefused): void => {
          release();
          chunks.length = 0;
          reject(e);
        };
        if (size > maxBody) return refuse(new BodyRefused(413, `request body over the ${maxBody}-byte limit`));
        if (size > reserved) {
          if (inFlight + (size - reserved) > budget)
            return refuse(new BodyRefused(503, 'the server is receiving other uploads; try again when they are done'));
          inFlight += size - reserved;
          reserved = size;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (done) return;
        const b = Buffer.concat(chunks);
        release();
        resolveBody(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
      });
      req.on('error', (e) => {
        release();
        reject(e);
      });
      req.on('close', release);
    });

  /** Answers a refused body and closes the connection: the rest of the body is never read. */
  const refuseBody = (res: ServerResponse, e: BodyRefused): void => {
    const socket = res.socket;
    send(res, e.status, e.message, undefined, { Connection: 'close' });
    // Node discards the unread rest while the reply drains; a sender that keeps going is cut off soon after.
    res.on('finish', () => setTimeout(() => socket?.destroy(), 1000).unref());
  };

  const serveRpc = async (req: IncomingMessage, res: ServerResponse, member: string): Promise<void> => {
    if (!isInvokeMember(member)) return send(res, 404, `no API member ${echo(member)}`);
    if (req.method !== 'POST') return send(res, 405, 'RPCs are POST', undefined, { Allow: 'POST' });
    let arg: unknown;
    let decodedBytes = 0;
    try {
      const body = await readBody(req);
      if (body.byteLength > 0) {
        // The decoded value is held while the handler runs: it gets the same cap as a body and shares the budget.
        const room = Math.min(maxBody, budget - inFlight);
        try {
          ({ value: arg, decodedBytes } = decodeIpcFrameSized(body, { maxDecodedBytes: room }));
        } catch (e) {
          if (!(e instanceof IpcFrameTooLargeError)) throw e;
          throw e.decodedBytes > maxBody
            ? new BodyRefused(413, `request body decodes to more than the ${maxBody}-byte limit`)
            : new BodyRefused(503, 'the server is receiving other uploads; try again when they are done');
        }
      }
    } catch (e) {
      if (e instanceof BodyRefused) return refuseBody(res, e);
      return send(res, 400, `bad request body: ${echo((e as Error).message)}`);
    }
    inFlight += decodedBytes;
    let reply: unknown;
    try {
      reply = await dispatchInvoke(options.handlers, member, arg);
    } finally {
      inFlight -= decodedBytes;
    }
    let frame: Uint8Array;
    try {
      frame = encodeIpcFrame(reply);
    } catch (e) {
      frame = encodeIpcFrame({
        ok: false,
        error: { message: `${member}: the reply could not be encoded (${(e as Error).message})` },
      });
    }
    send(res, 200, frame, 'application/octet-stream');
  };

  const serveStatic = async (res: ServerResponse, pathname: string, setCookie: boolean): Promise<void> => {
    const full = rendererFileOf(rendererDir, pathname);
    if (full === 'malformed') return send(res, 400, 'malformed URL');
    if (full === 'outside') return send(res, 404, 'not found');
    let body: Buffer;
    try {
      body = await readFile(full);
    } catch {
      return send(
        res,
        404,
        pathname === '/' || full === join(rendererDir, 'index.html')
          ? `the renderer is not built (${full} is missing); run npm run web`
          : 'not found',
      );
    }
    const type = rendererContentType(full);
    const extra: Record<string, string> = { 'Content-Security-Policy': CONTENT_SECURITY_POLICY };
    // The page's own requests (scripts, styles) cannot carry the query token: a strict same-site cookie carries the
    // page key, which opens static files alone (pageKeyBytes).
    if (setCookie)
      extra['Set-Cookie'] = `${cookieName()}=${pageKeyBytes.toString('utf8')}; HttpOnly; SameSite=Strict; Path=/`;
    send(res, 200, new Uint8Array(body.buffer, body.byteOffset, body.byteLength), type, extra);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const host = req.headers.host ?? '';
      if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return send(res, 403, 'forbidden host');
      let url: URL;
      try {
        url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
      } catch {
        return send(res, 400, 'malformed URL');
      }
      if (url.pathname.startsWith('/rpc/')) {
        if (!tokenMatches(req.headers[TOKEN_HEADER] as string | undefined))
          return send(res, 403, 'missing or wrong token');
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`)
          return send(res, 403, 'cross-origin request refused');
        return serveRpc(req, res, url.pathname.slice('/rpc/'.length));
      }
      const queryOk = tokenMatches(url.searchParams.get('token'));
      if (!queryOk && !matches(cookieToken(req), pageKeyBytes))
        return send(res, 403, 'missing or wrong token: open the URL printed by npm run web');
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return send(res, 405, 'only GET', undefined, { Allow: 'GET, HEAD' });
      return serveStatic(res, url.pathname, queryOk);
    })().catch((e) => {
      if (!res.headersSent) send(res, 500, `internal error: ${echo(String((e as Error)?.message ?? e))}`);
      else res.destroy();
    });
  });

  const listen = (at: number) =>
    new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  try {
    await listen(options.port ?? 0);
  } catch (e) {
    if (!options.anyPortIfTaken || !options.port || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    await listen(0);
  }
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    bodyBytesInFlight: () => inFlight,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
