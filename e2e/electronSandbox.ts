/**
 * Whether Electron's Chromium sandbox can start on this machine, and what the
 * e2e launch does about it (docs/install.md#linux-sandbox).
 *
 * - As root (CI): Chromium refuses to start sandboxed, so `--no-sandbox` is
 *   added there, and only there.
 * - On Linux otherwise the sandbox needs unprivileged user namespaces, or a
 *   setuid-root chrome-sandbox helper beside the binary. Ubuntu 24.04 restricts
 *   the namespaces through AppArmor (kernel.apparmor_restrict_unprivileged_userns=1)
 *   and npm's Electron ships the helper without the setuid bit: there the
 *   scenarios are skipped with that reason, never run with the sandbox off.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What decides whether the sandbox can start. */
export interface SandboxFacts {
  platform: NodeJS.Platform;
  /** process.getuid(); null where there is none (Windows). */
  uid: number | null;
  /** kernel.apparmor_restrict_unprivileged_userns is 1. */
  apparmorRestrictsUserns: boolean;
  /** `unshare -Ur true` works: the kernel lets an unprivileged process make a user namespace. */
  userNamespaces: boolean;
  /** The chrome-sandbox helper beside the binary is owned by root and setuid. */
  suidHelper: boolean;
  /** The helper's path (named in the skip reason). */
  helperPath: string;
}

export interface SandboxPlan {
  /** Extra Electron switches. */
  args: string[];
  /** Why the Electron scenarios cannot run here, or null. */
  skip: string | null;
}

export function electronSandboxPlan(f: SandboxFacts): SandboxPlan {
  if (f.platform !== 'linux') return { args: [], skip: null };
  if (f.uid === 0) return { args: ['--no-sandbox'], skip: null };
  if (f.suidHelper || (f.userNamespaces && !f.apparmorRestrictsUserns)) return { args: [], skip: null };
  const why = f.apparmorRestrictsUserns
    ? 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1)'
    : 'unprivileged user namespaces are unavailable (`unshare -Ur true` fails)';
  return {
    args: [],
    skip:
      `project "electron" skipped: Electron's sandbox cannot start here: ${why}, and ${f.helperPath} is not setuid root. ` +
      `Make it so (sudo chown root:root '${f.helperPath}' && sudo chmod 4755 '${f.helperPath}'), or run the suite as root, ` +
      'where it starts with --no-sandbox; the same scenarios run in Chromium over the loopback transport',
  };
}

/** The facts of this machine for the Electron binary at `binary`. */
export function sandboxFacts(binary: string): SandboxFacts {
  const helperPath = join(dirname(binary), 'chrome-sandbox');
  let apparmorRestrictsUserns = false;
  try {
    apparmorRestrictsUserns = readFileSync('/proc/sys/kernel/apparmor_restrict_unprivileged_userns', 'utf8').trim() === '1';
  } catch {
    // no such knob: not restricted by AppArmor
  }
  let suidHelper = false;
  try {
    const st = statSync(helperPath);
    suidHelper = st.uid === 0 && (st.mode & 0o4000) !== 0;
  } catch {
    // no helper
  }
  return {
    platform: process.platform,
    uid: typeof process.getuid === 'function' ? process.getuid() : null,
    apparmorRestrictsUserns,
    userNamespaces: process.platform === 'linux' && spawnSync('unshare', ['-Ur', 'true']).status === 0,
    suidHelper,
    helperPath,
  };
}
