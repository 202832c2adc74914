import { describe, it, expect } from 'vitest';
import { createDocumentStore } from '../state/documentStore';
import { emptyMotion } from '../../shared/motion/types';
import { lockRowTitle } from './timelinePainter';

describe('lockRowTitle', () => {
  it('names the lock under the pointer whole, or says what a drag there does', () => {
    const joints = ['Hips', 'LeftFoot', 'RightFoot'].map((name, i) => ({
      parent: i - 1,
      mirror: i,
      part: 0,
      reserved: 0,
      name,
    }));
    const s = createDocumentStore();
    s.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'm',
      path: 'm.mtn',
      motion: emptyMotion(30, joints),
    });
    s.getState().locks.setRange(1, 5, 12);
    s.getState().locks.setRange(2, 20, 20);
    const m = s.getState().motion!;
    expect(lockRowTitle(m, 5, 0)).toBe('LeftFoot locked at frames 5–12 · drag over it with LeftFoot selected to clear');
    expect(lockRowTitle(m, 12, 2)).toBe(
      'LeftFoot locked at frames 5–12 · drag over it with LeftFoot selected to clear',
    );
    expect(lockRowTitle(m, 20, 0)).toBe('RightFoot locked at frame 20 · drag over it with RightFoot selected to clear');
    expect(lockRowTitle(m, 13, 2)).toBe(
      'Frame 13 · drag to lock RightFoot (the selected joint) over the frames dragged',
    );
    expect(lockRowTitle(m, 13, -1)).toBe('Frame 13 · select a joint, then drag here to lock it');
  });
});
