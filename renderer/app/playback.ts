/**
 * Advances the playhead while playing, at the motion's fps times the speed,
 * looping or stopping at frame N. Runs on requestAnimationFrame outside React.
 */
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';

export function startPlaybackClock(): () => void {
  let last = performance.now();
  let raf = 0;
  const tick = (now: number) => {
    raf = requestAnimationFrame(tick);
    const dt = Math.min(0.25, (now - last) / 1000);
    last = now;
    const s = sessionStore.getState();
    const m = documentStore.getState().motion;
    if (!s.playing || !m) return;
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
  };
  raf = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(raf);
}
