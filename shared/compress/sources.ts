import { KeyFlag, type Motion } from '../motion/types';

/** Root translation as (N+1) x 3 float64. */
export function translationSource(m: Motion): Float64Array {
  const S = m.frameCount + 1;
  const out = new Float64Array(S * 3);
  for (let f = 0; f < S; f++) for (let c = 0; c < 3; c++) out[f * 3 + c] = m.translation[f * 4 + c];
  return out;
}

/** Joint j's offsets as (N+1) x 3 float64. */
export function offsetSource(m: Motion, j: number): Float64Array {
  const S = m.frameCount + 1;
  const J = m.joints.length;
  const out = new Float64Array(S * 3);
  for (let f = 0; f < S; f++) for (let c = 0; c < 3; c++) out[f * 3 + c] = m.offset[(f * J + j) * 4 + c];
  return out;
}

/**
 * Joint j's rotations as (N+1) x 4 float64, normalised and made
 * sign-continuous (each sample in the hemisphere of the previous one), so
 * keys taken from it interpolate the short way. Errors use |dot|, so the
 * flips change nothing the error measures.
 */
export function rotationSource(m: Motion, j: number): Float64Array {
  const S = m.frameCount + 1;
  const J = m.joints.length;
  const out = new Float64Array(S * 4);
  for (let f = 0; f < S; f++) {
    const i = (f * J + j) * 4;
    let x = m.rotation[i],
      y = m.rotation[i + 1],
      z = m.rotation[i + 2],
      w = m.rotation[i + 3];
    const l = Math.hypot(x, y, z, w);
    x /= l;
    y /= l;
    z /= l;
    w /= l;
    if (f > 0) {
      const o = (f - 1) * 4;
      if (out[o] * x + out[o + 1] * y + out[o + 2] * z + out[o + 3] * w < 0) {
        x = -x;
        y = -y;
        z = -z;
        w = -w;
      }
    }
    out[f * 4] = x;
    out[f * 4 + 1] = y;
    out[f * 4 + 2] = z;
    out[f * 4 + 3] = w;
  }
  return out;
}

/** Frames whose translation key info has the KEY flag. */
export function translationUserKeys(m: Motion): number[] {
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.KEY) out.push(f);
  return out;
}

/** Frames whose joint key info for joint j has the KEY flag. */
export function jointUserKeys(m: Motion, j: number): number[] {
  const J = m.joints.length;
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++) if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.KEY) out.push(f);
  return out;
}

/** Trace keys: 0, every TRACE frame, N (docs/formats.md 2.4). */
export function traceKeyFrames(m: Motion): number[] {
  const out: number[] = [0];
  for (let f = 1; f < m.frameCount; f++) if (m.translationKeyInfo[f * 4] & KeyFlag.TRACE) out.push(f);
  out.push(m.frameCount);
  return out;
}

/** Lock ranges from LOCK flags: consecutive frames of one joint form one inclusive range. */
export function lockRanges(m: Motion): { firstFrame: number; lastFrame: number; joint: number }[] {
  const J = m.joints.length;
  const out: { firstFrame: number; lastFrame: number; joint: number }[] = [];
  for (let f = 0; f <= m.frameCount; f++) {
    let locked = -1;
    for (let j = 0; j < J; j++)
      if (m.jointKeyInfo[(f * J + j) * 4] & KeyFlag.LOCK) {
        locked = j;
        break;
      }
    if (locked < 0) continue;
    const last = out[out.length - 1];
    if (last && last.joint === locked && last.lastFrame === f - 1) last.lastFrame = f;
    else out.push({ firstFrame: f, lastFrame: f, joint: locked });
  }
  return out;
}
