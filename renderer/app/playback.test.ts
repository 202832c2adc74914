/**
 * The playback clock (playback.ts) on a clock of the test's own: requestAnimationFrame is stubbed and each animation
 * frame runs at the time the test gives it. The rate (fps times the speed) was checked only in e2e/playback.spec.ts,
 * by 4x reaching frame N within 5 s of wall time, which a loaded machine's slow animation frames could miss and an
 * idle one could pass at the wrong rate; here it is exact.
 * Mutations that fail: the speed left out of the step; the step not capped after a stalled frame; the loop's wrap by
 * frameCount instead of frameCount + 1; playing not stopped at frame N without loop; a step back allowed.
 * The clock asks for animation frames only while playing (docs/architecture.md, "Renderer review, round 6"): it asked
 * for one at every frame of the display, stopped or not, each a wake-up of the window's main thread.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { WALK_JOINTS } from '../testing/fakeMotions';
import { startPlaybackClock } from './playback';

/** The animation frames asked for and not yet run. */
let pending: FrameRequestCallback[] = [];
let stop: () => void = () => undefined;

/** Runs the animation frame asked for last, at `now` ms. */
function frameAt(now: number): void {
  const run = pending.splice(0);
  expect(run).toHaveLength(1);
  run[0](now);
}

function start(speed: number, loop: boolean, playhead = 0): void {
  preferencesStore.getState().set({ playbackSpeed: speed, loop });
  sessionStore.setState({ playhead, playing: true });
  stop = startPlaybackClock();
}

beforeEach(() => {
  pending = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => pending.push(f));
  vi.stubGlobal('cancelAnimationFrame', () => (pending = []));
  vi.spyOn(performance, 'now').mockReturnValue(0);
  documentStore.getState().load({
    documentId: 'walk',
    path: '/ws/walk.mtn',
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    motion: emptyMotion(120, WALK_JOINTS, 30),
    tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
  });
});

afterEach(() => {
  stop();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const playhead = () => sessionStore.getState().playhead;

describe('the playback clock', () => {
  it('advances fps times the speed per second of animation frames, however long each frame took', () => {
    for (const speed of [1, 4, 0.25]) {
      start(speed, true);
      frameAt(100);
      frameAt(150);
      frameAt(400);
      expect(playhead(), `${speed}x`).toBeCloseTo(0.4 * 30 * speed, 9);
      stop();
    }
  });

  it('moves at most a quarter of a second for a frame that came late (a stalled page does not jump ahead)', () => {
    start(4, true);
    frameAt(2000);
    expect(playhead()).toBeCloseTo(0.25 * 30 * 4, 9);
  });

  it('does not go back for a first animation frame timed before the press that asked for it', () => {
    // Chromium times a frame by its start: a loaded page's first frame after Play was timed 10 ms or so before it.
    vi.mocked(performance.now).mockReturnValue(1000);
    start(1, true, 5);
    frameAt(990);
    expect(playhead()).toBe(5);
    frameAt(1090);
    expect(playhead()).toBeCloseTo(5 + 0.1 * 30, 9);
  });

  it('stops at frame N without loop, and wraps past N with it', () => {
    start(4, false, 110);
    frameAt(100); // 12 frames on: past 120
    expect(playhead()).toBe(120);
    expect(sessionStore.getState().playing).toBe(false);
    // Stopped: no animation frame is asked for.
    expect(pending).toHaveLength(0);
    expect(playhead()).toBe(120);
    stop();
    start(4, true, 110);
    frameAt(100);
    expect(playhead()).toBeCloseTo(122 - 121, 9);
    expect(sessionStore.getState().playing).toBe(true);
  });
});

describe('the playback clock at rest', () => {
  it('asks for no animation frame while stopped, and starts from the time playing started', () => {
    preferencesStore.getState().set({ playbackSpeed: 1, loop: true });
    sessionStore.setState({ playhead: 10, playing: false });
    stop = startPlaybackClock();
    expect(pending).toHaveLength(0);
    // Other changes of the session or the document wake nothing.
    sessionStore.getState().setPlayhead(12);
    documentStore.getState().trace.toggle(30);
    expect(pending).toHaveLength(0);
    vi.spyOn(performance, 'now').mockReturnValue(5000);
    sessionStore.getState().setPlaying(true);
    expect(pending).toHaveLength(1);
    // 100 ms after Play: 3 frames at 30 fps (not the 5 s since the clock was made, capped to a quarter second).
    frameAt(5100);
    expect(playhead()).toBeCloseTo(12 + 3, 9);
    frameAt(5200);
    expect(playhead()).toBeCloseTo(12 + 6, 9);
    sessionStore.getState().setPlaying(false);
    // The frame asked for before the stop runs once and asks for no other.
    frameAt(5300);
    expect(pending).toHaveLength(0);
    expect(playhead()).toBeCloseTo(18, 9);
  });

  it('starts when a motion opens while playing, and stops when it closes', () => {
    documentStore.getState().close();
    sessionStore.setState({ playhead: 0, playing: true });
    stop = startPlaybackClock();
    expect(pending).toHaveLength(0);
    documentStore.getState().load({
      documentId: 'walk2',
      path: '/ws/walk2.mtn',
      name: 'walk2',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(120, WALK_JOINTS, 30),
      tolerances: { positionTolerance: 0.5, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
    });
    // Opening a motion leaves Play as it was (on): the clock starts.
    expect(sessionStore.getState().playing).toBe(true);
    expect(pending).toHaveLength(1);
    documentStore.getState().close();
    frameAt(100);
    expect(pending).toHaveLength(0);
  });
});
