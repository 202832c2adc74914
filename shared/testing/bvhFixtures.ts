/**
 * The BVH captures tests import (one place for them; a parser test's deliberately broken text stays beside
 * its assertion). Every one is 30 fps (Frame Time 0.0333333) with Hips as its root.
 */

/**
 * Hips with a Spine and an End Site above it; one frame per row of nine values (root position and rotation, Spine
 * rotation, ZXY). The hips' OFFSET is `hipsOffset`.
 */
export function spineBvh(rows: readonly string[], hipsOffset = '0 0 0'): string {
  return `HIERARCHY
ROOT Hips
{
  OFFSET ${hipsOffset}
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

/**
 * A BVH whose root Hips has `joints` children, each with an End Site, and `frames` frames; frame f's 6 + 3 * joints
 * values are `row(f)`, by default one row for every frame. The large and wide files the linear-time script
 * (scripts/linearTime.ts) and the import cancel test time and stop.
 */
export function wideBvh(joints: number, frames: number, row?: (f: number) => string): string {
  const out = [
    'HIERARCHY',
    'ROOT Hips',
    '{',
    '  OFFSET 0 0 0',
    '  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
  ];
  for (let j = 0; j < joints; j++)
    out.push(
      `  JOINT J${j}`,
      '  {',
      '    OFFSET 1 0 0',
      '    CHANNELS 3 Zrotation Xrotation Yrotation',
      '    End Site',
      '    {',
      '      OFFSET 0 1 0',
      '    }',
      '  }',
    );
  out.push('}', 'MOTION', `Frames: ${frames}`, 'Frame Time: 0.0333333');
  const same = Array.from({ length: 6 + 3 * joints }, (_, i) => (i % 7) * 1.5).join(' ');
  for (let f = 0; f < frames; f++) out.push(row ? row(f) : same);
  return out.join('\n') + '\n';
}

/**
 * spineBvh with the hips' rest height as their OFFSET (0 90 0, as Blender writes it) and 12 frames walking along x
 * whose hips channel height is `height` plus a sway of sin(frame): 90 stands and 30 crawls as an exporter of local
 * positions writes them; 2 sways about the rest height as displacements do.
 */
export function hipsAtHeightBvh(height: number): string {
  const rows = Array.from({ length: 12 }, (_, f) => `${2 * f} ${height + Math.sin(f)} 0 0 0 0 0 0 0`);
  return spineBvh(rows, '0 90 0');
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

/** Three joints (Hips, Spine, Head; an End Site dropped), 9 frames: root position + rotation, two rotating children. */
export const HEAD_CHAIN_BVH = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 20 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    JOINT Head
    {
      OFFSET 0 25 0
      CHANNELS 3 Zrotation Xrotation Yrotation
      End Site
      {
        OFFSET 0 10 0
      }
    }
  }
}
MOTION
Frames: 9
Frame Time: 0.0333333
${Array.from({ length: 9 }, (_, f) => `${f * 2} 90 ${f * 3} 0 0 ${f * 5} ${f * 4} ${f * -3} 0 ${f * 6} 0 ${f * 2}`).join('\n')}
`;

/** Hips and a longer Spine than spineBvh's, 9 frames: the root walks and turns, the Spine bends. */
export const LONG_SPINE_BVH = `HIERARCHY
ROOT Hips
{
  OFFSET 0 0 0
  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation
  JOINT Spine
  {
    OFFSET 0 20 0
    CHANNELS 3 Zrotation Xrotation Yrotation
    End Site
    {
      OFFSET 0 10 0
    }
  }
}
MOTION
Frames: 9
Frame Time: 0.0333333
${Array.from({ length: 9 }, (_, f) => `${f * 2} 90 ${f * 3} 0 0 ${f * 5} ${f * 4} 0 0`).join('\n')}
`;
