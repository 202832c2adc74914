// main.ts as it runs on macOS (process.platform 'darwin' for this file): the app outlives its window, and the Dock's
// icon or a file Finder hands over makes the window again (docs/architecture.md, "Maintainer's read, round 7").
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ipcInvokeChannel, MENU_COMMAND_CHANNEL } from '../shared/ipc/transport';
import { fake, loadMain } from './testing/fakeElectron';

vi.mock('electron', () => import('./testing/fakeElectron').then((f) => f.fakeElectronModule()));
// The renderer's files as main reads them: a test takes the page file away (fake.state.unreadableFiles).
vi.mock('node:fs/promises', () => import('./testing/fakeElectron').then((f) => f.fakeFsPromises()));

const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
Object.defineProperty(process, 'platform', { ...platform, value: 'darwin' });
afterAll(() => Object.defineProperty(process, 'platform', platform));

fake.state.userData = mkdtempSync(join(tmpdir(), 'actguy-main-mac-'));
afterAll(() => rmSync(fake.state.userData, { recursive: true, force: true }));
await loadMain([]);
await vi.waitFor(() => expect(fake.state.windows[0]?.loadedUrl).toBe('actguy://app/index.html'));

type FakeWindow = (typeof fake.state.windows)[number];
const appEvent = (name: string, ...args: unknown[]) => fake.state.appEvents.get(name)!(...args);
/** The window closes by itself (its red button, Cmd+W): Electron emits 'closed', then 'window-all-closed'. */
function closeWindow(win: FakeWindow): void {
  win.destroyed = true;
  win.events.get('closed')!({ preventDefault: vi.fn() });
  appEvent('window-all-closed');
}
/** What the window's page is told when it asks for the app info at its start. */
async function appInfoOf(win: FakeWindow) {
  const reply = (await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(
    { sender: win.webContents, senderFrame: win.mainFrame },
    undefined,
  )) as { ok: true; value: { startupPath: string; samplePath: string; startupWarnings?: string[] } };
  return reply.value;
}
const dir = mkdtempSync(join(fake.state.userData, 'finder-'));
copyFileSync(resolve(__dirname, '..', 'assets', 'walk.mtn'), join(dir, 'run.mtn'));
writeFileSync(join(dir, 'notes.txt'), 'not a motion');

/**
 * The window open now, its page loaded: the one an earlier test left open, or one the Dock's icon makes when none is.
 * Each test starts from what it needs (a window open, or none) rather than from the window an earlier test left at a
 * fixed place in the list, so that each runs alone (`-t`) as in file order (docs/testing.md, "Tests under load,
 * round 5"). The windows are counted from the list's length at the test's start.
 */
/** The last window made that is not destroyed, if any. */
const openNow = (): FakeWindow | undefined => fake.state.windows.filter((w) => !w.destroyed).at(-1);
async function openWindow(): Promise<FakeWindow> {
  let win = openNow();
  if (!win) {
    appEvent('activate');
    win = fake.state.windows.at(-1)!;
  }
  const loaded = win;
  await vi.waitFor(() => expect(loaded.loadedUrl).toBe('actguy://app/index.html'));
  return win;
}
/**
 * A file of the installation gone when the Dock's icon makes the window (`file`, whose read fails as a deleted file's):
 * the window's start fails, said in an error box and the terminal as `why(file)`, no question box, and the window
 * goes; put back (installed again), the next window stands and nothing more is said. The page file's test and its
 * script bundle's (rounds 13 and 14).
 */
