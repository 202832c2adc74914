/**
 * What the curve view plots for the selected joint: per component the source
 * values and the decoded values at every frame 0..N, the channel's keys and
 * its per-frame error against the tolerance.
 */
import { MotionFlag, type Motion } from '../../shared/motion/types';
import type { ChannelKind, ChannelReport } from '../../shared/compress/types';
import type { Mt3Motion } from '../../shared/mt3/types';
import { samplePositionTrack, sampleRotationTrack, type DecodedMt3 } from '../../shared/mt3/decode';
import { decodeResult } from '../math/decodedResult';
import { userKeysOf } from '../state/keyInfo';
import { bestEulerOrder, eulerFilterDeg, quatToEulerDeg, type EulerOrder } from '../math/euler';
import type { CurveChannel } from '../state/sessionStore';
import { COLORS } from '../theme';

export interface CurveComponent {
  label: string;
  color: string;
  /** Source value per frame, N+1 entries. */
  source: Float64Array;
  /** Decoded value per frame, or null when there is no compressed motion yet. */
  decoded: Float64Array | null;
}

export interface CurveSeries {
  /** Which compression channel this is. */
  kind: ChannelKind;
  joint: number;
  /** Title, e.g. 'thigh_L rotation (Euler XYZ, degrees)'. */
  title: string;
  unit: string;
  components: CurveComponent[];
  /** Every key of the compressed channel (auto and user), or empty before compression. */
  keyFrames: number[];
  /** User KEY frames of this channel in the document (immediate, before recompression). */
  userKeyFrames: readonly number[];
  /** Error at every frame, or null (channel not compressed). */
  errors: Float64Array | null;
  tolerance: number | null;
  maxError: number | null;
  maxErrorFrame: number | null;
  /** Why there is no decoded curve, when there is none. */
  note: string | null;
  /** The rotate order of Euler curves (the one asked for, or the one 'auto' chose); null for other channels. */
  eulerOrder: EulerOrder | null;
}

/** Finds the compressor's report for a channel. */
export function findChannel(
  channels: readonly ChannelReport[] | undefined,
  kind: ChannelKind,
  joint: number,
): ChannelReport | null {
  if (!channels) return null;
  for (const c of channels) if (c.kind === kind && c.joint === joint) return c;
  return null;
}

/** User KEY frames of a channel read from the document's key info. */
/**
 * A tolerance as the curve gutter and the timeline's tooltip show it: at most three decimals, trailing zeros dropped
 * (0.5, 0.125, 1.36). A tolerance the object-space bound derived is any float (0.5002436384161729 was drawn whole
 * and ran off the gutter).
 */
export function formatTolerance(t: number): string {
  return String(Number(t.toFixed(3)));
}

/** The last source Euler curves made (an edit or a new result redraws the same joint's source). */
let eulerMemo: {
  rotation: Float32Array;
  joint: number;
  order: EulerOrder | 'auto';
  ord: EulerOrder;
  source: Float64Array[];
} | null = null;

/**
 * A joint's source rotation as Euler angles in degrees, filtered along time (no 360 jumps, no flips at the middle
 * axis' ±90 branch point), in `order` or the one 'auto' picks; remembered for the same samples, joint and order.
 * The arrays are shared: callers only read them.
 */
function sourceEuler(
  m: Motion,
  joint: number,
  order: EulerOrder | 'auto',
): { ord: EulerOrder; source: Float64Array[] } {
  const hit = eulerMemo;
  if (hit && hit.rotation === m.rotation && hit.joint === joint && hit.order === order) return hit;
  const S = m.frameCount + 1;
  const J = m.joints.length;
  const ord = order === 'auto' ? bestEulerOrder(m.rotation, joint * 4, J * 4, S) : order;
  const middle = ord.charCodeAt(1) - 88; // 'X' 0, 'Y' 1, 'Z' 2
  const source = [new Float64Array(S), new Float64Array(S), new Float64Array(S)];
  const e = new Float64Array(3);
  const prev = new Float64Array(3);
  const out = new Float64Array(3);
  for (let f = 0; f < S; f++) {
    const i = (f * J + joint) * 4;
    quatToEulerDeg(ord, m.rotation[i], m.rotation[i + 1], m.rotation[i + 2], m.rotation[i + 3], e);
    if (f > 0) eulerFilterDeg(prev, e, out, middle);
    else out.set(e);
    for (let c = 0; c < 3; c++) source[c][f] = out[c];
    prev.set(out);
  }
  eulerMemo = { rotation: m.rotation, joint, order, ord, source };
  return eulerMemo;
}

