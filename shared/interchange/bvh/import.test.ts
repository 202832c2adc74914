import { describe, expect, it } from 'vitest';
import { FormatError, inFile } from '../../errors';
import { MotionFlag } from '../../motion/types';
import { readMtn } from '../../mtn/read';
import { writeMtn } from '../../mtn/write';
import { worldPose, quatSlerpShortest, quatFromEulerOrder } from '../kinematics';
import { bvhWorldPositions } from './fk';
import { importBvh } from './import';
import { BVH_MAX_FRAME_TIME, BVH_MIN_FRAME_TIME, parseBvh } from './parse';
import { hipsAtHeightBvh } from '../../testing/bvhFixtures';

/** A small BVH: 4 joints (+1 End Site), root order ZXY with positions, a joint with XYZ order and its own position channels. */
function sampleBvh(
  frames: number[][],
  opts: { rootOrder?: string; childOrder?: string; longName?: boolean; frameTime?: string } = {},
): string {
  const ro = (opts.rootOrder ?? 'ZXY')
    .split('')
    .map((c) => `${c}rotation`)
    .join(' ');
  const co = (opts.childOrder ?? 'XYZ')
    .split('')
    .map((c) => `${c}rotation`)
    .join(' ');
  const armName = opts.longName ? 'LeftArmWithAVeryLongJointNameThatGoesOn' : 'LeftArm';
  return `HIERARCHY
ROOT Hips
{
  OFFSET 1.0 -2.0 3.0
  CHANNELS 6 Xposition Yposition Zposition ${ro}
  JOINT Spine
  {
    OFFSET 0 10 0
    CHANNELS 3 ${co}
    JOINT ${armName}
    {
      OFFSET 5 2 0
      CHANNELS 6 Xposition Yposition Zposition ${co}
      End Site
      {
        OFFSET 0 -8 0
      }
    }
  }
  JOINT RightArm
  {
    OFFSET -5 12 0
    CHANNELS 3 Yrotation Zrotation Xrotation
    End Site
    {
      OFFSET 0 -8 0
    }
  }
}
MOTION
Frames: ${frames.length}
Frame Time: ${opts.frameTime ?? '0.0333333'}
${frames.map((f) => f.join(' ')).join('\n')}
`;
}

/** Deterministic smooth frames: 18 channels. */
function makeFrames(n: number): number[][] {
  const out: number[][] = [];
  for (let f = 0; f < n; f++) {
    const s = (k: number) => Math.sin(0.13 * f * (1 + k * 0.37) + k);
    out.push(
      [
        10 * s(0),
        5 + s(1),
        2 * f,
        40 * s(2),
        30 * s(3),
        60 * s(4), // root
        25 * s(5),
        35 * s(6),
        45 * s(7), // Spine
        0.5 * s(8),
        0.2 * s(9),
        -0.3 * s(10),
        50 * s(11),
        20 * s(12),
        70 * s(13), // LeftArm: positions + rotations
        80 * s(14),
        10 * s(15),
        30 * s(16), // RightArm
      ].map((v) => Number(v.toFixed(6))),
    );
  }
  return out;
}

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
};

