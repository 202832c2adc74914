import { describe, expect, it } from 'vitest';
import { effectiveDurationMs, frameRateMismatch, snapFrameRate, STANDARD_FRAME_RATES } from './frameRate';

describe('snapFrameRate', () => {
  it('snaps within 0.01 % of every standard rate, and only there', () => {
    for (const r of STANDARD_FRAME_RATES) {
      expect(snapFrameRate(r)).toEqual({ rate: r });
      expect(snapFrameRate(r * (1 + 0.99e-4))).toEqual({ rate: r, snappedFrom: r * (1 + 0.99e-4) });
      expect(snapFrameRate(r * (1 - 0.99e-4))).toEqual({ rate: r, snappedFrom: r * (1 - 0.99e-4) });
      expect(snapFrameRate(r * (1 + 1.01e-4)).rate).not.toBe(r);
    }
    expect(snapFrameRate(1 / 0.0083333)).toEqual({ rate: 120, snappedFrom: 1 / 0.0083333 });
    expect(snapFrameRate(29.97)).toEqual({ rate: 29.97 });
    expect(snapFrameRate(72.000001)).toEqual({ rate: 72.000001 });
  });
});

describe('effectiveDurationMs', () => {
  it('is round(frames / fps / speed * 1000)', () => {
    expect(effectiveDurationMs(30, 30, 1)).toBe(1000);
    expect(effectiveDurationMs(687, 30, 1)).toBe(22900);
    expect(effectiveDurationMs(30, 30, 1.5)).toBe(667);
    expect(effectiveDurationMs(1, 30, 0.5)).toBe(67);
    expect(effectiveDurationMs(2147483, 1, 1)).toBe(2147483000);
  });

  it('refuses a result that is not finite, rounds to 0 or passes the signed 32-bit range', () => {
    expect(() => effectiveDurationMs(65535, 1e-300, 1e-10)).toThrow(/is not a finite number of milliseconds/);
    expect(() => effectiveDurationMs(1, 30, 100)).toThrow(/rounds to 0 ms/);
    expect(() => effectiveDurationMs(2147484, 1, 1)).toThrow(
      /2147484000 ms, past the signed 32-bit millisecond range \(2147483647\)/,
    );
    expect(effectiveDurationMs(1, 30, 66)).toBe(1); // 0.505 ms rounds up to 1
  });
});

describe('frameRateMismatch', () => {
  it('says nothing when the rates agree and names both rates and the speed change when not', () => {
    expect(frameRateMismatch(30, 30)).toBeUndefined();
    expect(frameRateMismatch(60, 30)).toContain('the motion is 60 fps but the game plays motions at 30 fps');
    expect(frameRateMismatch(24, 30)).toContain('1.25x speed');
  });
});
