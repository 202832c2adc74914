import { describe, expect, it } from 'vitest';
import type { DocumentStateReport } from '../shared/ipc/documents';
import {
  bringForward,
  createMenuDelivery,
  createWindowSlot,
  createWindowStartup,
  followDocumentReport,
  quitsWithLastWindow,
} from './appWindow';

/** A stand-in window recording what the app did to it. */
function standInWindow(minimized = false) {
  const did: string[] = [];
  return {
    did,
    title: '',
    edited: undefined as boolean | undefined,
    setTitle(title: string) {
      this.title = title;
    },
    setDocumentEdited(edited: boolean) {
      this.edited = edited;
    },
    isMinimized: () => minimized,
    restore: () => did.push('restore'),
    focus: () => did.push('focus'),
  };
}

const none: DocumentStateReport = { documentId: null, documentName: null, dirty: false };

describe('the title from the page report (followDocumentReport)', () => {
  it('names the document, a dot while it has unsaved edits, then the app; the app alone with no document', () => {
    const win = standInWindow();
    followDocumentReport(win, none, { documentId: 'd1', documentName: 'walk.mtn', dirty: false });
    expect(win.title).toBe('walk.mtn — ActGuy');
    expect(win.edited).toBe(false);
    followDocumentReport(win, none, { documentId: 'd1', documentName: 'walk.mtn', dirty: true });
    expect(win.title).toBe('walk.mtn • — ActGuy');
    expect(win.edited).toBe(true);
    followDocumentReport(win, none, { documentId: null, documentName: null, dirty: true });
    expect(win.title).toBe('ActGuy');
    expect(win.edited).toBe(true);
  });

  it('says the menu changed only when the greyed-out commands did', () => {
    const win = standInWindow();
    const a: DocumentStateReport = { ...none, disabledCommands: ['edit.undo', 'edit.redo'] };
    expect(followDocumentReport(win, none, none).menuChanged).toBe(false);
    expect(followDocumentReport(win, none, a).menuChanged).toBe(true);
    expect(followDocumentReport(win, a, { ...a, dirty: true }).menuChanged).toBe(false);
    expect(followDocumentReport(win, a, { ...none, disabledCommands: ['edit.undo'] }).menuChanged).toBe(true);
    expect(followDocumentReport(win, a, none).menuChanged).toBe(true);
  });

  it('with no window (closed) the report is still taken', () => {
    expect(followDocumentReport(null, none, { ...none, disabledCommands: ['edit.undo'] })).toEqual({
      menuChanged: true,
    });
  });
});

describe("a second launch's focus (bringForward)", () => {
  it('focuses the shown window, restoring it first when minimised', () => {
    const shown = standInWindow();
    bringForward(shown, true);
    expect(shown.did).toEqual(['focus']);
    const minimised = standInWindow(true);
    bringForward(minimised, true);
    expect(minimised.did).toEqual(['restore', 'focus']);
  });

  it('leaves a window not yet painted alone (focusing would show it empty), and does nothing without one', () => {
    const hidden = standInWindow(true);
    bringForward(hidden, false);
    expect(hidden.did).toEqual([]);
    expect(() => bringForward(null, true)).not.toThrow();
  });
});