describe('BVH import', () => {
  it('keeps joints in order, drops End Sites, animates offsets from non-root position channels', () => {
    const text = sampleBvh(makeFrames(31));
    const doc = parseBvh(text);
    expect(doc.joints.map((j) => j.name)).toEqual(['Hips', 'Spine', 'LeftArm', 'RightArm']);
    expect(doc.endSites).toBe(2);
    expect(doc.channelCount).toBe(18);
    const { motion: m, warnings } = importBvh(text, { fps: 30 });
    expect(warnings.map((w) => w.code)).toEqual(['rate-snapped']);
    expect(m.joints.map((j) => j.parent)).toEqual([-1, 0, 1, 0]);
    expect(m.frameCount).toBe(30); // 31 samples at 30 fps = frames 0..30
    expect(m.flags & MotionFlag.OFFSETS).toBe(MotionFlag.OFFSETS);
    // Mirror pair and parts guessed from names.
    expect(m.joints[2].mirror).toBe(3);
    expect(m.joints[3].mirror).toBe(2);
    expect(m.joints.map((j) => j.part)).toEqual([0, 1, 1, 1]);
    // Root OFFSET + position channels is the root translation; joint 0's offset is zero.
    expect(Array.from(m.translation.subarray(0, 3))).toEqual(
      [1 + doc.values[0], -2 + doc.values[1], 3 + doc.values[2]].map(Math.fround),
    );
    expect(Array.from(m.offset.subarray(0, 4))).toEqual([0, 0, 0, 0]);
    // The LeftArm offset moves with its position channels.
    expect(m.offset[(5 * 4 + 2) * 4]).toBeCloseTo(5 + doc.values[5 * 18 + 9], 5);
    // Survives an MTN round trip.
    expect(readMtn(writeMtn(m)).joints).toEqual(m.joints);
  });

  it('reads position channels that stay near their OFFSETs as local positions (Blender, LAFAN1), per joint; others add', () => {
    // Hips (OFFSET 1 -2 3) has positions; LeftArm (OFFSET 5 2 0) too. Frame 1 moves the arm's channel y by 1.
    const rows = (hips0: number[], arm0: number[]) => [
      [...hips0, 0, 0, 0, 0, 0, 0, ...arm0, 0, 0, 0, 0, 0, 0],
      [hips0[0], hips0[1] + 0.5, hips0[2], 0, 0, 0, 0, 0, 0, arm0[0], arm0[1] + 1, arm0[2], 0, 0, 0, 0, 0, 0],
    ];
    const world = (hips0: number[], arm0: number[]) => {
      const r = importBvh(sampleBvh(rows(hips0, arm0)), { fps: 30 });
      return { codes: r.warnings.map((w) => w.code), at1: Array.from(worldPose(r.motion, 1).positions.subarray(0, 9)) };
    };
    // Both at their OFFSETs: each takes its channels as its position (the root at 1 -1.5 3, the arm 5 3 0 from the spine).
    const local = world([1, -2, 3], [5, 2, 0]);
    expect(local.codes).toContain('positions-local');
    expect(local.at1).toEqual([1, -1.5, 3, 1, 8.5, 3, 6, 11.5, 3]);
    // Blender: the root's channels are its rest head plus its motion (OFFSET 1 -2 3, channels 1.2 -2.1 2.9), the first
    // frame off the rest pose: the root stands at its channels, not at twice its rest height; the arm adds its zeros.
    expect(
      maxDiff(world([1.2, -2.1, 2.9], [0, 0, 0]).at1, [1.2, -1.6, 2.9, 1.2, 8.4, 2.9, 6.2, 11.4, 2.9]),
    ).toBeLessThan(1e-6);
    // A joint off its OFFSET by a few percent is still nearer it than zero: local, whatever the other joints read as.
    expect(maxDiff(world([0, 0, 0], [5, 2.06, 0]).at1, [1, -1.5, 3, 1, 8.5, 3, 6, 11.56, 3])).toBeLessThan(1e-6);
    // Displacements (near zero, here up to a third of the OFFSET) add, as the BVH description and three.js read them.
    for (const [hips0, arm0] of [
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
      [
        [0.3, 0.6, 0.9],
        [1.5, 0.6, 0],
      ],
    ]) {
      const text = sampleBvh(rows(hips0, arm0));
      const added = importBvh(text, { fps: 30 });
      expect(added.warnings.map((w) => w.code)).not.toContain('positions-local');
      expect(maxDiff(worldPose(added.motion, 1).positions, bvhWorldPositions(parseBvh(text), 1))).toBeLessThan(1e-5);
    }
  });

  describe('the judgement of position channels can be overridden for the file (bvhPositions)', () => {
    const hipsHeights = (text: string, bvhPositions?: 'added' | 'local') => {
      const { motion, warnings } = importBvh(text, { fps: 30, bvhPositions });
      const heights = Array.from({ length: motion.frameCount + 1 }, (_, f) => motion.translation[f * 4 + 1]);
      return { heights, positions: warnings.filter((w) => w.code.startsWith('positions-')) };
    };
    const near = (heights: number[], base: number) =>
      expect(
        maxDiff(
          heights,
          heights.map((_, f) => Math.fround(base + Math.sin(f))),
        ),
      ).toBeLessThan(1e-5);

    // A crawl from an exporter of local positions (hips at a third of their rest height) is nearer zero than its
    // OFFSET: added, the hips float at 120. A standing take is nearer its OFFSET: local. Each warning names the
    // reading that takes the file the other way, and with that reading nothing is left to warn about.
    it.each([
      { take: 'a crawl', height: 30, judged: 120, code: 'positions-added', reading: 'local' as const, forced: 30 },
      {
        take: 'a standing take',
        height: 90,
        judged: 90,
        code: 'positions-local',
        reading: 'added' as const,
        forced: 180,
      },
    ])('$take is judged $code, whose warning names --bvh-positions $reading; that reads it so', (c) => {
      const text = hipsAtHeightBvh(c.height);
      const judged = hipsHeights(text);
      near(judged.heights, c.judged);
      expect(judged.positions.map((w) => w.code)).toEqual([c.code]);
      expect(judged.positions[0].message).toMatch(/^the position channels of 1 joint\(s\) \(Hips\) /);
      expect(judged.positions[0].message).toContain(`import it with --bvh-positions ${c.reading}`);
      const forced = hipsHeights(text, c.reading);
      near(forced.heights, c.forced);
      expect(forced.positions).toEqual([]);
    });

    it('displacements near zero add without a warning; an unknown reading is the caller’s mistake', () => {
      const displaced = hipsHeights(hipsAtHeightBvh(2));
      near(displaced.heights, 92);
      expect(displaced.positions).toEqual([]);
      expect(() => importBvh(hipsAtHeightBvh(2), { bvhPositions: 'sideways' as 'auto' })).toThrow(
        new RangeError('bvhPositions must be one of auto, added, local, got sideways'),
      );
    });
  });

  it('matches the BVH forward kinematics at every frame for every channel order', () => {
    for (const order of ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX']) {
      const text = sampleBvh(makeFrames(20), { rootOrder: order, childOrder: order.split('').reverse().join('') });
      const doc = parseBvh(text);
      const { motion: m } = importBvh(text, { fps: 30 });
      for (let f = 0; f <= m.frameCount; f++)
        expect(maxDiff(worldPose(m, f).positions, bvhWorldPositions(doc, f))).toBeLessThan(1e-4);
    }
  });

  it('resamples with slerp/linear: coinciding frames equal the source, others equal the interpolated source', () => {
    const text = sampleBvh(makeFrames(41));
    const doc = parseBvh(text);
    // 30 -> 12 fps: target frame f sits at source frame 2.5 f.
    const { motion: m } = importBvh(text, { fps: 12 });
    expect(m.fps).toBe(12);
    expect(m.frameCount).toBe(16); // 40 source intervals = 1.333 s -> 16 frames at 12 fps
    for (let f = 0; f <= m.frameCount; f += 2)
      expect(maxDiff(worldPose(m, f).positions, bvhWorldPositions(doc, 2.5 * f))).toBeLessThan(1e-4);
    // Odd frames: halfway between source frames a and a+1; rotations are the slerp of the per-frame Euler rotations.
    const f = 3;
    const a = Math.floor(2.5 * f);
    const rootRot = (k: number) =>
      quatFromEulerOrder(
        'ZXY',
        [3, 4, 5].map((c) => (doc.values[k * 18 + c] * Math.PI) / 180),
      );
    const want = quatSlerpShortest(rootRot(a), rootRot(a + 1), 0.5);
    const got = Array.from(m.rotation.subarray(f * 4 * 4, f * 4 * 4 + 4)); // joint 0 of frame f (4 joints)
    const dot = Math.abs(want.reduce((s, v, i) => s + v * got[i], 0));
    expect(dot).toBeGreaterThan(1 - 1e-6);
    const tz = (doc.values[a * 18 + 2] + doc.values[(a + 1) * 18 + 2]) / 2 + 3;
    expect(m.translation[f * 4 + 2]).toBeCloseTo(tz, 4);
  });

  it('scales positions and offsets', () => {
    const text = sampleBvh(makeFrames(5));
    const doc = parseBvh(text);
    const { motion: m } = importBvh(text, { fps: 30, scale: 2.5 });
    for (let f = 0; f <= m.frameCount; f++) {
      const want = bvhWorldPositions(doc, f).map((v) => v * 2.5);
      expect(maxDiff(worldPose(m, f).positions, want)).toBeLessThan(1e-3);
    }
  });

  it('truncates long names with a warning and sets OFFSETS on request', () => {
    const noPos = sampleBvh(makeFrames(3), { longName: true });
    const { motion: m, warnings } = importBvh(noPos, { offsets: true });
    expect(m.joints[2].name).toBe('LeftArmWithAVeryLongJointNameTh');
    expect(m.joints[2].name.length).toBe(31);
    expect(warnings.map((w) => w.code)).toContain('name-truncated');
    expect(m.flags & MotionFlag.OFFSETS).toBeTruthy();
  });

  it('reads scale channels (Xscale Yscale Zscale, up to 9 channels, in any place) and ignores them, saying so when they leave 1', () => {
    const frames = makeFrames(12);
    const plain = importBvh(sampleBvh(frames));
    // The root gets three scale channels after its positions, RightArm one between its rotations.
    const withScales = (rootScale: (f: number) => number, armScale: (f: number) => number) =>
      sampleBvh(
        frames.map((v, f) => [
          ...v.slice(0, 3),
          rootScale(f),
          rootScale(f),
          1,
          ...v.slice(3, 16),
          armScale(f),
          ...v.slice(16),
        ]),
      )
        .replace(
          'CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation',
          'CHANNELS 9 Xposition Yposition Zposition Xscale Yscale Zscale Zrotation Xrotation Yrotation',
        )
        .replace('CHANNELS 3 Yrotation Zrotation Xrotation', 'CHANNELS 4 Yrotation Zscale Zrotation Xrotation');
    const ones = importBvh(
      withScales(
        () => 1,
        () => 1,
      ),
    );
    expect(ones.warnings).toEqual(plain.warnings);
    const scaled = importBvh(
      withScales(
        (f) => (f === 5 ? 1.5 : 1),
        () => 1,
      ),
    );
    for (const r of [ones, scaled]) {
      expect(Array.from(r.motion.rotation)).toEqual(Array.from(plain.motion.rotation));
      expect(Array.from(r.motion.translation)).toEqual(Array.from(plain.motion.translation));
      expect(Array.from(r.motion.offset)).toEqual(Array.from(plain.motion.offset));
    }
    expect(scaled.warnings.filter((w) => w.code === 'scale-unsupported').map((w) => w.message)).toEqual([
      'the scale channels of 1 joint(s) (Hips) leave 1; motions carry no scale, so they are ignored: those joints and the ones below them are posed unscaled',
    ]);
    // The test oracle (the raw-channel forward kinematics) skips them too.
    const [a, b] = [
      parseBvh(sampleBvh(frames)),
      parseBvh(
        withScales(
          () => 1,
          () => 1,
        ),
      ),
    ];
    for (const f of [0, 5, 11])
      expect(Array.from(bvhWorldPositions(b, f))).toEqual(Array.from(bvhWorldPositions(a, f)));
    // Ten channels are still too many, and a name that is no channel is still refused at its place.
    expect(() =>
      parseBvh(
        withScales(
          () => 1,
          () => 1,
        ).replace('CHANNELS 9', 'CHANNELS 10'),
      ),
    ).toThrow(/:5:12: CHANNELS count must be an integer 0\.\.9, found "10"/);
  });

  it('ignores frame lines beyond "Frames:" with a warning', () => {
    const text = sampleBvh(makeFrames(4)).replace('Frames: 4', 'Frames: 3');
    const { motion: m, warnings } = importBvh(text);
    expect(m.frameCount).toBe(2);
    expect(warnings[0].code).toBe('frames-extra');
  });
});

