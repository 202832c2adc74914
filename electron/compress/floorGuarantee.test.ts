/**
 * The compressor's one promise at the precision floor (docs/compression.md#the-guarantee), at 30 fps: in every
 * mode, every frame that is not a key of its channel is within that channel's tolerance, checked on the written
 * bytes with the independent decoder; a key over it is named by a warning and listed by the summary with its real
 * frame and error. Every bundled capture, every frame, the runs of electron/testing/floorGuarantee.ts (the 120 fps
 * half is floorGuarantee120.test.ts, a file of its own so that the two run side by side).
 */
import { describe, it } from 'vitest';
import { checkFloor, floorCaptures } from '../testing/floorGuarantee';

describe('every frame that is not a key is within tolerance, at the precision floor, in every mode, 30 fps', () => {
  for (const [name, load] of floorCaptures()) it(`${name} at 30 fps, every frame`, () => checkFloor(load(30)), 240_000);
});
