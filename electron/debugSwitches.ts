/**
 * Command-line switches that open a packaged ActGuy to a debugger, or change what code its processes run. Whoever
 * starts the app with one drives it with everything the OS granted the app (on macOS, the folders the user let ActGuy
 * read, such as Documents, where its samples live): a signed app started so is a way around those grants. The fuses
 * turn off Node's `--inspect` family and `ELECTRON_RUN_AS_NODE` (electron-builder.yml `electronFuses`), but no fuse
 * turns off Chromium's DevTools server (`--remote-debugging-port`, `--remote-debugging-pipe`), V8's flags
 * (`--js-flags`, which reach the page's process and the workers too) or the switches that start Chromium's child
 * processes through another program (`--renderer-cmd-prefix` and the like). A packaged app therefore refuses to run
 * with any of them: main removes them from the command line before Chromium reads them (its DevTools server and its
 * child processes start after the main script has run) and exits (electron/main.ts). A checkout (`electron .`) keeps
 * them for development (docs/security.md, rounds 20 and 23).
 *
 * `--no-sandbox` is not among them: the AppImage's launcher adds it where user namespaces are missing
 * (docs/install.md#linux-sandbox), and it runs no other code.
 */

/**
 * Chromium's DevTools server; Node's inspector (also off by fuse; refused all the same, should a fuse be lost); V8's
 * flags (`--allow-natives-syntax`, `--logfile` and the like change what a script can do or write files); and the
 * switches that run another program as, or in front of, Chromium's child processes (the page's, the GPU's, the
 * utilities').
 */
export const DEBUG_SWITCHES = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'inspect',
  'inspect-brk',
  'inspect-port',
  'inspect-wait',
  'js-flags',
  'renderer-cmd-prefix',
  'utility-cmd-prefix',
  'gpu-launcher',
  'browser-subprocess-path',
] as const;

/** Electron's `app.commandLine`, as much of it as this uses: Chromium's own parse of the switches. */
export interface CommandLinePort {
  hasSwitch(name: string): boolean;
  removeSwitch(name: string): void;
}

/**
 * In a packaged app (`packaged`: Electron's `app.isPackaged`), removes every switch of DEBUG_SWITCHES the app was
 * started with and returns their names (empty: none); a checkout keeps them all and gets none. Asked of Chromium's
 * parse, not of `process.argv`, so every spelling Chromium accepts (`--x`, `-x`, `/x` on Windows, `--x=1`) is found,
 * and an argument after `--` (a file name) is not taken for one.
 */
export function removeDebugSwitches(commandLine: CommandLinePort, packaged: boolean): string[] {
  if (!packaged) return [];
  const found = DEBUG_SWITCHES.filter((name) => commandLine.hasSwitch(name));
  for (const name of found) commandLine.removeSwitch(name);
  return found;
}

/** What a packaged app started with debugging switches says before it exits. */
export function debugSwitchesRefusal(appName: string, found: readonly string[]): string {
  return `${appName} does not run with ${found.map((n) => `--${n}`).join(', ')}: a packaged ${appName} is not opened to a debugger, nor given other code to run. Start it without ${found.length > 1 ? 'them' : 'it'}.`;
}
