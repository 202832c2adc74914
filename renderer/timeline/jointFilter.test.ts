import { describe, expect, it } from 'vitest';
import { chainOf, foldedForSelection, rowOfJoint, shownJointRows, timelineRows, type TimelineRow } from './jointFilter';

const cmu = [
  'Hips',
  'LHipJoint',
  'LeftUpLeg',
  'LeftLeg',
  'LeftFoot',
  'LeftToeBase',
  'RHipJoint',
  'RightUpLeg',
  'RightLeg',
  'RightFoot',
  'RightToeBase',
  'LowerBack',
  'Spine',
  'Spine1',
  'Neck',
  'Neck1',
  'Head',
  'LeftShoulder',
  'LeftArm',
  'LeftForeArm',
  'LeftHand',
  'LeftFingerBase',
  'LeftHandIndex1',
  'LThumb',
  'RightShoulder',
  'RightArm',
  'RightForeArm',
  'RightHand',
  'RightFingerBase',
  'RightHandIndex1',
  'RThumb',
];

describe('timeline joint filter', () => {
  it('no filter: the root translation row and every joint in skeleton order', () => {
    expect(shownJointRows(cmu, { text: '', chain: null })).toEqual([-1, ...cmu.map((_, j) => j)]);
  });
  it('a name filter keeps the joints whose names contain any word, case-insensitive', () => {
    expect(shownJointRows(cmu, { text: 'foot', chain: null }).map((j) => cmu[j])).toEqual(['LeftFoot', 'RightFoot']);
    expect(shownJointRows(cmu, { text: 'TOE hand', chain: null }).map((j) => cmu[j])).toEqual([
      'LeftToeBase',
      'RightToeBase',
      'LeftHand',
      'LeftHandIndex1',
      'RightHand',
      'RightHandIndex1',
    ]);
    expect(shownJointRows(cmu, { text: 'root', chain: null })).toEqual([-1]);
  });
  it('a chain keeps its joints (the 31-joint CMU skeleton), and a name filter narrows it', () => {
    const legs = shownJointRows(cmu, { text: '', chain: 'legs' }).map((j) => cmu[j]);
    expect(legs).toEqual([
      'LeftUpLeg',
      'LeftLeg',
      'LeftFoot',
      'LeftToeBase',
      'RightUpLeg',
      'RightLeg',
      'RightFoot',
      'RightToeBase',
    ]);
    const arms = shownJointRows(cmu, { text: '', chain: 'arms' }).map((j) => cmu[j]);
    expect(arms).toEqual([
      'LeftShoulder',
      'LeftArm',
      'LeftForeArm',
      'LeftHand',
      'LeftFingerBase',
      'LeftHandIndex1',
      'LThumb',
      'RightShoulder',
      'RightArm',
      'RightForeArm',
      'RightHand',
      'RightFingerBase',
      'RightHandIndex1',
      'RThumb',
    ]);
    expect(shownJointRows(cmu, { text: '', chain: 'spine' }).map((j) => cmu[j])).toEqual([
      'Hips',
      'Spine',
      'Spine1',
      'Neck',
      'Neck1',
      'Head',
    ]);
    expect(shownJointRows(cmu, { text: 'left', chain: 'legs' }).map((j) => cmu[j])).toEqual([
      'LeftUpLeg',
      'LeftLeg',
      'LeftFoot',
      'LeftToeBase',
    ]);
  });
});

