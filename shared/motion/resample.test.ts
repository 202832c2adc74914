import { describe, expect, it } from 'vitest';
import { validateMotion } from '../mtn/validate';
import { syntheticMotion } from '../testing/syntheticMotion';
import { resampleMotion } from './resample';
import { KeyFlag } from './types';

describe('resampleMotion', () => {
  it('halves a 60 fps motion to 30 fps by taking every 2nd sample exactly', () => {
    const m = syntheticMotion({ frames: 40, joints: 4, seed: 11, offsets: true });
    m.fps = 60;
    const r = resampleMotion(m, 30);
    expect(r.fps).toBe(30);
    expect(r.frameCount).toBe(20);
    for (let f = 0; f <= 20; f++) {
      expect(Array.from(r.translation.subarray(f * 4, f * 4 + 4))).toEqual(Array.from(m.translation.subarray(2 * f * 4, 2 * f * 4 + 4)));
      for (let j = 0; j < 4; j++) {
        const a = Array.from(r.rotation.subarray((f * 4 + j) * 4, (f * 4 + j) * 4 + 4));
        const b = Array.from(m.rotation.subarray((2 * f * 4 + j) * 4, (2 * f * 4 + j) * 4 + 4));
        expect(a.map(Math.abs)).toEqual(b.map(Math.abs));
        expect(Array.from(r.offset.subarray((f * 4 + j) * 4, (f * 4 + j) * 4 + 4))).toEqual(Array.from(m.offset.subarray((2 * f * 4 + j) * 4, (2 * f * 4 + j) * 4 + 4)));
      }
    }
    validateMotion(r);
  });

  it('interpolates between samples when upsampling (lerp positions)', () => {
    const m = syntheticMotion({ frames: 10, joints: 2, seed: 5 });
    const r = resampleMotion(m, 60);
    expect(r.frameCount).toBe(20);
    expect(r.translation[4]).toBeCloseTo((m.translation[0] + m.translation[4]) / 2, 5);
  });

  it('carries user keys and trace keys to the nearest frame and keeps lock ranges whole, one lock per frame', () => {
    const m = syntheticMotion({ frames: 20, joints: 3, seed: 2 });
    m.translationKeyInfo.fill(0);
    m.jointKeyInfo.fill(0);
    m.fps = 60;
    m.translationKeyInfo[7 * 4] = KeyFlag.KEY | KeyFlag.TRACE | 0x100; // an unknown bit rides along
    m.jointKeyInfo[(9 * 3 + 1) * 4] = KeyFlag.KEY;
    for (let f = 12; f <= 15; f++) m.jointKeyInfo[(f * 3 + 2) * 4] = KeyFlag.LOCK;
    const down = resampleMotion(m, 30);
    expect(down.translationKeyInfo[4 * 4]).toBe(KeyFlag.KEY | KeyFlag.TRACE | 0x100); // frame 7 -> round(3.5) = 4
    expect(down.jointKeyInfo[(5 * 3 + 1) * 4]).toBe(KeyFlag.KEY); // 9 -> round(4.5) = 5
    const locked = (mm: typeof m, j: number) => Array.from({ length: mm.frameCount + 1 }, (_, f) => f).filter((f) => mm.jointKeyInfo[(f * 3 + j) * 4] & KeyFlag.LOCK);
    expect(locked(down, 2)).toEqual([6, 7, 8]);
    m.fps = 30;
    const up = resampleMotion(m, 60);
    expect(locked(up, 2)).toEqual([24, 25, 26, 27, 28, 29, 30]);
    validateMotion(up);
    validateMotion(down);
  });
});
