/**
 * The bundled CMU capture (assets/cmu_01_01.mtn, always in the repository) written back as BVH the way other
 * exporters write it, then imported and compressed (docs/interchange.md#tests-what-they-compare):
 * - LAFAN1 / Ubisoft: Xposition Yposition Zposition on every joint holding the joint's local position (its OFFSET),
 *   Zrotation Yrotation Xrotation, Frame Time 0.033333; and the same channels holding displacements (zeros);
 * - Blender (io_anim_bvh's export_bvh.py): the root's rest head as its OFFSET and rest head plus motion in its
 *   channels (root translation only; disconnected bones with their own positions; a dummy ROOT __0 with CHANNELS 0
 *   above several root bones, in metres); and a non-zero root OFFSET with displacements, as the BVH description reads;
 * - Mixamo / Blender: "mixamorig:Hips" and "Left UpLeg" names, XYZ and YXZ orders, CRLF, tabs, trailing blanks,
 *   End Sites indented oddly, centimetres (100x) read with --scale 0.01;
 * - Truebones / MotionBuilder: 24, 25, 50, 60, 120 fps, one and two frames, a channel that never moves, a half turn
 *   in one frame and angles flipping between -179.9 and 179.9, pitch at +-90 degrees, a root that never moves,
 *   angles past +-180 (720, -540, a steadily growing one).
 * Each imports at its own rate, so every motion frame is a source frame, to the world positions of this file's own
 * forward kinematics (3x3 matrices from the raw channel text values, in each file's channel order; position channels
 * as the file means them) within 1e-5 of the skeleton's reach; then compresses at the default tolerances and at the
 * floor (0.005 units, 0.05 degrees), refined and classic, keeping the guarantee by an independent decode of the bytes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compressMotion } from '../../shared/compress/compress';
import { importBvh } from '../../shared/interchange/bvh/import';
import type { Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { guaranteeViolations } from '../../shared/testing/hostileMotions';
import { matApply, matFromQuat, matMul, type Mat3 } from '../../shared/testing/independentFk';

interface VJoint {
  name: string;
  parent: number;
  offset: number[];
  channels: string[];
  endSite: number[] | null;
}
/** A capture as channel values: frames[f][j] holds joint j's values in its channel order. */
interface Capture {
  joints: VJoint[];
  frames: number[][][];
  frameTime: string;
}

function axisRotation(axis: string, deg: number): Mat3 {
  const a = (deg * Math.PI) / 180,
    c = Math.cos(a),
    s = Math.sin(a);
  if (axis === 'X') return [1, 0, 0, 0, c, -s, 0, s, c];
  if (axis === 'Y') return [c, 0, s, 0, 1, 0, -s, 0, c];
  return [c, -s, 0, s, c, 0, 0, 0, 1];
}
/** Intrinsic Z, then Y, then X angles (degrees) of a rotation matrix: R = Rz Ry Rx. */
function zyxDegrees(m: Mat3): number[] {
  const deg = 180 / Math.PI;
  const y = Math.asin(Math.max(-1, Math.min(1, -m[6])));
  return [Math.atan2(m[3], m[0]) * deg, y * deg, Math.atan2(m[7], m[8]) * deg];
}

/** The bundled capture's first `frames` frames as a ZYX BVH capture in the MTN's units (root position channels). */
function bundledCapture(frames: number): Capture {
  const m = readMtn(new Uint8Array(readFileSync(new URL('../../assets/cmu_01_01.mtn', import.meta.url))));
  const J = m.joints.length;
  const leaves = new Set(m.joints.map((_, j) => j).filter((j) => !m.joints.some((c) => c.parent === j)));
  const joints: VJoint[] = m.joints.map((jt, j) => ({
    name: jt.name,
    parent: jt.parent,
    offset: Array.from(m.offset.subarray(j * 4, j * 4 + 3)),
    channels: [...(j === 0 ? ['Xposition', 'Yposition', 'Zposition'] : []), 'Zrotation', 'Yrotation', 'Xrotation'],
    endSite: leaves.has(j) ? [0, 3, 0] : null,
  }));
  const out: number[][][] = [];
  for (let f = 0; f < frames; f++)
    out.push(
      joints.map((_, j) => [
        ...(j === 0 ? Array.from(m.translation.subarray(f * 4, f * 4 + 3)) : []),
        ...zyxDegrees(matFromQuat(m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4))),
      ]),
    );
  return { joints, frames: out, frameTime: '0.033333' };
}

