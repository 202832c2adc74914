/**
 * Keys in view without walking every key (docs/architecture.md, "Renderer review, round 5"): the curve view's key
 * band and the timeline's rows repaint at every frame of playback, and walked all of a channel's keys (the timeline
 * every frame of the motion, a row in view, for its user keys) to draw the few in view. The user keys themselves are
 * read, once for each array of key words, by `userKeysOf` (state/keyInfo.ts).
 */

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
