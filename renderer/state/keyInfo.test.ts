import { describe, it, expect } from 'vitest';
import { createDocumentStore } from './documentStore';
import { lockRangesOf, traceFramesOf } from './keyInfo';
import { emptyMotion } from '../../shared/motion/types';

describe('key info views', () => {
  it('lists lock ranges per joint run and trace frames as edited', () => {
    const joints = ['a', 'b', 'c'].map((name, i) => ({ parent: i - 1, mirror: i, part: 0, reserved: 0, name }));
    const s = createDocumentStore();
    s.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'm',
      path: 'm.mtn',
      motion: emptyMotion(30, joints),
    });
    s.getState().locks.setRange(1, 3, 6);
    s.getState().locks.setRange(2, 7, 9);
    s.getState().locks.setRange(1, 20, 20);
    s.getState().trace.toggle(12);
    s.getState().trace.toggle(4);
    const m = s.getState().motion!;
    expect(lockRangesOf(m)).toEqual([
      { joint: 1, first: 3, last: 6 },
      { joint: 2, first: 7, last: 9 },
      { joint: 1, first: 20, last: 20 },
    ]);
    expect(traceFramesOf(m)).toEqual([4, 12]);
  });
});
