import { describe, expect, it } from 'vitest';
import { guessBodyParts, guessMirrorPairs, mirroredName } from './mirror';

describe('mirror guessing', () => {
  it('pairs Left/Right, L/R prefixes and suffixes, glued l/r prefixes', () => {
    expect(mirroredName('LeftArm')).toBe('RightArm');
    expect(mirroredName('mixamorig:RightHand')).toBe('mixamorig:LeftHand');
    expect(mirroredName('arm_left')).toBe('arm_right');
    expect(mirroredName('L_Thigh')).toBe('R_Thigh');
    expect(mirroredName('hand_r')).toBe('hand_l');
    expect(mirroredName('upperarm.L')).toBe('upperarm.R');
    expect(mirroredName('Bip01 L Calf')).toBe('Bip01 R Calf');
    expect(mirroredName('LHipJoint')).toBe('RHipJoint');
    expect(mirroredName('lShldr')).toBe('rShldr');
    expect(mirroredName('Leg')).toBeUndefined();
    expect(mirroredName('Spine')).toBeUndefined();
    expect(mirroredName('Root')).toBeUndefined();
  });

  it('makes symmetric pairs only when the counterpart exists', () => {
    const names = ['Hips', 'LHipJoint', 'RHipJoint', 'lShldr', 'rShldr', 'LeftHand', 'Spine', 'Lfoo'];
    const m = guessMirrorPairs(names);
    expect(m).toEqual([0, 2, 1, 4, 3, 5, 6, 7]);
  });

  it('puts the root, the path to the legs and the legs in the lower body', () => {
    const names = ['Root', 'Pelvis', 'Spine', 'Head', 'L_Thigh', 'L_Calf', 'L_Foot', 'L_FootNub', 'R_Thigh', 'LeftArm'];
    const parents = [-1, 0, 1, 2, 1, 4, 5, 6, 1, 2];
    expect(guessBodyParts(names, parents)).toEqual([0, 0, 1, 1, 0, 0, 0, 0, 0, 1]);
  });
});
