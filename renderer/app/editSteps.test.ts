/**
 * "Every edit is one named undo step" (docs/tuner.md#every-edit-and-its-undo-step), checked over every action that
 * changes the motion, the .sev, the project or the app's settings: each makes exactly one step in the window's undo
 * order, named for what it did, and Undo then Redo give back the exact state before and after.
 *
 * The list of actions is checked against the stores' and modules' own members: a new member of an edit namespace
 * (documentStore's keys, locks, ...; sevActions' events, ses, footsteps) or a new exported function of an edit module
 * fails here until it is given a case below, or listed as not an edit with the reason.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { emptyMotion, MotionFlag } from '../../shared/motion/types';
import { serializeSev } from '../../shared/sev/serialize';
import { documentStore, HISTORY_LIMIT as MOTION_HISTORY_LIMIT } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { HISTORY_LIMIT as SEV_HISTORY_LIMIT, sevStore } from '../sev/sevStore';
import * as sevActions from '../sev/sevActions';
import { latestRedoLabel, latestUndoLabel, redoLatest, resetUndoOrderForTests, undoLatest } from '../sev/undoOrder';
import { projectStore } from '../project/projectStore';
import { clearProjectHistory, PROJECT_HISTORY_LIMIT } from '../project/projectHistory';
import * as projectMotions from '../project/projectMotions';
import * as budget from '../project/budget';
import * as keyEdits from './keyEdits';
import * as defaultTolerances from '../tuner/defaultTolerances';
import { setAppApi } from './appApi';
import { fakeApi } from './fakeApiForTests';
import { sevJoint as joint, WALK_SEV } from '../testing/fakeMotions';
import sampleProjectText from '../../assets/sample.actguy.json?raw';

const { events, ses, footsteps } = sevActions;

/** The sample project with the tuner on its first motion (walk) and walk's .sev open. */
function openAll(): void {
  documentStore.getState().close();
  sevStore.getState().close();
  projectStore.getState().close();
  resetUndoOrderForTests();
  defaultTolerances.resetDefaultsHistoryForTests();
  projectStore.getState().adopt('/ws/sample.actguy.json', sampleProjectText);
  clearProjectHistory();
  documentStore.getState().load({
    documentId: 'walk',
    path: '/ws/walk.mtn',
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    motion: emptyMotion(60, [joint('Hips', -1), joint('LeftFoot'), joint('RightFoot')]),
    tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
  });
  sevStore.getState().load('/ws/walk.sev', 'walk', WALK_SEV, { documentId: 'walk', path: '/ws/walk.mtn' });
  projectStore.getState().setCurrent(0, 'walk');
  sessionStore.setState({ messages: [], playhead: 30, selectedJoint: 1, selectedKeys: [], confirm: null });
  sevStore.getState().setClipboard(null);
  preferencesStore
    .getState()
    .set({ defaultTolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 } });
}

/** Everything an edit may change: the motion's editable part, the .sev, the project and the settings. */
function snapshot(): string {
  const d = documentStore.getState();
  const m = d.motion!;
  const f = sevStore.getState().file;
  return JSON.stringify({
    flags: m.flags,
    waistJoint: m.waistJoint,
    translationKeyInfo: Array.from(m.translationKeyInfo),
    jointKeyInfo: Array.from(m.jointKeyInfo),
    tolerances: d.tolerances,
    overrides: d.rotationOverridesDeg,
    sev: f?.doc ? serializeSev(f.doc) : null,
    project: projectStore.getState().json,
    defaults: preferencesStore.getState().defaultTolerances,
  });
}

/** Answers the question on screen (askChoice) with `id`. */
async function answer(id: string): Promise<void> {
  for (let i = 0; i < 100 && !sessionStore.getState().confirm; i++) await new Promise((r) => setTimeout(r, 1));
  const q = sessionStore.getState().confirm;
  if (!q) throw new Error(`no question to answer "${id}"`);
  q.resolve(id);
}

