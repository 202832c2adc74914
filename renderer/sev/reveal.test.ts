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
  it('with clearAbove, puts a block below on the top edge when less than that would stay in view above it', () => {
    // Brought to the bottom edge, 40 px of what precedes it would show above it: under 48, so it goes to the top.
    expect(revealScrollTop(view, { top: 740, bottom: 840 }, 48)).toBe(150);
    // 40 px or less to clear: the least scroll, as without.
    expect(revealScrollTop(view, { top: 740, bottom: 840 }, 40)).toBe(110);
    expect(revealScrollTop(view, { top: 740, bottom: 840 })).toBe(110);
    // Whole in view, above, or taller than the column: as without.
    expect(revealScrollTop(view, { top: 620, bottom: 700 }, 48)).toBe(10);
    expect(revealScrollTop(view, { top: 560, bottom: 620 }, 48)).toBe(0);
    expect(revealScrollTop(view, { top: 760, bottom: 940 }, 48)).toBe(170);
  });
});