interface Style {
  eol?: string;
  indent?: (depth: number) => string;
  endSiteIndent?: (depth: number) => string;
  sep?: string;
  trailing?: string;
}
/** BVH text of a capture, joints in depth-first order (the order the capture lists them). */
function bvhOf(c: Capture, style: Style = {}): string {
  const eol = style.eol ?? '\n',
    ind = style.indent ?? ((d: number) => '\t'.repeat(d)),
    sep = style.sep ?? ' ',
    tr = style.trailing ?? '';
  const site = style.endSiteIndent ?? ind;
  const fmt = (x: number) => x.toFixed(6);
  const lines = ['HIERARCHY'];
  const emit = (j: number, d: number) => {
    const jt = c.joints[j];
    lines.push(`${ind(d)}${jt.parent < 0 ? 'ROOT' : 'JOINT'} ${jt.name}${tr}`, `${ind(d)}{`);
    lines.push(`${ind(d + 1)}OFFSET${sep}${jt.offset.map(fmt).join(sep)}${tr}`);
    lines.push(`${ind(d + 1)}CHANNELS ${jt.channels.length}${sep}${jt.channels.join(sep)}${tr}`);
    c.joints.forEach((k, i) => k.parent === j && emit(i, d + 1));
    if (jt.endSite)
      lines.push(
        `${site(d + 1)}End Site`,
        `${site(d + 1)}{`,
        `${site(d + 2)}OFFSET ${jt.endSite.map(fmt).join(' ')}`,
        `${site(d + 1)}}`,
      );
    lines.push(`${ind(d)}}`);
  };
  emit(0, 0);
  lines.push('MOTION', `Frames: ${c.frames.length}`, `Frame Time: ${c.frameTime}`);
  for (const f of c.frames) lines.push(f.flat().map(fmt).join(sep) + tr);
  return lines.join(eol) + eol;
}

/**
 * World positions of every joint at frame f from the BVH text alone: its own tokens, matrices in each joint's
 * channel order. `local`: position channels hold the joint's local position (LAFAN1) instead of adding to OFFSET.
 */
function textWorldPositions(text: string, f: number, local: boolean, scale: number): number[][] {
  const tok = text.split(/\s+/).filter(Boolean);
  const joints: { parent: number; offset: number[]; channels: string[] }[] = [];
  const open: number[] = [];
  let i = 0;
  while (tok[i] !== 'MOTION') {
    const t = tok[i++];
    if (t === 'ROOT' || t === 'JOINT') {
      while (tok[i] !== '{') i++;
      joints.push({ parent: open.length ? open[open.length - 1] : -1, offset: [], channels: [] });
      open.push(joints.length - 1);
    } else if (t === 'OFFSET') joints[open[open.length - 1]].offset = tok.slice(i, (i += 3)).map(Number);
    else if (t === 'CHANNELS') joints[open[open.length - 1]].channels = tok.slice(i + 1, (i += 1 + Number(tok[i])));
    else if (t === 'End')
      i += 7; // Site { OFFSET x y z }, then the End Site's "}"
    else if (t === '}') open.pop();
  }
  const count = joints.reduce((s, j) => s + j.channels.length, 0);
  let v = i + 6 + f * count; // after MOTION Frames: n Frame Time: t
  const pos: number[][] = [],
    rot: Mat3[] = [];
  joints.forEach((jt, j) => {
    const t = local && jt.channels.some((c) => c.endsWith('position')) ? [0, 0, 0] : [...jt.offset];
    let r: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    for (const ch of jt.channels) {
      const x = Number(tok[v++]);
      if (ch.endsWith('position')) t['XYZ'.indexOf(ch[0])] += x;
      else r = matMul(r, axisRotation(ch[0], x));
    }
    const p = jt.parent;
    const ts = t.map((x) => x * scale);
    pos[j] = p < 0 ? ts : matApply(rot[p], ts).map((x, k) => x + pos[p][k]);
    rot[j] = p < 0 ? r : matMul(rot[p], r);
  });
  return pos;
}

/** World positions of the motion's joints at frame f, from its rotations, offsets and translation. */
function motionWorldPositions(m: Motion, f: number): number[][] {
  const J = m.joints.length;
  const pos: number[][] = [],
    rot: Mat3[] = [];
  for (let j = 0; j < J; j++) {
    const r = matFromQuat(m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4));
    const off = Array.from(m.offset.subarray((f * J + j) * 4, (f * J + j) * 4 + 3));
    const p = m.joints[j].parent;
    pos[j] =
      p < 0 ? off.map((x, k) => x + m.translation[f * 4 + k]) : matApply(rot[p], off).map((x, k) => x + pos[p][k]);
    rot[j] = p < 0 ? r : matMul(rot[p], r);
  }
  return pos;
}