interface EditCase {
  /** The member it covers: "<group>.<member>". */
  member: string;
  /** What makes the edit possible (a key to move, a selection): its own steps, made before. */
  arrange?: () => void;
  /** The edit; an edit that asks first returns its promise. */
  run: () => unknown;
  /** The button each question the edit asks is answered with, in order. */
  answers?: string[];
  /** The step's name in Edit › Undo. */
  label: string;
}

const CASES: EditCase[] = [
  // The motion (renderer/state/documentStore.ts) and the keys at the playhead (renderer/app/keyEdits.ts).
  // The .sev as a colleague changed it on disk, taken in by the page's "Reload from disk" (changedOnDisk.ts).
  {
    member: 'sevStore.reloadAsStep',
    run: () =>
      sevStore.getState().reloadAsStep('Reload walk.sev from disk', WALK_SEV.replace('event 21 1 2', 'event 22 1 2')),
    label: 'Reload walk.sev from disk',
  },
  {
    member: 'keys.toggle',
    run: () => documentStore.getState().keys.toggle(1, 10),
    label: 'Add user key (LeftFoot, frame 10)',
  },
  {
    member: 'keys.set',
    run: () => documentStore.getState().keys.set(-1, 12, true),
    label: 'Add user key (root translation, frame 12)',
  },
  {
    member: 'keys.move',
    arrange: () => documentStore.getState().keys.set(1, 10, true),
    run: () => void documentStore.getState().keys.move(1, [10], 3),
    label: 'Move key (LeftFoot, frame 10 → 13)',
  },
  {
    member: 'keys.remove',
    arrange: () => ['10', '20'].forEach((f) => documentStore.getState().keys.set(1, +f, true)),
    run: () => documentStore.getState().keys.remove(1, [10, 20]),
    label: 'Delete 2 keys (LeftFoot)',
  },
  {
    member: 'locks.setRange',
    run: () => void documentStore.getState().locks.setRange(1, 5, 9),
    label: 'Lock LeftFoot, frames 5–9',
  },
  {
    member: 'locks.moveRange',
    arrange: () => void documentStore.getState().locks.setRange(2, 5, 9),
    run: () => documentStore.getState().locks.moveRange(1, 5, 9),
    label: 'Move lock to LeftFoot (frames 5–9)',
  },
  {
    member: 'locks.clearRange',
    arrange: () => void documentStore.getState().locks.setRange(1, 5, 9),
    run: () => documentStore.getState().locks.clearRange(1, 6, 7),
    label: 'Unlock LeftFoot, frames 6–7',
  },
  { member: 'trace.toggle', run: () => documentStore.getState().trace.toggle(30), label: 'Add trace key (frame 30)' },
  {
    member: 'tolerancesActions.set',
    run: () => documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: 3 }),
    label: 'Set rotation tolerance to 3°',
  },
  {
    member: 'tolerancesActions.setMethod',
    run: () => documentStore.getState().tolerancesActions.setMethod('classic'),
    label: 'Use the classic rule',
  },
  {
    member: 'tolerancesActions.setSkeleton',
    run: () => documentStore.getState().tolerancesActions.setSkeleton(2, 40),
    label: 'Set the object-space bound to 2 u, shell 40',
  },
  {
    member: 'tolerancesActions.setOverride',
    run: () => documentStore.getState().tolerancesActions.setOverride(1, 4),
    label: 'Set rotation override (LeftFoot) to 4°',
  },
  {
    member: 'motionFlags.set',
    run: () => documentStore.getState().motionFlags.set(MotionFlag.OFFSETS, true),
    label: 'Turn on Animated offsets',
  },
  {
    member: 'motionFlags.setWaistJoint',
    run: () => documentStore.getState().motionFlags.setWaistJoint(1),
    label: 'Set waist joint to LeftFoot',
  },
  {
    // The tolerance slider (renderer/tuner/TuningPanel.tsx): a drag is one step named by where it ended.
    member: 'history.begin',
    run: () => {
      const d = documentStore.getState();
      d.history.begin('Drag rotation tolerance');
      for (const v of [1, 2, 5]) documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: v });
      documentStore.getState().history.commit('Set rotation tolerance to 5°');
    },
    label: 'Set rotation tolerance to 5°',
  },
  {
    member: 'keyEdits.toggleKeyAtPlayhead',
    run: () => keyEdits.toggleKeyAtPlayhead(),
    label: 'Add user key (LeftFoot, frame 30)',
  },
  {
    member: 'keyEdits.deleteSelectedKeys',
    arrange: () => {
      documentStore.getState().keys.set(1, 30, true);
      sessionStore.getState().selectKeys([30]);
    },
    run: () => keyEdits.deleteSelectedKeys(),
    label: 'Delete key (LeftFoot, frame 30)',
  },
  {
    member: 'keyEdits.toggleLockAtPlayhead',
    run: () => keyEdits.toggleLockAtPlayhead(),
    label: 'Lock LeftFoot, frame 30',
  },
  {
    member: 'keyEdits.toggleTraceAtPlayhead',
    run: () => keyEdits.toggleTraceAtPlayhead(),
    label: 'Add trace key (frame 30)',
  },

  // The sound events (renderer/sev/sevActions.ts).
  {
    member: 'events.addAtPlayhead',
    run: () => events.addAtPlayhead(),
    label: 'Add SE_FOOT_L at frame 30 on joint 1 LeftFoot',
  },
  // An SE dropped from the SE table on the event row (tried cold, round 29): its own last joint, the frame dropped on.
  {
    member: 'events.addAt',
    run: () => events.addAt(1, 12),
    label: 'Add SE_FOOT_R at frame 12 on joint 2 RightFoot',
  },
  { member: 'events.remove', run: () => events.remove(1), label: 'Delete SE_FOOT_R at frame 21' },
  { member: 'events.setFrame', run: () => events.setFrame(0, 7), label: 'Move SE_FOOT_L from frame 5 to 7' },
  { member: 'events.setSe', run: () => events.setSe(0, 1), label: 'Change SE_FOOT_L at frame 5 to SE_FOOT_R' },
  {
    member: 'events.setJoint',
    run: () => events.setJoint(0, 2),
    label: 'Change joint of SE_FOOT_L at frame 5 to RightFoot',
  },
  { member: 'events.setNote', run: () => events.setNote(1, 'scuff'), label: 'Edit note of SE_FOOT_R at frame 21' },
  {
    member: 'events.cutSelected',
    arrange: () => sevStore.getState().selectEvents([0]),
    run: () => events.cutSelected(),
    label: 'Cut SE_FOOT_L at frame 5',
  },
  {
    member: 'events.pasteAtPlayhead',
    arrange: () => {
      sevStore.getState().selectEvents([0, 1]);
      events.copySelected();
    },
    run: () => events.pasteAtPlayhead(),
    label: 'Paste 2 events at frame 30',
  },
  {
    member: 'events.removeSelected',
    arrange: () => sevStore.getState().selectEvents([0, 2]),
    run: () => events.removeSelected(),
    label: 'Delete 2 events (frames 5–38)',
  },
  {
    member: 'events.nudgeSelected',
    arrange: () => sevStore.getState().selectEvents([1]),
    run: () => events.nudgeSelected(1),
    label: 'Nudge SE_FOOT_R from frame 21 to 22',
  },
  {
    // A drag on the event row (renderer/sev/EventTrack.tsx): one step, named where it ended.
    member: 'events.dragTo',
    run: () => {
      sevStore.getState().begin('Move event');
      for (const f of [6, 8, 9]) events.dragTo(0, f);
      sevStore.getState().commit();
    },
    label: 'Move SE_FOOT_L from frame 5 to 9',
  },
  {
    member: 'events.dragSelectionBy',
    arrange: () => sevStore.getState().selectEvents([0, 1]),
    run: () => {
      sevStore.getState().begin('Move 2 events');
      for (const d of [1, 2, 4]) events.dragSelectionBy(d);
      sevStore.getState().commit();
    },
    label: 'Move 2 events +4 frames',
  },
  { member: 'ses.add', run: () => ses.add(), label: 'Define SE 2 as SE_NEW' },
  { member: 'ses.rename', run: () => ses.rename(1, 'SE_STEP_R'), label: 'Rename SE_FOOT_R to SE_STEP_R' },
  {
    member: 'ses.setVariant',
    arrange: () => ses.setVariantsOn(0, true),
    run: () => ses.setVariant(0, 3, 'SE_FOOT_L_METAL'),
    label: 'Set SE_FOOT_L floor 3 (metal) to SE_FOOT_L_METAL',
  },
  { member: 'ses.setVariantsOn', run: () => ses.setVariantsOn(0, true), label: 'Add floor variants to SE_FOOT_L' },
  { member: 'ses.remove', run: () => ses.remove(0), answers: ['delete'], label: 'Delete SE_FOOT_L and 2 events' },
  {
    member: 'footsteps.accept',
    arrange: () =>
      sevStore.getState().setFootsteps({
        contacts: [
          { side: 'L', frame: 12, endFrame: 14, joint: 1 },
          { side: 'R', frame: 28, endFrame: 30, joint: 2 },
        ],
        accepted: [true, true],
      }),
    run: () => footsteps.accept(),
    label: 'Add 2 footsteps (frames 12–28)',
  },

  // The project (renderer/project/).
  {
    member: 'projectMotions.moveMotion',
    run: () => projectMotions.moveMotion(2, 0),
    label: 'Move walk_rough to index 0',
  },
  {
    member: 'projectMotions.addMotion',
    run: () => projectMotions.addMotion(),
    label: 'Add motion run',
  },
  {
    member: 'projectMotions.removeMotion',
    run: () => projectMotions.removeMotion(1),
    answers: ['remove'],
    label: 'Remove motion cmu_01_01',
  },
  {
    member: 'projectMotions.addImportedMotions',
    run: () => void projectMotions.addImportedMotions([{ name: 'take1', mtnPath: '/ws/take1.mtn' }]),
    label: 'Import 1 motion',
  },
  {
    member: 'projectMotions.storeTunerTolerances',
    arrange: () => documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: 2 }),
    run: () => void projectMotions.storeTunerTolerances(),
    label: 'Tolerances → project (walk)',
  },
  {
    member: 'budget.setProjectBudget',
    run: () => budget.setProjectBudget(61440),
    label: 'Set the memory budget to 60K (61440 bytes)',
  },

  // The app's settings (renderer/tuner/defaultTolerances.ts).
  {
    member: 'defaultTolerances.adoptAsDefaults',
    run: () =>
      defaultTolerances.adoptAsDefaults({ positionTolerance: 0.3, rotationToleranceDeg: 3, offsetTolerance: 0.5 }),
    label: 'Use tolerances 0.3, 3°, 0.5 as defaults for new motions',
  },
];

