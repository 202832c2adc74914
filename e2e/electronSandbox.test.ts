import { describe, expect, it } from 'vitest';
import { electronSandboxPlan, type SandboxFacts } from './electronSandbox';

const linux: SandboxFacts = { platform: 'linux', uid: 1000, apparmorRestrictsUserns: false, userNamespaces: true, suidHelper: false, helperPath: '/r/node_modules/electron/dist/chrome-sandbox' };

describe("Electron's sandbox in the e2e launch", () => {
  it('as root (CI) starts with --no-sandbox, and only there', () => {
    expect(electronSandboxPlan({ ...linux, uid: 0 })).toEqual({ args: ['--no-sandbox'], skip: null });
    expect(electronSandboxPlan({ ...linux, uid: 0, apparmorRestrictsUserns: true, userNamespaces: false })).toEqual({ args: ['--no-sandbox'], skip: null });
    expect(electronSandboxPlan(linux)).toEqual({ args: [], skip: null });
    expect(electronSandboxPlan({ ...linux, platform: 'darwin', uid: 0 })).toEqual({ args: [], skip: null });
    expect(electronSandboxPlan({ ...linux, platform: 'win32', uid: null })).toEqual({ args: [], skip: null });
  });

  it('on Ubuntu with restricted user namespaces and no setuid helper, skips with that reason instead of turning the sandbox off', () => {
    const plan = electronSandboxPlan({ ...linux, apparmorRestrictsUserns: true });
    expect(plan.args).toEqual([]);
    expect(plan.skip).toContain('kernel.apparmor_restrict_unprivileged_userns=1');
    expect(plan.skip).toContain(linux.helperPath);
    expect(electronSandboxPlan({ ...linux, userNamespaces: false }).skip).toContain('unshare -Ur true');
    // A setuid-root helper makes the sandbox work without namespaces.
    expect(electronSandboxPlan({ ...linux, apparmorRestrictsUserns: true, suidHelper: true })).toEqual({ args: [], skip: null });
  });
});
