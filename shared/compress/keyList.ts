/**
 * The key frames of one track as a doubly linked list over frames 0..N, so an
 * insertion and a neighbour lookup are O(1) and no array is shifted.
 */
export class KeyList {
  readonly isKey: Uint8Array;
  readonly prev: Int32Array;
  readonly next: Int32Array;
  count = 0;

  /** Starts with keys at 0 and N. */
  constructor(readonly N: number) {
    this.isKey = new Uint8Array(N + 1);
    this.prev = new Int32Array(N + 1).fill(-1);
    this.next = new Int32Array(N + 1).fill(-1);
    this.isKey[0] = 1;
    this.isKey[N] = 1;
    this.next[0] = N;
    this.prev[N] = 0;
    this.count = 2;
  }

  /** Inserts a key at f (0 < f < N, not yet a key), linking it between its neighbours. */
  insert(f: number): void {
    if (this.isKey[f]) return;
    let a = f - 1;
    while (!this.isKey[a]) a--;
    this.insertBetween(a, f, this.next[a]);
  }

  /** Inserts between known neighbours a < f < b (a and b consecutive keys). */
  insertBetween(a: number, f: number, b: number): void {
    this.isKey[f] = 1;
    this.prev[f] = a;
    this.next[f] = b;
    this.next[a] = f;
    this.prev[b] = f;
    this.count++;
  }

  /** Removes key f (0 < f < N, a key), linking its neighbours to each other. */
  remove(f: number): void {
    const a = this.prev[f];
    const b = this.next[f];
    this.next[a] = b;
    this.prev[b] = a;
    this.isKey[f] = 0;
    this.prev[f] = -1;
    this.next[f] = -1;
    this.count--;
  }

  /** A key list holding exactly the given frames (sorted, 0 and N included). */
  static fromFrames(N: number, frames: ArrayLike<number>): KeyList {
    const keys = new KeyList(N);
    for (let i = 0; i < frames.length; i++) if (frames[i] > 0 && frames[i] < N) keys.insert(frames[i]);
    return keys;
  }

  frames(): number[] {
    const out: number[] = [];
    for (let f = 0; f !== -1; f = this.next[f]) out.push(f);
    return out;
  }
}

/** Largest frame delta a keyed stream can store (8-bit `d8`). */
export const MAX_KEY_GAP = 255;

/**
 * Initial keys of a channel (docs/compression.md step 1): 0, N, every user key, and
 * evenly spread keys so that no two consecutive keys are more than 255 apart.
 */
export function initialKeys(N: number, userKeys: ArrayLike<number>): KeyList {
  const keys = new KeyList(N);
  for (let i = 0; i < userKeys.length; i++) {
    const f = userKeys[i];
    if (f > 0 && f < N) keys.insert(f);
  }
  for (let a = 0; a !== N;) {
    const b = keys.next[a];
    const gap = b - a;
    if (gap > MAX_KEY_GAP) {
      const parts = Math.ceil(gap / MAX_KEY_GAP);
      let last = a;
      for (let p = 1; p < parts; p++) {
        const f = a + Math.round((gap * p) / parts);
        keys.insertBetween(last, f, b);
        last = f;
      }
    }
    a = b;
  }
  return keys;
}

/** Whether the increasing key frames hold f (binary search). */
export function hasKeyFrame(frames: ArrayLike<number>, f: number): boolean {
  let lo = 0;
  let hi = frames.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid] === f) return true;
    if (frames[mid] < f) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