interface Variant {
  name: string;
  text: string;
  fps: number;
  scale?: number;
  local?: boolean;
  warning?: string;
}

function variants(): Variant[] {
  const out: Variant[] = [];
  const copy = (c: Capture): Capture => structuredClone(c);
  const base = bundledCapture(48);
  // LAFAN1: position channels on every joint; below the root they hold the joint's OFFSET (a local position).
  {
    const c = copy(base);
    c.joints[0].offset = c.frames[0][0].slice(0, 3); // the root's rest position, its channels absolute as well
    c.joints.forEach((jt, j) => {
      if (j === 0) return;
      jt.channels = ['Xposition', 'Yposition', 'Zposition', ...jt.channels];
      for (const fr of c.frames) fr[j] = [...jt.offset.map((o, k) => o + 1e-6 * k), ...fr[j]];
    });
    out.push({ name: 'lafan1-local-positions', text: bvhOf(c), fps: 30, local: true, warning: 'positions-local' });
    // The same channels holding displacements (zero: added to the OFFSET, the BVH description's reading), the
    // root's included (its position less its OFFSET).
    for (const fr of c.frames)
      fr.forEach((v, j) =>
        j > 0 ? v.splice(0, 3, 0, 0, 0) : v.splice(0, 3, ...v.slice(0, 3).map((x, k) => x - c.joints[0].offset[k])),
      );
    out.push({ name: 'all-joints-position-deltas', text: bvhOf(c), fps: 30 });
  }
  // Blender (io_anim_bvh 1.0.1, Blender 3.4's export_bvh.py): OFFSET is the bone's rest head (the root's in armature
  // space); the root, and every bone not connected to its parent, gets position channels holding rest head plus
  // motion, so its channels sit near its OFFSET; its importer subtracts the OFFSET again. Frames are the scene's, so
  // the first one is off the rest pose.
  const y0 = base.frames[0][0][1];
  {
    // "Root Translation Only": position channels on the root alone, rest head straight above the origin.
    const c = copy(base);
    c.joints[0].offset = [0, y0 * 0.97, 0];
    out.push({
      name: 'blender-root-translation-only',
      text: bvhOf(c),
      fps: 30,
      local: true,
      warning: 'positions-local',
    });
    // The same root written as the BVH description reads it: OFFSET the rest head, channels displacements from it.
    for (const fr of c.frames) fr[0].splice(0, 3, ...fr[0].slice(0, 3).map((x, k) => x - c.joints[0].offset[k]));
    out.push({ name: 'root-offset-with-displacements', text: bvhOf(c), fps: 30 });
  }
  {
    // Bones not connected to their parent (the hips' three children) with their own, slightly animated, positions;
    // the armature placed where the clip starts, so the rest head has length on every axis.
    const c = copy(base);
    c.joints[0].offset = [...base.frames[0][0].slice(0, 3)].map((x, k) => x + [-3, 4, 2][k]);
    c.joints.forEach((jt, j) => {
      if (jt.parent !== 0) return;
      jt.channels = ['Xposition', 'Yposition', 'Zposition', ...jt.channels];
      c.frames.forEach((fr, f) => fr[j].unshift(...jt.offset.map((o, k) => o * (1 + 0.02 * Math.sin(0.3 * f + k)))));
    });
    out.push({ name: 'blender-disconnected-bones', text: bvhOf(c), fps: 30, local: true, warning: 'positions-local' });
  }
  {
    // Several root bones: a dummy ROOT "__0" (OFFSET 0.0 0.0 0.0, CHANNELS 0) above them, each with six channels;
    // in metres (Blender's unit), read with --scale 100.
    const c = copy(base);
    c.joints[0].offset = [0, y0 * 1.02, 0];
    c.joints = [
      { name: '__0', parent: -1, offset: [0, 0, 0], channels: [], endSite: null },
      ...c.joints.map((jt) => ({ ...jt, parent: jt.parent + 1, offset: jt.offset.map((x) => x / 100) })),
    ];
    c.frames = c.frames.map((fr) => [[], ...fr.map((v, j) => (j === 0 ? v.map((x, k) => (k < 3 ? x / 100 : x)) : v))]);
    out.push({
      name: 'blender-root-bones-metres',
      text: bvhOf(c),
      fps: 30,
      scale: 100,
      local: true,
      warning: 'positions-local',
    });
  }
  // Mixamo / Blender: names with a colon and spaces, XYZ and YXZ orders, CRLF, tabs, trailing blanks, odd End
  // Site indentation, centimetres.
  {
    const c = copy(base);
    c.joints.forEach((jt, j) => {
      jt.name = j % 3 === 0 ? `mixamorig:${jt.name}` : jt.name.replace(/^(Left|Right)/, '$1 ');
      jt.offset = jt.offset.map((x) => x * 100);
      const order = j % 2 ? ['Xrotation', 'Yrotation', 'Zrotation'] : ['Yrotation', 'Xrotation', 'Zrotation'];
      jt.channels = [...jt.channels.filter((ch) => ch.endsWith('position')), ...order];
      if (j === 0) for (const fr of c.frames) for (let k = 0; k < 3; k++) fr[0][k] *= 100;
    });
    const text = bvhOf(c, {
      eol: '\r\n',
      indent: (d) => '\t'.repeat(d) + (d % 2 ? ' ' : ''),
      endSiteIndent: (d) => '  '.repeat(d + 3),
      sep: ' \t',
      trailing: ' \t',
    });
    out.push({ name: 'mixamo-blender-centimetres', text, fps: 30, scale: 0.01 });
  }
  // Truebones / MotionBuilder rates (the same values at each rate: every motion frame is a source frame).
  for (const fps of [24, 25, 50, 60, 120]) {
    const c = copy(base);
    c.frameTime = (1 / fps).toFixed(7);
    out.push({ name: `${fps}-fps`, text: bvhOf(c), fps });
  }
  for (const n of [1, 2])
    out.push({ name: `${n}-frame`, text: bvhOf({ ...copy(base), frames: base.frames.slice(0, n) }), fps: 30 });
  const edited = (name: string, edit: (fr: number[][], f: number) => void) => {
    const c = copy(base);
    c.frames.forEach(edit);
    out.push({ name, text: bvhOf(c), fps: 30 });
  };
  edited('channel-never-moves', (fr) => {
    fr[5][1] = 17.5;
    fr[0][3] = 0;
  });
  edited('half-turn-and-sign-flips', (fr, f) => {
    fr[0][3] = f < 24 ? 0 : 180;
    fr[2][0] = f % 2 ? 179.9 : -179.9;
  });
  edited('pitch-at-90', (fr, f) => {
    fr[0][4] = f % 2 ? 90 : -90;
    fr[0][3] = f * 3;
    fr[3][1] = 90 - 0.001 * (f % 3);
  });
  edited('root-never-moves', (fr) => {
    fr[0] = [0, 17, 0, 0, 0, 0];
  });
  edited('angles-past-180', (fr, f) => {
    fr[0][3] += 360 * (f % 3);
    fr[4][2] += f % 2 ? 720 : -540;
    fr[6][0] = f * 12 - 500;
  });
  return out;
}

