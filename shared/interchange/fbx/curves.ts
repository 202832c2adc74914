/**
 * FBX AnimationCurve keys and their evaluation between keys (docs/import.md#fbx-keys).
 *
 * A curve stores KeyTime (ticks), KeyValueFloat, and its key attributes in runs:
 * KeyAttrRefCount[r] keys share KeyAttrFlags[r] and the four numbers
 * KeyAttrDataFloat[4r..4r+3] = right slope, next key's left slope (value per
 * second), the two tangent weights packed as 16-bit ten-thousandths (low half
 * right, high half next-left), the two velocities packed the same way. A
 * segment from key k to key k+1 is evaluated by key k's interpolation:
 * constant (hold key k, or take key k+1 with the "next" constant mode),
 * linear, or cubic. Cubic user and break tangents use the stored slopes: a
 * cubic Hermite in time, or, weighted, the Bezier whose inner control points
 * lie at weight x the key interval along each tangent. Auto tangents are
 * computed from the neighbouring keys (cardinal spline); TCB tangents and
 * velocities are refused where a frame falls between such keys.
 */
import { FormatError, type FormatErrorPlace } from '../../errors';

/** FBX time ticks per second. */
export const FBX_TICKS = 46186158000;

/** KeyAttrFlags bits (FbxAnimCurveDef; assigned by the format, never change). */
export const KeyFlag = {
  CONSTANT: 0x02,
  LINEAR: 0x04,
  CUBIC: 0x08,
  INTERPOLATION: 0x0e,
  /** With CONSTANT: the segment takes the next key's value. */
  CONSTANT_NEXT: 0x100,
  TANGENT_AUTO: 0x100,
  TANGENT_TCB: 0x200,
  TANGENT_USER: 0x400,
  TANGENT_BREAK: 0x800,
  CLAMP: 0x1000,
  CLAMP_PROGRESSIVE: 0x4000,
  WEIGHTED_RIGHT: 0x01000000,
  WEIGHTED_NEXT_LEFT: 0x02000000,
  VELOCITY_RIGHT: 0x10000000,
  VELOCITY_NEXT_LEFT: 0x20000000,
} as const;

/** The tangent weight FBX uses when a side is not weighted. */
const DEFAULT_WEIGHT = 1 / 3;

/** One AnimationCurve as read from the file. */
export interface FbxCurve {
  /** Where it is, for messages: `"Hips" Lcl Rotation X` and the curve's object id. */
  label: string;
  place: FormatErrorPlace;
  /** Key times in FBX ticks, not decreasing. */
  times: Float64Array;
  values: Float64Array;
  /** Per key: KeyAttrFlags, the two slopes, the two weights (0..1). */
  flags: Int32Array;
  rightSlope: Float64Array;
  nextLeftSlope: Float64Array;
  rightWeight: Float64Array;
  nextLeftWeight: Float64Array;
}

/** What evaluating a curve met that a user should hear of: auto tangents between keys. */
export interface CurveNotes {
  /** First curve and key whose auto tangent shaped a frame between keys, and how many such curves. */
  auto?: { label: string; key: number; seconds: number; curves: Set<string> };
}

/**
 * Expands a curve's attribute runs to one entry per key. `weightBits` turns the third and fourth data numbers into
 * their 32-bit patterns (binary files store them as floats whose bits are the packed weights, ASCII as integers).
 */
