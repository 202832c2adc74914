/**
 * A synthetic humanoid walk cycle, the project's bundled sample motion
 * (assets/walk.mtn). Deterministic: no randomness, only smooth periodic
 * functions of the frame number.
 *
 * Units: centimetres. Axes: Y up, Z forward (the direction of travel), X to
 * the character's left. The character is about 171 cm tall (head top).
 * 23 joints, parents before children; part 0 = hips and legs, 1 = the rest;
 * left/right pairs mirror each other. Rest skeleton: constant offsets.
 * Key info: user KEYs on the root translation and a few joints, LOCK ranges on
 * the planted feet (one joint per frame), TRACE keys on the root translation.
 */
import { JointPart, KeyFlag, MotionFlag, emptyMotion, type JointInfo, type Motion } from '../../shared/motion/types';
import { guessMirrorPairs } from '../../shared/interchange/mirror';
import {
  makeQuatsContinuous,
  quatFromAxisAngle,
  quatMul,
  worldPose,
  type Quat,
  type Vec3,
} from '../../shared/interchange/kinematics';

/** Frames per gait cycle (two steps): 1.1 s at 30 fps. */
export const WALK_CYCLE_FRAMES = 33;
/** N: 4 full cycles, frames 0..132. */
export const WALK_FRAME_COUNT = 4 * WALK_CYCLE_FRAMES;

/** [name, parent name, rest offset from the parent in cm]. Order = joint order. */
const SKELETON: [string, string | null, Vec3][] = [
  ['Hips', null, [0, 0, 0]],
  ['Spine', 'Hips', [0, 10, -1]],
  ['Spine1', 'Spine', [0, 12, 0]],
  ['Chest', 'Spine1', [0, 14, 1]],
  ['Neck', 'Chest', [0, 16, 0]],
  ['Head', 'Neck', [0, 10, 1.5]],
  ['HeadTop', 'Head', [0, 14, 0]],
  ['LeftShoulder', 'Chest', [3, 12, 0]],
  ['LeftArm', 'LeftShoulder', [15, -1, -1]],
  ['LeftForeArm', 'LeftArm', [0, -29, 0]],
  ['LeftHand', 'LeftForeArm', [0, -26, 1]],
  ['RightShoulder', 'Chest', [-3, 12, 0]],
  ['RightArm', 'RightShoulder', [-15, -1, -1]],
  ['RightForeArm', 'RightArm', [0, -29, 0]],
  ['RightHand', 'RightForeArm', [0, -26, 1]],
  ['LeftUpLeg', 'Hips', [9, -5, 0]],
  ['LeftLeg', 'LeftUpLeg', [0, -42, 0.5]],
  ['LeftFoot', 'LeftLeg', [0, -40, -0.5]],
  ['LeftToeBase', 'LeftFoot', [0, -6, 13]],
  ['RightUpLeg', 'Hips', [-9, -5, 0]],
  ['RightLeg', 'RightUpLeg', [0, -42, 0.5]],
  ['RightFoot', 'RightLeg', [0, -40, -0.5]],
  ['RightToeBase', 'RightFoot', [0, -6, 13]],
];

const DEG = Math.PI / 180;
const rx = (deg: number) => quatFromAxisAngle(1, 0, 0, deg * DEG);
const ry = (deg: number) => quatFromAxisAngle(0, 1, 0, deg * DEG);
const rz = (deg: number) => quatFromAxisAngle(0, 0, 1, deg * DEG);
/** Yaw, then pitch, then roll about the parent's axes, composed as Y * X * Z. */
const yxz = (y: number, x: number, z: number): Quat => quatMul(quatMul(ry(y), rx(x)), rz(z));

/** A smooth bump: 0 outside [a, b], sin^2 rising to 1 at the middle (C1 at both ends). */
function bump(p: number, a: number, b: number): number {
  if (p <= a || p >= b) return 0;
  const s = Math.sin((Math.PI * (p - a)) / (b - a));
  return s * s;
}

/** Phase in [0, 1) of one leg: 0 = heel strike, ~0.6 = toe off. */
const phaseOf = (frame: number, shift: number) => (((frame / WALK_CYCLE_FRAMES + shift) % 1) + 1) % 1;

/** Piecewise smoothstep interpolation through (phase, value) keys covering [0, 1]; C1 everywhere. */
function smoothKeys(p: number, keys: [number, number][]): number {
  for (let i = 1; i < keys.length; i++) {
    const [p1, v1] = keys[i];
    const [p0, v0] = keys[i - 1];
    if (p <= p1) {
      const u = (p - p0) / (p1 - p0);
      return v0 + (v1 - v0) * u * u * (3 - 2 * u);
    }
  }
  return keys[keys.length - 1][1];
}

