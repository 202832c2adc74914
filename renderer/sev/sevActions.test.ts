import { beforeEach, describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from './sevStore';
import { projectStore } from '../project/projectStore';
import { events, footsteps, ses, seDeletionText } from './sevActions';
import { addEventTitle, addJointLabel, addJointOf } from './sevLabels';
import { latestUndoLabel, resetUndoOrderForTests, undoLatest } from './undoOrder';
import { loadWalkWithSev, sevJoint as joint, WALK_SEV } from '../testing/fakeMotions';
import { messageTexts } from '../testing/sessionMessages';

/** Another skeleton: the feet are other joints. */
const CMU_JOINTS = [joint('Hips', -1), joint('RightFoot'), joint('Neck'), joint('LeftFoot')];

const frames = () => sevStore.getState().file!.doc!.events.map((e) => e.frame);
const lastWarning = () => messageTexts('warning').at(-1) ?? '';

beforeEach(() => {
  resetUndoOrderForTests();
  sessionStore.setState({ messages: [], playhead: 0 });
  sevStore.getState().setClipboard(null);
  loadWalkWithSev(WALK_SEV);
});

describe('multi-event edits', () => {
  it('deletes the selection as one named undo step', () => {
    sevStore.getState().selectEvents([0, 2]);
    events.removeSelected();
    expect(frames()).toEqual([21, 54]);
    expect(sevStore.getState().selectedEvents).toEqual([]);
    expect(latestUndoLabel()).toBe('Delete 2 events (frames 5–38)');
    undoLatest();
    expect(frames()).toEqual([5, 21, 38, 54]);
  });

  it('nudges the selection by a frame as one step, and refuses (changing nothing) at the ends of the motion', () => {
    sevStore.getState().selectEvents([1, 3]);
    events.nudgeSelected(1);
    expect(frames()).toEqual([5, 22, 38, 55]);
    expect(latestUndoLabel()).toBe('Nudge 2 events +1 frame');
    for (let k = 0; k < 5; k++) events.nudgeSelected(1);
    expect(frames()).toEqual([5, 27, 38, 60]);
    events.nudgeSelected(1);
    expect(frames()).toEqual([5, 27, 38, 60]);
    expect(lastWarning()).toBe(
      'Nudge 2 events +1 frame refused: the event at frame 60 would move to frame 61, outside 0..60',
    );
    sevStore.getState().selectEvents([0]);
    for (let k = 0; k < 6; k++) events.nudgeSelected(-1);
    expect(frames()[0]).toBe(0);
    expect(lastWarning()).toContain('the event at frame 0 would move to frame -1, outside 0..60');
    undoLatest();
    expect(frames()[0]).toBe(1);
  });

  it('copies and pastes at the playhead, keeping the spacing, as one step that selects the pasted events', () => {
    sevStore.getState().selectEvents([0, 1]);
    expect(events.copySelected()).toBe(true);
    sessionStore.getState().setPlayhead(30);
    events.pasteAtPlayhead();
    expect(frames()).toEqual([5, 21, 38, 54, 30, 46]);
    expect(sevStore.getState().selectedEvents).toEqual([4, 5]);
    expect(sevStore.getState().file!.doc!.events[4].comments.trailing).toBe(' left heel');
    expect(latestUndoLabel()).toBe('Paste 2 events at frame 30');
    undoLatest();
    expect(frames()).toEqual([5, 21, 38, 54]);
    // the pasted events are gone: the selection stays inside the document, on the last event
    expect(sevStore.getState().selectedEvents).toEqual([3]);
  });

  it('cut is one step: copy, then delete', () => {
    sevStore.getState().selectEvents([3]);
    events.cutSelected();
    expect(frames()).toEqual([5, 21, 38]);
    expect(latestUndoLabel()).toBe('Cut SE_FOOT_R at frame 54');
    expect(sevStore.getState().clipboard?.events).toHaveLength(1);
  });

  it('pastes into another motion’s .sev by joint name, and refuses the whole paste when one event cannot land', () => {
    sevStore.getState().selectEvents([0, 1]);
    events.copySelected();
    documentStore.getState().load({
      documentId: 'cmu-1',
      path: '/p/cmu.mtn',
      name: 'cmu',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(100, CMU_JOINTS),
    });
    sevStore
      .getState()
      .load('/p/cmu.sev', 'cmu', 'sev 1\nse 0 SE_FOOT_L\n', { documentId: 'cmu-1', path: '/p/cmu.mtn' });
    // Frame 90 + 16 is past the end (0..100): nothing is pasted, and the message names the event.
    sessionStore.getState().setPlayhead(90);
    events.pasteAtPlayhead();
    expect(sevStore.getState().file!.doc!.events).toEqual([]);
    expect(lastWarning()).toContain('Paste refused, nothing pasted: 2 events copied from walk at frame 90:');
    expect(lastWarning()).toContain(
      'event at frame 106 (SE_FOOT_R on RightFoot): frame 106 is past the end of cmu (0..100)',
    );
    expect(lastWarning()).toContain('with the playhead at frame 84 or earlier they all fit');
    sessionStore.getState().setPlayhead(10);
    events.pasteAtPlayhead();
    const doc = sevStore.getState().file!.doc!;
    // LeftFoot is joint 1 in walk and 3 here; RightFoot 2 and 1. SE_FOOT_L is reused; SE_FOOT_R is defined.
    expect(doc.events.map((e) => [e.frame, e.joint, doc.ses.find((d) => d.index === e.se)!.name])).toEqual([
      [10, 3, 'SE_FOOT_L'],
      [26, 1, 'SE_FOOT_R'],
    ]);
    expect(latestUndoLabel()).toBe('Paste 2 events at frame 10');
  });

  it('refuses to paste into a .sev the tuner does not show', () => {
    sevStore.getState().selectEvents([0]);
    events.copySelected();
    documentStore.getState().load({
      documentId: 'cmu-2',
      path: '/p/cmu.mtn',
      name: 'cmu',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(100, CMU_JOINTS),
    });
    events.pasteAtPlayhead();
    expect(frames()).toEqual([5, 21, 38, 54]);
    expect(lastWarning()).toBe('Paste refused: walk.sev belongs to walk, and the tuner shows cmu.');
  });
});

describe('event selection', () => {
  it('Ctrl+click adds and removes, Shift+click selects a range in the shown order from the current event', () => {
    const s = sevStore.getState();
    s.selectEvent(1);
    s.toggleEventSelected(3);
    expect(sevStore.getState().selectedEvents).toEqual([1, 3]);
    expect(sevStore.getState().selectedEvent).toBe(3);
    s.toggleEventSelected(3);
    expect(sevStore.getState().selectedEvents).toEqual([1]);
    expect(sevStore.getState().selectedEvent).toBe(1);
    // shown order 3, 0, 2, 1 (say, by frame): from 1 back to 0 is 0, 2, 1
    s.selectEventRange(0, [3, 0, 2, 1]);
    expect(sevStore.getState().selectedEvents).toEqual([0, 1, 2]);
    expect(sevStore.getState().selectedEvent).toBe(1);
    events.selectAll();
    expect(sevStore.getState().selectedEvents).toEqual([0, 1, 2, 3]);
    // Undoing a paste drops the pasted events from the selection
    sevStore.getState().selectEvents([9, 2, 2, -1]);
    expect(sevStore.getState().selectedEvents).toEqual([2]);
  });
});

describe('deleting an SE its events use', () => {
  const seNames = () => sevStore.getState().file!.doc!.ses.map((d) => d.name);
  const question = () => sessionStore.getState().confirm;

  it('asks first, naming the motion, the count and the frames; Cancel (or Escape) changes nothing', async () => {
    const done = ses.remove(0);
    await Promise.resolve();
    const q = question()!;
    expect(q.title).toBe('Delete SE_FOOT_L and its events?');
    expect(q.text).toBe(
      'SE_FOOT_L (SE 0) plays 2 events of walk, on frames 5, 38. Deleting the SE deletes all 2 too. ' +
        'Edit › Undo (Ctrl+Z) brings them back in one step.',
    );
    // Cancel is first: the dialog focuses it, so Enter on the question keeps the work.
    expect(q.buttons.map((b) => b.id)).toEqual(['cancel', 'delete']);
    q.resolve('cancel');
    expect(await done).toBe(false);
    expect(seNames()).toEqual(['SE_FOOT_L', 'SE_FOOT_R']);
    expect(frames()).toEqual([5, 21, 38, 54]);
    expect(latestUndoLabel()).toBeNull();
  });

  it('deletes the SE and its events as one named undo step once confirmed', async () => {
    const done = ses.remove(1);
    await Promise.resolve();
    expect(question()!.buttons[1].label).toBe('Delete SE and 2 events');
    question()!.resolve('delete');
    expect(await done).toBe(true);
    expect(seNames()).toEqual(['SE_FOOT_L']);
    expect(frames()).toEqual([5, 38]);
    expect(latestUndoLabel()).toBe('Delete SE_FOOT_R and 2 events');
    undoLatest();
    expect(seNames()).toEqual(['SE_FOOT_L', 'SE_FOOT_R']);
    expect(frames()).toEqual([5, 21, 38, 54]);
  });

  it('deletes nothing when the .sev changed while the question was open', async () => {
    const done = ses.remove(0);
    await Promise.resolve();
    sevStore.getState().selectEvents([1]);
    events.removeSelected();
    question()!.resolve('delete');
    expect(await done).toBe(false);
    expect(seNames()).toEqual(['SE_FOOT_L', 'SE_FOOT_R']);
    expect(frames()).toEqual([5, 38, 54]);
  });

  it('deletes an SE no event uses without a question', async () => {
    sevStore.getState().edit('Remove right steps', (d) => ({ ...d, events: d.events.filter((e) => e.se !== 1) }));
    expect(await ses.remove(1)).toBe(true);
    expect(question()).toBeNull();
    expect(seNames()).toEqual(['SE_FOOT_L']);
    expect(latestUndoLabel()).toBe('Delete SE_FOOT_R');
  });

  it('lists the first 12 frames and counts the rest', () => {
    const many = Array.from({ length: 15 }, (_, i) => i * 10);
    expect(seDeletionText('SE_X', 3, 'run', many)).toContain(
      'on frames 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110 and 3 more.',
    );
    expect(seDeletionText('SE_X', 3, 'run', [7])).toBe(
      'SE_X (SE 3) plays one event of run, on frame 7. Deleting the SE deletes that event too. ' +
        'Edit › Undo (Ctrl+Z) brings them back in one step.',
    );
  });
});

describe("adding at the playhead takes the SE's last joint, else the selection, and names it", () => {
  const lastInfo = () => messageTexts('info').at(-1) ?? '';

  it("the SE's last event gives the joint (LeftFoot, whatever the curves selected); an SE with none, the selection", () => {
    sessionStore.getState().setPlayhead(12);
    sessionStore.getState().select(0);
    sevStore.getState().selectSe(0);
    events.addAtPlayhead();
    expect(sevStore.getState().file!.doc!.events.at(-1)).toMatchObject({ frame: 12, se: 0, joint: 1 });
    expect(latestUndoLabel()).toBe('Add SE_FOOT_L at frame 12 on joint 1 LeftFoot');
    expect(lastInfo()).toBe('Added SE_FOOT_L at frame 12 on joint 1 LeftFoot.');
    // The event's joint changed: the next add follows the last event.
    events.setJoint(4, 2);
    events.addAtPlayhead();
    expect(sevStore.getState().file!.doc!.events.at(-1)).toMatchObject({ se: 0, joint: 2 });
    // An SE no event uses: the selected joint (Hips), or none with none selected.
    sevStore.getState().edit('Add SE_X', (d) => ({
      ...d,
      ses: [...d.ses, { index: 5, name: 'SE_X', comments: { leading: [] } }],
    }));
    sevStore.getState().selectSe(5);
    events.addAtPlayhead();
    expect(latestUndoLabel()).toBe('Add SE_X at frame 12 on joint 0 Hips');
    sessionStore.getState().select(-1);
    sevStore.getState().selectSe(0);
    events.addAtPlayhead();
    expect(sevStore.getState().file!.doc!.events.at(-1)).toMatchObject({ se: 0, joint: 2 });
  });

  it("addJointOf: the SE's last event, `-` kept as no joint, a joint the motion lacks falls back to the selection", () => {
    const doc = sevStore.getState().file!.doc!;
    const withEvents = (evs: [number, number | null][]) => ({
      ...doc,
      events: evs.map(([se, j], k) => ({ frame: k, se, joint: j, comments: { leading: [] } })),
    });
    expect(
      addJointOf(
        withEvents([
          [0, 1],
          [1, 2],
          [0, 2],
        ]),
        0,
        0,
        3,
      ),
    ).toEqual({ joint: 2, fromSe: true });
    expect(
      addJointOf(
        withEvents([
          [0, 1],
          [0, null],
        ]),
        0,
        0,
        3,
      ),
    ).toEqual({ joint: null, fromSe: true });
    expect(
      addJointOf(
        withEvents([
          [0, 1],
          [0, 9],
        ]),
        0,
        2,
        3,
      ),
    ).toEqual({ joint: 2, fromSe: false });
    expect(addJointOf(withEvents([[1, 1]]), 0, -1, 3)).toEqual({ joint: null, fromSe: false });
  });

  it("the button's tooltip names the SE, frame and joint a click will use, and why that joint", () => {
    expect(addEventTitle('SE_FOOT_L', 30, addJointLabel(0, 'Hips'))).toMatch(
      /^Add SE_FOOT_L at frame 30 on joint 0 Hips: the joint selected in the viewport, curves or timeline/,
    );
    expect(addEventTitle('SE_FOOT_L', 30, addJointLabel(1, 'LeftFoot'), true)).toMatch(
      /^Add SE_FOOT_L at frame 30 on joint 1 LeftFoot: the joint of SE_FOOT_L's last event/,
    );
    expect(addJointLabel(null, undefined)).toBe('with no joint');
    expect(addJointLabel(4, undefined)).toBe('on joint 4');
  });

  it('the message of an add goes when that add is undone, not with an undo of a later edit', () => {
    const added = () => messageTexts('info').filter((t) => t.startsWith('Added '));
    sevStore.getState().selectSe(0);
    events.addAtPlayhead();
    events.setFrame(4, 20);
    undoLatest();
    expect(added()).toEqual(['Added SE_FOOT_L at frame 0 on joint 1 LeftFoot.']);
    undoLatest();
    expect(added()).toEqual([]);
  });

  it('the message of an add goes when its event is deleted (Delete, the row’s ✕), not with another event', () => {
    const added = () => messageTexts('info').filter((t) => t.startsWith('Added '));
    sevStore.getState().selectSe(0);
    events.addAtPlayhead();
    events.remove(0);
    expect(added()).toEqual(['Added SE_FOOT_L at frame 0 on joint 1 LeftFoot.']);
    events.addAtPlayhead();
    sevStore.getState().selectEvent(sevStore.getState().file!.doc!.events.length - 1);
    events.removeSelected();
    expect(added()).toEqual([]);
    events.addAtPlayhead();
    events.remove(sevStore.getState().file!.doc!.events.length - 1);
    expect(added()).toEqual([]);
  });

  it('undoing an add keeps the SE to add, though the last event selected then is another SE’s', () => {
    sevStore.getState().selectSe(0);
    events.addAtPlayhead();
    undoLatest();
    expect(sevStore.getState().selectedEvent).toBe(3);
    expect(sevStore.getState().selectedSe).toBe(0);
  });
});

describe('undo labels name what each edit changed, from the real values', () => {
  const undoName = () => latestUndoLabel();

  it('an event added at the playhead, moved, given another SE, joint and note', () => {
    sessionStore.getState().setPlayhead(30);
    sessionStore.getState().select(2);
    sevStore.getState().selectSe(1);
    events.addAtPlayhead();
    expect(undoName()).toBe('Add SE_FOOT_R at frame 30 on joint 2 RightFoot');
    events.setFrame(4, 42);
    expect(undoName()).toBe('Move SE_FOOT_R from frame 30 to 42');
    events.setSe(4, 0);
    expect(undoName()).toBe('Change SE_FOOT_R at frame 42 to SE_FOOT_L');
    events.setJoint(4, 1);
    expect(undoName()).toBe('Change joint of SE_FOOT_L at frame 42 to LeftFoot');
    events.setJoint(4, null);
    expect(undoName()).toBe('Change joint of SE_FOOT_L at frame 42 to none');
    events.setNote(4, 'toe');
    expect(undoName()).toBe('Edit note of SE_FOOT_L at frame 42');
    events.setNote(4, '');
    expect(undoName()).toBe('Remove note of SE_FOOT_L at frame 42');
    events.remove(4);
    expect(undoName()).toBe('Delete SE_FOOT_L at frame 42');
    // Each is its own step, undone newest first, with the names in order.
    undoLatest();
    expect(undoName()).toBe('Remove note of SE_FOOT_L at frame 42');
  });

  it('a refused edit says what it tried in the message', () => {
    sevStore.getState().selectEvents([3]);
    events.nudgeSelected(1);
    expect(undoName()).toBe('Nudge SE_FOOT_R from frame 54 to 55');
    events.setSe(0, 9); // SE 9 is not defined
    expect(lastWarning()).toMatch(/^Change SE_FOOT_L at frame 5 to SE 9 refused: /);
  });

  it('a drag is one step named after where it ended', () => {
    sevStore.getState().begin('Move event');
    events.dragTo(1, 25);
    events.dragTo(1, 30);
    sevStore.getState().commit();
    expect(undoName()).toBe('Move SE_FOOT_R from frame 21 to 30');
    // A drag away and back again changes nothing: no step.
    const doc = sevStore.getState().file!.doc;
    sevStore.getState().begin('Move event');
    events.dragTo(1, 35);
    events.dragTo(1, 30);
    sevStore.getState().commit();
    expect(sevStore.getState().file!.doc).toBe(doc);
    expect(undoName()).toBe('Move SE_FOOT_R from frame 21 to 30');
    sevStore.getState().selectEvents([0, 2]);
    sevStore.getState().begin('Move 2 events');
    events.dragSelectionBy(4);
    events.dragSelectionBy(-2);
    sevStore.getState().commit();
    expect(frames()).toEqual([3, 30, 36, 54]);
    expect(undoName()).toBe('Move 2 events -2 frames');
    undoLatest();
    expect(frames()).toEqual([5, 30, 38, 54]);
    expect(undoName()).toBe('Move SE_FOOT_R from frame 21 to 30');
  });

  it('+ Add SE names each new SE after a table name the .sev does not define yet, then SE_NEW, SE_NEW_2', () => {
    const before = projectStore.getState().tables;
    projectStore.setState({ tables: { ...(before ?? {}), names: ['SE_FOOT_L', 'SE_GEAR_RATTLE'] } as typeof before });
    try {
      ses.add();
      expect(undoName()).toBe('Define SE 2 as SE_GEAR_RATTLE');
      ses.add();
      expect(undoName()).toBe('Define SE 3 as SE_NEW');
      ses.add();
      expect(undoName()).toBe('Define SE 4 as SE_NEW_2');
      expect(sevStore.getState().file!.doc!.ses.map((d) => d.name)).toEqual([
        'SE_FOOT_L',
        'SE_FOOT_R',
        'SE_GEAR_RATTLE',
        'SE_NEW',
        'SE_NEW_2',
      ]);
    } finally {
      projectStore.setState({ tables: before });
    }
  });

  it('SE definitions: add, rename, floor variants on, one variant, off and back', () => {
    ses.add();
    expect(undoName()).toBe('Define SE 2 as SE_NEW');
    ses.rename(2, 'SE_CLOTH');
    expect(undoName()).toBe('Rename SE_NEW to SE_CLOTH');
    ses.setVariantsOn(2, true);
    expect(undoName()).toBe('Add floor variants to SE_CLOTH');
    ses.setVariant(2, 3, 'SE_CLOTH_METAL');
    expect(undoName()).toBe('Set SE_CLOTH floor 3 (metal) to SE_CLOTH_METAL');
    ses.setVariantsOn(2, false);
    expect(undoName()).toBe('Remove floor variants of SE_CLOTH');
    ses.setVariantsOn(2, true);
    expect(undoName()).toBe('Restore floor variants of SE_CLOTH');
  });

  it('names from files are shown on one line and clipped', () => {
    ses.rename(0, 'footstep_left_heel_strike_on_wet_concrete_slow');
    expect(undoName()).toBe('Rename SE_FOOT_L to footstep_left_heel_strike_on_wet_concre…');
    sevStore.getState().selectEvents([0]);
    events.nudgeSelected(1);
    expect(undoName()).toBe('Nudge SE footstep_left_heel_strike_on_wet_concre… from frame 5 to 6');
    // A joint name from a motion file with a line break and a right-to-left override in it.
    const m = documentStore.getState().motion!;
    documentStore.setState({
      motion: { ...m, joints: m.joints.map((j, k) => (k === 1 ? { ...j, name: 'Left\nFoot\u202e' } : j)) },
    });
    events.setJoint(1, 1);
    expect(undoName()).toBe('Change joint of SE_FOOT_R at frame 21 to Left Foot');
  });

  it('accepted footsteps say how many and where', () => {
    sevStore.getState().setFootsteps({
      contacts: [
        { side: 'L', frame: 12, endFrame: 14, joint: 1 },
        { side: 'R', frame: 44, endFrame: 46, joint: 2 },
      ],
      accepted: [true, true],
    });
    footsteps.accept();
    expect(undoName()).toBe('Add 2 footsteps (frames 12–44)');
  });
});