export function readCurve(
  label: string,
  place: FormatErrorPlace,
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  attrFlags: ArrayLike<number>,
  attrData: ArrayLike<number>,
  refCount: ArrayLike<number>,
  weightBits: (x: number) => number,
): FbxCurve {
  const n = times.length;
  const fail = (detail: string): never => {
    throw new FormatError('FBX', `animation curve ${label}: ${detail}`, place);
  };
  if (values.length !== n) fail(`${n} key times but ${values.length} key values`);
  for (let k = 0; k < n; k++)
    if (!Number.isFinite(times[k])) fail(`key ${k} is at tick ${times[k]}: key times must be finite numbers`);
  for (let k = 1; k < n; k++)
    if (!(times[k] >= times[k - 1]))
      fail(`key ${k} at tick ${times[k]} comes before key ${k - 1} at tick ${times[k - 1]}: key times must increase`);
  const c: FbxCurve = {
    label,
    place,
    times: Float64Array.from(times),
    values: Float64Array.from(values),
    flags: new Int32Array(n),
    rightSlope: new Float64Array(n),
    nextLeftSlope: new Float64Array(n),
    rightWeight: new Float64Array(n).fill(DEFAULT_WEIGHT),
    nextLeftWeight: new Float64Array(n).fill(DEFAULT_WEIGHT),
  };
  // A curve without attributes (some exporters of linear keys) is linear.
  if (!attrFlags.length) {
    c.flags.fill(KeyFlag.LINEAR);
    return c;
  }
  if (attrData.length < attrFlags.length * 4 || refCount.length < attrFlags.length)
    fail(
      `${attrFlags.length} KeyAttrFlags need ${attrFlags.length * 4} KeyAttrDataFloat and ${attrFlags.length} KeyAttrRefCount values, found ${attrData.length} and ${refCount.length}`,
    );
  let k = 0;
  for (let r = 0; r < attrFlags.length && k < n; r++) {
    const count = refCount[r];
    if (!(Number.isInteger(count) && count >= 0)) fail(`KeyAttrRefCount ${r} is ${count}, not a key count`);
    const bits = weightBits(attrData[r * 4 + 2]);
    for (let i = 0; i < count && k < n; i++, k++) {
      c.flags[k] = attrFlags[r];
      c.rightSlope[k] = attrData[r * 4];
      c.nextLeftSlope[k] = attrData[r * 4 + 1];
      if (attrFlags[r] & KeyFlag.WEIGHTED_RIGHT) c.rightWeight[k] = (bits & 0xffff) / 10000;
      if (attrFlags[r] & KeyFlag.WEIGHTED_NEXT_LEFT) c.nextLeftWeight[k] = ((bits >>> 16) & 0xffff) / 10000;
    }
  }
  if (k < n) fail(`KeyAttrRefCount covers ${k} keys of ${n}`);
  return c;
}

