import { describe, expect, it } from 'vitest';
import { shownJointRows } from './jointFilter';

const cmu = ['Hips', 'LHipJoint', 'LeftUpLeg', 'LeftLeg', 'LeftFoot', 'LeftToeBase', 'RHipJoint', 'RightUpLeg', 'RightLeg', 'RightFoot', 'RightToeBase',
  'LowerBack', 'Spine', 'Spine1', 'Neck', 'Neck1', 'Head', 'LeftShoulder', 'LeftArm', 'LeftForeArm', 'LeftHand', 'LeftFingerBase', 'LeftHandIndex1',
  'LThumb', 'RightShoulder', 'RightArm', 'RightForeArm', 'RightHand', 'RightFingerBase', 'RightHandIndex1', 'RThumb'];

describe('timeline joint filter', () => {
  it('no filter: the root translation row and every joint in skeleton order', () => {
    expect(shownJointRows(cmu, { text: '', chain: null })).toEqual([-1, ...cmu.map((_, j) => j)]);
  });
  it('a name filter keeps the joints whose names contain any word, case-insensitive', () => {
    expect(shownJointRows(cmu, { text: 'foot', chain: null }).map((j) => cmu[j])).toEqual(['LeftFoot', 'RightFoot']);
    expect(shownJointRows(cmu, { text: 'TOE hand', chain: null }).map((j) => cmu[j])).toEqual(['LeftToeBase', 'RightToeBase', 'LeftHand', 'LeftHandIndex1', 'RightHand', 'RightHandIndex1']);
    expect(shownJointRows(cmu, { text: 'root', chain: null })).toEqual([-1]);
  });
  it('a chain keeps its joints (the 31-joint CMU skeleton), and a name filter narrows it', () => {
    const legs = shownJointRows(cmu, { text: '', chain: 'legs' }).map((j) => cmu[j]);
    expect(legs).toEqual(['LeftUpLeg', 'LeftLeg', 'LeftFoot', 'LeftToeBase', 'RightUpLeg', 'RightLeg', 'RightFoot', 'RightToeBase']);
    const arms = shownJointRows(cmu, { text: '', chain: 'arms' }).map((j) => cmu[j]);
    expect(arms).toEqual(['LeftShoulder', 'LeftArm', 'LeftForeArm', 'LeftHand', 'LeftFingerBase', 'LeftHandIndex1', 'LThumb', 'RightShoulder', 'RightArm', 'RightForeArm', 'RightHand', 'RightFingerBase', 'RightHandIndex1', 'RThumb']);
    expect(shownJointRows(cmu, { text: '', chain: 'spine' }).map((j) => cmu[j])).toEqual(['Hips', 'Spine', 'Spine1', 'Neck', 'Neck1', 'Head']);
    expect(shownJointRows(cmu, { text: 'left', chain: 'legs' }).map((j) => cmu[j])).toEqual(['LeftUpLeg', 'LeftLeg', 'LeftFoot', 'LeftToeBase']);
  });
});