/** Members of the edit namespaces and modules that change nothing undoable, each with why. */
const NOT_EDITS: Record<string, string> = {
  'documentStore.load': 'shows another motion (open, import, restore): the callers ask first (discardPaths.test.ts)',
  'documentStore.close': 'closes the motion: File › Close asks first (discardPaths.test.ts)',
  'documentStore.markSaved': 'records a save',
  'documentStore.adoptTuning': "an opened motion's starting tuning (its tuning file or project entry), before any edit",
  'sevStore.load': 'shows another .sev: the callers ask first (discardPaths.test.ts)',
  'sevStore.rebind': "the .sev's motion was reopened: its events and their history stay",
  'sevStore.close': 'closes the .sev: the callers ask first (discardPaths.test.ts)',
  'sevStore.closeUnreadable': 'says a .sev could not be read (nothing was open in its place)',
  'sevStore.markUnsaved': 'a restored copy is not on disk',
  'sevStore.markSaved': 'records a save',
  'sevStore.setHiddenVariants': 'part of ses.setVariantsOn (its case), which keeps the hidden variants aside',
  'sevStore.setBrokenText': "the text box of a .sev that does not read: Ctrl+Z there undoes the field's typing",
  'sevStore.edit': "the step every events/ses/footsteps edit makes (their cases): it takes the step's name",
  'sevStore.begin': 'opens a drag (the events.dragTo and events.dragSelectionBy cases)',
  'sevStore.renameTransaction': "names a drag's step where it ended (the drag cases)",
  'sevStore.commit': 'ends a drag (the drag cases)',
  'sevStore.cancel': 'drops a drag: back where it began, no step',
  'sevStore.undo': 'moves along the history',
  'sevStore.redo': 'moves along the history',
  'sevStore.selectEvent': 'selects',
  'sevStore.selectEvents': 'selects',
  'sevStore.toggleEventSelected': 'selects',
  'sevStore.selectEventRange': 'selects',
  'sevStore.setClipboard': 'fills the clipboard (session)',
  'sevStore.selectSe': 'selects',
  'sevStore.setFloor': 'the floor the editor shows (session)',
  'sevStore.setFootsteps': 'shows suggestions (session): footsteps.accept adds them',
  'sevStore.setPickingJoint': 'the joint-picking mode (session)',
  'projectStore.adopt': 'shows another project: the callers ask first (discardPaths.test.ts)',
  'projectStore.close': 'closes the project',
  'projectStore.setJson':
    "the step every project edit makes (projectHistory's editProject, the project cases), and a restored copy",
  'projectStore.markSaved': 'records a save',
  'projectStore.setCurrent': 'the motion the panel shows',
  'projectStore.setTables': 'the SE tables read from disk',
  'projectStore.setStatus': "a check's figures",
  'projectStore.setBuild': 'the build dialog',
  'projectStore.setSounds': 'the audition folder read from disk',
  'history.undo': 'moves along the history',
  'history.redo': 'moves along the history',
  'history.commit': 'ends a begin (the drag case)',
  'history.cancel': 'drops a begin: back where it began, no step',
  'keyEdits.tuningEditsShown': 'a question',
  'keyEdits.tuningEditHiddenMessage': 'a message',
  'keyEdits.channelKeyFrames': 'a question',
  'keyEdits.jumpToKey': 'moves the playhead',
  'keyEdits.selectNeighbourJoint': 'selects',
  'events.copySelected': 'fills the clipboard (session)',
  'events.selectAll': 'selects',
  'footsteps.suggest': 'shows suggestions (session): accept adds them',
  'footsteps.setAccepted': 'ticks a suggestion (session)',
  'footsteps.setAll': 'ticks the suggestions (session)',
  'footsteps.close': 'closes the suggestions (session)',
  'projectMotions.selectMotion': 'opens a motion (asks about unsaved work first)',
  'projectMotions.projectEntryTuning': 'a question',
  'projectMotions.applyProjectTolerances': "the opened motion's starting tuning (adoptTuning), before any edit",
  'projectMotions.tunerProjectMotion': 'a question',
  'projectMotions.tunerNotInProjectReason': 'a question',
  'projectMotions.projectMotionNames': 'a question',
  'projectMotions.revealProblem': 'opens and selects',
  'budget.budgetOf': 'a question',
  'budget.budgetUse': 'a question',
  'budget.parseBudgetInput': 'a question',
  'budget.budgetFieldText': 'a question',
  'budget.budgetLooseningNote': 'a question (the words of the build dialog)',
  'defaultTolerances.sameTolerances': 'a question',
  'defaultTolerances.defaultsLabel': 'a name',
  'defaultTolerances.resetDefaultsHistoryForTests': 'tests only',
};

