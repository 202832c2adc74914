import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../motion/types';
import { DEFAULT_FOOT_CONTACT_OPTIONS, detectFootContacts } from './footsteps';

/**
 * A left foot that is planted on frames `from..to` and otherwise rises 1.5
 * units a frame away from them (slow enough near the ends that only the
 * planted frames count as contact), capped at 20.
 */
function plantedOn(from: number, to: number, frames = 40) {
  const m = emptyMotion(frames, [
    { name: 'Hips', parent: -1, mirror: 0, part: 0, reserved: 0 },
    { name: 'LeftFoot', parent: 0, mirror: 1, part: 0, reserved: 0 },
  ]);
  for (let f = 0; f <= frames; f++) {
    const away = f < from ? from - f : f > to ? f - to : 0;
    m.translation[f * 4 + 1] = Math.min(20, 1.5 * away);
  }
  return m;
}

describe('footstep suggestions', () => {
  it('a contact of exactly the minimum length is suggested; one frame shorter is not', () => {
    const min = DEFAULT_FOOT_CONTACT_OPTIONS.minContactFrames;
    expect(detectFootContacts(plantedOn(10, 10 + min - 1))).toEqual([
      { side: 'L', frame: 10, endFrame: 10 + min - 1, joint: 1 },
    ]);
    expect(detectFootContacts(plantedOn(10, 10 + min - 2))).toEqual([]);
  });
});
