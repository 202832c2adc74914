/**
 * The BVH's own forward kinematics, computed straight from the channel values
 * with 4x4 matrices (no quaternions), as the BVH format defines it:
 * world(j) = world(parent) * T(offset + position channels) * R(c1) * R(c2) * R(c3)
 * with the rotation channels applied in file order. Used to check importers
 * against a code path that shares nothing with them.
 */
import type { BvhDocument } from './parse';

type Mat4 = Float64Array; // column-major 4x4

function mul(a: Mat4, b: Mat4): Mat4 {
  const o = new Float64Array(16);
  for (let c = 0; c < 4; c++)
    for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      o[c * 4 + r] = s;
    }
  return o;
}

function rotation(axis: 'X' | 'Y' | 'Z', deg: number): Mat4 {
  const a = (deg * Math.PI) / 180,
    c = Math.cos(a),
    s = Math.sin(a);
  const m = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  if (axis === 'X') {
    m[5] = c;
    m[6] = s;
    m[9] = -s;
    m[10] = c;
  }
  if (axis === 'Y') {
    m[0] = c;
    m[2] = -s;
    m[8] = s;
    m[10] = c;
  }
  if (axis === 'Z') {
    m[0] = c;
    m[1] = s;
    m[4] = -s;
    m[5] = c;
  }
  return m;
}

/**
 * World positions (J x 3, file units) of every joint at source frame `frame`
 * (0..frameCount-1). Position channels add to the OFFSET, as three.js's
 * BVHLoader reads them (the importer's local-position reading of LAFAN1-style
 * files, bvhLocalPositionJoints, is checked by its own tests).
 */
export function bvhWorldPositions(doc: BvhDocument, frame: number): Float64Array {
  const J = doc.joints.length;
  const out = new Float64Array(J * 3);
  const world: Mat4[] = [];
  const v = doc.values.subarray(frame * doc.channelCount, (frame + 1) * doc.channelCount);
  for (let j = 0; j < J; j++) {
    const jt = doc.joints[j];
    const t = [...jt.offset];
    let r: Mat4 = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    jt.channels.forEach((ch, k) => {
      const x = v[jt.channelStart + k];
      if (ch.endsWith('position')) t['XYZ'.indexOf(ch[0])] += x;
      else if (ch.endsWith('rotation')) r = mul(r, rotation(ch[0] as 'X' | 'Y' | 'Z', x));
    });
    r[12] = t[0];
    r[13] = t[1];
    r[14] = t[2];
    world[j] = jt.parent < 0 ? r : mul(world[jt.parent], r);
    out.set([world[j][12], world[j][13], world[j][14]], j * 3);
  }
  return out;
}
