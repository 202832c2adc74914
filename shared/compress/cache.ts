import type { PrecisionFloor } from './unreachable';
import type { Motion } from '../motion/types';
import type { PositionTrack, RotationTrack } from '../mt3/types';
import type { Mt3StreamMemo } from '../mt3/write';
import { ObjectErrorMemo } from './objectError';
import type { TrackOutcome } from './track';
import type { CompressMethod } from './types';

/** One channel's finished compression, reusable while its inputs are unchanged. */
export interface CachedChannel<T extends PositionTrack | RotationTrack> {
  /** tolerance and user key frames the channel was compressed with. */
  signature: string;
  keyFrames: number[];
  outcome: TrackOutcome;
  track: T;
}

/**
 * Remembers each channel's result between compressions of one motion, so that
 * an edit recompresses only the channels it changed: a user key toggled on a
 * joint touches that joint's rotation (and offset) channel, a tolerance or
 * override only the channels it applies to. Channels are independent in the
 * classic mode, so a reused channel is exactly what a fresh run would produce.
 * The cache is tied to the motion's sample arrays: a different motion (or new
 * samples) clears it.
 */
export class CompressCache {
  private samples: readonly unknown[] = [];
  private readonly channels = new Map<string, CachedChannel<PositionTrack | RotationTrack>>();
  /** Encoded MT3 streams of this motion's tracks (writeMt3): only the channels an edit changed are encoded again. */
  readonly streams: Mt3StreamMemo = new WeakMap();
  /** The object-space error's own memo for this motion (objectError.ts): only frames an edit changed are redone. */
  readonly objectMemo = new ObjectErrorMemo();
  /**
   * The precision floor of these samples by shell ('' without one; unreachable.ts): it depends on the samples alone,
   * so an edit that leaves keys over their tolerance does not measure it again.
   */
  readonly floors = new Map<string, PrecisionFloor>();
  /** Channels reused / recompressed by the last run (for tests and the bench). */
  reused = 0;
  computed = 0;

  /**
   * Whether these very sample arrays passed validateMotion's sample checks in an earlier run: they are the ones
   * cached, and a run only reaches begin() once the motion it compresses has passed validation.
   */
  samplesChecked(m: Motion): boolean {
    return this.samples.length === 3 && [m.translation, m.rotation, m.offset].every((a, i) => a === this.samples[i]);
  }

  /** Called at the start of a run: forgets everything when the samples are not the ones cached. */
  begin(m: Motion): void {
    this.forSamples(m);
    this.reused = 0;
    this.computed = 0;
  }

  /**
   * Forgets everything when `m`'s samples are not the ones cached, and keeps the last run's counts (the precision
   * floor is looked up after a run, whose counts the tests and the bench read).
   */
  forSamples(m: Motion): void {
    const samples = [m.translation, m.rotation, m.offset];
    if (samples.some((a, i) => a !== this.samples[i])) {
      this.channels.clear();
      this.floors.clear();
      this.samples = samples;
    }
  }

  get<T extends PositionTrack | RotationTrack>(channel: string, signature: string): CachedChannel<T> | undefined {
    const hit = this.channels.get(channel);
    if (hit && hit.signature === signature) {
      this.reused++;
      return hit as CachedChannel<T>;
    }
    return undefined;
  }

  set<T extends PositionTrack | RotationTrack>(channel: string, entry: CachedChannel<T>): void {
    this.computed++;
    this.channels.set(channel, entry);
  }
}

/** The inputs that decide a channel's result besides its samples. */
export function channelSignature(
  tolerance: number,
  userKeys: number[],
  method: CompressMethod | 'dp-reference' = 'refined',
): string {
  return `${method}|${tolerance}|${userKeys.join(',')}`;
}
