import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { auditionStore, eventsCrossed, eventsScrubbed, playSeName, startAudition } from './audition';
import { sevStore } from './sevStore';
import walkSevText from '../../assets/walk.sev?raw';

const events = [{ frame: 0 }, { frame: 5 }, { frame: 5 }, { frame: 20 }, { frame: 132 }];

describe('audition timing', () => {
  it('plays every event the playhead crossed since the last tick, each once, also when a tick skips frames', () => {
    expect(eventsCrossed(events, 4.6, 5.1)).toEqual([1, 2]);
    expect(eventsCrossed(events, 5.1, 6)).toEqual([]);
    expect(eventsCrossed(events, 1, 25)).toEqual([1, 2, 3]);
  });
  it('a loop back to the start plays the tail, then the head', () => {
    expect(eventsCrossed(events, 130.5, 0.4)).toEqual([4, 0]);
  });
  it('a jump while playing (longer than a tick, forwards or round the loop) plays what sits under the playhead', () => {
    // 30 fps at 1x: a tick moves at most 7.5 frames; the loop's period is frame N + 1 = 133.
    const clock = { period: 133, maxStep: 7.5 };
    expect(eventsCrossed(events, 100.2, 5, clock)).toEqual([1, 2]); // a click back: not the tail and the head
    expect(eventsCrossed(events, 100.2, 4, clock)).toEqual([]);
    expect(eventsCrossed(events, 2, 20, clock)).toEqual([3]); // a click ahead: not the two at frame 5
    // Within a tick, the loop and a step are what they were.
    expect(eventsCrossed(events, 130.5, 0.4, clock)).toEqual([4, 0]);
    expect(eventsCrossed(events, 1, 8, clock)).toEqual([1, 2]);
  });
  it('starting playback plays what sits under the playhead', () => {
    expect(eventsCrossed(events, null, 5)).toEqual([1, 2]);
    expect(eventsCrossed(events, null, 6)).toEqual([]);
  });
  it('a scrub plays the events it passes, either way, and a jump plays none', () => {
    const frames = events.map((e) => e.frame);
    const f = frames[1];
    expect(eventsScrubbed(events, f - 1, f)).toContain(1);
    expect(eventsScrubbed(events, f + 1, f)).toContain(1);
    expect(eventsScrubbed(events, f, f)).toEqual([]);
    expect(eventsScrubbed(events, f - 30, f)).toEqual([]);
    expect(eventsScrubbed(events, f, f + 1)).not.toContain(1);
  });
});

describe('the last SE played', () => {
  const open = (id: string) =>
    documentStore.getState().load({
      documentId: id,
      path: `/ws/${id}.mtn`,
      name: id,
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(20, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'Hips' }]),
      tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
    });
  const played = () => auditionStore.getState().lastPlayed.map((p) => p.name);

  it('a click back while playing plays the events under the new frame, not every event round the loop', async () => {
    documentStore.getState().load({
      documentId: 'walk-long',
      path: '/ws/walk.mtn',
      name: 'walk',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(133, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'Hips' }]),
      tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
    });
    sevStore.getState().load('/ws/walk.sev', 'walk', walkSevText);
    auditionStore.getState().setEnabled(true);
    const stop = startAudition();
    const s = sessionStore.getState();
    try {
      s.setPlayhead(100);
      s.setPlaying(true);
      auditionStore.setState({ lastPlayed: [] });
      s.setPlayhead(5); // walk.sev has one event at frame 5 (SE_FOOT_L) and nine others before and after it
      await new Promise((r) => setTimeout(r, 0));
      expect(played()).toEqual(['SE_FOOT_L_CONC']);
    } finally {
      s.setPlaying(false);
      stop();
      auditionStore.setState({ lastPlayed: [] });
      sevStore.getState().close();
    }
  });

  it('is forgotten when the motion or the .sev changes, and kept while the playhead moves', async () => {
    open('walk');
    sevStore.getState().load('/ws/walk.sev', 'walk', walkSevText);
    const stop = startAudition();
    try {
      // No sound folder: the SE is remembered as played without a sound.
      await playSeName('SE_FOOT_L_WATER');
      expect(played()).toEqual(['SE_FOOT_L_WATER']);
      sessionStore.getState().setPlayhead(7);
      expect(played()).toEqual(['SE_FOOT_L_WATER']);
      // Another motion in the tuner.
      open('run');
      expect(played()).toEqual([]);
      // Another .sev in the editor, the motion staying.
      await playSeName('SE_FOOT_R_WATER');
      sevStore.getState().load('/ws/run.sev', 'run', walkSevText);
      expect(played()).toEqual([]);
      // The .sev closed.
      await playSeName('SE_FOOT_R_WATER');
      sevStore.getState().close();
      expect(played()).toEqual([]);
    } finally {
      stop();
    }
    // Once stopped (the editor gone) nothing is watched.
    await playSeName('SE_FOOT_L_WATER');
    open('walk');
    expect(played()).toEqual(['SE_FOOT_L_WATER']);
  });
});
