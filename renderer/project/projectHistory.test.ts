import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeMtn } from '../../shared/mtn/write';
import { readMtn } from '../../shared/mtn/read';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sevStore } from '../sev/sevStore';
import { latestRedoLabel, latestUndoLabel, redoLatest, resetUndoOrderForTests, undoLatest } from '../sev/undoOrder';
import { isProjectDirty, projectStore } from './projectStore';
import {
  applyProjectTolerances,
  moveMotion,
  removeMotion,
  storeTunerTolerances,
  tunerNotInProjectReason,
  tunerProjectMotion,
} from './projectMotions';
import { sessionStore } from '../state/sessionStore';
import { registerSevCommands } from '../sev/eventsMenu';
import { isSevDirty } from '../sev/sevStore';
import { clearProjectHistory } from './projectHistory';
import { adoptTuningFile } from '../tuner/motionTuning';
import walkSevText from '../../assets/walk.sev?raw';
import sampleProjectText from '../../assets/sample.actguy.json?raw';

const order = () => projectStore.getState().json!.motions.map((m) => m.name);
const selected = () => {
  const p = projectStore.getState();
  return p.current === null ? null : p.json!.motions[p.current].name;
};

function loadMotion(id: string, jointNames: readonly string[] = ['hips']): void {
  const motion = readMtn(
    writeMtn(
      emptyMotion(
        20,
        jointNames.map((name, k) => ({ parent: k - 1, mirror: 0, part: 0, reserved: 0, name })),
      ),
    ),
  );
  documentStore.getState().load({
    documentId: id,
    path: `/ws/${id}.mtn`,
    name: id,
    kind: 'mtn',
    readOnly: false,
    motion,
    tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
  });
}

beforeEach(() => {
  documentStore.getState().close();
  sevStore.getState().close();
  projectStore.getState().close();
  resetUndoOrderForTests();
  projectStore.getState().adopt('/ws/sample.actguy.json', sampleProjectText);
  clearProjectHistory();
  loadMotion('walk');
  sevStore.getState().load('/ws/walk.sev', 'walk', walkSevText);
  projectStore.getState().setCurrent(0, 'walk');
});