export function buildSeries(
  m: Motion,
  joint: number,
  channel: CurveChannel,
  mt3: Mt3Motion | null,
  channels: readonly ChannelReport[] | undefined,
  /** Rotate order of Euler curves; 'auto' picks the one farthest from gimbal lock for this joint. */
  order: EulerOrder | 'auto' = 'XYZ',
): CurveSeries {
  const N = m.frameCount;
  const S = N + 1;
  const J = m.joints.length;
  const decodedOk = !!mt3 && mt3.numFrames === N && mt3.rotations.length === J;
  const d = decodedOk ? decodeResult(mt3!) : null;
  const tmp = new Float64Array(4);
  const kind: ChannelKind = joint < 0 ? 'translation' : channel === 'offset' ? 'offset' : 'rotation';
  const name = joint < 0 ? 'Root' : m.joints[joint]?.name || `joint ${joint}`;
  let note: string | null = decodedOk ? null : 'Compressing…';
  let eulerOrder: EulerOrder | null = null;
  const comps: CurveComponent[] = [];

  if (kind === 'translation' || kind === 'offset') {
    const labels = ['X', 'Y', 'Z'];
    const colors = [COLORS.axisX, COLORS.axisY, COLORS.axisZ];
    let track = null as DecodedMt3['root'] | null;
    if (d) {
      if (kind === 'translation') track = d.root;
      else if (d.offsets) track = d.offsets[joint];
      else
        note =
          m.flags & MotionFlag.OFFSETS
            ? 'Compressing…'
            : 'Offsets are not animated (OFFSETS flag off): the runtime keeps the rest offsets.';
    }
    for (let c = 0; c < 3; c++)
      comps.push({
        label: labels[c],
        color: colors[c],
        source: new Float64Array(S),
        decoded: track ? new Float64Array(S) : null,
      });
    for (let f = 0; f < S; f++) {
      const base = kind === 'translation' ? f * 4 : (f * J + joint) * 4;
      const src = kind === 'translation' ? m.translation : m.offset;
      for (let c = 0; c < 3; c++) comps[c].source[f] = src[base + c];
      if (track) {
        samplePositionTrack(track, f, tmp);
        for (let c = 0; c < 3; c++) comps[c].decoded![f] = tmp[c];
      }
    }
  } else if (channel === 'quat') {
    const labels = ['qX', 'qY', 'qZ', 'qW'];
    const colors = [COLORS.axisX, COLORS.axisY, COLORS.axisZ, COLORS.axisW];
    for (let c = 0; c < 4; c++)
      comps.push({
        label: labels[c],
        color: colors[c],
        source: new Float64Array(S),
        decoded: d ? new Float64Array(S) : null,
      });
    let sign = 1;
    for (let f = 0; f < S; f++) {
      const i = (f * J + joint) * 4;
      // Keep the source on one hemisphere along time so q and -q do not draw as a jump.
      if (f > 0) {
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += m.rotation[i + c] * sign * comps[c].source[f - 1];
        if (dot < 0) sign = -sign;
      }
      for (let c = 0; c < 4; c++) comps[c].source[f] = m.rotation[i + c] * sign;
      if (d) {
        sampleRotationTrack(d.rotations[joint], f, tmp);
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += tmp[c] * comps[c].source[f];
        const s = dot < 0 ? -1 : 1;
        for (let c = 0; c < 4; c++) comps[c].decoded![f] = tmp[c] * s;
      }
    }
  } else {
    const labels = ['rX', 'rY', 'rZ'];
    const colors = [COLORS.axisX, COLORS.axisY, COLORS.axisZ];
    const { ord, source } = sourceEuler(m, joint, order);
    for (let c = 0; c < 3; c++)
      comps.push({ label: labels[c], color: colors[c], source: source[c], decoded: d ? new Float64Array(S) : null });
    eulerOrder = ord;
    const middle = ord.charCodeAt(1) - 88; // 'X' 0, 'Y' 1, 'Z' 2
    const e = new Float64Array(3);
    const prev = new Float64Array(3);
    const out = new Float64Array(3);
    if (d) {
      for (let f = 0; f < S; f++) {
        sampleRotationTrack(d.rotations[joint], f, tmp);
        quatToEulerDeg(ord, tmp[0], tmp[1], tmp[2], tmp[3], e);
        // The decoded angles take the branch nearest the source at the same frame, so both curves overlay.
        for (let c = 0; c < 3; c++) prev[c] = source[c][f];
        eulerFilterDeg(prev, e, out, middle);
        for (let c = 0; c < 3; c++) comps[c].decoded![f] = out[c];
      }
    }
  }

  const report = decodedOk ? findChannel(channels, kind, kind === 'translation' ? -1 : joint) : null;
  const unit = kind === 'rotation' ? (channel === 'quat' ? '' : '°') : 'u';
  const what =
    kind === 'translation'
      ? 'root translation'
      : kind === 'offset'
        ? 'offset'
        : channel === 'quat'
          ? 'rotation (quaternion)'
          : `rotation (Euler ${eulerOrder} °)`;
  return {
    kind,
    joint,
    title: `${name} · ${what}`,
    unit,
    components: comps,
    keyFrames: report ? report.keyFrames : [],
    userKeyFrames: userKeysOf(m, joint),
    errors: report ? report.errors : null,
    tolerance: report ? report.tolerance : null,
    maxError: report ? report.maxError : null,
    maxErrorFrame: report ? report.maxErrorFrame : null,
    note,
    eulerOrder,
  };
}