/** Every function member of the edit namespaces and modules, as "<group>.<member>". */
function editSurface(): string[] {
  const d = documentStore.getState();
  const groups: Record<string, object> = {
    // The stores' own members: an action added to a store itself (not to one of its namespaces) is listed too.
    documentStore: d,
    sevStore: sevStore.getState(),
    projectStore: projectStore.getState(),
    keys: d.keys,
    locks: d.locks,
    trace: d.trace,
    tolerancesActions: d.tolerancesActions,
    motionFlags: d.motionFlags,
    history: d.history,
    keyEdits,
    events,
    ses,
    footsteps,
    projectMotions,
    budget,
    defaultTolerances,
  };
  return Object.entries(groups).flatMap(([g, o]) =>
    Object.entries(o)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => `${g}.${k}`),
  );
}

beforeEach(() => {
  setAppApi(fakeApi({ chooseProjectFileDialog: () => Promise.resolve({ status: 'chosen', path: '/ws/run.mtn' }) }));
  openAll();
});

describe('every edit is one named undo step', () => {
  it('every member of the edit namespaces has a case here or a reason it is not an edit', () => {
    const covered = new Set(CASES.map((c) => c.member));
    const surface = editSurface();
    expect(surface.filter((m) => !covered.has(m) && !(m in NOT_EDITS))).toEqual([]);
    // and nothing listed here is gone from the stores (a renamed member would leave its case behind unchecked)
    expect([...covered, ...Object.keys(NOT_EDITS)].filter((m) => !surface.includes(m))).toEqual([]);
  });

  for (const c of CASES)
    it(`${c.member}: one step "${c.label}", undone and redone exactly`, async () => {
      c.arrange?.();
      const labelBefore = latestUndoLabel();
      const before = snapshot();
      const done = c.run();
      for (const a of c.answers ?? []) await answer(a);
      await done;
      const after = snapshot();
      expect(after).not.toBe(before);
      expect(latestUndoLabel()).toBe(c.label);
      undoLatest();
      // One Undo gives back everything the edit changed (not several steps), and the step under it is the one before.
      expect(snapshot()).toBe(before);
      expect(latestUndoLabel()).toBe(labelBefore);
      expect(latestRedoLabel()).toBe(c.label);
      redoLatest();
      expect(snapshot()).toBe(after);
      expect(latestRedoLabel()).toBeNull();
      expect(latestUndoLabel()).toBe(c.label);
    });
});

