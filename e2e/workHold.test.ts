import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOLD_PRELOAD, electronHoldArgs, loopbackHoldEnv, type WorkHold } from './workHold';

/**
 * A main thread that starts a worker posting `messages` and then ending, and prints, once the worker has exited, the
 * messages it was given: what an app's main process sees of a thread under the preload.
 */
const MAIN = `
const { Worker } = require('node:worker_threads');
const sent = JSON.parse(process.env.SENT);
const w = new Worker('const { parentPort, workerData } = require("node:worker_threads"); for (const m of workerData) parentPort.postMessage(m);', { eval: true, workerData: sent });
const seen = [];
w.on('message', (m) => seen.push(m));
w.on('exit', () => process.stdout.write(JSON.stringify(seen)));
`;

/** What the main thread saw, run with `args` before the script and `env` (the hold's, or none). */
function seenBy(args: string[], env: Record<string, string>, sent: object[]): Promise<object[]> {
  const base: NodeJS.ProcessEnv = { ...process.env, SENT: JSON.stringify(sent) };
  delete base.NODE_OPTIONS;
  delete base.ACTGUY_E2E_HOLD_EXPORT;
  delete base.ACTGUY_E2E_HOLD_BUILD;
  const child = spawn(process.execPath, [...args, '-e', MAIN], { env: { ...base, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}: ${err}`)))),
  );
}

const entries = [0, 1, 2, 3, 4].map((done) => ({ type: 'entry', count: 40, done }));
const exportSent = [...entries, { type: 'done' }];
const build = [{ type: 'checked' }, { type: 'progress', motion: 0 }, { type: 'progress', motion: 1 }, { type: 'done' }];
const scratch = mkdtempSync(join(tmpdir(), 'actguy-work-hold-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The two ways the fixtures load the preload: NODE_OPTIONS (the loopback server), and `-r` before the script (Electron's default app takes the same arguments). */
const ways: [string, (hold: WorkHold) => { args: string[]; env: Record<string, string> }][] = [
  ['the loopback server', (hold) => ({ args: [], env: loopbackHoldEnv(hold, undefined) })],
  ['Electron', (hold) => ({ args: electronHoldArgs(hold), env: hold })],
];

describe.each(ways)("e2e's hold on the app's work, preloaded as for %s", (way, load) => {
  it("keeps an export's messages after its third entry began, and its end", async () => {
    const { args, env } = load({ ACTGUY_E2E_HOLD_EXPORT: '40' });
    expect(await seenBy(args, env, exportSent)).toEqual(entries.slice(0, 3));
    // Another export's size is not held.
    const other = exportSent.map((m) => ({ ...m, count: 39 }));
    expect(await seenBy(args, env, other)).toEqual(other);
  });

  it("keeps a build's messages from its first progress while the hold's file exists, and none before", async () => {
    const file = join(scratch, `build-${way.replace(/\W+/g, '-')}`);
    const { args, env } = load({ ACTGUY_E2E_HOLD_BUILD: file });
    expect(await seenBy(args, env, build)).toEqual(build);
    writeFileSync(file, '');
    expect(await seenBy(args, env, build)).toEqual(build.slice(0, 1));
  });

  it('with no hold loads nothing', async () => {
    const { args, env } = load({});
    expect(args).toEqual([]);
    expect(env).toEqual({});
    expect(await seenBy(args, env, exportSent)).toEqual(exportSent);
  });
});

it("the loopback server's NODE_OPTIONS keeps the options it had, and names the preload in quotes", () => {
  expect(loopbackHoldEnv({ ACTGUY_E2E_HOLD_EXPORT: '40' }, '--max-old-space-size=4096')).toEqual({
    ACTGUY_E2E_HOLD_EXPORT: '40',
    NODE_OPTIONS: `--max-old-space-size=4096 --require ${JSON.stringify(HOLD_PRELOAD)}`,
  });
});
