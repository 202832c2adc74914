// `npm run web [-- --workspace DIR] [--port N] [--open FILE]`: builds ActGuy (skipped when nothing changed) and serves the real renderer to a plain
// browser over the loopback transport (127.0.0.1 only, per-run token). The workspace (default: assets/)
// is the folder the in-app file picker lists; files in it can be opened and saved. --open FILE opens a motion, a
// project or a .sev (with the project that lists it) at start, as `npm start -- FILE` does.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, root } from './app-build.mjs';
import { relayChild, webArgs } from './start-support.mjs';

try {
  if (!(await buildApp())) console.log('ActGuy: nothing changed since the last build: starting at once.');
} catch (e) {
  console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
// The same address every run (the browser keeps the app's preferences per address) and the recent files and the
// copies of unsaved work kept:
// scripts/start-support.mjs webArgs.
const args = webArgs(process.argv.slice(2), { root, cwd: process.env.INIT_CWD || process.cwd(), exists: existsSync });
const child = spawn(process.execPath, [join(root, 'dist', 'electron', 'loopback.cjs'), ...args], { stdio: 'inherit' });
relayChild(child);
