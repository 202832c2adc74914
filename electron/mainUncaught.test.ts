// The box of an error nothing caught in main, answered Quit (docs/architecture.md, "Maintainer's read, round 16"):
// the box comes once per run of the app, so this case launches a main.ts of its own (a fresh module registry, its own
// fake `electron`); main.test.ts has the box itself and its Show the Record.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('./testing/fakeElectron').then((f) => f.fakeElectronModule()));
import { fake, loadMain } from './testing/fakeElectron';

fake.state.userData = mkdtempSync(join(tmpdir(), 'actguy-main-uncaught-'));
afterAll(() => rmSync(fake.state.userData, { recursive: true, force: true }));
const { uncaughtException } = await loadMain([]);
await vi.waitFor(() => expect(fake.state.windows[0]?.loadedUrl).toBe('actguy://app/index.html'));

describe('electron main: an error nothing caught, answered Quit', () => {
  // Mutation that fails: Quit not quitting.
  it("quits as File › Exit does (the window's close then asks about unsaved work), and shows no record", async () => {
    const quits = fake.state.quits;
    fake.state.messageBoxResponse = 2;
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      uncaughtException!(new Error('stand-in: a listener failed'));
    } finally {
      said.mockRestore();
    }
    expect(fake.state.messageBoxes.at(-1)).toMatchObject({ buttons: ['Go On', 'Show the Record', 'Quit'] });
    await vi.waitFor(() => expect(fake.state.quits).toBe(quits + 1));
    expect(fake.state.shownInFolder).toEqual([]);
    expect(fake.state.exits).toBe(0);
  });
});
