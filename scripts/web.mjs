// `npm run web [-- --workspace DIR] [--port N] [--open FILE]`: builds ActGuy (skipped when nothing changed) and serves the real renderer to a plain
// browser over the loopback transport (127.0.0.1 only, per-run token). The workspace (default: assets/)
// is the folder the in-app file picker lists; files in it can be opened and saved. --open FILE opens a motion, a
// project or a .sev (with the project that lists it) at start, as `npm start -- FILE` does.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { buildApp, root } from './app-build.mjs';

try {
  if (!(await buildApp())) console.log('ActGuy: nothing changed since the last build: starting at once.');
} catch (e) {
  console.error(`ActGuy: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
const args = process.argv.slice(2);
// `--open FILE` names a file where the user typed `npm run web` (npm runs scripts in the package folder).
const open = args.indexOf('--open');
const cwd = process.env.INIT_CWD || process.cwd();
if (open >= 0 && args[open + 1] && !isAbsolute(args[open + 1]) && existsSync(resolve(cwd, args[open + 1])))
  args[open + 1] = resolve(cwd, args[open + 1]);
if (!args.includes('--workspace')) args.push('--workspace', join(root, 'assets'));
const child = spawn(process.execPath, [join(root, 'dist', 'electron', 'loopback.cjs'), ...args], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
