import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import { JointPart, emptyMotion } from '../motion/types';
import { encodeUtf8 } from './gltf/glb';
import { motionToGlb } from './gltf/export';
import { importMotionBytes, motionSourceKind } from './importMotion';
import { HIPS_AND_LEG_BVH } from '../testing/bvhFixtures';

describe('importMotionBytes (File > Import)', () => {
  it('detects the format from the name or the content', () => {
    expect(motionSourceKind(encodeUtf8(HIPS_AND_LEG_BVH), 'walk.bvh')).toBe('bvh');
    expect(motionSourceKind(encodeUtf8(HIPS_AND_LEG_BVH), 'walk.txt')).toBe('bvh');
    const glb = motionToGlb(
      emptyMotion(1, [{ name: 'Hips', parent: -1, mirror: 0, part: JointPart.LOWER, reserved: 0 }]),
    );
    expect(motionSourceKind(glb, 'anything')).toBe('gltf');
    expect(motionSourceKind(new Uint8Array([1, 2, 3]), 'notes.txt')).toBeUndefined();
  });

  it('imports BVH and glTF bytes to a motion with warnings', async () => {
    const a = await importMotionBytes(encodeUtf8(HIPS_AND_LEG_BVH), 'walk.bvh', { fps: 30 });
    expect(a.motion.joints.map((j) => j.name)).toEqual(['Hips', 'LeftUpLeg']);
    expect(a.motion.frameCount).toBe(2);
    expect(a.motion.translation[2 * 4 + 2]).toBeCloseTo(8, 5);
    const b = await importMotionBytes(motionToGlb(a.motion), 'walk.glb');
    expect(b.motion.joints).toEqual(a.motion.joints);
  });

  it('names the file in every error', async () => {
    const e1 = await importMotionBytes(
      encodeUtf8(HIPS_AND_LEG_BVH.replace('Frames: 3', 'Frames: 4')),
      'walk.bvh',
    ).catch((e) => e);
    expect(e1).toBeInstanceOf(FormatError);
    expect(e1.message).toMatch(/^walk\.bvh:\d+:\d+: file ends after 3 of the 4 frames/);
    const e2 = await importMotionBytes(new Uint8Array([1, 2, 3]), 'notes.txt').catch((e) => e);
    expect(e2).toBeInstanceOf(FormatError);
    expect(e2.file).toBe('notes.txt');
  });
});
