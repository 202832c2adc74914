import type { RotationTrack } from '../mt3/types';
import type { CachedChannel } from './cache';
import { InnerSearch, type KeySlerpCache } from './innerSearch';
import { KeyList, MAX_KEY_GAP } from './keyList';
import { RotationFit } from './rotationFit';
import { finishOutcome } from './track';

/**
 * After the first removal pass over the whole channel, the keys tried for removal: this many on each side of
 * each added key (on the bundled captures 2 leaves 1-2 % more bytes than 5; more than 5 finds no more).
 */
const REMOVAL_REACH = 5;

/**
 * A compressed rotation channel that takes keys without being compressed again: the skeleton-aware mode's
 * rounds after the first (docs/compression.md). A key at f between keys a and b changes only the segments
 * (a, f) and (f, b): f's inner quaternion is fitted from a and b and every other key keeps its stored values
 * (the refined ones included), so every other frame keeps its error. Where (a, f) or (f, b) then holds a frame
 * over the tolerance, keys go in there the greedy way (the worst frame, the earliest on ties) until none is.
 * Then keys the new ones made redundant are dropped as the refinement's removal pass drops them: a key goes when
 * a search of its neighbours' inner quaternions keeps every interior frame of the segments they touch within
 * the tolerance. So every frame that is not a key stays within the tolerance, as after a compression.
 */
export class LocalKeys {
  private readonly fit: RotationFit;
  private readonly search: InnerSearch;
  private readonly keys: KeyList;
  private readonly errors: Float64Array;
  private inserted: number;
  /** Keys that stay: 0, N, the user's and every key added. */
  private readonly required: Uint8Array;
  private firstRemoval = true;

  /**
   * Starts from `entry`, the channel compressed from `source` ((N+1) x 4) with `tolerance` (degrees) and the
   * user's keys `userKeys`. With `refine` false (the classic method, which never removes a key) keys are only added.
   * `slerps`: the key slerp cache its searches share with the other channels of the motion (KeySlerpCache).
   */
  constructor(
    source: Float64Array,
    N: number,
    private readonly tolerance: number,
    userKeys: readonly number[],
    entry: CachedChannel<RotationTrack>,
    private readonly refine = true,
    slerps?: KeySlerpCache,
  ) {
    // The classic method's fit holds still beside a held run, as its compression's did (RotationFit's `holds`).
    this.fit = new RotationFit(source, N, 'free', !refine);
    this.search = new InnerSearch(this.fit, slerps);
    this.keys = KeyList.fromFrames(N, entry.keyFrames);
    this.errors = Float64Array.from(entry.outcome.errors);
    this.inserted = entry.outcome.inserted;
    this.required = new Uint8Array(N + 1);
    this.required[0] = 1;
    this.required[N] = 1;
    for (const f of userKeys) this.required[f] = 1;
    const { rotation, inner } = entry.track;
    const fit = this.fit;
    entry.keyFrames.forEach((f, k) => {
      // Quantises the key's rotation; the inner quaternion is then the stored one, in the sign of the key's
      // source sample (storedKeys chains the signs from the first key).
      fit.fitKey(f, this.keys.prev[f], this.keys.next[f]);
      let c = 0;
      while (c < 3 && fit.qInt[f * 4 + c] === 0) c++;
      const sign = rotation[k * 4 + c] === fit.qInt[f * 4 + c] ? 1 : -1;
      const i = k * 4;
      fit.setInner(f, sign * inner[i], sign * inner[i + 1], sign * inner[i + 2], sign * inner[i + 3]);
    });
  }

  /**
   * Keys the frames `added` (none a key yet), then (refining) drops the keys that are no longer needed: the first time
   * over the whole channel (as compressing it with the new keys would refine it), then within REMOVAL_REACH
   * keys of each added one.
   */
  add(added: readonly number[]): void {
    const keys = this.keys;
    for (const f of added) {
      this.required[f] = 1;
      if (!keys.isKey[f]) this.insert(f);
    }
    if (!this.refine) return;
    const candidates = new Set<number>();
    if (this.firstRemoval) for (let k = 0; k >= 0; k = keys.next[k]) candidates.add(k);
    this.firstRemoval = false;
    for (const f of added) {
      for (let k = keys.prev[f], n = 0; k >= 0 && n < REMOVAL_REACH; k = keys.prev[k], n++) candidates.add(k);
      for (let k = keys.next[f], n = 0; k >= 0 && n < REMOVAL_REACH; k = keys.next[k], n++) candidates.add(k);
    }
    for (const k of [...candidates].sort((x, y) => x - y)) if (keys.isKey[k] && !this.required[k]) this.tryRemove(k);
  }

  /** The channel as it stands, as compressing it would cache it. */
  entry(signature: string): CachedChannel<RotationTrack> {
    const keyFrames = this.keys.frames();
    const stored = this.fit.storedKeys(keyFrames);
    return {
      signature,
      keyFrames,
      outcome: finishOutcome(this.fit, this.keys, Float64Array.from(this.errors), this.inserted),
      track: { frames: Uint16Array.from(keyFrames), rotation: stored.rotation, inner: stored.inner },
    };
  }

  /** Inserts key f, then keys the greedy way in its two segments until no interior frame is over the tolerance. */
  private insert(f: number): void {
    const pending = [f];
    for (let g = pending.pop(); g !== undefined; g = pending.pop()) {
      this.keys.insert(g);
      const a = this.keys.prev[g];
      const b = this.keys.next[g];
      this.fit.fitKey(g, a, b);
      if (g !== f) this.inserted++;
      if (this.fit.segmentError(a, g, this.errors) > this.tolerance) pending.push(this.fit.argmax);
      if (this.fit.segmentError(g, b, this.errors) > this.tolerance) pending.push(this.fit.argmax);
    }
  }

  /**
   * Drops key k when the inner quaternions of its two neighbours, or failing that of the four keys around the
   * gap, keep every interior frame of the segments they touch within the tolerance; otherwise leaves all as it was.
   */
  private tryRemove(k: number): void {
    const keys = this.keys;
    const a = keys.prev[k];
    const b = keys.next[k];
    if (b - a > MAX_KEY_GAP) return;
    keys.remove(k);
    if (
      this.searchWithin([a, b]) ||
      (keys.prev[a] >= 0 && keys.next[b] >= 0 && this.searchWithin([keys.prev[a], a, b, keys.next[b]]))
    ) {
      this.inserted--;
      return;
    }
    keys.insertBetween(a, k, b);
  }

  /**
   * Searches the inner quaternions of the consecutive keys `vars` against the segments they touch; keeps them
   * (and the errors there) when every interior frame is then within the tolerance, else restores them.
   */
  private searchWithin(vars: number[]): boolean {
    const { keys, fit } = this;
    const first = keys.prev[vars[0]];
    const last = keys.next[vars[vars.length - 1]];
    const chain = [...(first >= 0 ? [first] : []), ...vars, ...(last >= 0 ? [last] : [])];
    const saved = vars.map((f) => fit.aInt.slice(f * 4, f * 4 + 4));
    if (this.search.optimise(chain, vars, this.tolerance) <= this.tolerance) {
      for (let i = 0; i + 1 < chain.length; i++) fit.segmentError(chain[i], chain[i + 1], this.errors);
      return true;
    }
    vars.forEach((f, i) => fit.setInner(f, saved[i][0], saved[i][1], saved[i][2], saved[i][3]));
    return false;
  }
}
