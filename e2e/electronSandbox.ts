/**
 * What the e2e launch of Electron does about its Chromium sandbox (docs/install.md#linux-sandbox).
 *
 * - As root (CI) on Linux Chromium refuses to start sandboxed, so `--no-sandbox` is added there, and only there.
 * - Otherwise, where `npm start`'s sandbox check (scripts/start-support.mjs) finds that Electron would abort
 *   (Ubuntu 23.10+/24.04 restricting user namespaces, chrome-sandbox not setuid root, no AppArmor profile),
 *   the Electron scenarios are skipped with that check's reason, never run with the sandbox off.
 */
import { probeSandbox, sandboxProblem, type SandboxProbe } from '../scripts/start-support.mjs';

export interface SandboxPlan {
  /** Extra Electron switches. */
  args: string[];
  /** Why the Electron scenarios cannot run here, or null. */
  skip: string | null;
}

/** `--no-sandbox` for root on Linux, nothing anywhere else. */
export function rootSandboxArgs(platform: string, uid: number | null): string[] {
  return platform === 'linux' && uid === 0 ? ['--no-sandbox'] : [];
}

/** The plan for a machine `probe` describes, as root (`uid` 0) or not. */
export function sandboxPlanOf(probe: Omit<SandboxProbe, 'args'>, uid: number | null): SandboxPlan {
  const args = rootSandboxArgs(probe.platform, uid);
  const problem = sandboxProblem({ ...probe, args });
  return { args, skip: problem ? `project "electron" skipped: ${problem}` : null };
}

/** The plan for this machine and the Electron binary at `binary`. */
export function electronSandboxPlan(binary: string): SandboxPlan {
  return sandboxPlanOf(probeSandbox(binary, []), typeof process.getuid === 'function' ? process.getuid() : null);
}
