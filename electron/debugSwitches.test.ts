import { describe, expect, it, vi } from 'vitest';
import { DEBUG_SWITCHES, debugSwitchesRefusal, removeDebugSwitches, type CommandLinePort } from './debugSwitches';

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

describe('debugging switches in a packaged app (round 20)', () => {
  it("finds each by Chromium's parse and takes it off the command line; other switches stay", () => {
    const present = new Set(['remote-debugging-pipe', 'inspect', 'no-sandbox', 'enable-logging']);
    const line: CommandLinePort = {
      hasSwitch: (name) => present.has(name),
      removeSwitch: (name) => void present.delete(name),
    };
    expect(removeDebugSwitches(line)).toEqual(['remote-debugging-pipe', 'inspect']);
    expect([...present]).toEqual(['no-sandbox', 'enable-logging']);
    expect(DEBUG_SWITCHES).toContain('remote-debugging-port');
    expect(debugSwitchesRefusal('ActGuy', ['remote-debugging-port'])).toBe(
      'ActGuy does not run with --remote-debugging-port: a packaged ActGuy is not opened to a debugger. Start it without it.',
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
      'ActGuy could not start: ActGuy does not run with --remote-debugging-port, --inspect-brk: a packaged ActGuy is not opened to a debugger. Start it without them.',
    ]);
    expect(stderr).toHaveBeenCalledWith(expect.stringContaining('--remote-debugging-port'));
    expect(fake.went).toEqual([]);
    stderr.mockRestore();
  });
});
