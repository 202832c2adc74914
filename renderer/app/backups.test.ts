import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackupUnsavedRequest, UnsavedBackup } from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { emptyMotion, KeyFlag } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { isSevDirty, sevStore } from '../sev/sevStore';
import { projectStore } from '../project/projectStore';
import { sevBelongsTo } from '../sev/sevBinding';
import { save } from './motionFiles';
import { setAppApi } from './appApi';
import { BACKUP_DELAY_MS, backupUnsavedOnChange, discardRestoredQuestion, restoreHeldBackups } from './backups';
import { fakeApi } from './fakeApiForTests';
import walkSevText from '../../assets/walk.sev?raw';
import { FAKE_JOINTS, fakeOpenedMotion, openFakeMotion } from '../testing/fakeMotions';

let saved: Uint8Array[];
let opened: string[];

async function openWalk(): Promise<void> {
  await openFakeMotion({
    openMotion: async ({ path }) => (opened.push(path), { status: 'opened', motion: fakeOpenedMotion() }),
    saveMotion: async ({ path, mtnBytes }) => {
      saved.push(mtnBytes);
      return { status: 'saved', file: { path, name: 'walk', byteLength: mtnBytes.byteLength } };
    },
  });
}

/**
 * A motion's copy as main hands it back after a crash: document d9, a still motion on FAKE_JOINTS never saved
 * (no path), tolerances 1, edited at time 1; `over` gives what a test's copy has otherwise.
 */
function heldMotionCopy(over: Partial<Extract<UnsavedBackup, { part: 'motion' }>>): UnsavedBackup {
  return {
    part: 'motion',
    documentId: 'd9',
    name: 'capture',
    path: null,
    editedAt: 1,
    mtnBytes: writeMtn(emptyMotion(20, FAKE_JOINTS)),
    tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 },
    rotationOverridesDeg: {},
    ...over,
  };
}

function moveFirstEvent(): void {
  expect(
    sevStore.getState().edit('move event', (doc) => ({
      ...doc,
      events: doc.events.map((e, i) => (i === 0 ? { ...e, frame: e.frame + 1 } : e)),
    })),
  ).toBeNull();
}

beforeEach(() => {
  saved = [];
  opened = [];
  documentStore.getState().close();
  sevStore.getState().close();
  projectStore.getState().close();
  sessionStore.setState({ messages: [], confirm: null, picker: null, selectedJoint: 0, playhead: 0 });
});
afterEach(() => vi.useRealTimers());

describe('copies sent to main', () => {
  it('go once, half a second after the last edit, holding what Save would write and the tuning', async () => {
    await openWalk();
    vi.useFakeTimers();
    const sent: BackupUnsavedRequest[] = [];
    const stop = backupUnsavedOnChange({ backupUnsaved: async (r) => void sent.push(r) }, { now: () => 1234 });
    // Edits closer together than the delay: the copy waits for the last one.
    documentStore.getState().keys.toggle(0, 3);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS - 100);
    documentStore.getState().keys.toggle(1, 5);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS - 100);
    documentStore.getState().tolerancesActions.setOverride(1, 2.5);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
    const copy = sent[0].backup as Extract<UnsavedBackup, { part: 'motion' }>;
    expect(sent[0].part).toBe('motion');
    expect(copy).toMatchObject({
      documentId: 'd1',
      name: 'walk',
      path: '/ws/walk.mtn',
      editedAt: 1234,
      rotationOverridesDeg: { 1: 2.5 },
    });
    expect(copy.tolerances).toEqual(documentStore.getState().tolerances);
    expect(copy.mtnBytes).toEqual(writeMtn(documentStore.getState().motion!));
    const m = readMtn(copy.mtnBytes);
    expect(m.jointKeyInfo[(3 * 2 + 0) * 4] & KeyFlag.KEY).toBe(KeyFlag.KEY);
    expect(m.jointKeyInfo[(5 * 2 + 1) * 4] & KeyFlag.KEY).toBe(KeyFlag.KEY);
    stop();
  });

  it('carry only the part that changed, and tell main to drop a copy once its part is saved', async () => {
    await openWalk();
    sevStore.getState().load('/ws/walk.sev', 'walk', walkSevText);
    vi.useFakeTimers();
    const sent: BackupUnsavedRequest[] = [];
    const stop = backupUnsavedOnChange({ backupUnsaved: async (r) => void sent.push(r) });
    documentStore.getState().keys.toggle(0, 3);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS);
    moveFirstEvent();
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS);
    expect(sent.map((r) => r.part)).toEqual(['motion', 'sev']);
    const sev = sent[1].backup as Extract<UnsavedBackup, { part: 'sev' }>;
    expect(sev).toMatchObject({ path: '/ws/walk.sev', name: 'walk.sev', motionName: 'walk' });
    expect(sev.text).not.toBe(walkSevText);
    // Selecting an event changes the store but nothing a copy holds: nothing is sent.
    sevStore.getState().selectEvent(0);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS);
    expect(sent).toHaveLength(2);
    expect(await save()).toBe(true);
    await vi.advanceTimersByTimeAsync(BACKUP_DELAY_MS);
    expect(sent.slice(2)).toEqual([{ part: 'motion', backup: null }]);
    stop();
  });
});

