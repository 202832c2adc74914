/**
 * FBX curve keys between keys (docs/import.md#fbx-keys), RotationActive and InheritType, through the whole import:
 * files written here with known keys, and every frame checked against values this test computes on its own (the
 * cubic Hermite and Bezier written out below, not the importer's code).
 */
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../errors';
import { importFbx } from './import';
import {
  fbxScene,
  floatWithBits,
  writeFbxAscii,
  writeFbxBinary,
  type FbxKeys,
  type FbxSceneOptions,
} from './testFixtures';

const CUBIC_USER = 0x408;
const CUBIC_BREAK = 0xc08;
const LINEAR = 0x04;
const CONSTANT = 0x02;
const CONSTANT_NEXT = 0x102;
const WEIGHTED = 0x03000000;

/** A scene whose only curve is the root bone's translation (axis 0) or rotation (axis 2) with the given keys. */
function oneCurve(keys: FbxKeys, attr: 'T' | 'R' = 'T', more: FbxSceneOptions = {}): FbxSceneOptions {
  const axis = attr === 'T' ? 0 : 2;
  return { fps: 30, ...more, keys: (b, a, k) => (b === 0 && a === attr && k === axis ? keys : null) };
}

/** The root's translation X (attr T) or its rotation angle about Z in degrees (attr R) at every frame. */
async function rootSamples(bytes: Uint8Array, attr: 'T' | 'R' = 'T', fps = 30) {
  const r = await importFbx(bytes, { fps });
  const m = r.motion;
  const out: number[] = [];
  for (let f = 0; f <= m.frameCount; f++)
    if (attr === 'T') out.push(m.translation[f * 4]);
    else {
      const q = m.rotation.subarray(f * m.joints.length * 4, f * m.joints.length * 4 + 4);
      expect(Math.hypot(q[0], q[1])).toBeLessThan(1e-6);
      out.push((2 * Math.atan2(q[2], q[3]) * 180) / Math.PI);
    }
  return { samples: out, warnings: r.warnings };
}

/** Cubic Hermite through (t0, v0) and (t1, v1) with slopes d0, d1 (value per second). */
function hermite(t: number, t0: number, v0: number, d0: number, t1: number, v1: number, d1: number): number {
  const h = t1 - t0,
    s = (t - t0) / h;
  return (
    (2 * s ** 3 - 3 * s ** 2 + 1) * v0 +
    (s ** 3 - 2 * s ** 2 + s) * h * d0 +
    (-2 * s ** 3 + 3 * s ** 2) * v1 +
    (s ** 3 - s ** 2) * h * d1
  );
}

/** The value at time t of the Bezier (t0,v0) (t0+a h, v0+a h d0) (t1-b h, v1-b h d1) (t1,v1), by bisection on time. */
function weightedBezier(
  t: number,
  t0: number,
  v0: number,
  d0: number,
  a: number,
  t1: number,
  v1: number,
  d1: number,
  b: number,
) {
  const h = t1 - t0;
  const bez = (u: number, p0: number, p1: number, p2: number, p3: number) =>
    (1 - u) ** 3 * p0 + 3 * (1 - u) ** 2 * u * p1 + 3 * (1 - u) * u ** 2 * p2 + u ** 3 * p3;
  let lo = 0,
    hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (bez(mid, t0, t0 + a * h, t1 - b * h, t1) < t) lo = mid;
    else hi = mid;
  }
  return bez(lo, v0, v0 + a * h * d0, v1 - b * h * d1, v1);
}

const times = (n: number, fps = 30) => Array.from({ length: n }, (_, f) => f / fps);
const both = (o: FbxSceneOptions, asciiData?: (k: FbxKeys) => FbxKeys) => {
  const ascii = asciiData
    ? {
        ...o,
        keys: (b: number, a: 'R' | 'T', k: number) => {
          const x = o.keys!(b, a, k);
          return x && asciiData(x);
        },
      }
    : o;
  return [
    ['binary', writeFbxBinary(fbxScene(o))],
    ['ASCII', writeFbxAscii(fbxScene(ascii))],
  ] as const;
};

