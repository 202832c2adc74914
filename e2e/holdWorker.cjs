/**
 * A preload for the app's main process in a scenario that cancels running work (through the `workHold` option of
 * e2e/fixtures.ts: the loopback server's `--require` in Chromium, Electron's `-r` in "electron"; e2e/workHold.ts): it
 * keeps a worker thread's later messages from the main thread, so that main sees the work running and never sees its
 * end, however fast the thread works. A Cancel pressed then always comes before the commit (docs/testing.md, "Tests
 * under load, round 8" and "round 9"). The held messages are dropped: Cancel ends the thread. Test
 * code only: nothing of it is in the app a page or a project reaches.
 *
 * - ACTGUY_E2E_HOLD_EXPORT=N: an Export All of N entries (e2e/project-export.spec.ts) is held once main has been told
 *   its third entry began (`done` 2): main shows "motion 3 of N" from then on.
 * - ACTGUY_E2E_HOLD_BUILD=PATH: while the file PATH exists, a Build (e2e/project-build.spec.ts) is held from its first
 *   motion's progress or its end, whichever comes first: main shows it started, and nothing more. The scenario
 *   makes the file once the project's own check (a build that writes nothing) is over.
 */
'use strict';
const { existsSync } = require('node:fs');
const { isMainThread, Worker } = require('node:worker_threads');

const exportCount = Number(process.env.ACTGUY_E2E_HOLD_EXPORT);
const buildFile = process.env.ACTGUY_E2E_HOLD_BUILD;
const BUILD_ENDS = new Set(['progress', 'done', 'upToDate', 'failed']);

/** Whether `m`, a message of a thread not held yet, is the one from which the thread is held (itself let through or not). */
function holds(m) {
  if (!m || typeof m.type !== 'string') return null;
  if (Number.isInteger(exportCount) && m.type === 'entry' && m.count === exportCount && m.done >= 2) return 'after';
  if (buildFile && BUILD_ENDS.has(m.type) && existsSync(buildFile)) return 'this';
  return null;
}

if (isMainThread && ((Number.isInteger(exportCount) && exportCount > 0) || buildFile)) {
  const held = new WeakSet();
  const emit = Worker.prototype.emit;
  Worker.prototype.emit = function (event, ...args) {
    if (event !== 'message') return emit.call(this, event, ...args);
    if (held.has(this)) return false;
    const from = holds(args[0]);
    if (from) held.add(this);
    if (from === 'this') return false;
    return emit.call(this, event, ...args);
  };
}