/** Pelvis pitch (forward lean of the Hips joint) in degrees at left-leg phase p. */
const pelvisPitch = (p: number) => 4 + 1.5 * Math.cos(4 * Math.PI * p);

/**
 * Local rotations of one leg (thigh, knee, ankle, toe) at its gait phase p, for
 * a pelvis pitched `pelvis` degrees. Positive X pitch swings a limb backwards.
 * The ankle is solved so that the foot's pitch in the world follows a heel
 * strike -> flat foot -> heel rise -> toe off -> swing profile, so the sole is
 * flat on the floor during mid-stance and the toes stay down while the heel rises.
 */
function legPose(p: number, pelvis: number, yaw: number, roll: number): [Quat, Quat, Quat, Quat] {
  const hipFlex = 12 + 20 * Math.cos(2 * Math.PI * p); // 32 deg forward at heel strike, 8 back at toe off
  const knee = 4 + 14 * bump(p, 0.02, 0.4) + 58 * bump(p, 0.5, 1.0);
  // World pitch of the foot: negative = toes up, positive = heel up.
  const footPitch = smoothKeys(p, [
    [0, -10],
    [0.08, 0],
    [0.36, 0],
    [0.62, 34],
    [0.76, 12],
    [0.9, -6],
    [1, -10],
  ]);
  const ankle = footPitch - (pelvis - hipFlex + knee);
  const toe = smoothKeys(p, [
    [0, 0],
    [0.36, 0],
    [0.6, -30],
    [0.76, -4],
    [1, 0],
  ]);
  // The thigh turns against the pelvis yaw and roll so the stance foot stays
  // under the hip and points forward instead of twisting on the floor.
  return [yxz(-yaw, -hipFlex, -roll), rx(knee), rx(ankle), rx(toe)];
}

/** Contact points: a joint and its height above the sole in the rest pose (cm). */
const CONTACTS: { joint: string; clearance: number }[] = [
  { joint: 'LeftFoot', clearance: 8 },
  { joint: 'LeftToeBase', clearance: 2 },
  { joint: 'RightFoot', clearance: 8 },
  { joint: 'RightToeBase', clearance: 2 },
];

/**
 * Sets the root translation so that the feet do not slide: at each frame the
 * lowest contact point (heel/ankle or toe of either foot) rests on the floor
 * (Y = 0) and keeps its X/Z from the previous frame. The root's forward speed
 * and bob therefore come out of the leg motion, as in a real walk. Returns the
 * index into CONTACTS of the planted point per frame.
 */
function plantRoot(m: Motion): number[] {
  const N = m.frameCount;
  const ids = CONTACTS.map((c) => m.joints.findIndex((j) => j.name === c.joint));
  // Contact positions relative to the root position (root translation zero).
  const local: Vec3[][] = [];
  m.translation.fill(0);
  for (let f = 0; f <= N; f++) {
    const { positions } = worldPose(m, f);
    local.push(
      ids.map((j, k) => [positions[j * 3], positions[j * 3 + 1] - CONTACTS[k].clearance, positions[j * 3 + 2]] as Vec3),
    );
  }
  const pinned: number[] = [];
  let x = 0,
    z = 0;
  for (let f = 0; f <= N; f++) {
    // The lowest point; a point already planted stays planted while it is
    // within 0.05 cm of the lowest (a flat foot has heel and toe both down).
    let k = 0;
    for (let c = 1; c < CONTACTS.length; c++) if (local[f][c][1] < local[f][k][1]) k = c;
    const prev = pinned[f - 1];
    if (prev !== undefined && local[f][prev][1] < local[f][k][1] + 0.05) k = prev;
    pinned.push(k);
    if (f > 0) {
      x += local[f - 1][k][0] - local[f][k][0];
      z += local[f - 1][k][2] - local[f][k][2];
    }
    m.translation.set([x, -local[f][k][1], z, 0], f * 4);
  }
  return pinned;
}

