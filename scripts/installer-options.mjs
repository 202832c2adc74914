// Computes what electron-builder would put into the Linux installers (deb and AppImage) without building
// them: electron-builder packs the app (linux-unpacked), works out each target's options (the deb's fpm
// arguments and desktop entry, the AppImage's desktop entry) and hands them to `effectiveOptionComputed`,
// which stops the target there, before fpm or the AppImage tools are downloaded. So it runs offline with a
// stand-in Electron (electronDist), and catches what the `--dir` smoke test cannot see ("Please specify
// project homepage" from the deb target). Used by electron/packaging.test.ts; docs/install.md.
//
// Usage: node scripts/installer-options.mjs --electron-dist DIR --out DIR
// Prints one JSON line: { deb: { fpmArgs, desktopEntry }, appImage: { desktopEntry, desktopFileName } }.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { root } from './app-build.mjs';

const require = createRequire(join(root, 'package.json'));
const { build, Platform, Arch } = require('app-builder-lib');
const yaml = require('js-yaml');

const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`installer-options: missing ${name} DIR`);
  return process.argv[i + 1];
};

const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
config.electronDist = arg('--electron-dist');
config.directories = { ...config.directories, output: arg('--out') };

const found = {};
await build({
  projectDir: root,
  config,
  publish: 'never',
  targets: Platform.LINUX.createTarget(['deb', 'AppImage'], Arch.x64),
  effectiveOptionComputed: async (options) => {
    // deb: [fpm arguments, path of the desktop entry it installs]; AppImage: { desktop, desktopFileName }.
    if (Array.isArray(options)) found.deb = { fpmArgs: options[0], desktopEntry: readFileSync(options[1], 'utf8') };
    else if (options && typeof options.desktop === 'string')
      found.appImage = { desktopEntry: options.desktop, desktopFileName: options.desktopFileName };
    return true;
  },
});
process.stdout.write(`${JSON.stringify(found)}\n`);
