import type { HeadVerdict, ImpliedSize } from '../binarySize';
import { FormatError } from '../errors';
import { makeJoint, makeMotion, type JointInfo, type Motion } from '../motion/types';
import {
  MTN_HEADER_SIZE,
  MTN_MAGIC,
  MTN_MAX_FRAMES,
  MTN_MAX_JOINTS,
  MTN_NAME_SIZE,
  MTN_SKELETON_ENTRY,
  MTN_VECTOR,
  MTN_VERSION,
  mtnByteSize,
} from './constants';
import { validateMotion } from './validate';

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The MTN header check (docs/formats.md 1): magic, version, frame and joint counts, and the size they imply
 * (shared/binarySize.ts). readMtn runs it first; the main process runs it on the first 32 bytes of a file before
 * it reads the rest.
 */
export function mtnSizeFromHead(head: Uint8Array, fileSize: number): HeadVerdict {
  const fail = (detail: string, offset?: number): never => {
    throw new FormatError('MTN', detail, { offset, where: 'header' });
  };
  if (fileSize < MTN_HEADER_SIZE) fail(`file is ${fileSize} bytes, shorter than the ${MTN_HEADER_SIZE}-byte header`, 0);
  if (head.byteLength < MTN_HEADER_SIZE) return { needHead: MTN_HEADER_SIZE };
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const magic = dv.getUint32(0, true);
  if (magic !== MTN_MAGIC) fail(`bad magic: expected "MTN\\0", found ${hexBytes(head, 0, 4)}`, 0);
  const version = dv.getUint32(4, true);
  if (version !== MTN_VERSION) fail(`unsupported version ${version} (expected ${MTN_VERSION})`, 4);
  const N = dv.getUint32(8, true);
  if (N < 1 || N > MTN_MAX_FRAMES) fail(`frameCount ${N} outside 1..${MTN_MAX_FRAMES}`, 8);
  const J = dv.getUint32(12, true);
  if (J < 1 || J > MTN_MAX_JOINTS) fail(`jointCount ${J} outside 1..${MTN_MAX_JOINTS}`, 12);
  const size = mtnByteSize(N, J);
  return {
    size,
    disagree: (actual) =>
      new FormatError(
        'MTN',
        `file is ${actual} bytes but its header (${N} frames, ${J} joints) implies ${size} bytes`,
        { where: 'header' },
      ),
  };
}

/**
 * Reads an MTN v1 file (docs/formats.md 1). Every count is checked against the file
 * size before anything is allocated; the decoded motion is then validated.
 * Throws FormatError (kind MTN) naming the section, frame, joint or offset.
 */
export function readMtn(bytes: Uint8Array): Motion {
  const fail = (detail: string, offset?: number, where?: string): never => {
    throw new FormatError('MTN', detail, { offset, where });
  };
  const implied = mtnSizeFromHead(bytes, bytes.byteLength) as ImpliedSize;
  if (bytes.byteLength !== implied.size) throw implied.disagree(bytes.byteLength);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const N = dv.getUint32(8, true);
  const J = dv.getUint32(12, true);

  const flags = dv.getUint32(16, true);
  const waistJoint = dv.getInt32(20, true);
  const fps = dv.getFloat32(24, true);
  const headerReserved = dv.getUint32(28, true);

  let off = MTN_HEADER_SIZE;
  const joints: JointInfo[] = [];
  for (let j = 0; j < J; j++, off += MTN_SKELETON_ENTRY) {
    joints.push(
      makeJoint({
        parent: dv.getInt32(off, true),
        mirror: dv.getInt32(off + 4, true),
        part: dv.getUint32(off + 8, true),
        reserved: dv.getUint32(off + 12, true),
        name: '',
      }),
    );
  }
  for (let j = 0; j < J; j++, off += MTN_NAME_SIZE) {
    const raw = bytes.subarray(off, off + MTN_NAME_SIZE);
    const end = raw.indexOf(0);
    if (end < 0) fail(`joint ${j} name is not NUL-terminated within 32 bytes`, off, `names joint ${j}`);
    for (let k = end; k < MTN_NAME_SIZE; k++)
      if (raw[k] !== 0)
        fail(`joint ${j} name has bytes after its NUL terminator (names are NUL-padded)`, off + k, `names joint ${j}`);
    let name = '';
    for (let k = 0; k < end; k++) {
      if (raw[k] < 0x20 || raw[k] > 0x7e)
        fail(`joint ${j} name has a non-ASCII byte 0x${raw[k].toString(16)}`, off + k, `names joint ${j}`);
      name += String.fromCharCode(raw[k]);
    }
    joints[j].name = name;
  }

  const S = N + 1;
  // On a little-endian host the samples are copied as bytes (the same values: every read of a motion, and so
  // every CLI run, pays for this); elsewhere they are read value by value.
  const f32 = (count: number) => {
    const out = new Float32Array(count);
    if (LITTLE_ENDIAN_HOST) new Uint8Array(out.buffer).set(bytes.subarray(off, off + count * 4));
    else for (let i = 0; i < count; i++) out[i] = dv.getFloat32(off + i * 4, true);
    off += count * 4;
    return out;
  };
  const u32 = (count: number) => {
    const out = new Uint32Array(count);
    if (LITTLE_ENDIAN_HOST) new Uint8Array(out.buffer).set(bytes.subarray(off, off + count * 4));
    else for (let i = 0; i < count; i++) out[i] = dv.getUint32(off + i * 4, true);
    off += count * 4;
    return out;
  };
  const translation = f32(S * 4);
  const rotation = f32(S * J * 4);
  const offset = f32(S * J * 4);
  const translationKeyInfo = u32(S * 4);
  const jointKeyInfo = u32(S * J * 4);
  void MTN_VECTOR;

  const motion = makeMotion({
    frameCount: N,
    flags,
    waistJoint,
    fps,
    headerReserved,
    joints,
    translation,
    rotation,
    offset,
    translationKeyInfo,
    jointKeyInfo,
  });
  validateMotion(motion);
  return motion;
}

function hexBytes(b: Uint8Array, at: number, n: number): string {
  return Array.from(b.subarray(at, at + n), (x) => x.toString(16).padStart(2, '0')).join(' ');
}
