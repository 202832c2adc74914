/**
 * `npm run web`'s stop with a thread that does not stop (maintainer's read, round 18): the server as it runs (serve.ts
 * bundled as dist/electron/loopback.cjs is, in a process of its own), its threads real, two of them held in native
 * code as a read of a network folder that stopped answering holds one (testing/heldThread.ts): File › Open's (a
 * one-shot thread, motionLoad.ts) and the text checker's (made by the server and handed to createHandlers, which made
 * its own before). The process's end waits for every thread, so the server used to stay after its stop, and every
 * Ctrl+C after the first did nothing.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import { SAMPLE_MTN } from '../testing/handlerHarness';
import { heldThread, workerFile } from '../testing/heldThread';
import { bundleLoopback, freshConnectionFetch, serveChild } from '../testing/loopbackChild';
import { pieceOfWork } from '../testing/pieceOfWork';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-serve-stop-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run web: the stop with a thread that does not stop', { timeout: 0 }, () => {
  // Mutations that fail: the stop without the bounded stop of the threads (`await compress.dispose()` then
  // `process.exit(0)`, as before: the server never ends, the piece of work runs out); the text checker left to
  // createHandlers' default (not named, so not stopped); the one-shot threads not stopped (not named); no kill past the
  // bound (`process.exit` waits for the held threads: no end).
  it.skipIf(process.platform === 'win32')(
    'ends after its bound, naming the threads still held, killed rather than joined to them',
    async () => {
      const { bundle, rendererDir } = await pieceOfWork('serve.ts bundled', bundleLoopback(dir));
      // The threads' bundles beside the server's, as app-build puts them: each held at its start.
      const bundleDir = join(dir, 'dist', 'electron');
      const open = heldThread(dir, 'open');
      const checker = heldThread(dir, 'checker');
      workerFile(bundleDir, 'motionLoadWorker', open.hold);
      workerFile(bundleDir, 'textCheckWorker', checker.hold);
      const workspace = join(dir, 'workspace');
      mkdirSync(workspace);
      copyFileSync(SAMPLE_MTN, join(workspace, 'walk.mtn'));
      const project = join(workspace, 'held.actguy.json');
      writeFileSync(project, '{}\n');
      const s = await serveChild(
        [bundle, '--workspace', workspace, '--renderer', rendererDir, '--exit-with-stdin'],
        {},
      );
      try {
        const client = createLoopbackClient({
          baseUrl: s.url.origin,
          token: s.url.searchParams.get('token')!,
          fetchImpl: freshConnectionFetch,
        });
        // An open (its read in a thread of its own) and a build (its project's text checked first): neither answers.
        const asked = [
          client.openMotion({ path: join(workspace, 'walk.mtn') }),
          client.startBuild({ projectPath: project, projectText: '{}\n' }),
        ].map((p) =>
          p.then(
            () => undefined,
            () => undefined,
          ),
        );
        await pieceOfWork('the open thread held in its read', until(open.reached));
        await pieceOfWork("the text checker's thread held in its read", until(checker.reached));
        const ended = new Promise<NodeJS.Signals | number | null>((ok) =>
          s.child.once('exit', (code, signal) => ok(signal ?? code)),
        );
        s.child.stdin!.end();
        expect(await pieceOfWork("the server's end past its bound", ended)).toBe('SIGKILL');
        const said = await pieceOfWork("the server's pipes closed", s.closed);
        expect(said).toContain(
          'actguy web: the text checker, the open and import threads did not stop within 5 s of the stop: ending the process',
        );
        await pieceOfWork('the requests ended with the server', Promise.all(asked));
      } finally {
        // Let the threads go (a mutation's server still waiting for them ends then), and end the server if it stayed.
        open.releaseIfHeld();
        checker.releaseIfHeld();
        if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      }
    },
  );
});

/** Resolves once `check` holds, looked at every 20 ms (a note file a held thread writes). */
function until(check: () => boolean): Promise<void> {
  return new Promise((ok) => {
    const look = setInterval(() => {
      if (!check()) return;
      clearInterval(look);
      ok();
    }, 20);
  });
}
