/**
 * Advances the playhead while playing, at the motion's fps times the speed,
 * looping or stopping at frame N. Runs on requestAnimationFrame outside React,
 * and only while playing: a stopped clock asks for no animation frame (it asked
 * for one at every frame of the display, playing or not, until round 6 of the
 * renderer review in docs/architecture.md).
 */
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';

/** The longest step of one tick (seconds): a slow frame moves the playhead at most this far (the audition reads it). */
export const MAX_TICK_SECONDS = 0.25;

export function startPlaybackClock(): () => void {
  let last = 0;
  let raf = 0;
  const tick = (now: number) => {
    raf = 0;
    const s = sessionStore.getState();
    const m = documentStore.getState().motion;
    if (!s.playing || !m) return;
    // An animation frame's time is when the frame began, which can come before the press that asked for it: the
    // first step would go back, and the audition took a step back for a loop and played every event of the motion at
    // once (docs/testing.md, "Tests under load, round 9"). Never back, and at most a quarter of a second.
    const dt = Math.max(0, Math.min(MAX_TICK_SECONDS, (now - last) / 1000));
    last = now;
    const p = preferencesStore.getState();
    let t = s.playhead + dt * m.fps * p.playbackSpeed;
    if (t > m.frameCount) {
      if (p.loop) t = t % (m.frameCount + 1);
      else {
        t = m.frameCount;
        s.setPlaying(false);
      }
    }
    s.setPlayhead(t);
    // The next frame only while still playing (a stop at frame N asks for none).
    if (!raf && sessionStore.getState().playing) raf = requestAnimationFrame(tick);
  };
  // Playing with a motion open and no frame asked for: the clock starts from now.
  const wake = () => {
    if (raf || !sessionStore.getState().playing || !documentStore.getState().motion) return;
    last = performance.now();
    raf = requestAnimationFrame(tick);
  };
  const unsubscribe = [
    sessionStore.subscribe((s, p) => {
      if (s.playing !== p.playing) wake();
    }),
    documentStore.subscribe((d, p) => {
      if (d.motion !== p.motion) wake();
    }),
  ];
  wake();
  return () => {
    for (const u of unsubscribe) u();
    cancelAnimationFrame(raf);
    raf = 0;
  };
}