async function installationFileGone(file: string, why: (file: string) => string): Promise<void> {
  closeWindow(await openWindow());
  const n = fake.state.windows.length;
  vi.spyOn(console, 'error').mockImplementation(() => {});
  fake.state.keepErrorBoxes = true;
  const errorBoxes = fake.state.errorBoxes.length;
  const boxes = fake.state.messageBoxes.length;
  try {
    fake.state.unreadableFiles.add(file);
    appEvent('activate');
    const broken = fake.state.windows[n];
    await vi.waitFor(() => expect(broken.destroyed).toBe(true));
    // The "not found" page loaded: as Chromium has it, no 'did-fail-load' and the load's promise resolves.
    expect(broken.loadedUrl).toBe('actguy://app/index.html');
    expect(fake.state.errorBoxes.slice(errorBoxes)).toEqual([{ title: 'ActGuy could not start', message: why(file) }]);
    expect(console.error).toHaveBeenCalledWith(`ActGuy could not start: ${why(file)}`);
    expect(fake.state.messageBoxes).toHaveLength(boxes);
    expect(fake.state.exits).toBe(0);
    // Put back (installed again): the Dock's icon makes a window that stands, and nothing more is said.
    fake.state.unreadableFiles.clear();
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(n + 2);
    await vi.waitFor(() => expect(fake.state.windows[n + 1].loadedUrl).toBe('actguy://app/index.html'));
    // Its load has ended by the next turn.
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.state.windows[n + 1].destroyed).toBe(false);
    expect(fake.state.errorBoxes).toHaveLength(errorBoxes + 1);
  } finally {
    fake.state.unreadableFiles.clear();
    fake.state.keepErrorBoxes = false;
    vi.mocked(console.error).mockRestore();
  }
}
/** No window open: the one open now (if any) closed by itself. */
function noWindow(): void {
  const win = openNow();
  if (win) closeWindow(win);
}

