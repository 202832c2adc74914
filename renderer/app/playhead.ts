/**
 * The playhead and playback: play / pause, stepping, going to a frame, the speed, revealing a place the stats or a
 * warning name, and fitting the time views to the motion.
 */
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore, PLAYBACK_SPEEDS } from '../state/preferencesStore';

/** Frame under the playhead, as an integer in 0..N. */
export function playheadFrame(): number {
  const m = documentStore.getState().motion;
  if (!m) return 0;
  return Math.max(0, Math.min(m.frameCount, Math.round(sessionStore.getState().playhead)));
}

export function togglePlay(): void {
  const s = sessionStore.getState();
  const m = documentStore.getState().motion;
  if (!m) return;
  if (!s.playing && s.playhead >= m.frameCount && !preferencesStore.getState().loop) s.setPlayhead(0);
  s.setPlaying(!s.playing);
}

export function step(delta: number): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  const s = sessionStore.getState();
  s.setPlaying(false);
  let f = Math.round(s.playhead) + delta;
  if (preferencesStore.getState().loop) f = ((f % (m.frameCount + 1)) + m.frameCount + 1) % (m.frameCount + 1);
  else f = Math.max(0, Math.min(m.frameCount, f));
  s.setPlayhead(f);
}

export function gotoFrame(frame: number): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  sessionStore.getState().setPlaying(false);
  sessionStore.getState().setPlayhead(Math.max(0, Math.min(m.frameCount, Math.round(frame))));
}

export function cycleSpeed(dir: 1 | -1): void {
  const p = preferencesStore.getState();
  const i = PLAYBACK_SPEEDS.indexOf(p.playbackSpeed as (typeof PLAYBACK_SPEEDS)[number]);
  const next = PLAYBACK_SPEEDS[Math.max(0, Math.min(PLAYBACK_SPEEDS.length - 1, (i < 0 ? 3 : i) + dir))];
  p.set({ playbackSpeed: next });
}

/** Jumps to a place the stats or a warning names: selects the channel and moves the playhead. */
export function revealChannelFrame(joint: number, frame: number, kind?: 'translation' | 'rotation' | 'offset'): void {
  const s = sessionStore.getState();
  s.select(joint);
  if (kind === 'offset') s.setCurveChannel('offset');
  else if (kind === 'rotation' && s.curveChannel === 'offset') s.setCurveChannel('euler');
  gotoFrame(frame);
  // Keep the frame visible in the curve view and timeline.
  if (frame < s.viewStart || frame > s.viewEnd) {
    const span = s.viewEnd - s.viewStart;
    s.setView(frame - span / 2, frame + span / 2);
  }
}

/** Shows the whole motion in the curve view and timeline. */
export function zoomTimeToFit(): void {
  const m = documentStore.getState().motion;
  if (m) sessionStore.getState().setView(0, m.frameCount);
}
