/**
 * A motion's Save of its .mtn and tuning file, killed mid-commit in a real process: the loopback server (serve.ts
 * bundled as dist/electron/loopback.cjs is) gets SIGKILL at each step of the pair's commit (commit.ts's
 * ACTGUY_TEST_KILL_AT_COMMIT_STEP: the process kills itself there, no cleanup at all). Afterwards the folder holds the
 * old pair, or a journal; the next open of the motion (another server process) completes that journal first and says
 * so, shows the new pair, and leaves neither temp nor journal nor lock; a journal not of this pair refuses the open,
 * naming it (docs/security.md, "Saves of a motion compare too").
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackClient } from '../../renderer/transport/loopback';
import { tuningPathOf } from '../../shared/tuning/sidecar';
import { commitStepCount } from '../build/commit';
import { SAMPLE_MTN } from '../testing/handlerHarness';
import { bundleLoopback, freshConnectionFetch, serveChild } from '../testing/loopbackChild';
import { pieceOfWork } from '../testing/pieceOfWork';

let dir: string;
let bundle: string;
let workspace: string;
let rendererDir: string;
let mtn: string;
let tuning: string;
const OLD_MTN = new Uint8Array(readFileSync(SAMPLE_MTN));
const NEW_MTN = (() => {
  const b = new Uint8Array(OLD_MTN);
  b[b.length - 1] ^= 1;
  return b;
})();
const OLD_TUNING = '{"version": 1, "rotationOverridesDeg": {"LeftFoot": 1}}\n';
const NEW_TUNING = '{"version": 1, "rotationOverridesDeg": {"LeftFoot": 2}}\n';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-save-kill-'));
  ({ bundle, rendererDir } = await pieceOfWork('serve.ts bundled', bundleLoopback(dir)));
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  mtn = join(workspace, 'walk.mtn');
  tuning = tuningPathOf(mtn);
}, 0);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  api: ReturnType<typeof createLoopbackClient>;
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the bundle on the workspace, killing itself at commit step `killAt` (0: never). */
async function serve(killAt: number): Promise<Served> {
  const { child, url } = await serveChild(
    [bundle, '--workspace', workspace, '--renderer', rendererDir, '--port', '0', '--exit-with-stdin'],
    { ACTGUY_TEST_KILL_AT_COMMIT_STEP: killAt ? String(killAt) : '' },
  );
  const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_code, signal) => done(signal)));
  // Each request on a connection of its own: `next` sits idle for a whole killed server's start and save between two
  // opens, about the 5 s after which it closes a kept-alive connection (loopbackChild.ts freshConnectionFetch).
  const api = createLoopbackClient({
    baseUrl: url.origin,
    token: url.searchParams.get('token')!,
    fetchImpl: freshConnectionFetch,
  });
  return { child, exited, api };
}

async function stop(s: Served, what: string): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  s.child.stdin!.end();
  await pieceOfWork(`${what}: its end once its stdin closed`, s.exited);
}

/** The pair on disk, as bytes and text. */
const pair = () => ({ mtn: new Uint8Array(readFileSync(mtn)), tuning: readFileSync(tuning, 'utf8') });
const OLD = { mtn: OLD_MTN, tuning: OLD_TUNING };
const NEW = { mtn: NEW_MTN, tuning: NEW_TUNING };

/** The old pair alone in the workspace. */
function oldPair(): void {
  for (const name of readdirSync(workspace)) rmSync(join(workspace, name), { recursive: true, force: true });
  writeFileSync(mtn, OLD_MTN);
  writeFileSync(tuning, OLD_TUNING);
}

/** Opens the motion in `s` and returns what the page is shown. */
async function open(s: Served, what: string) {
  const outcome = await pieceOfWork(`${what}: the open's answer`, s.api.openMotion({ path: mtn }));
  if (outcome.status !== 'opened') throw new Error(`not opened: ${outcome.status}`);
  const shown = outcome.motion.tuning;
  return {
    documentId: outcome.motion.documentId,
    mtn: new Uint8Array(outcome.motion.mtnBytes),
    tuning: shown && 'text' in shown ? shown.text : null,
    recovered: outcome.motion.recovered,
  };
}

