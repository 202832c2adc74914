import { describe, expect, it } from 'vitest';
import { BuildEta, formatEta } from './eta';

describe('BuildEta', () => {
  it('projects the time left from the weight done, ignoring motions outside the set', () => {
    const eta = new BuildEta(
      new Map([
        [0, 100],
        [1, 300],
        [3, 600],
      ]),
      1000,
    );
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

  it('drops a motion found in the cache after the clock started: it weighs nothing, once, and never after it was done', () => {
    const eta = new BuildEta(
      new Map([
        [0, 100],
        [1, 300],
        [2, 600],
      ]),
      0,
    );
    eta.drop(2);
    eta.drop(2);
    eta.done(1);
    // 300 of the 400 left in 3000 ms: 100 more take 1000 ms.
    expect(eta.remainingMs(3000)).toBe(1000);
    eta.done(2); // dropped: not counted as work done
    expect(eta.remainingMs(3000)).toBe(1000);
    eta.drop(1); // already done: stays in the estimate
    expect(eta.remainingMs(3000)).toBe(1000);
    eta.done(0);
    expect(eta.remainingMs(4000)).toBe(0);
  });

  it('formats seconds and minutes', () => {
    expect(formatEta(null)).toBe('…');
    expect(formatEta(12_400)).toBe('12 s');
    expect(formatEta(65_000)).toBe('1:05');
  });
});