describe('FBX curve keys between keys', () => {
  it('cubic user and break tangents: the Hermite with the stored slopes, run by run, at every frame between keys', async () => {
    // Three keys, each its own attribute run: key 0 right slope 30, key 1 left -6 (stored on key 0) and right 4 (break).
    const keys: FbxKeys = {
      seconds: [0, 1, 2],
      values: [0, 12, 3],
      flags: [CUBIC_USER, CUBIC_BREAK, CUBIC_USER],
      data: [30, -6, 0, 0, 4, -9, 0, 0, 0, 0, 0, 0],
      refCount: [1, 1, 1],
    };
    for (const [format, bytes] of both(oneCurve(keys))) {
      const { samples, warnings } = await rootSamples(bytes);
      expect(samples.length, format).toBe(61);
      expect(warnings, format).toEqual([]);
      times(61).forEach((t, f) => {
        const want = t <= 1 ? hermite(t, 0, 0, 30, 1, 12, -6) : hermite(t, 1, 12, 4, 2, 3, -9);
        expect(samples[f], `${format} frame ${f}`).toBeCloseTo(want, 4);
      });
      // Mid-segment, the linear reading would be 6 at frame 15; the tangents lift it.
      expect(samples[15]).toBeCloseTo(hermite(0.5, 0, 0, 30, 1, 12, -6), 4);
      expect(Math.abs(samples[15] - 6)).toBeGreaterThan(1);
    }
  });

  it('a rotation curve with cubic keys turns the joint by the Hermite angle at every frame', async () => {
    const keys: FbxKeys = {
      seconds: [0, 1],
      values: [0, 90],
      flags: [CUBIC_USER],
      data: [200, -40, 0, 0],
      refCount: [2],
    };
    const { samples } = await rootSamples(writeFbxBinary(fbxScene(oneCurve(keys, 'R'))), 'R');
    times(31).forEach((t, f) => expect(samples[f], `frame ${f}`).toBeCloseTo(hermite(t, 0, 0, 200, 1, 90, -40), 3));
  });

  it('weighted tangents: the Bezier with the weights packed in the data (binary as float bits, ASCII as integers)', async () => {
    // Right weight 0.5 (low 16 bits 5000), next-left weight 0.2 (high 16 bits 2000).
    const bits = 5000 + 2000 * 65536;
    const keys: FbxKeys = {
      seconds: [0, 1],
      values: [0, 10],
      flags: [CUBIC_USER | WEIGHTED],
      data: [40, 0, floatWithBits(bits), 0],
      refCount: [2],
    };
    for (const [format, bytes] of both(oneCurve(keys), (k) => ({ ...k, data: [40, 0, bits, 0], dataDoubles: true }))) {
      const { samples } = await rootSamples(bytes);
      times(31).forEach((t, f) =>
        expect(samples[f], `${format} frame ${f}`).toBeCloseTo(weightedBezier(t, 0, 0, 40, 0.5, 1, 10, 0, 0.2), 4),
      );
      // Not the unweighted Hermite.
      expect(Math.abs(samples[10] - hermite(1 / 3, 0, 0, 40, 1, 10, 0))).toBeGreaterThan(0.05);
    }
  });

  it('constant keys hold the key (or take the next one in "next" mode); linear keys blend; mixed runs each go their way', async () => {
    const held = await rootSamples(
      writeFbxBinary(
        fbxScene(
          oneCurve({ seconds: [0, 1, 2], values: [5, 20, -3], flags: [CONSTANT], data: [0, 0, 0, 0], refCount: [3] }),
        ),
      ),
    );
    times(61).forEach((t, f) => expect(held.samples[f], `frame ${f}`).toBeCloseTo(t < 1 ? 5 : t < 2 ? 20 : -3, 5));
    const next = await rootSamples(
      writeFbxBinary(
        fbxScene(
          oneCurve({
            seconds: [0, 1, 2],
            values: [5, 20, -3],
            flags: [CONSTANT_NEXT],
            data: [0, 0, 0, 0],
            refCount: [3],
          }),
        ),
      ),
    );
    times(61).forEach((t, f) => expect(next.samples[f], `frame ${f}`).toBeCloseTo(t === 0 ? 5 : t <= 1 ? 20 : -3, 5));
    // Key 0 linear, key 1 constant, key 2 cubic (slopes 3 and -12), key 3 the end: four runs.
    const mixed = await rootSamples(
      writeFbxBinary(
        fbxScene(
          oneCurve({
            seconds: [0, 1, 2, 3],
            values: [0, 10, 4, 8],
            flags: [LINEAR, CONSTANT, CUBIC_USER, LINEAR],
            data: [0, 0, 0, 0, 0, 0, 0, 0, 3, -12, 0, 0, 0, 0, 0, 0],
            refCount: [1, 1, 1, 1],
          }),
        ),
      ),
    );
    times(91).forEach((t, f) => {
      const want = t <= 1 ? 10 * t : t < 2 ? 10 : t < 3 ? hermite(t, 2, 4, 3, 3, 8, -12) : 8;
      expect(mixed.samples[f], `frame ${f}`).toBeCloseTo(want, 4);
    });
  });

  it('auto tangents: the cardinal spline through the neighbours, flat at the ends and at a clamped peak, and said', async () => {
    const auto = (flags: number, values: number[]): FbxKeys => ({
      seconds: [0, 1, 3],
      values,
      flags: [flags],
      data: [0, 0, 0, 0],
      refCount: [3],
    });
    const rising = await rootSamples(writeFbxBinary(fbxScene(oneCurve(auto(0x108, [0, 10, 40])))));
    // Key 1's slope: (40 - 0) / (3 - 0) per second; the ends are flat.
    times(91).forEach((t, f) => {
      const want = t <= 1 ? hermite(t, 0, 0, 0, 1, 10, 40 / 3) : hermite(t, 1, 10, 40 / 3, 3, 40, 0);
      expect(rising.samples[f], `frame ${f}`).toBeCloseTo(want, 4);
    });
    expect(rising.warnings.map((w) => w.code)).toEqual(['keys-interpolated']);
    expect(rising.warnings[0].message).toMatch(
      /^curve "Hips" Lcl Translation X with auto tangents shape frames between keys \(key 0 at 0\.000 s\): .*cardinal spline.*baked/,
    );
    const peak = await rootSamples(writeFbxBinary(fbxScene(oneCurve(auto(0x1108, [0, 10, 4])))));
    times(91).forEach((t, f) => {
      const want = t <= 1 ? hermite(t, 0, 0, 0, 1, 10, 0) : hermite(t, 1, 10, 0, 3, 4, 0);
      expect(peak.samples[f], `frame ${f}`).toBeCloseTo(want, 4);
    });
    // Every frame on a key: nothing between keys, nothing to say.
    const onKeys = await rootSamples(
      writeFbxBinary(fbxScene(oneCurve({ ...auto(0x108, [0, 10, 40]), seconds: [0, 1 / 30, 2 / 30] }))),
    );
    expect(onKeys.warnings).toEqual([]);
    expect(onKeys.samples).toEqual([0, 10, 40]);
  });

  it("an axis without a curve takes its curve node's value (d|Y), as FBX evaluates a channel, not the model's", async () => {
    // The root's Lcl Translation is (0, 100, 0); its translation curve node says d|Y 0, and only X has a curve.
    const keys: FbxKeys = { seconds: [0, 1], values: [3, 6], flags: [LINEAR], data: [0, 0, 0, 0], refCount: [2] };
    const m = (await importFbx(writeFbxBinary(fbxScene(oneCurve(keys))), { fps: 30 })).motion;
    for (let f = 0; f <= m.frameCount; f++)
      expect(Array.from(m.translation.subarray(f * 4, f * 4 + 3)).map((v) => Number(v.toFixed(4)))).toEqual([
        3 + (3 * f) / 30,
        0,
        0,
      ]);
  });

  it('TCB tangents and velocities between keys are refused, naming the curve and the key; on the keys they import', async () => {
    const tcb: FbxKeys = { seconds: [0, 1, 2], values: [0, 10, 0], flags: [0x208], data: [0, 0, 0, 0], refCount: [3] };
    for (const [format, bytes] of both(oneCurve(tcb))) {
      const e = await importFbx(bytes, { fps: 30 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e, format).toBeInstanceOf(FormatError);
      expect((e as FormatError).message).toMatch(
        /animation curve "Hips" Lcl Translation X: key 0 \(0\.000 s\) has a TCB tangent .*export with the animation baked/,
      );
    }
    expect((await rootSamples(writeFbxBinary(fbxScene(oneCurve(tcb))), 'T', 1)).samples).toEqual([0, 10, 0]);
    const velocity: FbxKeys = { ...tcb, flags: [CUBIC_USER | 0x10000000] };
    const e = await importFbx(writeFbxBinary(fbxScene(oneCurve(velocity))), { fps: 30 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((e as FormatError).message).toMatch(
      /animation curve "Hips" Lcl Translation X: key 0 \(0\.000 s\) has a tangent velocity/,
    );
  });
});

describe('FBX node settings the loader does not weigh', () => {
  const spineRotation = async (o: FbxSceneOptions) => {
    const m = (await importFbx(writeFbxBinary(fbxScene({ frames: 3, ...o })))).motion;
    return Array.from(m.rotation.subarray(4, 8));
  };
  const close = (a: number[], b: number[]) => a.every((x, i) => Math.abs(x - b[i]) < 1e-6 || Math.abs(x + b[i]) < 1e-6);

  it('pre- and post-rotations count only when RotationActive is 1, as FBX has it', async () => {
    const plain = await spineRotation({});
    for (const rotations of [{ preRotation: [0, 0, 90] }, { postRotation: [30, 0, 0] }] as FbxSceneOptions[]) {
      expect(close(await spineRotation({ ...rotations, rotationActive: 0 }), plain)).toBe(true);
      expect(close(await spineRotation({ ...rotations, rotationActive: 1 }), plain)).toBe(false);
    }
    // ASCII alike.
    const ascii = async (o: FbxSceneOptions) =>
      Array.from((await importFbx(writeFbxAscii(fbxScene({ frames: 3, ...o })))).motion.rotation.subarray(4, 8));
    expect(close(await ascii({ preRotation: [0, 0, 90], rotationActive: 0 }), plain)).toBe(true);
    expect(close(await ascii({ preRotation: [0, 0, 90], rotationActive: 1 }), plain)).toBe(false);
  });

  it('RotationOrder counts only when RotationActive is 1, as FBX has it (an inactive node turns in the order XYZ)', async () => {
    // Every rotation of the motion (all joints, all frames), compared quaternion by quaternion up to sign.
    const all = async (o: FbxSceneOptions, write = writeFbxBinary) =>
      (await importFbx(write(fbxScene({ frames: 3, ...o })))).motion.rotation;
    const same = (a: Float32Array, b: Float32Array) => {
      for (let i = 0; i < a.length; i += 4) {
        const dot = a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2] + a[i + 3] * b[i + 3];
        if (Math.abs(Math.abs(dot) - 1) > 1e-6) return false;
      }
      return true;
    };
    const plain = await all({});
    // 5 is ZYX: the sine keys turn every bone about all three axes, so the order shows.
    expect(same(await all({ rotationOrder: 5, rotationActive: 1 }), plain)).toBe(false);
    expect(same(await all({ rotationOrder: 5, rotationActive: 0 }), plain)).toBe(true);
    // No RotationActive written (nor a Model template): FBX's default, inactive.
    expect(same(await all({ rotationOrder: 5 }), plain)).toBe(true);
    expect(same(await all({ rotationOrder: 0, rotationActive: 1 }), plain)).toBe(true);
    expect(same(await all({ rotationOrder: 5, rotationActive: 0 }, writeFbxAscii), plain)).toBe(true);
    expect(same(await all({ rotationOrder: 5, rotationActive: 1 }, writeFbxAscii), plain)).toBe(false);
  });

  it('InheritType: RrSs and Rrs are read where they pose as RSrs, and refused, naming the node, where they would not', async () => {
    const refusal = async (o: FbxSceneOptions) =>
      importFbx(writeFbxBinary(fbxScene({ frames: 3, ...o }))).then(
        () => '',
        (e: unknown) => (e instanceof FormatError ? e.message : String(e)),
      );
    // An even scale on the root: every inherit type gives the same pose, except Rrs, which leaves it out.
    expect(await refusal({ rootScaling: [2, 2, 2], inheritType: 0 })).toBe('');
    expect(await refusal({ rootScaling: [2, 2, 2], inheritType: 1 })).toBe('');
    expect(await refusal({ rootScaling: [2, 2, 2], inheritType: 2 })).toMatch(
      /\(Model "Spine" InheritType\).*node "Spine" inherits its parent's scale as Rrs \(InheritType 2\) and its parent "Hips" is scaled \(2, 2, 2\) at frame 0/,
    );
    expect(await refusal({ inheritType: 2 })).toBe('');
    // An uneven scale: only RSrs is the pose three.js gives.
    expect(await refusal({ rootScaling: [1, 3, 1], inheritType: 1 })).toBe('');
    expect(await refusal({ rootScaling: [1, 3, 1], inheritType: 0 })).toMatch(
      /node "Spine" inherits its parent's scale as RrSs \(InheritType 0\) and its parent "Hips" is scaled unevenly in the scene \(1, 3, 1\) at frame 0/,
    );
    // No InheritType written: FBX's default, RrSs.
    expect(await refusal({ rootScaling: [1, 3, 1] })).toMatch(/node "Spine" inherits .* as RrSs \(InheritType 0\)/);
  });
});