describe('BVH frame rates', () => {
  it('snaps a frame time within 0.01% of a standard rate and says so in the summary', () => {
    const { motion, warnings } = importBvh(sampleBvh(makeFrames(9), { frameTime: '.0083333' }), { fps: 120 });
    expect(warnings).toEqual([
      {
        code: 'rate-snapped',
        message: 'Frame Time 0.0083333 s is 120.00048 fps, within 0.01% of 120 fps: read as exactly 120 fps',
      },
    ]);
    expect(motion.frameCount).toBe(8); // 8 intervals of exactly 1/120 s; unsnapped 8 * 120/120.0005 = 7.99997 floors to 7
  });

  it.each([
    ['0.04', 25],
    ['0.02', 50],
    ['0.01', 100],
  ])('uses an exact standard frame time %s as is, with no snap reported', (frameTime, rate) => {
    const { motion, warnings } = importBvh(sampleBvh(makeFrames(5), { frameTime }), { fps: rate });
    expect(warnings).toEqual([]);
    expect(motion.frameCount).toBe(4);
  });

  it('keeps a rate that is not near a standard one (72 fps stays 71.9986 fps: no snap)', () => {
    const text = sampleBvh(makeFrames(73), { frameTime: '.0138891' });
    const doc = parseBvh(text);
    const { motion, warnings } = importBvh(text, { fps: 36 });
    expect(warnings).toEqual([]);
    // Target frame 1 sits at source frame 71.9986 / 36 = 1.99992, a blend of samples 1 and 2, not sample 2 itself.
    const x = (s: number) => 1 + doc.values[s * 18];
    const u = 71.99858 / 36 - 1;
    expect(motion.translation[4]).not.toBe(Math.fround(x(2)));
    expect(motion.translation[4]).toBeCloseTo(x(1) + (x(2) - x(1)) * u, 4);
  });

  it('turns 120 fps into 30 fps by exact 4:1 decimation: every frame is a source sample, bit for bit', () => {
    const frames = makeFrames(401);
    const text = sampleBvh(frames, { frameTime: '.0083333' });
    const doc = parseBvh(text);
    const { motion: m } = importBvh(text, { fps: 30 });
    expect(m.frameCount).toBe(100);
    const J = 4;
    const DEG = Math.PI / 180;
    const orders = ['ZXY', 'XYZ', 'XYZ', 'YZX'];
    const rotChannels = [
      [3, 4, 5],
      [6, 7, 8],
      [12, 13, 14],
      [15, 16, 17],
    ];
    for (let f = 0; f <= m.frameCount; f++) {
      const s = 4 * f;
      const v = (c: number) => doc.values[s * 18 + c];
      // Root translation: the source sample's position channels plus the root OFFSET, with no blend of neighbours.
      expect(Array.from(m.translation.subarray(f * 4, f * 4 + 3))).toEqual(
        [1 + v(0), -2 + v(1), 3 + v(2)].map(Math.fround),
      );
      for (let j = 0; j < J; j++) {
        const q = quatFromEulerOrder(
          orders[j],
          rotChannels[j].map((c) => v(c) * DEG),
        );
        const got = m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4);
        const sign = Math.sign(q.reduce((acc, x, k) => acc + x * got[k], 0)) || 1;
        expect(Array.from(got)).toEqual(q.map((x) => Math.fround(sign * x)));
      }
    }
  });
});

