import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEBUG_SWITCHES, debugSwitchesRefusal, removeDebugSwitches, type CommandLinePort } from './debugSwitches';
import { bundleRefusal, startWorkerBundle } from './workerBundles';

/** Chromium's parse of a packaged ActGuy's command line, with what main removes from it. */
const fake = vi.hoisted(() => {
  const switches = new Set(['remote-debugging-port', 'inspect-brk', 'no-sandbox']);
  return {
    switches,
    removedBeforeExit: [] as string[],
    exitCode: null as number | null,
    errorBoxes: [] as string[],
    /** Calls that mean the app went on to start (it must not). */
    went: [] as string[],
  };
});

vi.mock('electron', () => ({
  app: {
    isPackaged: true,
    commandLine: {
      hasSwitch: (name: string) => fake.switches.has(name),
      removeSwitch: (name: string) => fake.switches.delete(name),
    },
    exit: (code: number) => {
      fake.removedBeforeExit = ['remote-debugging-port', 'inspect-brk'].filter((s) => !fake.switches.has(s));
      fake.exitCode = code;
    },
    getPath: () => '/nonexistent-actguy-profile',
    setPath: () => {},
    enableSandbox: () => {},
    on: () => {},
    requestSingleInstanceLock: () => {
      fake.went.push('requestSingleInstanceLock');
      return true;
    },
    whenReady: () => {
      fake.went.push('whenReady');
      return new Promise(() => {});
    },
    quit: () => fake.went.push('quit'),
  },
  crashReporter: { start: () => {} },
  protocol: { registerSchemesAsPrivileged: () => {} },
  dialog: { showErrorBox: (title: string, message: string) => fake.errorBoxes.push(`${title}: ${message}`) },
  BrowserWindow: class {},
  ipcMain: {},
  Menu: {},
  powerSaveBlocker: {},
  screen: {},
  session: {},
}));

/**
 * Chromium's parse of a command line (base/command_line.cc), as far as these tests need it: a switch starts with `--`
 * or `-` (or `/` on Windows, where its name is lower-cased), `=` starts its value, and nothing after a bare `--` is a
 * switch. The app asks Chromium's own parse; this stands in for it so each case reads as the argv a user typed.
 */
function commandLineOf(argv: readonly string[], windows = false): CommandLinePort & { switches: Set<string> } {
  const switches = new Set<string>();
  for (const arg of argv.slice(1)) {
    if (arg === '--') break;
    const prefix = ['--', '-', ...(windows ? ['/'] : [])].find((p) => arg.startsWith(p) && arg.length > p.length);
    if (!prefix) continue;
    const name = arg.slice(prefix.length).split('=')[0]!;
    switches.add(windows ? name.toLowerCase() : name);
  }
  return { switches, hasSwitch: (name) => switches.has(name), removeSwitch: (name) => void switches.delete(name) };
}

describe('switches that change the code a packaged ActGuy runs (round 23)', () => {
  // Mutations that fail: 'js-flags' out of DEBUG_SWITCHES; a launcher prefix out; the packaged check inverted or
  // dropped (a checkout refusing --inspect, or a packaged app keeping them).
  it.each([
    [['ActGuy', '--js-flags=--allow-natives-syntax'], false, ['js-flags']],
    [['ActGuy', '-js-flags', '--expose-gc'], false, ['js-flags']],
    [['ActGuy.exe', '/JS-FLAGS=--logfile=C:\\x.log', 'walk.mtn'], true, ['js-flags']],
    [['ActGuy', '--renderer-cmd-prefix=/bin/sh -c x'], false, ['renderer-cmd-prefix']],
    [['ActGuy', '--utility-cmd-prefix=x', '--gpu-launcher=x'], false, ['utility-cmd-prefix', 'gpu-launcher']],
    [['ActGuy', '--browser-subprocess-path=/tmp/x'], false, ['browser-subprocess-path']],
    [['ActGuy', '--inspect=9229', '--remote-debugging-pipe'], false, ['remote-debugging-pipe', 'inspect']],
    [['ActGuy', '--no-sandbox', '--enable-logging', 'walk.mtn'], false, []],
    [['ActGuy', '--', '--js-flags=x.mtn'], false, []],
  ])('packaged %j refuses %#', (argv, windows, refused) => {
    const line = commandLineOf(argv, windows);
    expect(removeDebugSwitches(line, true)).toEqual(refused);
    for (const name of refused) expect(line.hasSwitch(name)).toBe(false);
  });

  it('a checkout (electron .) keeps every one of them for development', () => {
    const line = commandLineOf([
      'electron',
      '.',
      '--js-flags=--expose-gc',
      '--inspect',
      '--remote-debugging-port=9222',
    ]);
    expect(removeDebugSwitches(line, false)).toEqual([]);
    expect([...line.switches]).toEqual(['js-flags', 'inspect', 'remote-debugging-port']);
  });
});

describe('debugging switches in a packaged app (round 20)', () => {
  it("finds each by Chromium's parse and takes it off the command line; other switches stay", () => {
    const present = new Set(['remote-debugging-pipe', 'inspect', 'no-sandbox', 'enable-logging']);
    const line: CommandLinePort = {
      hasSwitch: (name) => present.has(name),
      removeSwitch: (name) => void present.delete(name),
    };
    expect(removeDebugSwitches(line, true)).toEqual(['remote-debugging-pipe', 'inspect']);
    expect([...present]).toEqual(['no-sandbox', 'enable-logging']);
    expect(DEBUG_SWITCHES).toContain('remote-debugging-port');
    expect(debugSwitchesRefusal('ActGuy', ['remote-debugging-port'])).toBe(
      'ActGuy does not run with --remote-debugging-port: a packaged ActGuy is not opened to a debugger, nor given other code to run. Start it without it.',
    );
  });

  // Mutations that fail: main.ts not calling removeDebugSwitches (nothing removed, the app starts); calling it but
  // going on to start (the single-instance lock and whenReady reached); exiting before removing the switches.
  it('a packaged ActGuy started with --remote-debugging-port removes it before Chromium reads it, says why and exits', async () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    await import('./main');
    expect(fake.exitCode).toBe(1);
    expect(fake.removedBeforeExit).toEqual(['remote-debugging-port', 'inspect-brk']);
    expect([...fake.switches]).toEqual(['no-sandbox']);
    expect(fake.errorBoxes).toEqual([
      'ActGuy could not start: ActGuy does not run with --remote-debugging-port, --inspect-brk: a packaged ActGuy is not opened to a debugger, nor given other code to run. Start it without them.',
    ]);
    // The terminal says it as every failed start is (main.ts sayCouldNotStart: round 15 of docs/architecture.md).
    expect(stderr).toHaveBeenCalledWith(
      'ActGuy could not start: ActGuy does not run with --remote-debugging-port, --inspect-brk: a packaged ActGuy is not opened to a debugger, nor given other code to run. Start it without them.',
    );
    expect(fake.went).toEqual([]);
    stderr.mockRestore();
  });

  // Mutation that fails: main not calling requireBundleDigests when packaged (the file below runs).
  it('a packaged main runs no worker bundle but those whose digests it was built with (none, unbundled)', async () => {
    await import('./main');
    const dir = mkdtempSync(join(tmpdir(), 'actguy-packaged-'));
    try {
      const path = join(dir, 'compressWorker.cjs');
      writeFileSync(path, `require('node:worker_threads').parentPort.postMessage('ran');\n`);
      const w = startWorkerBundle(path);
      const said = await new Promise((done) => {
        w.once('message', done);
        w.once('error', (e) => done(e.message));
      });
      expect(said).toBe(bundleRefusal(path, 'unknown'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