describe('the window on each platform (createWindowSlot, quitsWithLastWindow)', () => {
  /** A slot whose windows are numbered as made, with whether each was made again. */
  function slot(platform: NodeJS.Platform) {
    const made: { n: number; again: boolean }[] = [];
    const windows = createWindowSlot<{ n: number }>(platform);
    const make = (again: boolean) => {
      made.push({ n: made.length + 1, again });
      return { n: made.length };
    };
    return { windows, made, make };
  }

  it('quits with its last window on Windows and Linux, not on macOS', () => {
    expect(quitsWithLastWindow('win32')).toBe(true);
    expect(quitsWithLastWindow('linux')).toBe(true);
    expect(quitsWithLastWindow('darwin')).toBe(false);
  });

  it('macOS: a closed window is made again (the Dock icon, a file handed over), told so; never two at once', () => {
    const { windows, made, make } = slot('darwin');
    expect(windows.open(make)).toEqual({ n: 1 });
    expect(windows.reopen()).toBeNull();
    windows.closed();
    expect(windows.current()).toBeNull();
    expect(windows.reopen()).toEqual({ n: 2 });
    expect(windows.current()).toEqual({ n: 2 });
    expect(windows.reopen()).toBeNull();
    expect(made).toEqual([
      { n: 1, again: false },
      { n: 2, again: true },
    ]);
  });

  it('macOS: nothing is made before the first window (a file at launch waits for it) nor once the quit goes ahead', () => {
    const { windows, made, make } = slot('darwin');
    expect(windows.reopen()).toBeNull();
    windows.open(make);
    windows.closed();
    windows.quitting();
    expect(windows.reopen()).toBeNull();
    expect(made).toHaveLength(1);
  });

  it('Windows and Linux: a closed window is never made again (the app is quitting)', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const { windows, made, make } = slot(platform);
      windows.open(make);
      windows.closed();
      expect(windows.reopen()).toBeNull();
      expect(made).toHaveLength(1);
    }
  });

  it('a window is shown only once it said so, and a window made again starts unshown (a second launch waits for it)', () => {
    const { windows, make } = slot('darwin');
    windows.open(make);
    expect(windows.shown()).toBe(false);
    windows.markShown();
    expect(windows.shown()).toBe(true);
    windows.closed();
    expect(windows.shown()).toBe(false);
    windows.reopen();
    expect(windows.shown()).toBe(false);
  });
});

describe('a quit asked while the window closes (createWindowSlot)', () => {
  const opened = (platform: NodeJS.Platform) => {
    const slot = createWindowSlot<number>(platform);
    let made = 0;
    slot.open(() => ++made);
    return slot;
  };

  // Mutation that fails: reopen() not refusing while a quit is asked (an open-file between the window's close in a
  // Cmd+Q and 'will-quit' made a window).
  it("macOS: from 'before-quit' on, no window is made again, also after the window closed", () => {
    const slot = opened('darwin');
    slot.quitAsked();
    expect(slot.closed()).toEqual({ resumeQuit: false });
    expect(slot.reopen()).toBeNull();
  });

  // Mutations that fail: closeKept() not clearing the quit asked; closed() answering resumeQuit without a held close.
  it('macOS: a close its questions kept cancels the quit; the window closed later is made again', () => {
    const slot = opened('darwin');
    slot.quitAsked();
    slot.closeHeld();
    slot.closeKept();
    expect(slot.closed()).toEqual({ resumeQuit: false });
    expect(slot.reopen()).toBe(2);
    // A close held with no quit asked (the red button, unsaved work) is no quit's.
    slot.closeHeld();
    expect(slot.closed()).toEqual({ resumeQuit: false });
  });

  // Mutations that fail: closed() not answering resumeQuit after a held quit's close; answering it on Windows and
  // Linux too (where 'window-all-closed' quits).
  it("macOS: a quit's close held for its questions and let go (Save, Discard) quits again; elsewhere the last window does", () => {
    const mac = opened('darwin');
    mac.quitAsked();
    mac.closeHeld();
    expect(mac.closed()).toEqual({ resumeQuit: true });
    expect(mac.reopen()).toBeNull();
    const other = opened('win32');
    other.quitAsked();
    other.closeHeld();
    expect(other.closed()).toEqual({ resumeQuit: false });
  });
});