describe("a full history lets its oldest step go from the window's undo order too", () => {
  const firstFrame = () => sevStore.getState().file!.doc!.events[0].frame;
  const defaultsOf = (rotationToleranceDeg: number) => ({
    positionTolerance: 0.5,
    rotationToleranceDeg,
    offsetTolerance: 0.5,
  });

  // Each history keeps LIMIT steps; one edit of another kind lies under LIMIT + 1 of its own. After LIMIT undos the
  // other kind's step is next, named, and undone by one Undo (before the fix: a nameless or dead entry lay on top,
  // Undo did nothing or was greyed over the older step).
  const kinds: { kind: string; limit: number; edit: (k: number) => void }[] = [
    { kind: 'motion', limit: MOTION_HISTORY_LIMIT, edit: (k) => documentStore.getState().keys.toggle(1, k % 2) },
    { kind: 'sev', limit: SEV_HISTORY_LIMIT, edit: (k) => events.setNote(3, `take ${k}`) },
    { kind: 'project', limit: PROJECT_HISTORY_LIMIT, edit: (k) => projectMotions.moveMotion(k % 2, 1 - (k % 2)) },
    {
      kind: 'settings',
      limit: defaultTolerances.DEFAULTS_HISTORY_LIMIT,
      edit: (k) => defaultTolerances.adoptAsDefaults(defaultsOf(k % 2 ? 2 : 3)),
    },
  ];
  for (const { kind, limit, edit } of kinds)
    it(`${kind}: after ${limit} undos the older step of another kind is next, and one Undo undoes it`, () => {
      const other = kind === 'sev' ? 'motion' : 'sev';
      if (other === 'sev') events.setFrame(0, 7);
      else documentStore.getState().trace.toggle(30);
      const otherLabel = latestUndoLabel();
      // the first of these is the step the full history lets go: it stays done
      for (let k = 0; k <= limit; k++) edit(k);
      for (let k = 0; k < limit; k++) undoLatest();
      expect(latestUndoLabel()).toBe(otherLabel);
      undoLatest();
      if (other === 'sev') expect(firstFrame()).toBe(5);
      else expect(documentStore.getState().past).toEqual([]);
      expect(latestUndoLabel()).toBeNull();
    });
});

