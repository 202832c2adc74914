import { describe, expect, it } from 'vitest';
import { jointTreeRows, treeKeyTarget } from './jointTree';

// Hips > (Spine > (Neck > Head, LeftArm > LeftHand), LeftLeg > LeftFoot)
const names = ['Hips', 'Spine', 'Neck', 'Head', 'LeftArm', 'LeftHand', 'LeftLeg', 'LeftFoot'];
const parents = [-1, 0, 1, 2, 1, 4, 0, 6];
const shown = (rows: ReturnType<typeof jointTreeRows>) =>
  rows.map((r) => `${'-'.repeat(r.depth)}${names[r.joint]}${r.hasChildren ? (r.open ? 'v' : '>') : ''}`);

describe('joint tree', () => {
  it('lists each joint under its parent, depth first in skeleton order', () => {
    expect(shown(jointTreeRows(parents, names, new Set(), ''))).toEqual([
      'Hipsv',
      '-Spinev',
      '--Neckv',
      '---Head',
      '--LeftArmv',
      '---LeftHand',
      '-LeftLegv',
      '--LeftFoot',
    ]);
  });

  it('hides the subtree of a folded joint', () => {
    expect(shown(jointTreeRows(parents, names, new Set([1]), ''))).toEqual([
      'Hipsv',
      '-Spine>',
      '-LeftLegv',
      '--LeftFoot',
    ]);
  });

  it('filters to the matching joints and their ancestors, unfolded, marking the matches', () => {
    const rows = jointTreeRows(parents, names, new Set([0, 1]), 'hand FOOT');
    expect(shown(rows)).toEqual(['Hipsv', '-Spinev', '--LeftArmv', '---LeftHand', '-LeftLegv', '--LeftFoot']);
    expect(rows.filter((r) => r.match).map((r) => names[r.joint])).toEqual(['LeftHand', 'LeftFoot']);
    expect(jointTreeRows(parents, names, new Set(), 'tail')).toEqual([]);
  });

  it('moves with the keys: up and down by row, left to the parent, Home and End', () => {
    const rows = jointTreeRows(parents, names, new Set(), '');
    expect(treeKeyTarget(rows, parents, 3, 'ArrowDown')).toBe(4);
    expect(treeKeyTarget(rows, parents, 7, 'ArrowDown')).toBe(7);
    expect(treeKeyTarget(rows, parents, 0, 'ArrowUp')).toBe(0);
    // LeftHand (row 5) -> LeftArm (row 4); Hips has no parent: stays.
    expect(treeKeyTarget(rows, parents, 5, 'ArrowLeft')).toBe(4);
    expect(treeKeyTarget(rows, parents, 0, 'ArrowLeft')).toBe(0);
    expect(treeKeyTarget(rows, parents, 3, 'End')).toBe(7);
    expect(treeKeyTarget(rows, parents, 3, 'Home')).toBe(0);
  });
});
