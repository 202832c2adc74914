/** Read-only views of a motion's key info for lists and tests. */
import { KeyFlag, type Motion } from '../../shared/motion/types';

/**
 * A lock's frames as the lock list, the timeline's tooltip and the undo names all write them: "frame 5" or
 * "frames 5–12" (an en dash, one spelling wherever the user reads a range).
 */
export function framesSpanLabel(first: number, last: number): string {
  return first === last ? `frame ${first}` : `frames ${first}–${last}`;
}

/** Lock ranges of a motion: consecutive LOCK frames of one joint. */
/** Inclusive frame ranges, in frame order. */
export function lockRangesOf(m: Motion): { joint: number; first: number; last: number }[] {
  const J = m.joints.length;
  const out: { joint: number; first: number; last: number }[] = [];
  let open: { joint: number; first: number; last: number } | null = null;
  for (let f = 0; f <= m.frameCount; f++) {
    let lj = -1;
    for (let j = 0; j < J; j++)
      if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.LOCK) {
        lj = j;
        break;
      }
    if (open && open.joint === lj) {
      open.last = f;
      continue;
    }
    if (open) out.push(open);
    open = lj >= 0 ? { joint: lj, first: f, last: f } : null;
  }
  if (open) out.push(open);
  return out;
}

export function traceFramesOf(m: Motion): number[] {
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.TRACE) out.push(f);
  return out;
}