describe('timeline rows grouped by chain', () => {
  const none = { text: '', chain: null };
  const shape = (rows: TimelineRow[]) =>
    rows.map((r) =>
      r.kind === 'group'
        ? `[${r.group}${r.folded ? '+' : '-'}${r.joints.length}]`
        : r.joint < 0
          ? 'root'
          : cmu[r.joint],
    );

  it('ungrouped: the joint rows of the filter, as before', () => {
    expect(timelineRows(cmu, none, { grouped: false, folded: ['legs'] })).toEqual(
      shownJointRows(cmu, none).map((joint) => ({ kind: 'joint', joint })),
    );
  });

  it('grouped: the root row, then spine, arms, legs and the other joints under their headers', () => {
    const rows = shape(timelineRows(cmu, none, { grouped: true, folded: [] }));
    expect(rows.slice(0, 9)).toEqual([
      'root',
      '[spine-6]',
      'Hips',
      'Spine',
      'Spine1',
      'Neck',
      'Neck1',
      'Head',
      '[arms-14]',
    ]);
    expect(rows.filter((r) => r.startsWith('['))).toEqual(['[spine-6]', '[arms-14]', '[legs-8]', '[other-3]']);
    expect(rows.slice(rows.indexOf('[other-3]'))).toEqual(['[other-3]', 'LHipJoint', 'RHipJoint', 'LowerBack']);
    expect(rows.length).toBe(1 + 4 + 31);
  });

  it('a folded group shows its header only; a filter leaves out empty groups', () => {
    const rows = timelineRows(cmu, none, { grouped: true, folded: ['arms', 'legs'] });
    expect(shape(rows)).toEqual([
      'root',
      '[spine-6]',
      'Hips',
      'Spine',
      'Spine1',
      'Neck',
      'Neck1',
      'Head',
      '[arms+14]',
      '[legs+8]',
      '[other-3]',
      'LHipJoint',
      'RHipJoint',
      'LowerBack',
    ]);
    // A joint in a folded group is shown by its group's header.
    expect(rowOfJoint(rows, cmu.indexOf('LeftFoot'))).toBe(9);
    expect(rowOfJoint(rows, cmu.indexOf('Neck'))).toBe(5);
    expect(shape(timelineRows(cmu, { text: 'foot', chain: null }, { grouped: true, folded: [] }))).toEqual([
      '[legs-2]',
      'LeftFoot',
      'RightFoot',
    ]);
  });

  it("Legs keeps the thighs of a skeleton that names them LeftHip / RightHip (assimp's Boxing_Toes.bvh)", () => {
    const boxing = ['Hips', 'Ab', 'Chest', 'LeftHip', 'LeftKnee', 'LeftAnkle', 'LeftToes', 'RightHip', 'r_hip', 'Hip'];
    expect(shownJointRows(boxing, { text: '', chain: 'legs' }).map((j) => boxing[j])).toEqual([
      'LeftHip',
      'LeftKnee',
      'LeftAnkle',
      'LeftToes',
      'RightHip',
      'r_hip',
    ]);
    expect(boxing.map(chainOf)).toEqual([
      'spine',
      'other',
      'spine',
      'legs',
      'legs',
      'legs',
      'legs',
      'legs',
      'legs',
      'other',
    ]);
  });

  it('puts each joint in one chain', () => {
    expect(['Hips', 'LeftUpLeg', 'LeftShoulder', 'LHipJoint', 'LowerBack'].map(chainOf)).toEqual([
      'spine',
      'legs',
      'arms',
      'other',
      'other',
    ]);
  });
});

describe('foldedForSelection (tried cold, round 18)', () => {
  const rows = (folded: string[]) => timelineRows(cmu, { text: '', chain: null }, { grouped: true, folded });
  const leftFoot = cmu.indexOf('LeftFoot');

  it('folds every chain but the selected joint’s when the rows do not fit', () => {
    expect(foldedForSelection(rows([]), leftFoot, 8, false)).toEqual(['spine', 'arms', 'other']);
    // The root translation is in no chain: on grouping, the first chain is the one open.
    expect(foldedForSelection(rows([]), -1, 8, false)).toEqual(['arms', 'legs', 'other']);
  });

  it('leaves the folds as they are when every row fits, or when they are the ones wanted already', () => {
    expect(foldedForSelection(rows([]), leftFoot, 100, false)).toBeUndefined();
    expect(foldedForSelection(rows(['other', 'arms', 'spine']), leftFoot, 8, false)).toBeUndefined();
  });

  it('on a selection, acts only when the joint’s chain is folded', () => {
    // LeftFoot's chain is open: a click on its row moves no row under the pointer.
    expect(foldedForSelection(rows([]), leftFoot, 8, true)).toBeUndefined();
    expect(foldedForSelection(rows(['legs']), leftFoot, 8, true)).toEqual(['spine', 'arms', 'other']);
    expect(foldedForSelection(rows(['legs']), -1, 8, true)).toBeUndefined();
  });
});
