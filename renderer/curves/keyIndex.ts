/**
 * Keys in view without walking every key (docs/architecture.md, "Renderer review, round 5"): the curve view's key
 * band and the timeline's rows repaint at every frame of playback, and walked all of a channel's keys (the timeline
 * every frame of the motion, a row in view, for its user keys) to draw the few in view.
 */
import { KeyFlag, type Motion } from '../../shared/motion/types';

/** The first index of `sorted` (ascending) whose key is at or after `frame`; `sorted.length` if none. O(log keys). */
export function firstKeyFrom(sorted: ArrayLike<number>, frame: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < frame) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The indices [start, end) of the ascending whole-frame `sorted` keys from frame `lo` to frame `hi`, both included. */
export function keysInView(sorted: ArrayLike<number>, lo: number, hi: number): [number, number] {
  const start = firstKeyFrom(sorted, lo);
  return [start, Math.max(start, firstKeyFrom(sorted, Math.floor(hi) + 1))];
}

/** Whether the ascending `sorted` keys hold `frame`. O(log keys). */
export function hasKey(sorted: ArrayLike<number>, frame: number): boolean {
  const i = firstKeyFrom(sorted, frame);
  return i < sorted.length && sorted[i] === frame;
}

// A motion's key words are never written in place (documentStore: an edit, an undo or a redo makes new arrays), so
// the user keys read from one array stay true for it; an edit is a new array and a new entry.
const userKeyCache = new WeakMap<Uint32Array, Map<number, readonly number[]>>();
let walks = 0;

/** How many times userKeysOf read a motion's key words (tests: a repaint of a motion already read reads none). */
export function userKeyWalks(): number {
  return walks;
}

/** A joint's user keys (-1: the root translation), ascending; read once for each array of key words. Frozen. */
export function userKeysOf(m: Motion, joint: number): readonly number[] {
  const words = joint < 0 ? m.translationKeyInfo : m.jointKeyInfo;
  let byJoint = userKeyCache.get(words);
  if (!byJoint) userKeyCache.set(words, (byJoint = new Map()));
  let keys = byJoint.get(joint);
  if (keys) return keys;
  walks++;
  const out: number[] = [];
  const J = m.joints.length;
  for (let f = 0; f <= m.frameCount; f++) {
    const w = joint < 0 ? words[f * 4] : words[(f * J + joint) * 4];
    if (w & KeyFlag.KEY) out.push(f);
  }
  keys = Object.freeze(out);
  byJoint.set(joint, keys);
  return keys;
}
