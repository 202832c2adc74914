/**
 * Audition: plays the SE of each event at its frame during playback, and on
 * demand when the user clicks an event. Sounds come from the project's
 * audition folder (files named by SE name, read through the API) and play
 * through Web Audio; the SE is the one the selected floor attribute resolves to.
 *
 * The playback clock lives in the session store; this module watches the
 * playhead and fires every event whose frame the playhead crossed since the
 * last tick (also across a loop back to frame 0), so no event is skipped at
 * high speeds or low frame rates.
 */
import { createStore } from 'zustand/vanilla';
import { getApi } from '../transport';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { projectStore, soundPathOf } from '../project/projectStore';
import { sevStore } from './sevStore';
import { preferencesStore } from '../state/preferencesStore';
import { nameOnFloor } from './resolve';
import { MAX_TICK_SECONDS } from '../app/playback';

export interface AuditionState {
  /** Play events during playback. */
  enabled: boolean;
  /** SE names played most recently (newest last), shown as feedback in the editor. */
  lastPlayed: { name: string; at: number; missing: boolean }[];
  /** Sounds actually started through Web Audio (decoded and playing). */
  started: number;
  setEnabled(on: boolean): void;
}

/** Audition on or off is a preference (kept across restarts); the rest is this window's. */
export const auditionStore = createStore<AuditionState>()((set) => ({
  enabled: preferencesStore.getState().auditionEnabled,
  lastPlayed: [],
  started: 0,
  setEnabled(on) {
    set({ enabled: on });
    preferencesStore.getState().set({ auditionEnabled: on });
  },
}));

let context: AudioContext | null = null;
const buffers = new Map<string, Promise<AudioBuffer | null>>();

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

/** The sound file at `path` decoded, once: later calls get the same decoded sound (null where it cannot be decoded). */
export function decodeSound(path: string): Promise<AudioBuffer | null> {
  let p = buffers.get(path);
  if (!p) {
    p = (async () => {
      const ctx = audio();
      if (!ctx) return null;
      const { bytes } = await getApi().readSound({ path });
      // decodeAudioData detaches its argument: give it a copy of exactly the file's bytes.
      return ctx.decodeAudioData(bytes.slice().buffer as ArrayBuffer);
    })().catch((e: unknown) => {
      buffers.delete(path);
      sessionStore
        .getState()
        .notify('error', `Audition: could not play ${path}: ${e instanceof Error ? e.message : String(e)}`, 'app');
      return null;
    });
    buffers.set(path, p);
  }
  return p;
}

/** Forgets decoded sounds (another folder was chosen). */
export function clearAuditionCache(): void {
  buffers.clear();
}

function remember(name: string, missing: boolean): void {
  const list = [...auditionStore.getState().lastPlayed, { name, at: Date.now(), missing }].slice(-6);
  auditionStore.setState({ lastPlayed: list });
}

/** Plays an SE by name (no-op with a note when the folder has no sound of that name). */
export async function playSeName(name: string): Promise<void> {
  const path = soundPathOf(projectStore.getState().sounds, name);
  remember(name, !path);
  if (!path) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === 'suspended') await ctx.resume().catch(() => undefined);
  const buffer = await decodeSound(path);
  if (!buffer) return;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  src.connect(ctx.destination);
  src.start();
  auditionStore.setState({ started: auditionStore.getState().started + 1 });
}

/** The SE name event `index` plays on the selected floor attribute, or null. */
export function eventSeName(index: number): string | null {
  const s = sevStore.getState();
  const doc = s.file?.doc;
  const ev = doc?.events[index];
  const def = ev ? doc!.ses.find((d) => d.index === ev.se) : undefined;
  return def ? nameOnFloor(def, s.floor) : null;
}

/** Plays event `index` as the game would on the selected floor. */
export function playEvent(index: number): void {
  const name = eventSeName(index);
  if (name) void playSeName(name);
}

