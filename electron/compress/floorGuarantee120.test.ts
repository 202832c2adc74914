/**
 * floorGuarantee.test.ts at 120 fps: every bundled capture, every frame (01_03 is 4,511 frames there), the runs of
 * electron/testing/floorGuarantee.ts. Until 2026-12-05 a 120 fps clip was cut to its first 600 frames for CI time;
 * the compressor and the check have since become fast enough to take them whole (docs/testing.md#the-floor-test).
 */
import { describe, it } from 'vitest';
import { checkFloor, floorCaptures } from '../testing/floorGuarantee';

describe('every frame that is not a key is within tolerance, at the precision floor, in every mode, 120 fps', () => {
  for (const [name, load] of floorCaptures())
    it(`${name} at 120 fps, every frame`, () => checkFloor(load(120)), 600_000);
});