describe('restoring after a crash', () => {
  it('shows the copies as unsaved documents, names them and when, and Discard reads the files again', async () => {
    await openWalk();
    const m = emptyMotion(20, FAKE_JOINTS);
    m.jointKeyInfo[(7 * 2 + 1) * 4] |= KeyFlag.KEY;
    const edited = writeMtn(m);
    const tolerances = {
      positionTolerance: 0.5,
      rotationToleranceDeg: 0.75,
      offsetTolerance: 0.25,
      method: 'classic' as const,
    };
    const motionCopy: UnsavedBackup = {
      part: 'motion',
      documentId: 'd9',
      name: 'walk',
      path: '/ws/walk.mtn',
      editedAt: new Date(2026, 11, 1, 18, 52, 10).getTime(),
      mtnBytes: edited,
      tolerances,
      rotationOverridesDeg: { 1: 3 },
    };
    const sevText = walkSevText.replace(/\n$/, '') + '\n';
    const sevCopy: UnsavedBackup = {
      part: 'sev',
      name: 'walk.sev',
      path: '/ws/walk.sev',
      motionName: 'walk',
      editedAt: 1,
      text: sevText,
    };
    const parts = await restoreHeldBackups({
      restoreBackups: async () => ({
        backups: [motionCopy, sevCopy],
        setAside: ['The backup /u/Backups/project.json could not be used (not JSON); moved to …'],
      }),
    });
    expect(parts).toEqual(['motion', 'sev']);

    const d = documentStore.getState();
    expect(d).toMatchObject({
      documentId: 'd9',
      path: '/ws/walk.mtn',
      dirty: true,
      tolerances,
      rotationOverridesDeg: { 1: 3 },
    });
    expect(writeMtn(d.motion!)).toEqual(edited);
    const f = sevStore.getState().file!;
    expect(isSevDirty(f)).toBe(true);
    expect(f.motion.documentId).toBe('d9');
    expect(opened).toEqual(['/ws/walk.mtn']); // restoring read nothing from disk
    expect(saved).toEqual([]); // and wrote nothing

    const messages = sessionStore.getState().messages;
    expect(messages.map((x) => x.text).join('\n')).toContain('project.json could not be used');
    const restoredMessage = messages.find((x) => x.text.startsWith('Restored'))!;
    expect(restoredMessage.text).toMatch(
      /^Restored unsaved changes to walk\.mtn, walk\.sev \(as of 2026-12-01 18:52:10\)/,
    );
    expect(restoredMessage.action?.label).toBe('Discard');

    // Save goes through the normal save path, with the restored bytes.
    expect(await save()).toBe(true);
    expect(saved).toEqual([edited]);
    // walk.sev is still unsaved: the message stays. Once it is saved too, "not on disk yet" no longer holds: it goes.
    const restoredShown = () => sessionStore.getState().messages.some((x) => x.id === restoredMessage.id);
    expect(restoredShown()).toBe(true);
    // It names only what is left (mutation that fails: dismissOnceSettled without its text update).
    expect(sessionStore.getState().messages.find((x) => x.id === restoredMessage.id)!.text).toMatch(
      /^Restored unsaved changes to walk\.sev \(as of/,
    );
    sevStore.getState().markSaved(sevStore.getState().file!.doc!);
    expect(restoredShown()).toBe(false);
  });

  // Mutation that fails: discardRestored without its question (the motion went at the click, tried cold round 6).
  it('Discard asks first, then drops the restored motion: Cancel keeps it, Discard changes opens the file again', async () => {
    await openWalk();
    const m = emptyMotion(20, FAKE_JOINTS);
    m.translationKeyInfo[4 * 4] |= KeyFlag.KEY;
    const copy = heldMotionCopy({ name: 'walk', path: '/ws/walk.mtn', mtnBytes: writeMtn(m) });
    await restoreHeldBackups({ restoreBackups: async () => ({ backups: [copy], setAside: [] }) });
    expect(documentStore.getState().dirty).toBe(true);
    const restoredMessage = () => sessionStore.getState().messages.find((x) => x.text.startsWith('Restored'));
    // As the message's button does: the click takes the message away, then runs its action.
    const clickDiscard = () => {
      const m = restoredMessage()!;
      sessionStore.getState().dismiss(m.id);
      m.action!.run();
    };
    clickDiscard();
    await vi.waitFor(() => expect(sessionStore.getState().confirm).not.toBeNull());
    expect(sessionStore.getState().confirm!.text).toBe(
      'Discard the restored changes to walk.mtn, and any edits made to it since, and read it from disk again?',
    );
    sessionStore.getState().confirm!.resolve('cancel');
    await vi.waitFor(() => expect(sessionStore.getState().confirm).toBeNull());
    expect(documentStore.getState().documentId).toBe('d9');
    expect(documentStore.getState().dirty).toBe(true);
    // Cancelled, the message is back with its Discard.
    expect(restoredMessage()?.action?.label).toBe('Discard');
    clickDiscard();
    await vi.waitFor(() => expect(sessionStore.getState().confirm).not.toBeNull());
    sessionStore.getState().confirm!.resolve('reload');
    await vi.waitFor(() => expect(documentStore.getState().documentId).toBe('d1'));
    expect(documentStore.getState().dirty).toBe(false);
    expect(opened).toEqual(['/ws/walk.mtn', '/ws/walk.mtn']);
  });

  // Mutation that fails: discardRestoredQuestion saying "read it from disk again" of every part (tried cold, round 6:
  // an imported capture has no file, and Discard closes it); discardRestored passing onDisk true for every part.
  it('Discard of a restored capture never saved says it closes it, as it does, and not that it reads it from disk', async () => {
    setAppApi(fakeApi({}));
    const copy = heldMotionCopy({ name: 'jump_capture' });
    await restoreHeldBackups({ restoreBackups: async () => ({ backups: [copy], setAside: [] }) });
    expect(documentStore.getState().documentId).toBe('d9');
    const m = sessionStore.getState().messages.find((x) => x.text.startsWith('Restored'))!;
    sessionStore.getState().dismiss(m.id);
    m.action!.run();
    await vi.waitFor(() => expect(sessionStore.getState().confirm).not.toBeNull());
    expect(sessionStore.getState().confirm!.text).toBe(
      'Discard the restored changes to jump_capture, and any edits made to it since, and close it? It has no file on ' +
        'disk to read again: imported and never saved, it is gone once discarded.',
    );
    sessionStore.getState().confirm!.resolve('reload');
    await vi.waitFor(() => expect(documentStore.getState().motion).toBeNull());
  });

  it('the question says what happens to each part: read from disk again, or closed when it has no file', () => {
    expect(
      discardRestoredQuestion([
        { name: 'walk.sev', onDisk: true },
        { name: 'jump_capture', onDisk: false },
      ]).text,
    ).toBe(
      'Discard the restored changes to walk.sev and jump_capture, and any edits made to them since? walk.sev is read ' +
        'from disk again; jump_capture, with no file on disk (imported and never saved), is closed and gone.',
    );
    expect(discardRestoredQuestion([{ name: 'walk.mtn', onDisk: true }]).text).toBe(
      'Discard the restored changes to walk.mtn, and any edits made to it since, and read it from disk again?',
    );
  });

  // Round 26. Mutation that fails: the restored message naming the copies without escapeControls.
  it('names a restored copy whose name or path holds a line break or a bidirectional override escaped', async () => {
    const sevCopy: UnsavedBackup = {
      part: 'sev',
      name: 'walk.sev',
      path: '/ws/walk\u202everbs.sev',
      motionName: 'walk',
      editedAt: 1,
      text: walkSevText,
    };
    await restoreHeldBackups({ restoreBackups: async () => ({ backups: [sevCopy], setAside: [] }) });
    const text = sessionStore.getState().messages.find((x) => x.text.startsWith('Restored'))!.text;
    expect(text).toContain('Restored unsaved changes to walk\\u202everbs.sev (as of');
    expect(text).not.toContain('\u202e');
  });

  // Tried cold, round 5. Mutation that fails: the restored .sev bound to the tuner's motion, whatever it is.
  it('keeps a restored .sev with its own motion, hidden while the tuner shows another (an imported capture)', async () => {
    await openWalk();
    // walk.sev had unsaved edits, parked while an imported capture (no file yet) was in the tuner; both come back.
    const captureCopy = heldMotionCopy({ documentId: 'd7', name: '01_03' });
    const sevCopy: UnsavedBackup = {
      part: 'sev',
      name: 'walk.sev',
      path: '/ws/walk.sev',
      motionName: 'walk',
      editedAt: 1,
      text: walkSevText,
    };
    await restoreHeldBackups({ restoreBackups: async () => ({ backups: [captureCopy, sevCopy], setAside: [] }) });
    const d = documentStore.getState();
    expect(d.documentId).toBe('d7');
    const f = sevStore.getState().file!;
    expect(isSevDirty(f)).toBe(true);
    expect(f.motion).toEqual({ documentId: null, path: '/ws/walk.mtn' });
    expect(sevBelongsTo(f, d)).toBe(false);
    // walk.mtn in the tuner again: the .sev is its own.
    await openWalk();
    expect(sevBelongsTo(sevStore.getState().file, documentStore.getState())).toBe(true);
  });

  it('says nothing when main holds no copy', async () => {
    expect(await restoreHeldBackups({ restoreBackups: async () => ({ backups: [], setAside: [] }) })).toEqual([]);
    expect(sessionStore.getState().messages).toEqual([]);
  });
});