describe('project edits in the window-wide undo order', () => {
  it('a reorder is one step, undone and redone in order with SEV and motion edits', () => {
    expect(order()).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
    const sevBefore = sevStore.getState().file!.doc;
    sevStore.getState().edit('Move event', (doc) => ({
      ...doc,
      events: doc.events.map((e, i) => (i === 0 ? { ...e, frame: e.frame + 2 } : e)),
    }));
    moveMotion(0, 2); // a drag-reorder drops once: one moveMotion call
    documentStore.getState().keys.toggle(0, 4);
    expect(order()).toEqual(['cmu_01_01', 'walk_rough', 'walk', 'walk_60']);
    expect(selected()).toBe('walk');
    expect(isProjectDirty(projectStore.getState())).toBe(true);

    undoLatest(); // the key toggle
    expect(documentStore.getState().dirty).toBe(false);
    expect(order()).toEqual(['cmu_01_01', 'walk_rough', 'walk', 'walk_60']);
    expect(latestUndoLabel()).toBe('Move walk to index 2');
    undoLatest(); // the reorder, in one step
    expect(order()).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
    expect(selected()).toBe('walk');
    expect(isProjectDirty(projectStore.getState())).toBe(false);
    expect(sevStore.getState().file!.doc).not.toBe(sevBefore); // the SEV edit is older: still there
    undoLatest(); // the SEV edit
    expect(sevStore.getState().file!.doc).toBe(sevBefore);

    redoLatest();
    expect(sevStore.getState().file!.doc).not.toBe(sevBefore);
    expect(latestRedoLabel()).toBe('Move walk to index 2');
    redoLatest();
    expect(order()).toEqual(['cmu_01_01', 'walk_rough', 'walk', 'walk_60']);
    expect(selected()).toBe('walk');
    redoLatest();
    expect(documentStore.getState().dirty).toBe(true);
  });

  it('opening another project motion keeps the project steps; opening another project drops them', () => {
    moveMotion(2, 0);
    expect(order()).toEqual(['walk_rough', 'walk', 'cmu_01_01', 'walk_60']);
    loadMotion('cmu_01_01'); // switching motions clears motion and SEV history only
    undoLatest();
    expect(order()).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
    redoLatest();
    projectStore.getState().close();
    projectStore.getState().adopt('/ws/other.actguy.json', sampleProjectText);
    expect(latestUndoLabel()).toBeNull();
  });

  it('"Tolerances → project" is an undoable step', () => {
    documentStore.setState({
      tolerances: { positionTolerance: 0.25, rotationToleranceDeg: 0.75, offsetTolerance: 0.5 },
    });
    const before = projectStore.getState().json!.motions[0].tolerances;
    storeTunerTolerances();
    expect(projectStore.getState().json!.motions[0].tolerances).toEqual({
      position: 0.25,
      rotationDeg: 0.75,
      offset: 0.5,
    });
    expect(latestUndoLabel()).toBe('Tolerances → project (walk)');
    undoLatest();
    expect(projectStore.getState().json!.motions[0].tolerances).toEqual(before);
    expect(isProjectDirty(projectStore.getState())).toBe(false);
  });

  it('Save of a project motion whose tuning did not change leaves the project as it is (overrides in skeleton order, an entry without offset)', () => {
    const messages = () => sessionStore.getState().messages.map((m) => m.text);
    sessionStore.setState({ messages: [] });
    // walk's entry names its overrides LeftFoot, RightFoot, Hips: the tuner holds them by joint index (Hips first).
    loadMotion('walk', ['Hips', 'LeftFoot', 'RightFoot']);
    projectStore.getState().setCurrent(0, 'walk');
    applyProjectTolerances(0);
    expect(documentStore.getState().rotationOverridesDeg).toEqual({ 0: 0.3, 1: 0.25, 2: 0.25 });
    const text = projectStore.getState().text;
    expect(storeTunerTolerances('save')).toBe(false);
    expect(projectStore.getState().text).toBe(text);
    expect(isProjectDirty(projectStore.getState())).toBe(false);
    expect(latestUndoLabel()).toBeNull();
    expect(messages()).toEqual([]);
    // cmu_01_01's entry leaves offset out: the tuner's default offset is what the entry gives too.
    loadMotion('cmu_01_01', ['Hips']);
    projectStore.getState().setCurrent(1, 'cmu_01_01');
    applyProjectTolerances(1);
    expect(storeTunerTolerances('save')).toBe(false);
    expect(projectStore.getState().text).toBe(text);
    expect(messages()).toEqual([]);
    // The panel's button says so instead of doing nothing unseen.
    expect(storeTunerTolerances()).toBe(false);
    expect(messages()).toEqual(["cmu_01_01: the project already has the tuner's tolerances; nothing changed."]);
    // A changed override is stored, and from Save without asking for the project save that follows.
    documentStore.setState({ rotationOverridesDeg: { 0: 0.4 } });
    expect(storeTunerTolerances('save')).toBe(true);
    expect(projectStore.getState().json!.motions[1].rotationOverridesDeg).toEqual({ Hips: 0.4 });
    expect(messages().at(-1)).toBe("cmu_01_01: the tuner's tolerances are now the project's.");
    // As many overrides as the entry has, one of another value: a change too.
    documentStore.setState({ rotationOverridesDeg: { 0: 0.6 } });
    expect(storeTunerTolerances('save')).toBe(true);
    expect(projectStore.getState().json!.motions[1].rotationOverridesDeg).toEqual({ Hips: 0.6 });
  });

  it("says which of the motion's tuning file values the project's tolerances replace, and nothing when they are the same", () => {
    const messages = () => sessionStore.getState().messages.map((m) => m.text);
    sessionStore.setState({ messages: [] });
    const openWithTuning = (id: string, tuning: object | null) => {
      loadMotion(id, ['Hips', 'LeftFoot', 'RightFoot']);
      adoptTuningFile(
        {
          documentId: id,
          tuning: tuning && {
            path: `/ws/${id}.mtn.actguy-tuning.json`,
            text: JSON.stringify({ version: 1, ...tuning }),
          },
        },
        documentStore.getState().motion!,
      );
      projectStore.getState().setCurrent(0, id);
      applyProjectTolerances(0);
    };
    // walk's entry: rotation 0.5°, overrides Hips 0.3°, LeftFoot and RightFoot 0.25°.
    openWithTuning('walk-tuned', { tolerances: { rotationDeg: 1.02 } });
    expect(documentStore.getState().tolerances.rotationToleranceDeg).toBe(0.5);
    expect(messages()).toEqual([
      "walk: the project's tolerances replace those of walk-tuned.mtn.actguy-tuning.json (rotation 1.02° → 0.5°, " +
        'Hips override none → 0.3°, LeftFoot override none → 0.25°, RightFoot override none → 0.25°); in a project ' +
        'its entry holds them.',
    ]);
    const notice = sessionStore.getState().messages[0];
    expect(notice.level).toBe('info');
    expect(notice.owner?.documentId).toBe('walk-tuned');
    // Adopted again (the SEV editor following the tuner): the tuner already has the project's values.
    applyProjectTolerances(0);
    expect(messages()).toHaveLength(1);
    // Another entry of the same file (walk_rough) replaces the project's values, not the file's: no notice says so.
    projectStore.getState().setCurrent(2, 'walk-tuned');
    applyProjectTolerances(2);
    expect(documentStore.getState().tolerances.rotationToleranceDeg).toBe(2);
    expect(messages()).toHaveLength(1);
    // More than four changes: three and how many more.
    sessionStore.setState({ messages: [] });
    openWithTuning('walk-far', {
      tolerances: { position: 2, rotationDeg: 3, offset: 4, method: 'classic' },
      rotationOverridesDeg: { Hips: 1 },
    });
    expect(messages()).toEqual([
      "walk: the project's tolerances replace those of walk-far.mtn.actguy-tuning.json (position 2 → 0.5, " +
        'rotation 3° → 0.5°, offset 4 → 0.5, 4 more); in a project its entry holds them.',
    ]);
    // A tuning file that says what the project says, no tuning file, or a bad one: nothing to tell.
    sessionStore.setState({ messages: [] });
    openWithTuning('walk-same', {
      tolerances: { rotationDeg: 0.5 },
      rotationOverridesDeg: { RightFoot: 0.25, Hips: 0.3, LeftFoot: 0.25 },
    });
    openWithTuning('walk-plain', null);
    openWithTuning('walk-bad', { tolerances: { rotationDeg: -1 } });
    expect(messages()).toEqual([]);
    expect(documentStore.getState().rotationOverridesDeg).toEqual({ 0: 0.3, 1: 0.25, 2: 0.25 });
  });

  it('"Tolerances → project" acts on the motion the tuner shows: with another file in the tuner it changes nothing and says why', () => {
    loadMotion('cmu_01_01');
    projectStore.getState().setCurrent(1, 'cmu_01_01');
    expect(tunerProjectMotion()).toBe(1);
    // File › Open of a file the project did not open: the selection (cmu_01_01) no longer names the tuner's motion.
    loadMotion('elsewhere');
    documentStore.setState({ tolerances: { positionTolerance: 3, rotationToleranceDeg: 3, offsetTolerance: 3 } });
    const before = projectStore.getState().text;
    expect(tunerProjectMotion()).toBeNull();
    expect(tunerNotInProjectReason()).toBe(
      'The tuner shows elsewhere, not opened from this project: select a motion in the list to act on it.',
    );
    expect(storeTunerTolerances()).toBe(false);
    expect(projectStore.getState().text).toBe(before);
  });
});