describe("a motion's Save killed at every step of its commit", () => {
  // Eleven servers, each started, opened and saved, and ten opens after them: at load 20 and more on the 2-core machine
  // the whole went past the 180 s it had while every piece of it was well. No limit on the whole: each piece of work
  // is waited for by the event that ends it (an answer, the process's end), bounded by pieceOfWork, which names the
  // step and the piece still pending.
  it('leaves the old pair or a journal, which the next open completes to the new pair, saying so', async () => {
    const steps = commitStepCount(2, 2);
    const seen = { old: 0, completed: 0 };
    const next = await serve(0);
    try {
      for (let k = 1; k <= steps + 1; k++) {
        oldPair();
        const killed = await serve(k);
        try {
          const { documentId } = await open(killed, `step ${k}, the server to be killed`);
          // Ended by the save's answer, or by its failure when the process killed itself and its connection dropped.
          const saved = await pieceOfWork(
            `step ${k}: the save's answer or its failure`,
            killed.api.saveMotion({ documentId, path: mtn, mtnBytes: NEW_MTN, tuningText: NEW_TUNING }).then(
              () => 'saved',
              (e: unknown) => e,
            ),
          );
          if (k > steps) {
            // Past the last step the seam never fires: saved, and nothing left beside the pair.
            expect(saved, `step ${k}`).toBe('saved');
            expect(pair()).toEqual(NEW);
            expect(readdirSync(workspace).sort()).toEqual(['walk.mtn', tuningPathOf('walk.mtn')]);
            break;
          }
          expect(
            await pieceOfWork(`step ${k}: the killed server's end`, killed.exited),
            `step ${k}: ${String(saved)}`,
          ).toBe('SIGKILL');
        } finally {
          await stop(killed, `step ${k}, the server to be killed`);
        }
        const journal = readdirSync(workspace).includes('walk.mtn.actguy-commit');
        // No journal: the commit point was not reached, and the old pair is on disk whole.
        if (!journal) expect(pair(), `step ${k}`).toEqual(OLD);
        // Something lies beside the pair (temps, backups, the lock the killed process held).
        expect(readdirSync(workspace).length, `step ${k}`).toBeGreaterThan(2);
        const shown = await open(next, `step ${k}, the next server`);
        const expected = journal ? NEW : OLD;
        expect({ mtn: shown.mtn, tuning: shown.tuning }, `step ${k}`).toEqual(expected);
        expect(pair(), `step ${k}`).toEqual(expected);
        expect(shown.recovered, `step ${k}`).toMatch(
          journal
            ? /^walk\.mtn: an interrupted save was completed: .*walk\.mtn, .*walk\.mtn\.actguy-tuning\.json hold its outputs\.$/
            : /^walk\.mtn: /,
        );
        expect(readdirSync(workspace).sort(), `step ${k}`).toEqual(['walk.mtn', tuningPathOf('walk.mtn')]);
        seen[journal ? 'completed' : 'old']++;
      }
    } finally {
      await stop(next, 'the next server');
    }
    // Kills before the journal keep the old pair; kills after it are completed by the next open.
    expect(seen).toEqual({ old: 5, completed: 5 });
  }, 0);

  it('a journal beside the motion that is not of its pair refuses the open, naming it, and is left as it is', async () => {
    oldPair();
    const journal = `${mtn}.actguy-commit`;
    const foreign = JSON.stringify({
      tool: 'actguy commit',
      version: 1,
      state: 'forward',
      outputs: [mtn, join(workspace, 'other.json')],
      entries: [],
    });
    writeFileSync(journal, foreign);
    const s = await serve(0);
    try {
      await expect(pieceOfWork("the open's refusal", s.api.openMotion({ path: mtn }))).rejects.toThrow(
        /Could not open .*walk\.mtn.*refused the commit journal .*walk\.mtn\.actguy-commit/,
      );
    } finally {
      await stop(s, 'the server');
    }
    expect(readFileSync(journal, 'utf8')).toBe(foreign);
    expect(pair()).toEqual(OLD);
  }, 0);
});