describe('BVH errors', () => {
  const good = sampleBvh(makeFrames(4));
  const errorOf = (text: string): FormatError => {
    try {
      inFile('walk.bvh', () => importBvh(text));
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      return e as FormatError;
    }
    throw new Error('expected a FormatError');
  };

  it('refuses a frame time that is not a sensible number of seconds at its line:column (1e-320 gave NaN values)', () => {
    const line =
      sampleBvh(makeFrames(4))
        .split('\n')
        .findIndex((l) => l.startsWith('Frame Time:')) + 1;
    for (const t of ['1e-320', '0.00009', '11', '5e-5']) {
      expect(errorOf(sampleBvh(makeFrames(4), { frameTime: t })).message).toBe(
        `walk.bvh:${line}:13: Frame Time must be a number of seconds from ${BVH_MIN_FRAME_TIME} to ${BVH_MAX_FRAME_TIME} (10,000 to 0.1 frames per second), found "${t}"`,
      );
    }
    // The ends of the range import.
    for (const t of [String(BVH_MIN_FRAME_TIME), String(BVH_MAX_FRAME_TIME)])
      expect(importBvh(sampleBvh(makeFrames(4), { frameTime: t })).motion.frameCount).toBeGreaterThan(0);
  });

  it('shows a NUL or another control character in a bad header or number escaped, not as nothing', () => {
    expect(errorOf(good.replace(/Frames:\s*4/, 'Frames:\u00004')).message).toMatch(
      /: Frames must be a whole number >= 1, found "\\u00004"$/,
    );
    expect(errorOf(sampleBvh(makeFrames(4), { frameTime: '0.0\u001b3' })).message).toMatch(
      /Frame Time .* found "0\.0\\u001b3"$/,
    );
    expect(errorOf(good.replace('OFFSET 1.0', 'OFFSET 1\u00000')).message).toBe(
      'walk.bvh:4:10: expected OFFSET x (a number), found "1\\u00000"',
    );
  });

  it('reports a truncated hierarchy at the end of the file', () => {
    const cut = good.slice(0, good.indexOf('JOINT RightArm') + 20);
    const e = errorOf(cut);
    expect(e.kind).toBe('BVH');
    expect(e.file).toBe('walk.bvh');
    expect(e.message).toMatch(/^walk\.bvh:\d+:\d+: file ends early \(truncated\)/);
  });

  it('reports joints nested too deeply at the joint, without overflowing the stack', () => {
    let text = 'HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 3 Xrotation Yrotation Zrotation\n';
    for (let d = 0; d < 5000; d++) text += `JOINT J${d}\n{\nOFFSET 0 1 0\n`;
    const e = errorOf(text);
    // ROOT is level 1; the JOINT opening level 257 sits at line 6 + 3 * 255.
    expect(e.message).toBe(`walk.bvh:${6 + 3 * 255}:1: joints nested too deeply (more than 256 levels)`);
  });

  it('a huge "Frames:" costs only the lines the file has: a truncation error, not an allocation', () => {
    const huge = good.replace(/Frames:\s*4/, 'Frames: 99999999999999');
    expect(errorOf(huge).message).toMatch(
      /^walk\.bvh:\d+:\d+: file ends after 4 of the 99999999999999 frames declared by "Frames:" \(truncated\)$/,
    );
    const beyond = good.replace(/Frames:\s*4/, `Frames: ${'9'.repeat(400)}`);
    expect(errorOf(beyond).message).toMatch(/Frames must be a whole number >= 1, found "9{24}\.\.\."$/);
  });

  it('refuses a 30,000-digit number that is not one (a quadratic regex took seconds) and quotes only its start', () => {
    const long = `${'9'.repeat(30000)}.0.0`;
    const e = errorOf(good.replace('OFFSET 1.0 -2.0 3.0', `OFFSET ${long} -2.0 3.0`));
    expect(e.message).toBe(`walk.bvh:4:10: expected OFFSET x (a number), found "${'9'.repeat(40)}..."`);
    const frame = errorOf(
      good.replace(
        /\nMOTION\n([^]*?Frame Time: \S+\n)(\S+)/,
        (_m, head: string, first: string) => `\nMOTION\n${head}${long}${first.slice(1)}`,
      ),
    );
    expect(frame.message).toMatch(new RegExp(`frame 0 value 1 \\(.*\\) is not a number: "9{40}\\.\\.\\."$`));
  });

  it('reports truncated motion data with the frame counts', () => {
    const lines = good.trimEnd().split('\n');
    const e = errorOf(lines.slice(0, -2).join('\n'));
    expect(e.message).toContain('file ends after 2 of the 4 frames');
    expect(e.place.line).toBe(lines.length - 2);
  });

  it('reports a frame line with more values than declared, at the first extra value', () => {
    const lines = good.trimEnd().split('\n');
    const at = lines.length - 2;
    lines[at] += ' 1.5 2.5';
    const e = errorOf(lines.join('\n'));
    expect(e.message).toContain('frame 2 has more values than the 18 channels');
    expect(e.place.line).toBe(at + 1);
    expect(e.place.column).toBe(lines[at].length - 7 + 1);
  });

  it('reports a frame line with too few values naming the missing channel', () => {
    const lines = good.trimEnd().split('\n');
    lines[lines.length - 1] = lines[lines.length - 1].split(' ').slice(0, 17).join(' ');
    const e = errorOf(lines.join('\n'));
    expect(e.message).toContain('frame 3 has 17 values');
    expect(e.message).toContain('joint RightArm channel Xrotation');
  });

  it('reports unknown channels, bad numbers and a missing MOTION', () => {
    expect(
      errorOf(good.replace('CHANNELS 3 Yrotation Zrotation Xrotation', 'CHANNELS 3 Yrotation Zrotation Wrotation'))
        .message,
    ).toContain('unknown channel "Wrotation"');
    expect(errorOf(good.replace('OFFSET 0 10 0', 'OFFSET 0 ten 0')).message).toContain(
      'expected OFFSET y (a number), found "ten"',
    );
    expect(errorOf(good.replace('MOTION', 'MOTON')).message).toContain('expected MOTION');
    const lines = good.trimEnd().split('\n');
    lines[lines.length - 1] = lines[lines.length - 1].replace(/^\S+/, 'nan');
    expect(errorOf(lines.join('\n')).message).toContain('joint Hips channel Xposition) is not a number');
  });
});
