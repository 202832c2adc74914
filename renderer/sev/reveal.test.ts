import { describe, expect, it } from 'vitest';
import { revealScrollTop } from './reveal';

describe('revealScrollTop: the least scroll that shows a block in its column', () => {
  const view = { top: 600, bottom: 740, scrollTop: 10 };
  it('leaves a block already whole in view where it is', () => {
    expect(revealScrollTop(view, { top: 620, bottom: 700 })).toBe(10);
    expect(revealScrollTop(view, { top: 600, bottom: 740 })).toBe(10);
  });
  it('brings a block below up to the bottom edge', () => {
    expect(revealScrollTop(view, { top: 730, bottom: 830 })).toBe(100);
  });
  it('brings a block above down to the top edge', () => {
    expect(revealScrollTop({ ...view, scrollTop: 100 }, { top: 560, bottom: 620 })).toBe(60);
    expect(revealScrollTop(view, { top: 560, bottom: 620 })).toBe(0);
  });
  it('puts the top of a block taller than the column at its top (its heading first)', () => {
    expect(revealScrollTop(view, { top: 760, bottom: 940 })).toBe(170);
  });
});