describe("a window's start-up motion (createWindowStartup)", () => {
  function startup(named: boolean, kept: string[], refusals: string[] = []) {
    const appInfo: Parameters<typeof createWindowStartup>[0]['appInfo'] = {
      samplePath: '/s/walk.mtn',
      startupPath: named ? '/named.mtn' : '/s/walk.mtn',
      startupNotice: 'samples copied',
      startupWarnings: ['first start'],
    };
    const windowStartup = createWindowStartup({
      appInfo,
      named,
      takeKeptMotion: () => kept.shift() ?? null,
      takeRefusals: () => refusals.splice(0),
    });
    return { appInfo, windowStartup, kept, refusals };
  }

  it('the first page starts on the first motion kept where the command line named none; a reload takes none', () => {
    const { appInfo, windowStartup, kept } = startup(false, ['/k/a.mtn', '/k/b.mtn']);
    windowStartup.pageAsks();
    expect(appInfo.startupPath).toBe('/k/a.mtn');
    windowStartup.pageAsks();
    expect(appInfo.startupPath).toBe('/k/a.mtn');
    expect(kept).toEqual(['/k/b.mtn']);
  });

  it('a motion named on the command line stays the start-up motion; the kept ones follow it', () => {
    const { appInfo, windowStartup, kept } = startup(true, ['/k/a.mtn']);
    windowStartup.pageAsks();
    expect(appInfo.startupPath).toBe('/named.mtn');
    expect(kept).toEqual(['/k/a.mtn']);
  });

  it('a window made again starts on the file handed over, else the sample; says the refusals since, not the first start', () => {
    const { appInfo, windowStartup, kept, refusals } = startup(true, []);
    windowStartup.pageAsks();
    kept.push('/finder/run.mtn');
    refusals.push('notes.txt: not this kind of file');
    windowStartup.windowMadeAgain();
    expect(appInfo.startupNotice).toBeUndefined();
    expect(appInfo.startupWarnings).toEqual(['notes.txt: not this kind of file']);
    windowStartup.pageAsks();
    expect(appInfo.startupPath).toBe('/finder/run.mtn');
    windowStartup.windowMadeAgain();
    expect(appInfo.startupWarnings).toBeUndefined();
    windowStartup.pageAsks();
    expect(appInfo.startupPath).toBe('/s/walk.mtn');
  });
});

describe("the menu's commands for the page (createMenuDelivery)", () => {
  /** The slot with its window made by `make` (true: made again), and what each window's page was sent. */
  function delivery(platform: NodeJS.Platform) {
    const sent: string[] = [];
    const windows = createWindowSlot<number>(platform);
    let made = 0;
    const menu = createMenuDelivery<string>({ sendToPage: (c) => sent.push(`${made}: ${c}`), windows });
    const make = () => {
      menu.windowMade();
      return ++made;
    };
    return { sent, windows, menu, make, close: () => (windows.closed(), menu.windowClosed()) };
  }

  // Mutation that fails: send() sending while the page does not listen (the command reaches no listener).
  it('holds a command until the page listens, then sends it, in order; later ones go at once', () => {
    const { sent, windows, menu, make } = delivery('linux');
    windows.open(make);
    menu.send('file.open');
    menu.send('view.resetCamera');
    expect(sent).toEqual([]);
    menu.pageListens();
    menu.send('edit.undo');
    expect(sent).toEqual(['1: file.open', '1: view.resetCamera', '1: edit.undo']);
  });

  // Mutations that fail: send() not asking the slot for a window (reopen); windowClosed not dropping the held ones.
  it('macOS: with no window, a command makes the window again and goes to its page once it listens', () => {
    const { sent, windows, menu, make, close } = delivery('darwin');
    windows.open(make);
    menu.pageListens();
    close();
    menu.send('file.openRecent');
    expect(windows.current()).toBe(2);
    menu.send('file.open');
    expect(windows.current()).toBe(2);
    expect(sent).toEqual([]);
    menu.pageListens();
    expect(sent).toEqual(['2: file.openRecent', '2: file.open']);
    // A window made for a command and closed before its page listened takes the command with it.
    close();
    menu.send('project.open');
    close();
    windows.reopen();
    menu.pageListens();
    expect(sent).toEqual(['2: file.openRecent', '2: file.open']);
  });

  it('Windows and Linux, or once the quit goes ahead: with no window, a command is dropped and makes none', () => {
    const other = delivery('win32');
    other.windows.open(other.make);
    other.close();
    other.menu.send('file.open');
    expect(other.windows.current()).toBeNull();
    const mac = delivery('darwin');
    mac.windows.open(mac.make);
    mac.close();
    mac.windows.quitting();
    mac.menu.send('file.open');
    expect(mac.windows.current()).toBeNull();
    mac.menu.pageListens();
    expect([...other.sent, ...mac.sent]).toEqual([]);
  });
});