/** Index of the last key at or before `t` (-1 before the first). */
function keyAtOrBefore(times: Float64Array, t: number): number {
  let lo = 0,
    hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * The curve's value at `t` ticks. Before the first key and after the last the end value holds; within `snap`
 * ticks of a key, that key's value comes back exactly.
 */
export function evaluateCurve(c: FbxCurve, t: number, snap: number, notes: CurveNotes): number {
  const { times, values } = c;
  const n = times.length;
  const k = keyAtOrBefore(times, t);
  for (const j of [k, k + 1]) if (j >= 0 && j < n && Math.abs(times[j] - t) <= snap) return values[j];
  if (k < 0) return values[0];
  if (k >= n - 1) return values[n - 1];
  const t0 = times[k],
    t1 = times[k + 1],
    v0 = values[k],
    v1 = values[k + 1];
  const flags = c.flags[k];
  const interpolation = flags & KeyFlag.INTERPOLATION;
  if (interpolation === KeyFlag.CONSTANT) return flags & KeyFlag.CONSTANT_NEXT ? v1 : v0;
  const s = (t - t0) / (t1 - t0);
  if (interpolation !== KeyFlag.CUBIC) return v0 + s * (v1 - v0);
  const next = c.flags[k + 1];
  for (const [key, f] of [
    [k, flags],
    [k + 1, next],
  ] as const) {
    if (f & KeyFlag.TANGENT_TCB)
      throw new FormatError(
        'FBX',
        `animation curve ${c.label}: key ${key} (${seconds(times[key])} s) has a TCB tangent (tension, continuity, bias), which ActGuy does not evaluate between keys: export with the animation baked (a key every frame), or import at the file's frame rate so every frame is a key`,
        c.place,
      );
  }
  if (flags & (KeyFlag.VELOCITY_RIGHT | KeyFlag.VELOCITY_NEXT_LEFT))
    throw new FormatError(
      'FBX',
      `animation curve ${c.label}: key ${k} (${seconds(t0)} s) has a tangent velocity, which ActGuy does not evaluate between keys: export with the animation baked (a key every frame), or import at the file's frame rate so every frame is a key`,
      c.place,
    );
  const dt = (t1 - t0) / FBX_TICKS;
  const d0 = isAuto(flags) ? autoSlope(c, k, notes) : c.rightSlope[k];
  const d1 = isAuto(next) ? autoSlope(c, k + 1, notes) : c.nextLeftSlope[k];
  const wr = c.rightWeight[k],
    wl = c.nextLeftWeight[k];
  if (!(wr >= 0 && wr <= 1 && wl >= 0 && wl <= 1))
    throw new FormatError(
      'FBX',
      `animation curve ${c.label}: key ${k} (${seconds(t0)} s) has tangent weights ${wr} and ${wl}; weights lie between 0 and 1: the file is damaged`,
      c.place,
    );
  // The Bezier through (t0, v0), (t0 + wr dt, v0 + wr dt d0), (t1 - wl dt, v1 - wl dt d1), (t1, v1); with weights of
  // 1/3 its time runs evenly and it is the cubic Hermite with slopes d0, d1.
  const u = wr === DEFAULT_WEIGHT && wl === DEFAULT_WEIGHT ? s : bezierParameter(wr, 1 - wl, s);
  const p1 = v0 + wr * dt * d0,
    p2 = v1 - wl * dt * d1;
  const w = 1 - u;
  return w * w * w * v0 + 3 * w * w * u * p1 + 3 * w * u * u * p2 + u * u * u * v1;
}

/**
 * A key whose tangent FBX derives from its neighbours: the auto bit, and no user, break or TCB bit (auto-break too).
 * On a constant key the same bit means "take the next key's value", not a tangent.
 */
function isAuto(flags: number): boolean {
  return (
    (flags & KeyFlag.INTERPOLATION) !== KeyFlag.CONSTANT &&
    (flags & KeyFlag.TANGENT_AUTO) !== 0 &&
    !(flags & (KeyFlag.TANGENT_USER | KeyFlag.TANGENT_TCB))
  );
}

/**
 * The auto tangent of key k: the cardinal spline's slope through its neighbours, flat at the first and last key,
 * and flat at a local extreme when the key is clamped. The FBX SDK documents auto keys as a cardinal spline but not
 * its clamping and time weighting, so frames shaped by one are told (CurveNotes), not passed off as exact.
 */
function autoSlope(c: FbxCurve, k: number, notes: CurveNotes): number {
  const { times, values } = c;
  notes.auto ??= { label: c.label, key: k, seconds: times[k] / FBX_TICKS, curves: new Set() };
  notes.auto.curves.add(c.label);
  if (k === 0 || k === times.length - 1) return 0;
  const before = values[k - 1],
    here = values[k],
    after = values[k + 1];
  if (c.flags[k] & (KeyFlag.CLAMP | KeyFlag.CLAMP_PROGRESSIVE) && (here - before) * (after - here) <= 0) return 0;
  return ((after - before) / (times[k + 1] - times[k - 1])) * FBX_TICKS;
}

/** The Bezier parameter u where x(u) = s, for x control points 0, a, b, 1 (0 <= a, b <= 1: x rises with u). */
function bezierParameter(a: number, b: number, s: number): number {
  let lo = 0,
    hi = 1,
    u = s;
  for (let i = 0; i < 60; i++) {
    const w = 1 - u;
    const x = 3 * w * w * u * a + 3 * w * u * u * b + u * u * u;
    if (Math.abs(x - s) < 1e-15) break;
    if (x < s) lo = u;
    else hi = u;
    const dx = 3 * w * w * a + 6 * w * u * (b - a) + 3 * u * u * (1 - b);
    const newton = dx > 1e-12 ? u - (x - s) / dx : NaN;
    u = newton > lo && newton < hi ? newton : (lo + hi) / 2;
  }
  return u;
}

function seconds(ticks: number): string {
  return (ticks / FBX_TICKS).toFixed(3);
}
