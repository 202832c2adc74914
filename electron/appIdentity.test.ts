import { describe, expect, it } from 'vitest';
import { APP_ID, applyAppIdentity } from './appIdentity';

describe('app identity', () => {
  it("on Windows the process takes the installer's AppUserModelID (electron-builder.yml appId), elsewhere nothing is set", () => {
    const set: string[] = [];
    const app = { setAppUserModelId: (id: string) => set.push(id) };
    applyAppIdentity(app, 'linux');
    applyAppIdentity(app, 'darwin');
    expect(set).toEqual([]);
    applyAppIdentity(app, 'win32');
    expect(set).toEqual([APP_ID]);
  });
});
