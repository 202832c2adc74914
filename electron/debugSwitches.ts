/**
 * Command-line switches that open a packaged ActGuy to a debugger. Whoever starts the app with one drives it with
 * everything the OS granted the app (on macOS, the folders the user let ActGuy read, such as Documents, where its
 * samples live): a signed app started so is a way around those grants. The fuses turn off Node's `--inspect` family
 * and `ELECTRON_RUN_AS_NODE` (electron-builder.yml `electronFuses`), but no fuse turns off Chromium's DevTools
 * server (`--remote-debugging-port`, `--remote-debugging-pipe`). A packaged app therefore refuses to run with any of
 * them: main removes them from the command line before Chromium starts its DevTools server (which reads them after
 * the main script has run) and exits (electron/main.ts). A checkout (`electron .`) keeps them for development.
 *
 * `--no-sandbox` is not among them: the AppImage's launcher adds it where user namespaces are missing
 * (docs/install.md#linux-sandbox), and it opens nothing to another process.
 */

/** Chromium's DevTools server, and Node's inspector (also off by fuse; refused all the same, should a fuse be lost). */
export const DEBUG_SWITCHES = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'inspect',
  'inspect-brk',
  'inspect-port',
] as const;

/** Electron's `app.commandLine`, as much of it as this uses: Chromium's own parse of the switches. */
export interface CommandLinePort {
  hasSwitch(name: string): boolean;
  removeSwitch(name: string): void;
}

/**
 * Removes every debugging switch the app was started with and returns their names (empty: none). Asked of
 * Chromium's parse, not of `process.argv`, so every spelling Chromium accepts (`--x`, `-x`, `/x` on Windows,
 * `--x=1`) is found, and an argument after `--` (a file name) is not taken for one.
 */
export function removeDebugSwitches(commandLine: CommandLinePort): string[] {
  const found = DEBUG_SWITCHES.filter((name) => commandLine.hasSwitch(name));
  for (const name of found) commandLine.removeSwitch(name);
  return found;
}

/** What a packaged app started with debugging switches says before it exits. */
export function debugSwitchesRefusal(appName: string, found: readonly string[]): string {
  return `${appName} does not run with ${found.map((n) => `--${n}`).join(', ')}: a packaged ${appName} is not opened to a debugger. Start it without ${found.length > 1 ? 'them' : 'it'}.`;
}
