/**
 * Footstep suggestions: foot contacts found in a motion, per side, as the
 * frames a footstep sound event would sit on.
 *
 * A side is in contact on a frame when its lowest point (the lower of the foot
 * and toe joints) is within `heightTolerance` of the lowest it gets in the
 * surrounding `windowFrames` (a local minimum, so a motion on uneven ground or
 * with a drifting root still finds its steps), no higher than
 * `maxHeightAboveFloor` over the side's lowest height in the whole motion (so
 * the bottom of a jump in mid-air is not a step), and the foot moves at most
 * `maxSpeed` units per frame. A footstep is the first frame of each contact
 * run (the landing); a run that starts at frame 0 is a foot already planted
 * when the motion starts, not a landing, unless the foot is still coming down
 * there. Heights are along +Y, in motion units. Pure.
 */
import type { Motion } from '../motion/types';
import { worldPose } from '../interchange/kinematics';

export type FootSide = 'L' | 'R';

/** Detection thresholds (motion units and frames). */
export interface FootContactOptions {
  /** How far above its local minimum the foot may be and still touch the ground. */
  heightTolerance: number;
  /** How far above its lowest height in the whole motion a contact may be. */
  maxHeightAboveFloor: number;
  /** Largest foot speed of a planted foot, units per frame. */
  maxSpeed: number;
  /** Half-width of the local-minimum window, frames. */
  windowFrames: number;
  /** Shortest contact, frames (shorter touches are scuffs, not steps). */
  minContactFrames: number;
}

export const DEFAULT_FOOT_CONTACT_OPTIONS: FootContactOptions = {
  heightTolerance: 2,
  maxHeightAboveFloor: 6,
  maxSpeed: 1,
  windowFrames: 15,
  minContactFrames: 3,
};

/** The joints that carry one side's contacts. */
export interface FootJoints {
  side: FootSide;
  /** The foot (ankle) joint: the event's joint. */
  foot: number;
  /** The toe joint, or -1. */
  toe: number;
}

/** One suggested footstep. */
export interface FootContact {
  side: FootSide;
  /** First frame of the contact (the landing), 0..N. */
  frame: number;
  /** Last frame of the contact. */
  endFrame: number;
  /** The foot joint the event attaches to. */
  joint: number;
}

const FOOT_NAMES: Record<FootSide, string[]> = {
  L: ['leftfoot', 'lfoot', 'l_foot', 'foot_l', 'leftankle', 'l_ankle', 'ankle_l'],
  R: ['rightfoot', 'rfoot', 'r_foot', 'foot_r', 'rightankle', 'r_ankle', 'ankle_r'],
};
const TOE_NAMES: Record<FootSide, string[]> = {
  L: ['lefttoebase', 'lefttoe', 'ltoe', 'l_toe', 'toe_l', 'lefttoes'],
  R: ['righttoebase', 'righttoe', 'rtoe', 'r_toe', 'toe_r', 'righttoes'],
};

/** The foot and toe joints of each side, found by name (sides without a foot joint are left out). */
export function findFootJoints(joints: readonly { name: string }[]): FootJoints[] {
  const find = (names: string[]) => joints.findIndex((j) => names.includes(j.name.toLowerCase()));
  const out: FootJoints[] = [];
  for (const side of ['L', 'R'] as const) {
    const foot = find(FOOT_NAMES[side]);
    if (foot >= 0) out.push({ side, foot, toe: find(TOE_NAMES[side]) });
  }
  return out;
}

/** Per frame of one side: the lowest height of foot and toe, and the foot's speed (units per frame). */
export function footTracks(motion: Motion, feet: FootJoints): { height: Float64Array; speed: Float64Array } {
  const n = motion.frameCount + 1;
  const height = new Float64Array(n);
  const pos = new Float64Array(n * 3);
  const toePos = new Float64Array(n * 3);
  for (let f = 0; f < n; f++) {
    const p = worldPose(motion, f).positions;
    pos.set(p.subarray(feet.foot * 3, feet.foot * 3 + 3), f * 3);
    height[f] = p[feet.foot * 3 + 1];
    if (feet.toe >= 0) {
      toePos.set(p.subarray(feet.toe * 3, feet.toe * 3 + 3), f * 3);
      height[f] = Math.min(height[f], p[feet.toe * 3 + 1]);
    }
  }
  const speed = new Float64Array(n);
  const at = (a: Float64Array, f: number, k: number) => a[Math.max(0, Math.min(n - 1, f)) * 3 + k];
  for (let f = 0; f < n; f++) {
    const lo = Math.max(0, f - 1);
    const hi = Math.min(n - 1, f + 1);
    const span = Math.max(1, hi - lo);
    const v = (a: Float64Array) =>
      Math.hypot(at(a, hi, 0) - at(a, lo, 0), at(a, hi, 1) - at(a, lo, 1), at(a, hi, 2) - at(a, lo, 2)) / span;
    // A rolling foot plants the heel or the toe: the slower of the two is the planted point.
    speed[f] = feet.toe >= 0 ? Math.min(v(pos), v(toePos)) : v(pos);
  }
  return { height, speed };
}

