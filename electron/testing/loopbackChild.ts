/**
 * For tests that run the loopback server in a process of its own, as `npm run web` does: serve.ts bundled as
 * dist/electron/loopback.cjs is (into a folder of the test's), and a child started on it that is ready once it prints
 * its `ActGuy web: URL` line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { pieceOfWork } from './pieceOfWork';

const root = join(__dirname, '..', '..');

/** Bundles serve.ts into `dir` (dist/electron/loopback.cjs) beside a stand-in renderer folder; returns both paths. */
export async function bundleLoopback(dir: string): Promise<{ bundle: string; rendererDir: string }> {
  const bundle = join(dir, 'dist', 'electron', 'loopback.cjs');
  await build({
    entryPoints: [join(root, 'electron', 'loopback', 'serve.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>ActGuy</title>');
  return { bundle, rendererDir };
}

export interface ServedChild {
  child: ChildProcess;
  url: URL;
  /** What the child wrote to stderr so far. */
  stderr: () => string;
  /**
   * Resolves once stderr holds `text`. stderr is a pipe of its own, read apart from stdout: what the server wrote there
   * before its URL line can be read after that line (on a loaded machine, it was), so a note is waited for, never read
   * the moment the URL came. Fails once the child has ended without it (its pipes closed: it can say nothing more), or
   * as a piece of work still pending (`pieceOfWork`), with what stderr held by then.
   */
  stderrHolds: (text: string | RegExp) => Promise<void>;
  /** Resolves with the whole of stderr once the child has ended and its pipes are closed: what it never said, it said here. */
  closed: Promise<string>;
}

/** Starts node on `args` (the bundle and its arguments) with `env` and waits for the URL it prints (or its end: it failed to start). */
export async function serveChild(args: string[], env: NodeJS.ProcessEnv): Promise<ServedChild> {
  const child = spawn(process.execPath, args, {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const waiters: { wanted: string | RegExp; ok: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if (typeof w.wanted === 'string' ? stderr.includes(w.wanted) : w.wanted.test(stderr)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.ok();
      }
  };
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
    check();
  });
  // 'close', not 'exit': at 'exit' the pipes may still hold what the child wrote last.
  const closed = new Promise<string>((ok) => child.once('close', () => ok(stderr)));
  // Ended by the URL line or by the child's end; a child that does neither is a piece of work still pending (its
  // bound once was 15 s, said as 60: a start on the loaded machine went past it).
  const url = await pieceOfWork(
    `the URL line of node ${args.join(' ')}`,
    new Promise<string>((ok, fail) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const m = /^ActGuy web: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/.exec(line);
        if (m) ok(m[1]);
      });
      child.once('exit', (code) => {
        // The reason it gives is on stderr, whole once the pipes are closed.
        void closed.then((said) => fail(new Error(`exited with ${code}: ${said}`)));
      });
    }),
  ).catch((e: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw e;
  });
  return {
    child,
    url: new URL(url),
    stderr: () => stderr,
    stderrHolds: (wanted) => {
      const said = new Promise<void>((ok) => {
        waiters.push({ wanted, ok });
        check();
      });
      const saidNot = closed.then((all) => {
        throw new Error(`the child ended without saying ${String(wanted)} on stderr; it said: ${JSON.stringify(all)}`);
      });
      return pieceOfWork(`stderr holding ${String(wanted)}`, Promise.race([said, saidNot])).catch((e: unknown) => {
        throw new Error(`${e instanceof Error ? e.message : String(e)}; stderr so far: ${JSON.stringify(stderr)}`);
      });
    },
    closed,
  };
}

/**
 * Node's fetch with each request on a connection of its own (`Connection: close`), for a test's client of a server in
 * another process. Node's fetch keeps an idle connection about 3 s (the server's 5 s `keepAliveTimeout` less 2 s, on a
 * timer of 1 s grain); a test process starved on a loaded machine can send its next request on that connection as
 * the server closes it as idle, and the request fails "fetch failed: other side closed" though the server is well
 * (docs/testing.md, "Tests under load, round 2"). The page is a browser's client, which sends a request again when a
 * connection it reused was closed before any answer; ActGuy's client does not retry (a save or a build is not
 * idempotent, and a reset cannot say whether the server acted).
 */
export const freshConnectionFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('Connection', 'close');
  return fetch(input, { ...init, headers });
};