describe('BVH as other exporters write it: import reproduces the file, compression keeps the guarantee', () => {
  for (const v of variants())
    it(v.name, () => {
      const scale = v.scale ?? 1;
      const { motion: m, warnings } = importBvh(v.text, { fps: v.fps, scale });
      if (v.warning) expect(warnings.map((w) => w.code)).toContain(v.warning);
      else expect(warnings.map((w) => w.code)).not.toContain('positions-local');
      const sourceFrames = v.text.split(/\r?\n/).find((l) => l.startsWith('Frames:'));
      const F = Number(sourceFrames?.split(/\s+/)[1]);
      expect(m.frameCount).toBe(Math.max(1, F - 1));
      let reach = 0;
      for (let f = 0; f < F; f++) {
        const want = textWorldPositions(v.text, f, v.local === true, scale);
        for (const p of want) reach = Math.max(reach, ...p.map(Math.abs));
        const got = motionWorldPositions(m, f);
        want.forEach((p, j) => {
          const d = Math.hypot(p[0] - got[j][0], p[1] - got[j][1], p[2] - got[j][2]);
          if (!(d <= 1e-5 * Math.max(1, reach)))
            expect.fail(`frame ${f} joint ${m.joints[j].name}: ${got[j].join()} against the file's ${p.join()}`);
        });
      }
      for (const [method, tol] of [
        ['refined', 0.5],
        ['refined', 0.005],
        ['classic', 0.005],
      ] as const) {
        const r = compressMotion(m, {
          name: v.name,
          method,
          positionTolerance: tol,
          offsetTolerance: tol,
          rotationToleranceDeg: tol === 0.005 ? 0.05 : 0.5,
        });
        expect(guaranteeViolations(m, r), `${method} at ${tol}`).toEqual([]);
      }
    });
});
