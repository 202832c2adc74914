/**
 * The playback clock (playback.ts) on a clock of the test's own: requestAnimationFrame is stubbed and each animation
 * frame runs at the time the test gives it. The rate (fps times the speed) was checked only in e2e/playback.spec.ts,
 * by 4x reaching frame N within 5 s of wall time, which a loaded machine's slow animation frames could miss and an
 * idle one could pass at the wrong rate; here it is exact.
 * Mutations that fail: the speed left out of the step; the step not capped after a stalled frame; the loop's wrap by
 * frameCount instead of frameCount + 1; playing not stopped at frame N without loop.
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

  it('stops at frame N without loop, and wraps past N with it', () => {
    start(4, false, 110);
    frameAt(100); // 12 frames on: past 120
    expect(playhead()).toBe(120);
    expect(sessionStore.getState().playing).toBe(false);
    frameAt(200);
    expect(playhead()).toBe(120);
    stop();
    start(4, true, 110);
    frameAt(100);
    expect(playhead()).toBeCloseTo(122 - 121, 9);
    expect(sessionStore.getState().playing).toBe(true);
  });
});
