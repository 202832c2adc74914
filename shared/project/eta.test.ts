import { describe, expect, it } from 'vitest';
import { BuildEta, formatEta } from './eta';

describe('BuildEta', () => {
  it('projects the time left from the weight done, ignoring motions outside the set', () => {
    const eta = new BuildEta(new Map([[0, 100], [1, 300], [3, 600]]), 1000);
    expect(eta.remainingMs(1500)).toBeNull();
    eta.done(1);
    // 300 of 1000 weight in 3000 ms: 700 more take 7000 ms.
    expect(eta.remainingMs(4000)).toBe(7000);
    eta.done(1); // counted once
    eta.done(2); // a cached motion: not part of the estimate
    expect(eta.remainingMs(4000)).toBe(7000);
    eta.done(0);
    eta.done(3);
    expect(eta.remainingMs(9000)).toBe(0);
    expect(new BuildEta(new Map(), 0).remainingMs(5)).toBe(0);
  });

  it('formats seconds and minutes', () => {
    expect(formatEta(null)).toBe('…');
    expect(formatEta(12_400)).toBe('12 s');
    expect(formatEta(65_000)).toBe('1:05');
  });
});
