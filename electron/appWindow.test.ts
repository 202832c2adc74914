import { describe, expect, it } from 'vitest';
import type { DocumentStateReport } from '../shared/ipc/documents';
import { bringForward, followDocumentReport } from './appWindow';

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
