/**
 * Forward kinematics for tests, written apart from the compressor's
 * (shared/compress/objectError.ts) and from shared/interchange/kinematics.ts:
 * 3x3 rotation matrices built from the quaternions, plain number arrays.
 * p_j = p_parent + M_parent off_j, M_j = M_parent M(r_j); the root adds the
 * root translation. Used to check the object-space error the compressor reports.
 */
import type { CompressResult } from '../compress/types';
import type { Motion } from '../motion/types';
import { readMt3 } from '../mt3/read';
import type { Mt3Motion } from '../mt3/types';
import { decodePos, decodeRot } from './independentDecode';

/** A 3x3 matrix, row-major (exported with its three operations for other tests' own kinematics). */
export type Mat3 = number[];

/** The rotation matrix of a quaternion x, y, z, w (normalised first). */
export function matFromQuat(q: ArrayLike<number>): Mat3 {
  const l = Math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2);
  const [x, y, z, w] = [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}
export function matMul(a: Mat3, b: Mat3): Mat3 {
  const o: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) o.push(a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]);
  return o;
}
export function matApply(m: Mat3, v: number[]): number[] {
  return [0, 1, 2].map((r) => m[r * 3] * v[0] + m[r * 3 + 1] * v[1] + m[r * 3 + 2] * v[2]);
}

/** Positions of every joint and of its virtual points (shell along local X, Y, Z): J x 4 points x 3. */
export function fkPoints(
  m: Motion,
  root: number[],
  rotation: (j: number) => number[],
  offset: (j: number) => number[],
  shell: number,
): number[][][] {
  const J = m.joints.length;
  const pos: number[][] = [];
  const mat: Mat3[] = [];
  const out: number[][][] = [];
  for (let j = 0; j < J; j++) {
    const p = m.joints[j].parent;
    const local = matFromQuat(rotation(j));
    if (p < 0) {
      pos[j] = offset(j).map((o, c) => o + root[c]);
      mat[j] = local;
    } else {
      const o = matApply(mat[p], offset(j));
      pos[j] = o.map((v, c) => v + pos[p][c]);
      mat[j] = matMul(mat[p], local);
    }
    const pts = [pos[j]];
    for (let axis = 0; axis < 3; axis++) {
      const e = [0, 0, 0];
      e[axis] = shell;
      pts.push(matApply(mat[j], e).map((v, c) => v + pos[j][c]));
    }
    out.push(pts);
  }
  return out;
}

/** The points fkPoints gives for the motion's own frame t (its root translation, rotations and offsets there). */
export function motionPoints(m: Motion, t: number, shell: number): number[][][] {
  const J = m.joints.length;
  return fkPoints(
    m,
    [0, 1, 2].map((c) => m.translation[t * 4 + c]),
    (j) => [0, 1, 2, 3].map((c) => m.rotation[(t * J + j) * 4 + c]),
    (j) => [0, 1, 2].map((c) => m.offset[(t * J + j) * 4 + c]),
    shell,
  );
}

/**
 * The first point of `got` farther than `limit` from its point in `want` (both as fkPoints gives them, for frame f
 * of m), said with the joint, the point and both positions; undefined when every point is within the limit.
 */
export function pointMismatch(
  m: Motion,
  f: number,
  want: number[][][],
  got: number[][][],
  limit: number,
): string | undefined {
  for (let j = 0; j < want.length; j++)
    for (let k = 0; k < want[j].length; k++) {
      const p = want[j][k];
      const d = Math.hypot(p[0] - got[j][k][0], p[1] - got[j][k][1], p[2] - got[j][k][2]);
      if (!(d <= limit))
        return `frame ${f} joint ${m.joints[j].name} point ${k}: ${got[j][k].join()} against the file's ${p.join()} (${d})`;
    }
  return undefined;
}

/**
 * Object-space error at every frame and joint (J entries per frame): the
 * largest distance between the decoded and source positions of the joint and
 * its virtual points. The decoded motion comes from the independent decoder;
 * without offset streams the source's frame 0 offsets stand in (as the game's
 * skeleton does).
 */
export function independentObjectErrors(m: Motion, mt3: Mt3Motion, shell: number): number[][] {
  const J = m.joints.length;
  const out: number[][] = [];
  const off = (f: number, j: number) => [0, 1, 2].map((c) => m.offset[(f * J + j) * 4 + c]);
  for (let t = 0; t <= m.frameCount; t++) {
    const src = motionPoints(m, t, shell);
    const dec = fkPoints(
      m,
      decodePos(mt3.root.frames, mt3.root.position, mt3.root.velocity, t),
      (j) => decodeRot(mt3, j, t),
      (j) =>
        mt3.offsets ? decodePos(mt3.offsets[j].frames, mt3.offsets[j].position, mt3.offsets[j].velocity, t) : off(0, j),
      shell,
    );
    out.push(
      src.map((pts, j) =>
        Math.max(...pts.map((p, k) => Math.hypot(p[0] - dec[j][k][0], p[1] - dec[j][k][1], p[2] - dec[j][k][2]))),
      ),
    );
  }
  return out;
}

/**
 * What breaks the skeleton-aware mode's promise in a result (none without the mode): the bound reported not met, or
 * an independent FK of the independent decoder's frames over it.
 */
export function objectBoundViolations(m: Motion, r: Pick<CompressResult, 'bytes' | 'skeleton'>): string[] {
  const sk = r.skeleton;
  if (!sk) return [];
  const bad = sk.met ? [] : [`object-space bound ${sk.objectTolerance} not met`];
  // A loop, not Math.max(...errors): a spread of every frame's errors (140,000 for 01_03.bvh at 120 fps, 31
  // joints) overflows the stack.
  let worst = -Infinity;
  for (const frame of independentObjectErrors(m, readMt3(r.bytes), sk.shell))
    for (const e of frame) worst = e > worst || Number.isNaN(e) ? e : worst;
  if (!(worst <= sk.objectTolerance * (1 + 1e-9) + 1e-9))
    bad.push(`object-space error ${worst} over the bound ${sk.objectTolerance} (independent FK)`);
  return bad;
}
