import { describe, expect, it } from 'vitest';
import { sandboxPlanOf } from './electronSandbox';

/** Ubuntu 24.04 with npm's Electron: user namespaces restricted, chrome-sandbox owned by the user, no profile. */
const restricted = {
  platform: 'linux',
  restriction: '1\n',
  binary: '/r/node_modules/electron/dist/electron',
  helper: { uid: 1000, mode: 0o100755 },
  profiles: [],
};

describe("Electron's sandbox in the e2e launch", () => {
  it('as root (CI) on Linux starts with --no-sandbox, and only there', () => {
    expect(sandboxPlanOf(restricted, 0)).toEqual({ args: ['--no-sandbox'], skip: null });
    expect(sandboxPlanOf({ ...restricted, restriction: '0\n' }, 0)).toEqual({ args: ['--no-sandbox'], skip: null });
    expect(sandboxPlanOf({ ...restricted, restriction: '0\n' }, 1000)).toEqual({ args: [], skip: null });
    expect(sandboxPlanOf({ ...restricted, platform: 'darwin' }, 0)).toEqual({ args: [], skip: null });
    expect(sandboxPlanOf({ ...restricted, platform: 'win32' }, null)).toEqual({ args: [], skip: null });
  });

  it("on restricted Ubuntu, skips with the sandbox check's reason instead of turning the sandbox off", () => {
    const plan = sandboxPlanOf(restricted, 1000);
    expect(plan.args).toEqual([]);
    expect(plan.skip).toMatch(/^project "electron" skipped: ActGuy: Electron cannot start its sandbox here/);
    expect(plan.skip).toContain("sudo chown root:root '/r/node_modules/electron/dist/chrome-sandbox'");
    // A setuid-root helper, or a profile for this Electron, lets it start sandboxed.
    expect(sandboxPlanOf({ ...restricted, helper: { uid: 0, mode: 0o104755 } }, 1000)).toEqual({
      args: [],
      skip: null,
    });
    expect(sandboxPlanOf({ ...restricted, profiles: [`profile x "${restricted.binary}" { userns, }`] }, 1000)).toEqual({
      args: [],
      skip: null,
    });
  });
});
