// `npm start [-- FILE...] [--workspace DIR]`: builds ActGuy (skipped when nothing changed) and opens it in Electron on FILE (default: the
// bundled sample). When the Electron binary is missing (its download is blocked here), says so in one line and
// exits 1; when this Linux would make Electron abort at start (AppArmor's user-namespace restriction on Ubuntu
// 23.10+/24.04), says exactly what to do and exits 1.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildApp, root } from './app-build.mjs';
import { electronArgs, probeSandbox, relayChild, sandboxProblem } from './start-support.mjs';

const MISSING =
  'ActGuy: the Electron binary is not installed (its download was blocked); run `npm run web` to use ActGuy in a browser.';

/** The Electron executable, or null when the package is there without its binary. */
function electronBinary() {
  try {
    const path = createRequire(join(root, 'package.json'))('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  console.error(MISSING);
  process.exit(1);
}
let args;
try {
  // npm runs scripts in the package folder; INIT_CWD is where the user typed `npm start`.
  args = electronArgs(process.argv.slice(2), { root, cwd: process.env.INIT_CWD || process.cwd() });
} catch (e) {
  console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const problem = sandboxProblem(probeSandbox(binary, args));
if (problem) {
  console.error(problem);
  process.exit(1);
}
try {
  if (!(await buildApp())) console.log('ActGuy: nothing changed since the last build: starting at once.');
} catch (e) {
  console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const child = spawn(binary, args, { stdio: 'inherit' });
relayChild(child);
