/**
 * File › Save checks the page's motion (and its tuning file) in the text-check worker, not on the main thread,
 * where a 30 MB motion's read held the window for about 0.1 s (docs/architecture.md#electron). Main's reads of an
 * MTN are counted here; the worker's are its own bundle's, which the count does not see. The messages are those
 * of the check made on the main thread before.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { openedMotion, tempWorkspace, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { useBundledWorker } from './compress/buildWorkerForTests';
import { workerCheckers } from './project/textCheck';
import { tuningPathOf } from '../shared/tuning/sidecar';
import { inProcessMotionChecker, type MotionCheckRequest } from './motionCheckJob';

const mainThread = vi.hoisted(() => ({ mtnReads: 0 }));
vi.mock('../shared/mtn/read', async (importOriginal) => {
  const real = await importOriginal<typeof import('../shared/mtn/read')>();
  return {
    ...real,
    readMtn: (...args: Parameters<typeof real.readMtn>) => {
      mainThread.mtnReads++;
      return real.readMtn(...args);
    },
  };
});

const compress = useCompressClientPerTest();
const textCheckWorker = useBundledWorker(resolve(__dirname, 'project', 'textCheckWorker.ts'));
let dir: string;
let workspace: string;
let handlers: ApiHandlers;

beforeEach(() => {
  ({ dir, workspace } = tempWorkspace('actguy-save-thread-'));
  handlers = testHandlers({
    app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
    compress: compress(),
    checkMotion: workerCheckers(textCheckWorker()).motion,
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const messageOf = (r: unknown) => (r as { ok: false; error: { message: string } }).error.message;

describe('File › Save off the main thread', () => {
  // Mutation that fails: saveMotion reading the motion itself (readMtn on main) before or instead of the check.
  it('checks the motion and its tuning in the worker: saved as before, and no MTN read on the main thread', async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    mainThread.mtnReads = 0;
    const path = join(workspace, 'copy.mtn');
    const tuningText = '{"version": 1, "rotationOverridesDeg": {"LeftFoot": 1}}';
    const saved = await handlers.saveMotion({ documentId, path, mtnBytes, tuningText });
    expect(saved).toEqual({ status: 'saved', file: { path, name: 'copy', byteLength: mtnBytes.byteLength } });
    expect(new Uint8Array(readFileSync(path))).toEqual(mtnBytes);
    expect(readFileSync(tuningPathOf(path), 'utf8')).toBe(tuningText);
    expect(mainThread.mtnReads).toBe(0);
  });

  // Mutations that fail: either message reworded by the worker's path (the reader's words, the tuning's file).
  it('a motion or a tuning that does not hold up is refused in the same words, nothing written, none read on main', async () => {
    const { documentId, mtnBytes } = await openedMotion(handlers, join(workspace, 'walk.mtn'));
    mainThread.mtnReads = 0;
    const path = join(workspace, 'bad.mtn');
    const cut = mtnBytes.slice(0, 40);
    const expected = await inProcessMotionChecker({ kind: 'motion', mtnBytes: cut });
    expect(expected.problem).toBe('motion');
    const bad = await dispatchInvoke(handlers, 'saveMotion', { documentId, path, mtnBytes: cut });
    expect(messageOf(bad)).toBe(
      `Could not save ${path}: the motion is not a valid MTN file (${(expected as { message: string }).message}); nothing was written`,
    );
    const tuning: MotionCheckRequest['tuning'] = {
      path: tuningPathOf(path),
      text: '{"version": 1, "rotationOverridesDeg": {"NoSuchJoint": 1}}',
    };
    const badTuning = await dispatchInvoke(handlers, 'saveMotion', {
      documentId,
      path,
      mtnBytes,
      tuningText: tuning.text,
    });
    const said = await inProcessMotionChecker({ kind: 'motion', mtnBytes, tuning });
    expect(said.problem).toBe('tuning');
    expect(messageOf(badTuning)).toBe(
      `Could not save ${path}: its tuning is not valid (${(said as { message: string }).message}); nothing was written`,
    );
    expect(messageOf(badTuning)).toContain('NoSuchJoint');
    expect(() => readFileSync(path)).toThrow();
    expect(mainThread.mtnReads).toBe(2); // the two in-process checks of this test, not the handler's
  });

  // Mutation that fails: the save opening the document again after its check (documents.set / compress.open unguarded).
  it('a document the page closed during the check is written, and stays closed', async () => {
    // The first check waits until the test lets it go; later ones answer at once.
    let release = (): void => undefined;
    let checking = (): void => undefined;
    let calls = 0;
    const checked = new Promise<void>((called) => (checking = called));
    const held = testHandlers({
      app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
      compress: compress(),
      checkMotion: (req) => {
        checking();
        const answer = inProcessMotionChecker(req);
        if (++calls > 1) return answer;
        return new Promise((done) => (release = () => void answer.then(done)));
      },
    });
    const { documentId, mtnBytes } = await openedMotion(held, join(workspace, 'walk.mtn'));
    const path = join(workspace, 'closed.mtn');
    const saving = held.saveMotion({ documentId, path, mtnBytes });
    await checked;
    await held.closeDocument({ documentId });
    release();
    expect(await saving).toMatchObject({ status: 'saved', file: { path } });
    expect(new Uint8Array(readFileSync(path))).toEqual(mtnBytes);
    const again = await dispatchInvoke(held, 'saveMotion', { documentId, path, mtnBytes });
    expect(messageOf(again)).toBe(`document ${documentId} is not open (open or import a motion first)`);
  });

  // Mutation that fails: a checker that stopped reported as anything but a refused save naming the file.
  it('a checker that stops refuses the save naming the file; nothing is written', async () => {
    const stopped = testHandlers({
      app: { startupPath: join(workspace, 'walk.mtn'), workspaceRoot: workspace },
      compress: compress(),
      checkMotion: async () => {
        throw new Error('the motion check: the text checker stopped (exit code 1)');
      },
    });
    const { documentId, mtnBytes } = await openedMotion(stopped, join(workspace, 'walk.mtn'));
    const path = join(workspace, 'stopped.mtn');
    const r = await dispatchInvoke(stopped, 'saveMotion', { documentId, path, mtnBytes });
    expect(messageOf(r)).toBe(
      `Could not save ${path}: the motion check: the text checker stopped (exit code 1); nothing was written`,
    );
    expect(() => readFileSync(path)).toThrow();
  });
});
