// What `npm start` decides before it launches Electron: the arguments it passes, and whether this Linux
// lets Electron's sandbox start at all. Pure functions plus one probe of the machine, so both are tested.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Electron's arguments for `npm start -- [FILE...] [--workspace DIR] [--switch...]`: the app folder, the
 * files (the bundled sample when none is given), then the options. `--workspace DIR` keeps DIR as its value,
 * never as the file to open.
 * @param {string[]} args what follows `npm start --`
 * @param {{ root: string, cwd: string }} where the repository root, and the folder relative paths start from
 * @returns {string[]}
 */
export function electronArgs(args, { root, cwd }) {
  const files = [];
  const options = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--workspace') {
      if (i + 1 >= args.length) throw new Error('--workspace needs a folder: npm start -- --workspace DIR');
      options.push('--workspace', resolve(cwd, args[++i]));
    } else if (a.startsWith('--workspace=')) options.push('--workspace', resolve(cwd, a.slice('--workspace='.length)));
    else if (a.startsWith('-')) options.push(a);
    else files.push(resolve(cwd, a));
  }
  if (files.length === 0) files.push(join(root, 'assets', 'walk.mtn'));
  return [root, ...files, ...options];
}

/** The port `npm run web` asks for unless told another: the same address every run (webArgs). */
export const WEB_PORT = 47615;

/**
 * The loopback server's arguments for `npm run web -- [--workspace DIR] [--port N] [--open FILE] [--user-data DIR]`:
 * `--open FILE` resolved from where the user typed the command, the bundled samples as the workspace when none is
 * given, and what keeps one run's settings for the next: the browser keeps the app's preferences per address, so
 * the server asks for WEB_PORT every time (any free port when another program holds it, with a note), and the
 * recent files and the copies of unsaved work live in the user's state folder (`--keep-state`). `--port N` (0: any
 * free port) or `--user-data DIR` given by the user win.
 * @param {string[]} args what follows `npm run web --`
 * @param {{ root: string, cwd: string, exists: (path: string) => boolean }} where the repository root, the folder
 *   relative paths start from, and a check that a file exists
 * @returns {string[]}
 */
export function webArgs(args, { root, cwd, exists }) {
  const out = [...args];
  const open = out.indexOf('--open');
  if (open >= 0 && out[open + 1] && !isAbsolute(out[open + 1]) && exists(resolve(cwd, out[open + 1])))
    out[open + 1] = resolve(cwd, out[open + 1]);
  const given = (name) => out.some((a) => a === name || a.startsWith(`${name}=`));
  if (!given('--workspace')) out.push('--workspace', join(root, 'assets'));
  if (!given('--port')) out.push('--port', String(WEB_PORT), '--any-port-if-taken');
  if (!given('--user-data')) out.push('--keep-state');
  return out;
}

/**
 * Ends this script as its child (Electron for `npm start`, the web server for `npm run web`) ended, and passes SIGINT
 * and SIGTERM on to it: the child's exit code, or 1 when a signal ended it. The web server kills itself when a thread
 * does not stop within its stop's bound (electron/loopback/serve.ts); `npm run web` used to end with 0 then, as if all
 * had gone well.
 * @param {import('node:child_process').ChildProcess} child
 */
export function relayChild(child) {
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

/** The sysctl Ubuntu 23.10+ / 24.04 set to 1: unprivileged user namespaces only for programs an AppArmor profile allows. */
export const USERNS_RESTRICTION = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/**
 * @typedef {object} SandboxProbe
 * @property {string} platform process.platform
 * @property {string | null} restriction contents of USERNS_RESTRICTION (null: no such file)
 * @property {string} binary the Electron executable
 * @property {{ uid: number, mode: number } | null} helper owner and mode of chrome-sandbox beside it (null: missing)
 * @property {string[]} profiles texts of the AppArmor profiles in /etc/apparmor.d
 * @property {string[]} args Electron's arguments
 */

/**
 * Why Electron would abort at start on this machine ("The SUID sandbox helper binary was found, but is not
 * configured correctly"), and exactly what to do about it; null when it can start. That happens on Linux
 * when unprivileged user namespaces are restricted by AppArmor, the chrome-sandbox helper is not
 * setuid root (npm cannot make it so), no AppArmor profile names this Electron, and --no-sandbox is not given.
 * @param {SandboxProbe} p
 * @returns {string | null}
 */
export function sandboxProblem(p) {
  if (p.platform !== 'linux' || p.restriction?.trim() !== '1') return null;
  if (p.args.includes('--no-sandbox')) return null;
  if (p.helper && p.helper.uid === 0 && (p.helper.mode & 0o4000) !== 0) return null;
  if (p.profiles.some((text) => text.includes(p.binary) && /\buserns\b/.test(text))) return null;
  const helper = join(dirname(p.binary), 'chrome-sandbox');
  return [
    'ActGuy: Electron cannot start its sandbox here: this Linux restricts unprivileged user namespaces with AppArmor',
    `(${USERNS_RESTRICTION} = 1, as on Ubuntu 23.10 and 24.04), and the chrome-sandbox helper npm installed is not setuid root.`,
    'Do one of these once, then run `npm start` again:',
    '  1. Make the helper setuid root (until node_modules/electron is reinstalled):',
    `       sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
    "  2. Or give this Electron an AppArmor profile that allows user namespaces (Ubuntu's documented way):",
    `       printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile actguy-electron "${p.binary}" flags=(unconfined) {\\n  userns,\\n  include if exists <local/actguy-electron>\\n}\\n' | sudo tee /etc/apparmor.d/actguy-electron`,
    '       sudo apparmor_parser -r /etc/apparmor.d/actguy-electron',
    '  3. Or lift the restriction until the next reboot:',
    '       sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
  ].join('\n');
}

/**
 * Reads what sandboxProblem needs from this machine.
 * @param {string} binary the Electron executable
 * @param {string[]} args Electron's arguments
 * @returns {SandboxProbe}
 */
export function probeSandbox(binary, args) {
  const read = (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  };
  let helper = null;
  try {
    const st = statSync(join(dirname(binary), 'chrome-sandbox'));
    helper = { uid: st.uid, mode: st.mode };
  } catch {
    helper = null;
  }
  const profiles = [];
  if (process.platform === 'linux') {
    try {
      for (const name of readdirSync('/etc/apparmor.d')) {
        const text = read(join('/etc/apparmor.d', name));
        if (text !== null && text.length < 1_000_000) profiles.push(text);
      }
    } catch {
      // no AppArmor profiles folder
    }
  }
  return { platform: process.platform, restriction: read(USERNS_RESTRICTION), binary, helper, profiles, args };
}
