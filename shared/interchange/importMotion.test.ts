import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { JointPart, emptyMotion } from '../motion/types';
import { encodeUtf8 } from './gltf/glb';
import { motionToGlb } from './gltf/export';
import { importMotionBytes, motionSourceKind } from './importMotion';

const bvh = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 9 -5 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 -40 0
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.0333333
0 90 0 0 0 0 0 10 0
0 90 4 0 0 0 0 20 0
0 90 8 0 0 0 0 30 0
`;

describe('importMotionBytes (File > Import)', () => {
  it('detects the format from the name or the content', () => {
    expect(motionSourceKind(encodeUtf8(bvh), 'walk.bvh')).toBe('bvh');
    expect(motionSourceKind(encodeUtf8(bvh), 'walk.txt')).toBe('bvh');
    const glb = motionToGlb(emptyMotion(1, [{ name: 'Hips', parent: -1, mirror: 0, part: JointPart.LOWER, reserved: 0 }]));
    expect(motionSourceKind(glb, 'anything')).toBe('gltf');
    expect(motionSourceKind(new Uint8Array([1, 2, 3]), 'notes.txt')).toBeUndefined();
  });

  it('imports BVH and glTF bytes to a motion with warnings', async () => {
    const a = await importMotionBytes(encodeUtf8(bvh), 'walk.bvh', { fps: 30 });
    expect(a.motion.joints.map((j) => j.name)).toEqual(['Hips', 'LeftUpLeg']);
    expect(a.motion.frameCount).toBe(2);
    expect(a.motion.translation[2 * 4 + 2]).toBeCloseTo(8, 5);
    const b = await importMotionBytes(motionToGlb(a.motion), 'walk.glb');
    expect(b.motion.joints).toEqual(a.motion.joints);
  });

  it('names the file in every error', async () => {
    const e1 = await importMotionBytes(encodeUtf8(bvh.replace('Frames: 3', 'Frames: 4')), 'walk.bvh').catch((e) => e);
    expect(e1).toBeInstanceOf(FormatError);
    expect(e1.message).toMatch(/^walk\.bvh:\d+:\d+: file ends after 3 of the 4 frames/);
    const e2 = await importMotionBytes(new Uint8Array([1, 2, 3]), 'notes.txt').catch((e) => e);
    expect(e2).toBeInstanceOf(FormatError);
    expect(e2.file).toBe('notes.txt');
  });
});
