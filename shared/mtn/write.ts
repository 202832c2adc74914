import type { Motion } from '../motion/types';
import { MTN_HEADER_SIZE, MTN_MAGIC, MTN_NAME_SIZE, MTN_SKELETON_ENTRY, MTN_VERSION, mtnByteSize } from './constants';
import { validateMotion } from './validate';
import { refuseUnreadableSize } from '../binarySize';

/** Writes an MTN v1 file. Validates first, so a bad motion is never written. */
export function writeMtn(m: Motion): Uint8Array {
  // Before the samples are checked: a motion too large to read back is refused from its counts alone.
  refuseUnreadableSize('MTN', mtnByteSize(m.frameCount, m.joints.length));
  validateMotion(m);
  const N = m.frameCount;
  const J = m.joints.length;
  const size = mtnByteSize(N, J);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MTN_MAGIC, true);
  dv.setUint32(4, MTN_VERSION, true);
  dv.setUint32(8, N, true);
  dv.setUint32(12, J, true);
  dv.setUint32(16, m.flags >>> 0, true);
  dv.setInt32(20, m.waistJoint, true);
  dv.setFloat32(24, m.fps, true);
  dv.setUint32(28, m.headerReserved >>> 0, true);
  let off = MTN_HEADER_SIZE;
  for (const jt of m.joints) {
    dv.setInt32(off, jt.parent, true);
    dv.setInt32(off + 4, jt.mirror, true);
    dv.setUint32(off + 8, jt.part >>> 0, true);
    dv.setUint32(off + 12, jt.reserved >>> 0, true);
    off += MTN_SKELETON_ENTRY;
  }
  for (const jt of m.joints) {
    for (let k = 0; k < jt.name.length; k++) out[off + k] = jt.name.charCodeAt(k);
    off += MTN_NAME_SIZE;
  }
  for (const arr of [m.translation, m.rotation, m.offset]) {
    for (let i = 0; i < arr.length; i++) dv.setFloat32(off + i * 4, arr[i], true);
    off += arr.length * 4;
  }
  for (const arr of [m.translationKeyInfo, m.jointKeyInfo]) {
    for (let i = 0; i < arr.length; i++) dv.setUint32(off + i * 4, arr[i], true);
    off += arr.length * 4;
  }
  return out;
}
