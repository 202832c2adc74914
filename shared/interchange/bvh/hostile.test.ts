/**
 * BVH variants the bundled captures never show (shared/testing/hostileMotions.ts; docs/interchange.md#tests-what-they-compare):
 * every rotation order on joints with all six channels, position channels before or after the rotations,
 * CRLF line ends with tabs and runs of whitespace, End Sites, gimbal lock, a half turn in one frame, one and two
 * frames, 240 fps, huge and tiny translations. Each imports to the same world positions as the raw-channel matrix
 * FK (fk.ts) at every source frame; values a motion cannot hold are refused at their line.
 */
import { describe, expect, it } from 'vitest';
import { FormatError, inFile } from '../../errors';
import { bvhText, hostileBvhCases } from '../../testing/hostileMotions';
import { worldPose } from '../kinematics';
import { bvhSourceRate, importedSizeProblem } from '../resample';
import { bvhWorldPositions } from './fk';
import { bvhToMotion, importBvh } from './import';
import { parseBvh } from './parse';

describe('hostile BVH variants import to the BVH forward kinematics', () => {
  for (const c of hostileBvhCases())
    it(c.name, () => {
      const doc = parseBvh(c.text);
      const rate = bvhSourceRate(doc.frameTime).rate;
      // At the file's own rate every frame is a source frame.
      const { motion: m } = bvhToMotion(doc, { fps: rate });
      expect(m.frameCount).toBe(Math.max(1, doc.frameCount - 1));
      expect(m.joints.length).toBe(7);
      let reach = 0;
      for (let f = 0; f < doc.frameCount; f++) {
        const ref = bvhWorldPositions(doc, f);
        for (const x of ref) reach = Math.max(reach, Math.abs(x));
        const got = worldPose(m, f).positions;
        for (let i = 0; i < ref.length; i++)
          if (!(Math.abs(ref[i] - got[i]) <= 1e-5 * Math.max(1, reach)))
            expect.fail(`frame ${f} joint ${Math.floor(i / 3)}: ${got[i]} vs BVH ${ref[i]}`);
      }
      for (const q of m.rotation) expect(Number.isFinite(q)).toBe(true);
    });
});

describe('values a motion cannot hold', () => {
  const spec = (value: number, offset = 10) =>
    bvhText({
      joints: [
        { name: 'Hips', parent: -1, offset: [0, 0, 0], channels: ['Xposition', 'Yposition', 'Zposition'] },
        { name: 'Spine', parent: 0, offset: [0, offset, 0], channels: ['Zrotation'], endSite: true },
      ],
      frames: 3,
      frameTime: 1 / 30,
      value: (f, j, c) => (f === 1 && j === 0 && c === 1 ? value : 0),
    });
  const errorOf = (text: string): string => {
    try {
      inFile('big.bvh', () => importBvh(text));
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      return (e as Error).message;
    }
    throw new Error('expected a FormatError');
  };

  it('a position past 32-bit floats is refused at its frame line, naming the joint and axis (it said "MTN ... Infinity")', () => {
    const text = spec(1e39);
    const line = text.split('\n').findIndex((l) => l.startsWith('0 1e+39')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(errorOf(text)).toBe(
      `big.bvh:${line}:1: frame 1: joint Hips position y is 1e+39 (OFFSET plus channel, times the scale): beyond what a motion stores (32-bit floats, magnitude below 3.4e38)`,
    );
    // An OFFSET past it is refused at the first frame line; the largest 32-bit float imports.
    expect(errorOf(spec(0, 1e39))).toMatch(/^big\.bvh:\d+:1: frame 0: joint Spine position y is 1e\+39 /);
    expect(importBvh(spec(3.4e38)).motion.translation[5]).toBeCloseTo(3.4e38, -33);
    // With --scale: the scaled value is what must fit.
    expect(() => importBvh(spec(1e37), { scale: 100 })).toThrow(/joint Hips position y is 1e\+39/);
  });

  it('a rotation past half a million turns (1e308 degrees) is refused at its value, not read as an arbitrary turn', () => {
    const turn = (deg: number) =>
      bvhText({
        joints: [{ name: 'Hips', parent: -1, offset: [0, 0, 0], channels: ['Xposition', 'Zrotation'], endSite: true }],
        frames: 3,
        frameTime: 1 / 30,
        value: (f, j, c) => (f === 2 && c === 1 ? deg : 0),
      });
    const text = turn(1e308);
    const line = text.split('\n').findIndex((l) => l.startsWith('0 1e+308')) + 1;
    expect(line).toBeGreaterThan(0);
    expect(errorOf(text)).toBe(
      `big.bvh:${line}:3: frame 2 value 2 (joint Hips channel Zrotation) is 1e+308 degrees: a rotation is read up to +-180000000 degrees (half a million turns)`,
    );
    expect(errorOf(turn(-2e8))).toMatch(/is -200000000 degrees/);
    // Unwrapped angles of a long spin, and the limit itself, import.
    expect(importBvh(turn(180_000_000)).motion.frameCount).toBe(2);
    expect(importBvh(turn(-36_000_000)).motion.frameCount).toBe(2);
  });
});

describe('a motion larger than any .mtn ActGuy reads (round 37)', () => {
  it('is refused before any frame is made, naming the file, the frames and the joints', () => {
    // 1,024 joints and 3 frames 10 s apart, at --fps 1500: 30,000 frames, 1.47 GB as an .mtn. A 1 MB file of this
    // shape was imported for 47 s (1.5 GB) and then refused as "MTN (size)", naming no file.
    const text = bvhText({
      joints: Array.from({ length: 1024 }, (_, j) => ({
        name: `j${j}`,
        parent: j === 0 ? -1 : 0,
        offset: [0, j === 0 ? 0 : 1, 0] as [number, number, number],
        channels: j === 0 ? ['Xposition', 'Yposition', 'Zposition', 'Zrotation'] : ['Zrotation'],
        endSite: j > 0,
      })),
      frames: 3,
      frameTime: 10,
      value: (f, j) => (f + j) % 90,
    });
    let message = '';
    try {
      inFile('wide.bvh', () => importBvh(text, { fps: 1500 }));
    } catch (e) {
      expect(e).toBeInstanceOf(FormatError);
      message = (e as Error).message;
    }
    expect(message).toBe(
      'wide.bvh [BVH] (MOTION): 20.00 s at 1500 fps: 30000 frames of 1024 joints would be 1475618368 bytes as an .mtn, more than the 1073741824 bytes (1 GiB) ActGuy reads back; nothing was imported (lower --fps, or split the clip)',
    );
    // At 30 fps the same file imports (600 frames).
    expect(importBvh(text, { fps: 30 }).motion.frameCount).toBe(600);
  });

  it('is told by the size an .mtn of those frames and joints would have, up to 1 GiB allowed', () => {
    expect(importedSizeProblem(21829, 1024)).toBeUndefined();
    expect(importedSizeProblem(21830, 1024)).toMatch(/^21830 frames of 1024 joints would be 1073785088 bytes as an/);
    expect(importedSizeProblem(65535, 31)).toBeUndefined();
  });
});