/**
 * Watches the playhead and plays the events it crosses while playing, and forgets the SEs played once the tuner's
 * motion or the open .sev changes (the toolbar's "♪ SE_FOOT_L_WATER" named an SE of the motion before, and
 * stayed there after switching). Returns the unsubscribe.
 */
export function startAudition(): () => void {
  const forget = () => {
    if (auditionStore.getState().lastPlayed.length) auditionStore.setState({ lastPlayed: [] });
  };
  const stopMotion = documentStore.subscribe((d, prev) => {
    if (d.documentId !== prev.documentId) forget();
  });
  const stopSev = sevStore.subscribe((s, prev) => {
    if (s.file?.path !== prev.file?.path || s.file?.motionName !== prev.file?.motionName) forget();
  });
  const stopPlayhead = watchPlayhead();
  return () => {
    stopMotion();
    stopSev();
    stopPlayhead();
  };
}

function watchPlayhead(): () => void {
  let last = sessionStore.getState().playhead;
  return sessionStore.subscribe((s, prev) => {
    const now = s.playhead;
    const from = last;
    last = now;
    if (!auditionStore.getState().enabled) return;
    const doc = sevStore.getState().file?.doc;
    if (!doc) return;
    if (!s.playing) {
      // Scrubbing (a drag on a ruler or the slider, a frame step) plays the events it passes, as UE plays notifies.
      if (!prev.playing) for (const k of eventsScrubbed(doc.events, from, now)) playEvent(k);
      return;
    }
    const motion = documentStore.getState().motion;
    const clock = motion
      ? {
          period: motion.frameCount + 1,
          maxStep: MAX_TICK_SECONDS * motion.fps * preferencesStore.getState().playbackSpeed,
        }
      : undefined;
    for (const k of eventsCrossed(doc.events, prev.playing ? from : null, now, clock)) playEvent(k);
  });
}

/** The largest playhead move (frames) heard as a scrub: a jump (a click far away, Home, a marker click) plays nothing. */
export const SCRUB_MAX_FRAMES = 4;

/**
 * Events (indices) a scrub passes, paused, from `from` to `to`: forwards from < frame <= to, backwards
 * to <= frame < from; nothing for a jump longer than SCRUB_MAX_FRAMES.
 */
export function eventsScrubbed(events: readonly { frame: number }[], from: number, to: number): number[] {
  if (to === from || Math.abs(to - from) > SCRUB_MAX_FRAMES) return [];
  return events.flatMap((e, k) =>
    (to > from ? e.frame > from && e.frame <= to : e.frame >= to && e.frame < from) ? [k] : [],
  );
}

/**
 * Events (indices) the playhead crossed moving from `from` to `to` during playback:
 * from < frame <= to; a backwards move is a loop (the tail after `from`, then the head up to `to`);
 * `from` null means playback just started, so only the frame under the playhead plays.
 * Given the `clock` (the loop's period in frames, frame N + 1, and the most one tick advances), a move longer than a
 * tick, forwards or round the loop, is a jump (a click on a ruler or a marker while playing): it plays what sits
 * under the playhead, as a start does, not every event between (a click back played the whole motion's at once).
 */
export function eventsCrossed(
  events: readonly { frame: number }[],
  from: number | null,
  to: number,
  clock?: { period: number; maxStep: number },
): number[] {
  const hit = (lo: number, hi: number) => events.flatMap((e, k) => (e.frame > lo && e.frame <= hi ? [k] : []));
  const under = () => events.flatMap((e, k) => (e.frame === Math.round(to) ? [k] : []));
  if (from === null) return under();
  if (to === from) return [];
  const step = to > from ? to - from : clock ? clock.period - from + to : 0;
  if (clock && step > clock.maxStep + 1e-6) return under();
  if (to > from) return hit(from, to);
  return [...hit(from, Infinity), ...hit(-1, to)];
}
