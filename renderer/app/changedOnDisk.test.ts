/**
 * The page's side of a save refused over a change on disk (renderer/app/changedOnDisk.ts): the question and what each
 * answer does, and the SEV store's reload as one undo step (sevStore.reloadAsStep).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { addEvent } from '../../shared/sev/edit';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { sessionStore } from '../state/sessionStore';
import { createSevStore, isSevDirty } from '../sev/sevStore';
import { latestUndoLabel, resetUndoOrderForTests } from '../sev/undoOrder';
import { changedOnDiskText, reloadStepLabel, saveMindingDisk } from './changedOnDisk';

const refused = (change: 'changed' | 'deleted' = 'changed') =>
  new ActGuyApiError({ message: 'Did not save /p/walk.sev', changedOnDisk: { path: '/p/walk.sev', change } });

/** Answers the next question with `id` once it is shown; gives the buttons it offered. */
function answer(id: string): Promise<string[]> {
  return new Promise((resolve) => {
    const off = sessionStore.subscribe((s) => {
      if (!s.confirm) return;
      off();
      const ids = s.confirm.buttons.map((b) => b.id);
      s.confirm.resolve(id);
      resolve(ids);
    });
  });
}

beforeEach(() => {
  sessionStore.getState().setConfirm(null);
  resetUndoOrderForTests();
});

describe('saveMindingDisk', () => {
  it('Cancel writes nothing more and reloads nothing; Cancel is offered first', async () => {
    const calls: boolean[] = [];
    let reloads = 0;
    const asked = answer('cancel');
    const out = await saveMindingDisk(
      async (overwrite) => {
        calls.push(overwrite);
        throw refused();
      },
      async () => void reloads++,
    );
    expect(out).toEqual({ status: 'cancelled' });
    expect(calls).toEqual([false]);
    expect(reloads).toBe(0);
    expect(await asked).toEqual(['cancel', 'reload', 'overwrite']);
  });

  it('Save anyway saves again with the flag; Reload from disk reloads and saves nothing', async () => {
    const calls: boolean[] = [];
    void answer('overwrite');
    const out = await saveMindingDisk(
      async (overwrite) => {
        calls.push(overwrite);
        if (!overwrite) throw refused();
        return 'written';
      },
      async () => undefined,
    );
    expect(out).toEqual({ status: 'saved', value: 'written' });
    expect(calls).toEqual([false, true]);

    let reloads = 0;
    void answer('reload');
    const again = await saveMindingDisk(
      async () => {
        throw refused();
      },
      async () => void reloads++,
    );
    expect(again).toEqual({ status: 'reloaded' });
    expect(reloads).toBe(1);
  });

  it('a file deleted on disk offers no reload; other failures are thrown as they are', async () => {
    const asked = answer('cancel');
    await saveMindingDisk(
      async () => {
        throw refused('deleted');
      },
      async () => undefined,
    );
    expect(await asked).toEqual(['cancel', 'overwrite']);
    expect(changedOnDiskText('walk.sev', 'deleted')).toContain('was deleted from disk');
    const other = new ActGuyApiError({ message: 'disk full' });
    await expect(
      saveMindingDisk(
        async () => {
          throw other;
        },
        async () => undefined,
      ),
    ).rejects.toBe(other);
  });
});

describe('sevStore.reloadAsStep', () => {
  const TEXT = 'sev 1\nmotion walk\nse 0 SE_A\nevent 5 0 17\n';
  const THEIRS = `${TEXT}event 9 0 17  # theirs\n`;

  it('shows the disk text as one named undo step, saved; Undo brings the edits back, unsaved', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 20, se: 0, joint: null }));
    const mine = s.getState().file?.doc;
    expect(s.getState().reloadAsStep(reloadStepLabel('/p/walk.sev'), THEIRS)).toBeNull();
    expect(s.getState().file?.doc?.events.map((e) => e.frame)).toEqual([5, 9]);
    expect(isSevDirty(s.getState().file)).toBe(false);
    expect(latestUndoLabel()).toBe('Reload walk.sev from disk');
    s.getState().undo();
    expect(s.getState().file?.doc).toBe(mine);
    expect(isSevDirty(s.getState().file)).toBe(true);
    s.getState().redo();
    expect(isSevDirty(s.getState().file)).toBe(false);
  });

  it('a disk text with errors is not shown: the edits stay', () => {
    const s = createSevStore();
    s.getState().load('/p/walk.sev', 'walk', TEXT);
    s.getState().edit('Add event', (d) => addEvent(d, { frame: 20, se: 0, joint: null }));
    const mine = s.getState().file?.doc;
    expect(s.getState().reloadAsStep('Reload walk.sev from disk', 'sev 1\nevent x\n')).toMatch(/error/);
    expect(s.getState().file?.doc).toBe(mine);
  });
});