describe('electron main on macOS', () => {
  // Mutations that fail: 'window-all-closed' quitting on every platform; no 'activate' listener.
  it("stays running when its window closes, and the Dock's icon makes the window again (once), its page loaded", async () => {
    const first = fake.state.windows[0];
    expect((await appInfoOf(first)).startupPath).toBe((await appInfoOf(first)).samplePath);
    closeWindow(first);
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.state.quits).toBe(0);
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(2);
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(2);
    const again = fake.state.windows[1];
    await vi.waitFor(() => expect(again.loadedUrl).toBe('actguy://app/index.html'));
    expect(again.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    // Only the window made again may call the API: the closed one's contents is refused.
    const stale = await fake.state.ipc.get(ipcInvokeChannel('getAppInfo'))!(
      { sender: first.webContents, senderFrame: first.mainFrame },
      undefined,
    );
    expect(stale).toMatchObject({ ok: false });
  });

  // Mutations that fail: the open-file listener not making the window again; 'closed' not forgetting the page
  // (rendererGone: the file is sent to no page); the window made again not taking the kept motion as its start-up.
  it('a motion Finder hands over after the window closed opens in a window made again, as its start-up motion', async () => {
    closeWindow(await openWindow());
    const n = fake.state.windows.length;
    const sentBefore = fake.state.sent.length;
    appEvent('open-file', { preventDefault: vi.fn() }, join(dir, 'run.mtn'));
    expect(fake.state.windows).toHaveLength(n + 1);
    expect(fake.state.sent.slice(sentBefore).filter((s) => s.channel === MENU_COMMAND_CHANNEL)).toEqual([]);
    const info = await appInfoOf(fake.state.windows[n]);
    expect(info.startupPath).toBe(join(dir, 'run.mtn'));
    expect(info.startupWarnings).toBeUndefined();
    expect(fake.state.quits).toBe(0);
  });

  // Mutation that fails: the refusals said with no window not handed to the next window's start-up warnings.
  it('a file of a kind ActGuy does not open, handed over with no window, is said in the window made for it', async () => {
    closeWindow(await openWindow());
    const n = fake.state.windows.length;
    appEvent('open-file', { preventDefault: vi.fn() }, join(dir, 'notes.txt'));
    expect(fake.state.windows).toHaveLength(n + 1);
    const info = await appInfoOf(fake.state.windows[n]);
    expect(info.startupWarnings).toEqual([
      `${join(dir, 'notes.txt')}: ActGuy opens motions (.mtn, .mt3, .mar), sound-event files (.sev) and projects (.actguy.json), not this kind of file. Nothing was opened.`,
    ]);
    expect(info.startupPath).toBe(info.samplePath);
  });

  // Mutations that fail: the menu sending with sendMenuCommand as before (the command goes to no page, and no window
  // is made); main not telling the menu there is no window (noWindow), or not rebuilding it as a window is made again
  // or closes; getAppInfo not calling menuCommands.pageListens (the command is never sent); 'closed' not calling
  // menuCommands.windowClosed (the command held for a window closed before its page listened goes to the next one).
  it("the menu's File › Open… and Open Project… with no window make the window and go to its page once it listens", async () => {
    closeWindow(await openWindow());
    const n = fake.state.windows.length;
    const file = () => fake.state.menus.at(-1)!.template.find((m) => m.label === 'File')!.submenu!;
    const enabled = (label: string) => file().find((i) => i.label === label)!.enabled !== false;
    // No window: what acts on a document is greyed out; what opens something stays.
    expect([enabled('Save'), enabled('Export .mt3…'), enabled('Open…'), enabled('Open Project…')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const sentBefore = fake.state.sent.length;
    file().find((i) => i.label === 'Open…')!.click!();
    expect(fake.state.windows).toHaveLength(n + 1);
    expect(enabled('Save')).toBe(true);
    // Closed before its page listened: the Open… goes with it.
    closeWindow(fake.state.windows[n]);
    file().find((i) => i.label === 'Open Project…')!.click!();
    expect(fake.state.windows).toHaveLength(n + 2);
    file().find((i) => i.label === 'Save')!.click!();
    expect(fake.state.windows).toHaveLength(n + 2);
    expect(fake.state.sent.slice(sentBefore)).toEqual([]);
    await appInfoOf(fake.state.windows[n + 1]);
    expect(fake.state.sent.slice(sentBefore)).toEqual([
      { channel: MENU_COMMAND_CHANNEL, payload: { command: 'project.open' } },
      { channel: MENU_COMMAND_CHANNEL, payload: { command: 'file.save' } },
    ]);
  });

  // Round 14 (maintainer's read). Electron answers AppKit's reopen with "no visible window" when the window is
  // minimised, so AppKit does not bring it back by itself: main does, as for a second launch. Mutation that fails:
  // 'activate' only making a window where there is none (windows.reopen), as before.
  it("the Dock's icon clicked with the window minimised restores and focuses it, and makes no other", async () => {
    const win = await openWindow();
    const n = fake.state.windows.length;
    win.onceEvents.get('ready-to-show')?.();
    const { restored, focused } = win;
    win.minimized = true;
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(n);
    expect(win.minimized).toBe(false);
    expect([win.restored, win.focused]).toEqual([restored + 1, focused + 1]);
    // Not minimised: the Dock's icon focuses it, and restores nothing.
    appEvent('activate');
    expect([win.restored, win.focused]).toEqual([restored + 1, focused + 2]);
  });

  // Mutation that fails: the crash question's Quit closing the window only (the app would stay with no window).
  it("a crashed page's Quit quits the app, not only the window", async () => {
    const win = await openWindow();
    const quits = fake.state.quits;
    fake.state.messageBoxResponse = 1; // Quit
    win.webContentsEvents.get('render-process-gone')!({}, { reason: 'oom', exitCode: 1 });
    await vi.waitFor(() => expect(fake.state.quits).toBe(quits + 1));
    expect(win.closed).toBe(0);
  });

  // Mutations that fail: the window made again whose load fails said only in the terminal, as before (no box); the
  // broken window kept (the Dock's icon would then make none).
  // Round 12. Mutation that fails: the 'did-fail-load' box asked for a first load too (said twice).
  it('a window made again whose page fails to load says so as the first does, and goes; the Dock can try again', async () => {
    closeWindow(await openWindow());
    const n = fake.state.windows.length;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fake.state.failLoads = 'ERR_FILE_NOT_FOUND (-6) loading actguy://app/index.html';
    fake.state.keepErrorBoxes = true;
    const boxes = fake.state.messageBoxes.length;
    try {
      appEvent('activate');
      const broken = fake.state.windows[n];
      await vi.waitFor(() => expect(broken.destroyed).toBe(true));
      // Said once, in the error box: its 'did-fail-load' (a first load's) asks nothing more (round 12).
      expect(fake.state.messageBoxes).toHaveLength(boxes);
      expect(fake.state.errorBoxes).toEqual([
        { title: 'ActGuy could not start', message: 'ERR_FILE_NOT_FOUND (-6) loading actguy://app/index.html' },
      ]);
      expect(console.error).toHaveBeenCalledWith(
        'ActGuy could not start: ERR_FILE_NOT_FOUND (-6) loading actguy://app/index.html',
      );
      expect(fake.state.exits).toBe(0);
    } finally {
      fake.state.failLoads = null;
      fake.state.keepErrorBoxes = false;
      vi.mocked(console.error).mockRestore();
    }
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(n + 2);
    await vi.waitFor(() => expect(fake.state.windows[n + 1].loadedUrl).toBe('actguy://app/index.html'));
  });

  // Round 13 (maintainer's read). Mutations that fail: loadPage not asking whether the page was served (the window
  // stays, showing "not found", and nothing is said); serveRenderer not noting the page it could not read, or not
  // clearing the note once it is served (the window made next goes too).
  it('a window whose page file is gone from the installation says so, and to install again, as a failed start; the Dock can try again', () =>
    installationFileGone(
      resolve(__dirname, '..', 'renderer', 'index.html'),
      (file) =>
        `ActGuy's page could not be read from its installation (${file}: no such file or directory). Installing ActGuy again should fix it.`,
    ));

  // Round 14 (maintainer's read). The page file is there but its script bundle is not (a half-removed installation):
  // Chromium loads the page with no app in it, a blank window, and said nothing. Mutations that fail: serveRenderer
  // not noting a script the page names that it could not read (the window stays blank, nothing said); the note kept
  // once the script is back (the next window goes too).
  it('a window whose script bundle is gone from the installation says so, and to install again, as a failed start', () =>
    installationFileGone(
      resolve(__dirname, '..', 'renderer', 'main.tsx'),
      (file) =>
        `ActGuy's page could not read its program from its installation (${file}: no such file or directory). Installing ActGuy again should fix it.`,
    ));

  /** The window's page reports unsaved work (the close then asks). */
  async function reportDirty(win: FakeWindow) {
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(
      { sender: win.webContents, senderFrame: win.mainFrame },
      { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'] },
    );
  }
  /** Cmd+Q: 'before-quit', then the window's 'close'; whether the close was held. */
  function cmdQ(win: FakeWindow): boolean {
    appEvent('before-quit', { preventDefault: vi.fn() });
    let held = false;
    win.events.get('close')!({ preventDefault: () => (held = true) });
    return held;
  }

  // Mutations that fail: main ignoring the page's `keptOpen` (the window's red button then quits the app, and the Dock
  // makes no window after it); the handler not passing `keptOpen` on.
  it('a Cmd+Q answered Save whose save fails keeps the window and the app: the quit is over, and a later close is only a close', async () => {
    const win = await openWindow();
    const n = fake.state.windows.length;
    fake.state.messageBoxResponse = 0; // Save
    await reportDirty(win);
    const sent = fake.state.sent.length;
    expect(cmdQ(win)).toBe(true);
    await vi.waitFor(() =>
      expect(fake.state.sent.slice(sent)).toContainEqual({
        channel: MENU_COMMAND_CHANNEL,
        payload: { command: 'app.saveAllAndClose' },
      }),
    );
    // The page's save failed (renderer/app/unsaved.ts saveAllAndClose): it says so, the window still open.
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(
      { sender: win.webContents, senderFrame: win.mainFrame },
      { documentId: 'd', documentName: 'walk', dirty: true, unsaved: ['walk.mtn'], keptOpen: true },
    );
    // The user goes on working, saves, and later closes the window by its red button: the app stays, as on any close.
    await fake.state.ipc.get(ipcInvokeChannel('reportDocumentState'))!(
      { sender: win.webContents, senderFrame: win.mainFrame },
      { documentId: 'd', documentName: 'walk', dirty: false, unsaved: [] },
    );
    const quits = fake.state.quits;
    let held = false;
    win.events.get('close')!({ preventDefault: () => (held = true) });
    expect(held).toBe(false);
    closeWindow(win);
    await new Promise((r) => setTimeout(r, 0));
    expect(fake.state.quits).toBe(quits);
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(n + 1);
    await vi.waitFor(() => expect(fake.state.windows[n].loadedUrl).toBe('actguy://app/index.html'));
  });

  // Mutations that fail: main not telling the slot of 'before-quit' (a window made between the close and
  // 'will-quit'); the close listener not telling it the close was held, or the questions' Cancel not telling it
  // (closeKept: the Dock could never make the window again); 'closed' not quitting again after Discard.
  it("a Cmd+Q: Cancel keeps the window and the app; Discard quits (Electron cancelled the held quit), and no window is made before 'will-quit'", async () => {
    const win = await openWindow();
    const n = fake.state.windows.length;
    fake.state.messageBoxResponse = 2; // Cancel
    await reportDirty(win);
    expect(cmdQ(win)).toBe(true);
    await vi.waitFor(() => expect(fake.state.messageBoxes.at(-1)).toMatchObject({ title: 'Unsaved changes' }));
    await new Promise((r) => setTimeout(r, 0));
    // The quit was cancelled: the window closed later by its own button is made again by a file Finder hands over.
    closeWindow(win);
    appEvent('open-file', { preventDefault: vi.fn() }, join(dir, 'run.mtn'));
    expect(fake.state.windows).toHaveLength(n + 1);
    const again = fake.state.windows[n];
    await appInfoOf(again);
    await reportDirty(again);
    fake.state.messageBoxResponse = 1; // Discard changes
    const quits = fake.state.quits;
    expect(cmdQ(again)).toBe(true);
    await vi.waitFor(() => expect(again.closed).toBe(1));
    closeWindow(again);
    expect(fake.state.quits).toBe(quits + 1);
    // Between the window's close and 'will-quit': neither Finder nor the Dock makes a window.
    appEvent('open-file', { preventDefault: vi.fn() }, join(dir, 'run.mtn'));
    appEvent('activate');
    expect(fake.state.windows).toHaveLength(n + 1);
  });

  // Mutation that fails: neither 'before-quit' nor 'will-quit' telling the window slot (a Dock click during the quit
  // makes a window); either alone is enough here, the first tested above.
  it('once the quit goes ahead, neither the Dock nor Finder makes a window', () => {
    // With a window open the Dock makes none anyway: the check is made with none open.
    noWindow();
    const n = fake.state.windows.length;
    appEvent('will-quit', { preventDefault: vi.fn() });
    appEvent('activate');
    appEvent('open-file', { preventDefault: vi.fn() }, join(dir, 'run.mtn'));
    expect(fake.state.windows).toHaveLength(n);
  });
});

// Round 13 (maintainer's read): the macOS menu as main sets it. Mutations that fail: main building the menu with
// `isMac: false` (no app menu, File › Exit, no Window menu); the About box always shown over a window (with none, a
// box over nothing).
describe('the macOS menu', () => {
  it("has the app's menu (About, Hide, Quit), File › Close and the Window menu; About with no window is a box of its own", () => {
    const template = fake.state.menus.at(-1)!.template;
    const appMenu = template[0];
    expect(appMenu.label).toBe('ActGuy');
    expect(appMenu.submenu!.map((i) => i.role ?? i.label ?? i.type)).toEqual([
      'About ActGuy',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
    const file = template.find((m) => m.label === 'File')!.submenu!;
    expect(file.at(-1)!.role).toBe('close');
    expect(file.some((i) => i.role === 'quit')).toBe(false);
    expect(template.slice(-2).map((m) => m.role ?? m.label)).toEqual(['windowMenu', 'Help']);
    // With no window open (closed here, so that the test runs alone as in file order).
    noWindow();
    const boxes = fake.state.messageBoxes.length;
    appMenu.submenu![0].click!();
    expect(fake.state.messageBoxes.slice(boxes)).toEqual([expect.objectContaining({ title: 'About ActGuy' })]);
    expect(fake.state.parentlessBoxes.at(-1)).toBe(true);
  });
});