describe('floor variants kept aside by an unticked "Floors" box', () => {
  it('come back when the box is ticked again after an Undo of the tick that restored them', () => {
    ses.setVariantsOn(0, true);
    ses.setVariant(0, 3, 'SE_FOOT_L_METAL');
    ses.setVariantsOn(0, false);
    ses.setVariantsOn(0, true);
    undoLatest();
    expect(sevStore.getState().file!.doc!.ses[0].variants).toBeUndefined();
    ses.setVariantsOn(0, true);
    expect(latestUndoLabel()).toBe('Restore floor variants of SE_FOOT_L');
    expect(sevStore.getState().file!.doc!.ses[0].variants?.[3]).toBe('SE_FOOT_L_METAL');
  });

  it("go with their SE: a new SE at a deleted SE's index starts afresh, and Undo of the delete brings them back", async () => {
    // Before: kept by index alone, SE_FOOT_L's variants were offered to the new SE that took index 0.
    ses.setVariantsOn(0, true);
    ses.setVariant(0, 3, 'SE_FOOT_L_METAL');
    ses.setVariantsOn(0, false);
    const done = ses.remove(0);
    await answer('delete');
    expect(await done).toBe(true);
    const deleted = snapshot();
    ses.add();
    expect(sevStore.getState().file!.doc!.ses.find((d) => d.index === 0)?.name).toBe('SE_NEW');
    ses.setVariantsOn(0, true);
    expect(latestUndoLabel()).toBe('Add floor variants to SE_NEW');
    expect(sevStore.getState().file!.doc!.ses.find((d) => d.index === 0)?.variants?.[3]).toBe('SE_NEW');
    undoLatest();
    undoLatest();
    expect(snapshot()).toBe(deleted);
    undoLatest();
    expect(latestRedoLabel()).toBe('Delete SE_FOOT_L and 2 events');
    ses.setVariantsOn(0, true);
    expect(latestUndoLabel()).toBe('Restore floor variants of SE_FOOT_L');
    expect(sevStore.getState().file!.doc!.ses[0].variants?.[3]).toBe('SE_FOOT_L_METAL');
  });
});

