/**
 * Seeded generators of valid MT3 stored values, shared by the MT3, MAR and CLI
 * tests (pure: no Node, no test framework).
 */
import { encodeH16 } from '../math/half';
import { encodeS12 } from '../math/s12';
import { seededRandom } from '../testing/random';
import { mt3FlagsFor } from './write';
import type { LockRange, Mt3Motion, PositionTrack, RotationTrack, TraceTrack } from './types';

/** Key frames 0..N with random gaps in 1..maxGap. */
export function randomKeyFrames(rnd: () => number, N: number, maxGap: number): Uint16Array {
  const f = [0];
  while (f[f.length - 1] < N) f.push(Math.min(N, f[f.length - 1] + 1 + Math.floor(rnd() * maxGap)));
  return Uint16Array.from(f);
}

export function randomPositionTrack(rnd: () => number, N: number, maxGap = 12, scale = 100): PositionTrack {
  const frames = randomKeyFrames(rnd, N, maxGap);
  const K = frames.length;
  const position = new Uint16Array(3 * K);
  const velocity = new Uint16Array(3 * K);
  for (let i = 0; i < 3 * K; i++) {
    position[i] = encodeH16((rnd() * 2 - 1) * scale);
    velocity[i] = encodeH16((rnd() * 2 - 1) * scale * 0.1);
  }
  const origin = Uint16Array.from([position[0], position[1], position[2]]);
  return { origin, frames, position, velocity };
}

function randomUnitQuatS12(rnd: () => number, out: Int16Array, i: number): void {
  let x = rnd() * 2 - 1,
    y = rnd() * 2 - 1,
    z = rnd() * 2 - 1,
    w = rnd() * 2 - 1;
  const l = Math.hypot(x, y, z, w) || 1;
  x /= l;
  y /= l;
  z /= l;
  w /= l;
  out[i] = encodeS12(x);
  out[i + 1] = encodeS12(y);
  out[i + 2] = encodeS12(z);
  out[i + 3] = encodeS12(w);
}

export function randomRotationTrack(rnd: () => number, N: number, maxGap = 12): RotationTrack {
  const frames = randomKeyFrames(rnd, N, maxGap);
  const K = frames.length;
  const rotation = new Int16Array(4 * K);
  const inner = new Int16Array(4 * K);
  for (let k = 0; k < K; k++) {
    randomUnitQuatS12(rnd, rotation, 4 * k);
    randomUnitQuatS12(rnd, inner, 4 * k);
  }
  return { frames, rotation, inner };
}

export function randomTraceTrack(rnd: () => number, N: number): TraceTrack {
  const frames = randomKeyFrames(rnd, N, Math.max(1, Math.floor(N / 3)));
  const position = new Uint16Array(3 * frames.length);
  for (let i = 0; i < position.length; i++) position[i] = encodeH16((rnd() * 2 - 1) * 500);
  return { frames, position };
}

export function randomLockRanges(rnd: () => number, N: number, J: number): LockRange[] {
  const out: LockRange[] = [];
  let f = Math.floor(rnd() * 3);
  while (f <= N) {
    const last = Math.min(N, f + Math.floor(rnd() * 5));
    const prev = out[out.length - 1];
    let joint = Math.floor(rnd() * J);
    if (prev && prev.lastFrame + 1 === f && prev.joint === joint) joint = (joint + 1) % J;
    if (J === 1 && prev && prev.lastFrame + 1 === f) {
      f++;
      continue;
    }
    out.push({ firstFrame: f, lastFrame: last, joint });
    f = last + 1 + Math.floor(rnd() * 4);
  }
  return out;
}

export interface RandomMt3Options {
  numFrames?: number;
  numJoints?: number;
  offsets?: boolean;
  move?: boolean;
  turn?: boolean;
  fix?: boolean;
  name?: number;
}

/** A valid random MT3 (stored values) with the streams asked for (all by default). */
export function randomMt3(seed: number, o: RandomMt3Options = {}): Mt3Motion {
  const rnd = seededRandom(seed);
  const N = o.numFrames ?? 30;
  const J = o.numJoints ?? 3;
  const rotations: RotationTrack[] = [];
  for (let j = 0; j < J; j++) rotations.push(randomRotationTrack(rnd, N));
  const m: Mt3Motion = {
    name: o.name ?? Math.floor(rnd() * 0xffffff) + 1,
    flags: 0x100,
    baseTick: 0,
    numFrames: N,
    root: randomPositionTrack(rnd, N),
    rotations,
    offsets: (o.offsets ?? true) ? Array.from({ length: J }, () => randomPositionTrack(rnd, N, 20, 10)) : null,
    move: (o.move ?? true) ? randomTraceTrack(rnd, N) : null,
    turn: (o.turn ?? true) ? Math.floor(rnd() * J) : null,
    fix: (o.fix ?? true) ? randomLockRanges(rnd, N, J) : null,
  };
  // Flags as a file would carry them: MIRROR_UPPER plus the bits of the streams present.
  m.flags = mt3FlagsFor(m);
  return m;
}