/** Frames of one side in contact (a boolean per frame), from its tracks. */
export function contactFrames(height: Float64Array, speed: Float64Array, o: FootContactOptions): boolean[] {
  const n = height.length;
  let floor = Infinity;
  for (const h of height) floor = Math.min(floor, h);
  const out: boolean[] = new Array(n).fill(false);
  for (let f = 0; f < n; f++) {
    let localMin = Infinity;
    for (let k = Math.max(0, f - o.windowFrames); k <= Math.min(n - 1, f + o.windowFrames); k++)
      localMin = Math.min(localMin, height[k]);
    out[f] =
      height[f] - localMin <= o.heightTolerance && height[f] - floor <= o.maxHeightAboveFloor && speed[f] <= o.maxSpeed;
  }
  return out;
}

/**
 * The contacts of one side from its tracks: runs of contact frames at least `minContactFrames` long, each a
 * landing. A run under way at frame 0 is a foot standing when the motion starts and is left out, unless the
 * foot is still coming down at frame 0 (it lands there).
 */
export function contactRuns(
  height: Float64Array,
  speed: Float64Array,
  o: FootContactOptions = DEFAULT_FOOT_CONTACT_OPTIONS,
): { frame: number; endFrame: number }[] {
  const on = contactFrames(height, speed, o);
  const runs: { frame: number; endFrame: number }[] = [];
  for (let f = 0; f < on.length;) {
    if (!on[f]) {
      f++;
      continue;
    }
    let end = f;
    while (end + 1 < on.length && on[end + 1]) end++;
    if (end - f + 1 >= o.minContactFrames && (f > 0 || landsAtFrameZero(height, o)))
      runs.push({ frame: f, endFrame: end });
    f = end + 1;
  }
  return runs;
}

/** Suggested footsteps of a motion, in frame order (left before right on the same frame). */
export function detectFootContacts(motion: Motion, options: Partial<FootContactOptions> = {}): FootContact[] {
  const o = { ...DEFAULT_FOOT_CONTACT_OPTIONS, ...options };
  const out: FootContact[] = [];
  for (const feet of findFootJoints(motion.joints)) {
    const { height, speed } = footTracks(motion, feet);
    for (const r of contactRuns(height, speed, o))
      out.push({ side: feet.side, frame: r.frame, endFrame: r.endFrame, joint: feet.foot });
  }
  return out.sort((a, b) => a.frame - b.frame || (a.side === b.side ? 0 : a.side === 'L' ? -1 : 1));
}

/** Whether a foot in contact at frame 0 lands there (still coming down into the floor) rather than standing. */
function landsAtFrameZero(height: Float64Array, o: FootContactOptions): boolean {
  return height.length > 1 && height[0] - height[1] > o.heightTolerance / 10;
}

/** How near (frames) an existing event of the same SE on the same joint makes a suggested footstep redundant. */
export const FOOTSTEP_NEAR_FRAMES = 2;

/**
 * The suggestions not covered yet: a contact is left out when an event of its side's SE (`seOf`, null when the
 * .sev has none) on the same joint sits within `near` frames of it, so suggesting again on a .sev that has its
 * steps proposes only the missing ones.
 */
export function uncoveredContacts(
  contacts: readonly FootContact[],
  events: readonly { frame: number; se: number; joint: number | null }[],
  seOf: Record<FootSide, number | null>,
  near = FOOTSTEP_NEAR_FRAMES,
): FootContact[] {
  return contacts.filter((c) => {
    const se = seOf[c.side];
    return (
      se === null || !events.some((e) => e.se === se && e.joint === c.joint && Math.abs(e.frame - c.frame) <= near)
    );
  });
}
