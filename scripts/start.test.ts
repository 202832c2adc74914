import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { electronArgs, probeSandbox, sandboxProblem, WEB_PORT, webArgs } from './start-support.mjs';

it('npm start without an Electron binary prints one line pointing to npm run web and exits non-zero, no stack trace', () => {
  // Point the electron package at an empty folder: exactly what a blocked binary download leaves behind.
  const empty = mkdtempSync(join(tmpdir(), 'actguy-noelectron-'));
  try {
    const r = spawnSync(process.execPath, [resolve(__dirname, 'start.mjs')], {
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'ActGuy: the Electron binary is not installed (its download was blocked); run `npm run web` to use ActGuy in a browser.\n',
    );
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

describe('npm start arguments', () => {
  const root = resolve('/repo');
  const cwd = resolve('/home/u/work');
  it('--workspace DIR is the workspace, not the file; the sample opens when no file is given', () => {
    expect(electronArgs(['--workspace', 'ws'], { root, cwd })).toEqual([
      root,
      join(root, 'assets', 'walk.mtn'),
      '--workspace',
      resolve(cwd, 'ws'),
    ]);
    expect(electronArgs(['--workspace=ws'], { root, cwd })).toEqual([
      root,
      join(root, 'assets', 'walk.mtn'),
      '--workspace',
      resolve(cwd, 'ws'),
    ]);
  });

  it('files keep their order and resolve from where the user typed the command; switches pass through', () => {
    expect(electronArgs(['a.mtn', '--workspace', '/abs/ws', 'p.actguy.json', '--no-sandbox'], { root, cwd })).toEqual([
      root,
      resolve(cwd, 'a.mtn'),
      resolve(cwd, 'p.actguy.json'),
      '--workspace',
      resolve('/abs/ws'),
      '--no-sandbox',
    ]);
  });

  it('--workspace without a folder is an error that says how to use it', () => {
    expect(() => electronArgs(['--workspace'], { root, cwd })).toThrow(
      '--workspace needs a folder: npm start -- --workspace DIR',
    );
  });
});

describe('npm run web arguments', () => {
  const root = resolve('/repo');
  const cwd = resolve('/home/u/work');
  const none = () => false;
  it('the same port every run (any free one if taken) and the recent files kept, so one run leaves its settings to the next', () => {
    expect(webArgs([], { root, cwd, exists: none })).toEqual([
      '--workspace',
      join(root, 'assets'),
      '--port',
      String(WEB_PORT),
      '--any-port-if-taken',
      '--keep-state',
    ]);
  });

  it("the user's --port, --user-data and --workspace win; --open resolves from where the command was typed", () => {
    const here = resolve(cwd, 'p.actguy.json');
    expect(
      webArgs(['--port', '0', '--user-data', '/u', '--workspace', '/w', '--open', 'p.actguy.json'], {
        root,
        cwd,
        exists: (p) => p === here,
      }),
    ).toEqual(['--port', '0', '--user-data', '/u', '--workspace', '/w', '--open', here]);
    // A name that is not there where the command was typed is left for the server (it resolves it in the workspace).
    expect(webArgs(['--open', 'x.mtn', '--port', '8123'], { root, cwd, exists: none })).toEqual([
      '--open',
      'x.mtn',
      '--port',
      '8123',
      '--workspace',
      join(root, 'assets'),
      '--keep-state',
    ]);
  });
});

// Maintainer's read, round 18: the web server kills itself when a thread does not stop within its stop's bound, and
// `npm run web` ended with status 0 then. Mutation that fails: the exit status `code ?? 0`, as web.mjs had it.
describe('npm start and npm run web end as their child did', () => {
  const support = pathToFileURL(resolve(__dirname, 'start-support.mjs')).href;
  /** The status of a node that relays a child running `childCode`. */
  const relayed = (childCode: string): number | null =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { spawn } from 'node:child_process';
import { relayChild } from ${JSON.stringify(support)};
relayChild(spawn(process.execPath, ['-e', ${JSON.stringify(childCode)}], { stdio: 'inherit' }));`,
      ],
      { encoding: 'utf8' },
    ).status;
  it("the child's exit code; 1 when a signal ended it", () => {
    expect(relayed('process.exit(0)')).toBe(0);
    expect(relayed('process.exit(3)')).toBe(3);
    expect(relayed("process.kill(process.pid, 'SIGKILL')")).toBe(1);
  });
});

describe('Linux sandbox under AppArmor (Ubuntu 23.10+ / 24.04)', () => {
  const restricted = {
    platform: 'linux',
    restriction: '1\n',
    binary: '/repo/node_modules/electron/dist/electron',
    helper: { uid: 1000, mode: 0o100755 },
    profiles: ['profile firefox /usr/lib/firefox/firefox { userns, }'],
    args: ['/repo'],
  };

  it('says exactly what to do when Electron would abort: setuid helper, AppArmor profile or sysctl', () => {
    const text = sandboxProblem(restricted)!;
    expect(text).toContain(
      `sudo chown root:root '/repo/node_modules/electron/dist/chrome-sandbox' && sudo chmod 4755 '/repo/node_modules/electron/dist/chrome-sandbox'`,
    );
    expect(text).toContain('profile actguy-electron "/repo/node_modules/electron/dist/electron" flags=(unconfined)');
    expect(text).toContain('userns,');
    expect(text).toContain('sudo apparmor_parser -r /etc/apparmor.d/actguy-electron');
    expect(text).toContain('sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
  });

  it('says nothing when Electron can start', () => {
    expect(sandboxProblem({ ...restricted, restriction: '0\n' })).toBeNull();
    expect(sandboxProblem({ ...restricted, restriction: null })).toBeNull();
    expect(sandboxProblem({ ...restricted, platform: 'darwin' })).toBeNull();
    expect(sandboxProblem({ ...restricted, helper: { uid: 0, mode: 0o104755 } })).toBeNull();
    expect(
      sandboxProblem({
        ...restricted,
        profiles: [`profile electron "${restricted.binary}" flags=(unconfined) {\n  userns,\n}`],
      }),
    ).toBeNull();
    expect(sandboxProblem({ ...restricted, args: ['/repo', '--no-sandbox'] })).toBeNull();
    // A root-owned helper without the setuid bit, or a setuid one owned by someone else, does not help.
    expect(sandboxProblem({ ...restricted, helper: { uid: 0, mode: 0o100755 } })).not.toBeNull();
    expect(sandboxProblem({ ...restricted, helper: { uid: 1000, mode: 0o104755 } })).not.toBeNull();
    expect(sandboxProblem({ ...restricted, helper: null })).not.toBeNull();
  });

  it('the probe reads this machine without failing', () => {
    const p = probeSandbox('/nonexistent/electron', []);
    expect(p.platform).toBe(process.platform);
    expect(p.helper).toBeNull();
  });
});