describe('removing the selected motion never drops its .sev’s unsaved edits unasked', () => {
  /** Answers the open question with `id` once it shows, and returns its text. */
  async function answer(id: string): Promise<string> {
    for (let i = 0; i < 100 && !sessionStore.getState().confirm; i++) await new Promise((r) => setTimeout(r, 1));
    const q = sessionStore.getState().confirm!;
    sessionStore.getState().setConfirm(null);
    q.resolve(id);
    return q.text;
  }

  beforeAll(() => registerSevCommands());
  beforeEach(() => {
    sessionStore.setState({ confirm: null });
    sevStore.getState().edit('Move event', (doc) => ({
      ...doc,
      events: doc.events.map((e, i) => (i === 0 ? { ...e, frame: e.frame + 2 } : e)),
    }));
  });

  it('asks about the .sev after "Remove"; Cancel keeps the motion in the project and the edits', async () => {
    const done = removeMotion(0);
    expect(await answer('remove')).toMatch(/^Remove walk from the project\?/);
    expect(await answer('cancel')).toBe(
      'walk.sev has unsaved changes. Save it before you remove walk from the project?',
    );
    await done;
    expect(order()).toEqual(['walk', 'cmu_01_01', 'walk_rough', 'walk_60']);
    expect(isSevDirty(sevStore.getState().file)).toBe(true);
    expect(latestUndoLabel()).toBe('Move event');
  });

  it('"Discard changes" removes it as one undo step, and the .sev closes', async () => {
    const done = removeMotion(0);
    await answer('remove');
    await answer('discard');
    await done;
    expect(order()).toEqual(['cmu_01_01', 'walk_rough', 'walk_60']);
    expect(sevStore.getState().file).toBeNull();
    expect(latestUndoLabel()).toBe('Remove motion walk');
  });

  it('a .sev with nothing unsaved closes without a second question', async () => {
    sevStore.getState().undo();
    const done = removeMotion(0);
    await answer('remove');
    await done;
    expect(order()).toEqual(['cmu_01_01', 'walk_rough', 'walk_60']);
    expect(sessionStore.getState().confirm).toBeNull();
  });
});
