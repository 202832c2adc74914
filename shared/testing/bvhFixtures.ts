/**
 * The BVH captures tests import (one place for them; a parser test's deliberately broken text stays beside
 * its assertion). Every one is 30 fps (Frame Time 0.0333333) with Hips as its root.
 */

/** Hips with a Spine and an End Site above it; one frame per row of nine values (root position and rotation, Spine rotation, ZXY). */
export function spineBvh(rows: readonly string[]): string {
  return `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 5 0
    }
  }
}
MOTION
Frames: ${rows.length}
Frame Time: 0.0333333
${rows.join('\n')}
`;
}

/** spineBvh of 5 frames: the root walks and turns, the Spine bends. */
export const SMALL_BVH = spineBvh([
  '0 90 0 0 0 0 0 0 0',
  '1 90 2 5 0 0 10 0 0',
  '2 91 4 10 0 0 20 5 0',
  '3 90 6 15 0 0 30 10 0',
  '4 90 8 20 0 0 40 15 0',
]);

/** Hips alone with an End Site, 2 frames: the smallest capture an import accepts. */
export const ROOT_ONLY_BVH = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  End Site
  {
    OFFSET 0 5 0
  }
}
MOTION
Frames: 2
Frame Time: 0.0333333
0 90 0 0 0 0
1 90 2 5 0 0
`;

/** Hips with a LeftUpLeg below it, 3 frames: the leg swings. */
export const HIPS_AND_LEG_BVH = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT LeftUpLeg
  {
    OFFSET 9 -5 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 -40 0
    }
  }
}
MOTION
Frames: 3
Frame Time: 0.0333333
0 90 0 0 0 0 0 10 0
0 90 4 0 0 0 0 20 0
0 90 8 0 0 0 0 30 0
`;