/** Builds the walk motion (validated shape; not yet written). */
export function buildSampleWalk(): Motion {
  const names = SKELETON.map((s) => s.slice(0, 1)[0] as string);
  const mirror = guessMirrorPairs(names);
  const joints: JointInfo[] = SKELETON.map(([name, parentName], j) => ({
    name,
    parent: parentName === null ? -1 : names.indexOf(parentName),
    mirror: mirror[j],
    // The hips and everything of a leg chain are lower body.
    part: j === 0 || /Leg|Foot|Toe/.test(name) ? JointPart.LOWER : JointPart.UPPER,
    reserved: 0,
  }));
  const N = WALK_FRAME_COUNT;
  const J = joints.length;
  const m = emptyMotion(N, joints, 30);
  m.flags = MotionFlag.DIRECTION | MotionFlag.MIRROR_UPPER | MotionFlag.MIRROR_LOWER;
  m.waistJoint = 0;
  const idx = (n: string) => names.indexOf(n);

  for (let f = 0; f <= N; f++) {
    // The root translation is filled in afterwards by plantRoot().
    const pL = phaseOf(f, 0);
    const pR = phaseOf(f, 0.5);
    const w = 2 * Math.PI * pL;
    const rot = new Map<string, Quat>();
    const pelvisRoll = -4 * Math.sin(w);
    const pelvisYaw = 6 * Math.cos(w);
    rot.set('Hips', yxz(pelvisYaw, pelvisPitch(pL), pelvisRoll));
    rot.set('Spine', yxz(-3 * Math.cos(w), -1, 2 * Math.sin(w)));
    rot.set('Spine1', yxz(-2 * Math.cos(w), -1, 1.5 * Math.sin(w)));
    rot.set('Chest', yxz(-2.5 * Math.cos(w), -1.5 + Math.cos(2 * w), Math.sin(w)));
    rot.set('Neck', yxz(0.8 * Math.cos(w), 2, -0.5 * Math.sin(w)));
    rot.set('Head', yxz(0.7 * Math.cos(w), -2 - 1.2 * Math.cos(2 * w), -0.5 * Math.sin(w)));
    const [ltu, lk, la, lt] = legPose(pL, pelvisPitch(pL), pelvisYaw, pelvisRoll);
    const [rtu, rk, ra, rt] = legPose(pR, pelvisPitch(pL), pelvisYaw, pelvisRoll);
    rot.set('LeftUpLeg', ltu);
    rot.set('LeftLeg', lk);
    rot.set('LeftFoot', la);
    rot.set('LeftToeBase', lt);
    rot.set('RightUpLeg', rtu);
    rot.set('RightLeg', rk);
    rot.set('RightFoot', ra);
    rot.set('RightToeBase', rt);
    // Arms swing against the legs: the left arm is back when the left leg is forward.
    const swing = 18 * Math.cos(w);
    rot.set('LeftShoulder', rz(-2 + 1.5 * Math.cos(2 * w)));
    rot.set('RightShoulder', rz(2 - 1.5 * Math.cos(2 * w)));
    rot.set('LeftArm', yxz(0, 3 + swing, 7));
    rot.set('RightArm', yxz(0, 3 - swing, -7));
    rot.set('LeftForeArm', rx(-(18 + 10 * Math.max(0, -Math.cos(w)))));
    rot.set('RightForeArm', rx(-(18 + 10 * Math.max(0, Math.cos(w)))));
    rot.set('LeftHand', yxz(0, 4 * Math.sin(w), 3));
    rot.set('RightHand', yxz(0, -4 * Math.sin(w), -3));

    for (let j = 0; j < J; j++) {
      const q = rot.get(names[j]) ?? [0, 0, 0, 1];
      m.rotation.set(q, (f * J + j) * 4);
      const o = SKELETON[j][2];
      m.offset.set([o[0], o[1], o[2], 0], (f * J + j) * 4);
    }
  }
  makeQuatsContinuous(m.rotation, N + 1, J);
  const pinned = plantRoot(m);

  // User keys: root translation at every left heel strike plus one mid-cycle.
  for (const f of [0, 33, 50, 66, 99, 132]) m.translationKeyInfo[f * 4] |= KeyFlag.KEY;
  // Trace keys: a trajectory sample every ~1.5 s of walking.
  for (const f of [0, 44, 88, 132]) m.translationKeyInfo[f * 4] |= KeyFlag.TRACE;
  const key = (f: number, name: string, flag: number) => (m.jointKeyInfo[(f * J + idx(name)) * 4] |= flag);
  // Joint user keys: the knee at peak swing, the elbows at the arm-swing extremes, the head once.
  key(24, 'LeftLeg', KeyFlag.KEY);
  key(57, 'LeftLeg', KeyFlag.KEY);
  key(41, 'RightLeg', KeyFlag.KEY);
  key(33, 'RightForeArm', KeyFlag.KEY);
  key(49, 'LeftForeArm', KeyFlag.KEY);
  key(80, 'Head', KeyFlag.KEY);
  // Locks: the ankle (LeftFoot / RightFoot joint) on the frames where it is the
  // planted contact point, i.e. where plantRoot() kept it still. One joint per
  // frame by construction; only runs of 3+ frames, as a user would mark them.
  for (let f = 0; f <= N;) {
    const k = pinned[f];
    let e = f;
    while (e + 1 <= N && pinned[e + 1] === k) e++;
    const joint = CONTACTS[k].joint;
    if (/Foot$/.test(joint) && e - f >= 2) for (let g = f; g <= e; g++) key(g, joint, KeyFlag.LOCK);
    f = e + 1;
  }
  return m;
}
