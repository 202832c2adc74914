/**
 * The desktop app started with an `ACTGUY_USER_DATA_DIR` it refuses (docs/security.md rounds 40 and 41): main.ts
 * itself, loaded with a stand-in `electron` that records every call it gets. Round 40 checked the branch by reading
 * (no Electron binary here, and electron/main.test.ts loads main once, with a good profile). A refused folder must
 * stop the app before anything uses a profile: no crash reporter, no single-instance lock (a file in the profile),
 * no `ready`, and not the usual profile instead; it says why on the terminal and in a dialog, and exits with 1.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

/** Every call main makes on `electron`, as `name(args)`. */
const calls = vi.hoisted(() => [] as { name: string; args: unknown[] }[]);

vi.mock('electron', () => {
  /** A stand-in that records each call made through it and answers with another stand-in. */
  const recorder = (name: string): unknown =>
    new Proxy(() => undefined, {
      get: (_t, key) => (key === 'then' ? undefined : recorder(`${name}.${String(key)}`)),
      apply: (_t, _this, args: unknown[]) => {
        calls.push({ name, args });
        return recorder(`${name}()`);
      },
    });
  const paths = new Map<string, string>();
  const app = new Proxy(
    {
      isPackaged: false,
      commandLine: { hasSwitch: () => false, removeSwitch: () => undefined },
      // The paths as set, recorded too: the good folder's run goes on to use them.
      setPath: (...args: unknown[]) => {
        calls.push({ name: 'app.setPath', args });
        paths.set(args[0] as string, args[1] as string);
      },
      // Never ready: the good folder's run stops where the app would wait for Electron.
      isReady: () => false,
      whenReady: () => {
        calls.push({ name: 'app.whenReady', args: [] });
        return new Promise(() => undefined);
      },
      getPath: (...args: unknown[]) => {
        calls.push({ name: 'app.getPath', args });
        return paths.get(args[0] as string) ?? '/nonexistent/usual-profile';
      },
    } as Record<string, unknown>,
    { get: (t, key) => (key in t ? t[key as string] : recorder(`app.${String(key)}`)) },
  );
  return Object.fromEntries(
    ['BrowserWindow', 'crashReporter', 'dialog', 'ipcMain', 'Menu', 'powerSaveBlocker', 'protocol', 'screen', 'session']
      .map((n) => [n, recorder(n)])
      .concat([['app', app]]),
  );
});

const root = mkdtempSync(join(tmpdir(), 'actguy-profile-refusal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Loads main.ts afresh with `ACTGUY_USER_DATA_DIR` set to `named`; what it printed as errors. */
async function startWith(
  named: string,
  loaded?: (listeners: Map<string, (arg: unknown) => void>) => void,
): Promise<string[]> {
  calls.length = 0;
  vi.resetModules();
  const before = process.env.ACTGUY_USER_DATA_DIR;
  const listeners = vi.spyOn(process, 'on');
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  process.env.ACTGUY_USER_DATA_DIR = named;
  try {
    await import('./main');
    // main's process-wide listeners, called here before they are taken off.
    loaded?.(new Map(listeners.mock.calls.map(([event, fn]) => [event as string, fn as (arg: unknown) => void])));
    return errors.mock.calls.map((c) => c.join(' '));
  } finally {
    if (before === undefined) delete process.env.ACTGUY_USER_DATA_DIR;
    else process.env.ACTGUY_USER_DATA_DIR = before;
    // main's process-wide listeners are not the test runner's.
    for (const [event, fn] of listeners.mock.calls) process.off(event as string, fn as () => void);
    listeners.mockRestore();
    errors.mockRestore();
  }
}

const named = (prefix: string) => calls.filter((c) => c.name.startsWith(prefix));

describe('the desktop app with a profile folder it refuses', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it.runIf(process.platform !== 'win32')(
    'under a folder others may write: says why, exits 1, and uses no profile at all (not the usual one either)',
    async () => {
      const open = join(root, 'open');
      mkdirSync(open);
      chmodSync(open, 0o777);
      const profile = join(open, 'profile');
      const printed = await startWith(profile);
      const why = `ACTGUY_USER_DATA_DIR=${profile} cannot be used as ActGuy's profile folder (${open}, a folder above ${profile}, can be written by other users (mode 0777, not sticky)`;
      expect(printed).toEqual([expect.stringContaining(`ActGuy could not start: ${why}`)]);
      expect(named('dialog.showErrorBox')).toEqual([
        { name: 'dialog.showErrorBox', args: ['ActGuy could not start', expect.stringContaining(why)] },
      ]);
      expect(named('app.exit')).toEqual([{ name: 'app.exit', args: [1] }]);
      for (const never of [
        'app.setPath',
        'app.getPath',
        'crashReporter.start',
        'app.requestSingleInstanceLock',
        'app.whenReady',
        'app.quit',
        'BrowserWindow',
      ])
        expect(named(never), never).toEqual([]);
      expect(readdirSync(open)).toEqual([]);
    },
    30_000,
  );

  it('a relative path: the same refusal, before anything else', async () => {
    const printed = await startWith('profile');
    expect(printed).toEqual([expect.stringContaining('ACTGUY_USER_DATA_DIR=profile is a relative path')]);
    expect(named('app.exit')).toEqual([{ name: 'app.exit', args: [1] }]);
    for (const never of ['app.setPath', 'app.getPath', 'crashReporter.start', 'app.requestSingleInstanceLock'])
      expect(named(never), never).toEqual([]);
  }, 30_000);

  it('a good folder: used as the profile, and the app goes on to take its lock (the stand-in works)', async () => {
    const mine = join(root, 'mine');
    await startWith(mine);
    expect(named('app.setPath')[0]).toEqual({ name: 'app.setPath', args: ['userData', mine] });
    expect(named('app.exit')).toEqual([]);
    expect(named('app.requestSingleInstanceLock')).toHaveLength(1);
  }, 30_000);

  // Maintainer's read, round 15. Mutations that fail: the uncaughtException listener going on before 'ready' as after
  // it (no exit, no box of a failed start); keeping no record.
  it("an error nothing caught before 'ready': a crash record in the profile, said as a failed start, and the app exits", async () => {
    const mine = join(root, 'before-ready');
    const printed = await startWith(mine, (listeners) =>
      listeners.get('uncaughtException')!(new TypeError('stand-in: thrown while starting')),
    );
    expect(printed).toEqual([
      expect.stringMatching(/^ActGuy: an error nothing caught: TypeError: stand-in: thrown while starting\n\s+at /),
      'ActGuy could not start: stand-in: thrown while starting',
    ]);
    expect(named('dialog.showErrorBox')).toEqual([
      { name: 'dialog.showErrorBox', args: ['ActGuy could not start', 'stand-in: thrown while starting'] },
    ]);
    expect(named('app.exit')).toEqual([{ name: 'app.exit', args: [1] }]);
    expect(named('dialog.showMessageBox')).toEqual([]);
    const records = readdirSync(join(mine, 'Crash Records'));
    expect(records).toEqual([expect.stringMatching(/-main-process-error\.json$/)]);
  }, 30_000);
});
