import { beforeEach, describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { EVENTS_MENU_COMMANDS } from '../../shared/eventsMenu';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { sevStore } from './sevStore';
import { disabledEventsCommands, eventsCommandsEnabled, runEventsCommand } from './eventsMenu';
import { latestUndoLabel, resetUndoOrderForTests, undoLatest } from './undoOrder';
import { loadWalkWithSev, WALK_JOINTS } from '../testing/fakeMotions';

const WALK = `sev 1
motion walk
se 0 SE_FOOT_L
se 1 SE_FOOT_R
event 5 0 1
event 21 1 2
`;
const frames = () => sevStore.getState().file!.doc!.events.map((e) => e.frame);

beforeEach(() => {
  resetUndoOrderForTests();
  sessionStore.setState({ messages: [], playhead: 0, selectedJoint: 1 });
  sevStore.getState().setClipboard(null);
  loadWalkWithSev(WALK);
});

describe('Events menu availability', () => {
  it('without a selection or a copy only the commands on the whole .sev are enabled', () => {
    expect(disabledEventsCommands()).toEqual([
      'events.cut',
      'events.copy',
      'events.paste',
      'events.delete',
      'events.nudgeEarlier',
      'events.nudgeLater',
      'events.saveSev',
    ]);
  });

  it('a selection enables the commands on it, a copy enables Paste, an edit enables Save .sev', () => {
    sevStore.getState().selectEvents([0]);
    expect(disabledEventsCommands()).toEqual(['events.paste', 'events.saveSev']);
    void runEventsCommand('events.copy');
    expect(eventsCommandsEnabled()['events.paste']).toBe(true);
    void runEventsCommand('events.nudgeLater');
    expect(disabledEventsCommands()).toEqual([]);
  });

  it('disables every command without a .sev, and the edits while the .sev belongs to another motion', () => {
    sevStore.getState().close();
    expect(disabledEventsCommands()).toEqual([...EVENTS_MENU_COMMANDS]);
    loadWalkWithSev(WALK);
    sevStore.getState().selectEvents([0]);
    void runEventsCommand('events.nudgeLater');
    documentStore.getState().load({
      documentId: 'cmu-1',
      path: '/p/cmu.mtn',
      name: 'cmu',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(90, WALK_JOINTS),
    });
    // walk.sev is parked: only its Save stays (its banner offers the same).
    expect(disabledEventsCommands()).toEqual(EVENTS_MENU_COMMANDS.filter((c) => c !== 'events.saveSev'));
  });

  it('Add Event at Playhead needs an SE definition', () => {
    sevStore
      .getState()
      .load('/p/walk.sev', 'walk', 'sev 1\nmotion walk\n', { documentId: 'walk-1', path: '/p/walk.mtn' });
    expect(eventsCommandsEnabled()['events.addAtPlayhead']).toBe(false);
    expect(eventsCommandsEnabled()['events.addSe']).toBe(true);
  });
});

describe('Events menu commands run the editor actions, one undo step each', () => {
  it('adds at the playhead on the selected joint, nudges and deletes the selection', async () => {
    sessionStore.getState().setPlayhead(30);
    await runEventsCommand('events.addAtPlayhead');
    expect(sevStore.getState().file!.doc!.events.at(-1)).toMatchObject({ frame: 30, se: 0, joint: 1 });
    expect(latestUndoLabel()).toBe('Add SE_FOOT_L at frame 30 on joint 1 LeftFoot');
    await runEventsCommand('events.nudgeEarlier');
    expect(frames()).toEqual([5, 21, 29]);
    await runEventsCommand('events.delete');
    expect(frames()).toEqual([5, 21]);
    expect(latestUndoLabel()).toBe('Delete SE_FOOT_L at frame 29');
    undoLatest();
    expect(frames()).toEqual([5, 21, 29]);
  });

  it('selects all, cuts and pastes at the playhead', async () => {
    await runEventsCommand('events.selectAll');
    expect(sevStore.getState().selectedEvents).toEqual([0, 1]);
    await runEventsCommand('events.cut');
    expect(frames()).toEqual([]);
    expect(latestUndoLabel()).toBe('Cut 2 events (frames 5–21)');
    sessionStore.getState().setPlayhead(10);
    await runEventsCommand('events.paste');
    expect(frames()).toEqual([10, 26]);
    expect(latestUndoLabel()).toBe('Paste 2 events at frame 10');
  });

  it('adds an SE definition', async () => {
    await runEventsCommand('events.addSe');
    expect(sevStore.getState().file!.doc!.ses.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(latestUndoLabel()).toBe('Define SE 2 as SE_NEW');
  });
});