describe('Undo and Redo while a drag is open', () => {
  // The stores refuse to undo inside a drag; the window's undo order must refuse with them, or it records a step as
  // undone that its owner kept (and the next Redo redoes the wrong one). Each drag's owner made the newest step before
  // it. Mutations that fail: undoLatest / redoLatest without the open-drag check; the .sev store not saying it is busy.
  const keyStep = () => documentStore.getState().keys.set(1, 10, true);
  const sevStep = () => events.setFrame(0, 7);
  const drags = [
    {
      kind: '.sev',
      steps: [keyStep, sevStep],
      begin: () => {
        sevStore.getState().begin('Move event');
        events.dragTo(1, 25);
      },
      commit: () => sevStore.getState().commit(),
      label: 'Move SE_FOOT_R from frame 21 to 25',
      under: ['Move SE_FOOT_L from frame 5 to 7', 'Add user key (LeftFoot, frame 10)'],
    },
    {
      kind: 'motion',
      steps: [sevStep, keyStep],
      begin: () => {
        documentStore.getState().history.begin('Drag rotation tolerance');
        documentStore.getState().tolerancesActions.set({ rotationToleranceDeg: 4 });
      },
      commit: () => documentStore.getState().history.commit('Set rotation tolerance to 4°'),
      label: 'Set rotation tolerance to 4°',
      under: ['Add user key (LeftFoot, frame 10)', 'Move SE_FOOT_L from frame 5 to 7'],
    },
  ];
  for (const d of drags)
    it(`a ${d.kind} drag: Ctrl+Z and Ctrl+Y wait for it; then it and the steps before undo in order`, () => {
      d.steps[0]();
      const afterFirst = snapshot();
      d.steps[1]();
      const beforeDrag = snapshot();
      d.begin();
      const during = snapshot();
      undoLatest();
      expect(snapshot()).toBe(during);
      expect(latestUndoLabel()).toBe(d.under[0]);
      redoLatest();
      expect(snapshot()).toBe(during);
      d.commit();
      expect(latestUndoLabel()).toBe(d.label);
      undoLatest();
      expect(snapshot()).toBe(beforeDrag);
      expect(latestUndoLabel()).toBe(d.under[0]);
      undoLatest();
      expect(snapshot()).toBe(afterFirst);
      expect(latestUndoLabel()).toBe(d.under[1]);
      redoLatest();
      redoLatest();
      expect(snapshot()).not.toBe(beforeDrag);
      expect(latestRedoLabel()).toBeNull();
    });
});
