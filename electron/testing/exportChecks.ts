/**
 * Round 13 (docs/compression.md#round-13-2026-12-06-export-msh-export-gltf-and-the-apps-compress-path): the files
 * `actguy export-msh --project` and `actguy export-gltf --project --compressed` write, read back and checked for
 * tests only, with no code shared with the exporters, samplers or decoders they check.
 *
 * - MSH (from the MSH-ANIM spec, docs/formats.md 7): the key pool and frame map read from their bytes, the node
 *   records from the .nodes.json; every node sampled at every frame t = 0..N by the spec's rule (frame =
 *   round_half_even(t - 0.5), the map word, the fallback key, lerp / shortest slerp, a key exactly at its time) and
 *   compared with the source: a frame that is not one of the node's key times over its tolerance is a violation, and
 *   a key over it must be told by a warning of the export; the attributes and the validation rules hold.
 * - GLB (glTF 2.0 binary): every animation channel read from the container, each sampled value compared with the
 *   MT3 the build wrote for that motion, decoded by the independent decoder (shared/testing/independentDecode.ts):
 *   the glTF of the compressed motion is that motion, up to float32.
 */
import type { Motion } from '../../shared/motion/types';
import { readMt3 } from '../../shared/mt3/read';
import { decodePos, decodeRot } from '../../shared/testing/independentDecode';

const dot4 = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
const unit = (a: number[]) => {
  const n = Math.hypot(a[0], a[1], a[2], a[3]) || 1;
  return a.map((x) => x / n);
};
/** 2 acos |dot| of the unit quaternions, degrees. */
const angleDeg = (a: number[], b: number[]) =>
  (2 * Math.acos(Math.min(1, Math.abs(dot4(unit(a), unit(b))))) * 180) / Math.PI;

function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  if (x - f !== 0.5) return Math.round(x);
  return f % 2 === 0 ? f : f + 1;
}

/** Slerp on the shortest path between two quaternions (each taken as its unit quaternion). */
function slerpShortest(a0: number[], b0: number[], u: number): number[] {
  const a = unit(a0);
  let b = unit(b0);
  let d = dot4(a, b);
  if (d < 0) {
    b = b.map((x) => -x);
    d = -d;
  }
  if (d > 1 - 1e-12) return unit(a.map((x, i) => x + (b[i] - x) * u));
  const th = Math.acos(d);
  const s = Math.sin(th);
  return a.map((x, i) => (Math.sin((1 - u) * th) * x + Math.sin(u * th) * b[i]) / s);
}

interface MshKeyRead {
  pos: number[];
  time: number;
  /** x, y, z, w (s16 / 32767). */
  q: number[];
}

interface MshTolerances {
  positionTolerance: number;
  rotationToleranceDeg: number;
  rotationToleranceOverridesDeg?: Record<number, number>;
}

/**
 * What an MSH export's three files break against the source motion and the tolerances asked (MSH-ANIM: node 0's
 * position is the root translation, node j's the joint offset j). `warnings` are the export's own warnings for this
 * motion (`node J (NAME): ...`, a node whose stored precision cannot meet a tolerance): a key over its tolerance must
 * be named there.
 */
export function mshViolations(
  m: Motion,
  res8: Uint8Array,
  res19: Uint8Array,
  nodesText: string,
  tol: MshTolerances,
  warnings: readonly string[],
): string[] {
  const bad: string[] = [];
  if (res8.byteLength % 24 !== 0) return [`Res8 of ${res8.byteLength} bytes is not a multiple of 24`];
  if (res19.byteLength % 2 !== 0) return [`Res19 of ${res19.byteLength} bytes is odd`];
  const dv8 = new DataView(res8.buffer, res8.byteOffset, res8.byteLength);
  const keys: MshKeyRead[] = [];
  for (let o = 0; o < res8.byteLength; o += 24)
    keys.push({
      pos: [dv8.getFloat32(o, true), dv8.getFloat32(o + 4, true), dv8.getFloat32(o + 8, true)],
      time: dv8.getFloat32(o + 12, true),
      // Stored w, x, y, z.
      q: [1, 2, 3, 0].map((c) => dv8.getInt16(o + 16 + 2 * c, true) / 32767),
    });
  const dv19 = new DataView(res19.buffer, res19.byteOffset, res19.byteLength);
  const words = Array.from({ length: res19.byteLength / 2 }, (_, i) => dv19.getUint16(2 * i, true));
  const doc = JSON.parse(nodesText) as {
    res8: { attr1: number; attr3: number };
    res19: { attr1: number; attr2: number; attr3: number };
    nodes: { name: string; anim_map_start: number; fallback_key: number; keys: number }[];
  };
  const S = m.frameCount + 1;
  const J = m.joints.length;
  if (doc.res8.attr1 !== keys.length || doc.res8.attr3 !== 4)
    bad.push(`Res8 attributes ${doc.res8.attr1}, ${doc.res8.attr3}: not ${keys.length}, 4`);
  if (doc.res19.attr1 !== words.length || doc.res19.attr2 !== S || doc.res19.attr3 !== 2)
    bad.push(
      `Res19 attributes ${doc.res19.attr1}, ${doc.res19.attr2}, ${doc.res19.attr3}: not ${words.length}, ${S}, 2`,
    );
  if (doc.nodes.length !== J) return [...bad, `${doc.nodes.length} nodes for ${J} joints`];
  const frameCount = doc.res19.attr2;
  let first = 0;
  for (let j = 0; j < J; j++) {
    const n = doc.nodes[j];
    const where = `node ${j} (${n.name})`;
    if (n.name !== m.joints[j].name) bad.push(`${where}: not the joint's name ${m.joints[j].name}`);
    if (!(n.fallback_key < keys.length)) {
      bad.push(`${where}: fallback key ${n.fallback_key} past the ${keys.length} keys`);
      continue;
    }
    const mapped = n.anim_map_start !== 0xffff;
    if (mapped && n.anim_map_start + frameCount > words.length) {
      bad.push(`${where}: its map block passes the ${words.length} words`);
      continue;
    }
    // The node's keys: contiguous, in skeleton order, ending at its fallback key (the writer's canon).
    const own = keys.slice(first, n.fallback_key + 1);
    if (own.length !== n.keys) bad.push(`${where}: ${own.length} keys in the pool, ${n.keys} in the .nodes.json`);
    for (let k = 1; k < own.length; k++)
      if (!(own[k].time > own[k - 1].time)) bad.push(`${where}: key times ${own[k - 1].time}, ${own[k].time}`);
    first = n.fallback_key + 1;
    const keyTimes = new Set(own.map((k) => k.time));
    const posTol = tol.positionTolerance;
    const rotTol = tol.rotationToleranceOverridesDeg?.[j] ?? tol.rotationToleranceDeg;
    const named = warnings.some((w) => w.startsWith(`node ${j} (`));
    for (let t = 0; t < S; t++) {
      // The spec's sampler.
      let pos: number[];
      let q: number[];
      const frame = roundHalfEven(t - 0.5);
      const k = mapped && frame >= 0 && frame <= frameCount - 1 ? words[n.anim_map_start + frame] : -1;
      if (k < 0 || k >= n.fallback_key) ({ pos, q } = keys[n.fallback_key]);
      else {
        const k0 = keys[k];
        const k1 = keys[k + 1];
        if (t === k0.time) ({ pos, q } = k0);
        else if (t === k1.time) ({ pos, q } = k1);
        else {
          const a = (t - k0.time) / (k1.time - k0.time);
          pos = k0.pos.map((x, c) => x + (k1.pos[c] - x) * a);
          q = slerpShortest(k0.q, k1.q, a);
        }
      }
      const src = j === 0 ? m.translation : m.offset;
      const at = j === 0 ? t * 4 : (t * J + j) * 4;
      const pe = Math.hypot(pos[0] - src[at], pos[1] - src[at + 1], pos[2] - src[at + 2]);
      const qa = (t * J + j) * 4;
      const re = angleDeg(q, [m.rotation[qa], m.rotation[qa + 1], m.rotation[qa + 2], m.rotation[qa + 3]]);
      if (Number.isNaN(pe) || Number.isNaN(re)) bad.push(`${where}: frame ${t} samples to NaN`);
      for (const [what, e, lim] of [
        ['position', pe, posTol],
        ['rotation', re, rotTol],
      ] as const)
        if (!(e <= lim + 1e-9)) {
          if (!keyTimes.has(t)) bad.push(`${where}: frame ${t} is not a key and its ${what} is ${e} off, over ${lim}`);
          else if (!named) bad.push(`${where}: the key at frame ${t} is ${e} off in ${what}, over ${lim}, untold`);
        }
    }
  }
  if (first !== keys.length) bad.push(`${keys.length - first} keys of the pool belong to no node`);
  return bad;
}

/** The GLB container's JSON and binary chunk (glTF 2.0: 12-byte header, then chunks of length, type, data). */
function readGlb(glb: Uint8Array): { json: GlbJson; bin: DataView } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67 || dv.getUint32(4, true) !== 2) throw new Error('not a glTF 2 GLB');
  if (dv.getUint32(8, true) !== glb.byteLength) throw new Error('GLB length is not the file size');
  let json: GlbJson | undefined;
  let bin: DataView | undefined;
  for (let o = 12; o < glb.byteLength;) {
    const len = dv.getUint32(o, true);
    const type = dv.getUint32(o + 4, true);
    const data = glb.subarray(o + 8, o + 8 + len);
    if (type === 0x4e4f534a) json = JSON.parse(Buffer.from(data).toString('utf8')) as GlbJson;
    else if (type === 0x004e4942) bin = new DataView(data.buffer, data.byteOffset, data.byteLength);
    o += 8 + len;
  }
  if (!json || !bin) throw new Error('GLB without a JSON or BIN chunk');
  return { json, bin };
}

interface GlbJson {
  nodes: { name: string }[];
  accessors: { bufferView: number; byteOffset?: number; componentType: number; count: number; type: string }[];
  bufferViews: { byteOffset?: number; byteStride?: number }[];
  animations: {
    channels: { sampler: number; target: { node: number; path: string } }[];
    samplers: { input: number; output: number; interpolation: string }[];
  }[];
}

/** An accessor's float values (FLOAT, tightly packed: what the exporter writes; anything else is refused). */
function floats(g: { json: GlbJson; bin: DataView }, i: number): Float32Array {
  const a = g.json.accessors[i];
  const v = g.json.bufferViews[a.bufferView];
  const width = { SCALAR: 1, VEC3: 3, VEC4: 4 }[a.type];
  if (a.componentType !== 5126 || !width || (v.byteStride && v.byteStride !== width * 4))
    throw new Error(`accessor ${i}: not packed float ${a.type}`);
  const start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
  const out = new Float32Array(a.count * width);
  for (let k = 0; k < out.length; k++) out[k] = g.bin.getFloat32(start + 4 * k, true);
  return out;
}

/**
 * What a GLB of a compressed motion breaks: its animation is not the MT3 `mt3Bytes` decoded onto `m` (the source
 * gives the skeleton, and the offsets where the MT3 has no offset tracks), within float32, at every frame; times are
 * f / fps. Rotations are compared by angle (1e-4 deg), positions within 1e-6 relative.
 */
export function glbViolations(m: Motion, mt3Bytes: Uint8Array, glb: Uint8Array): string[] {
  const bad: string[] = [];
  const g = readGlb(glb);
  const mt3 = readMt3(mt3Bytes);
  const S = m.frameCount + 1;
  const J = m.joints.length;
  const anim = g.json.animations?.[0];
  if (!anim) return ['no animation'];
  const offsetAt = (j: number, t: number): number[] => {
    const o = mt3.offsets?.[j];
    return o ? decodePos(o.frames, o.position, o.velocity, t) : [0, 1, 2].map((c) => m.offset[j * 4 + c]);
  };
  const seen = new Set<string>();
  for (const ch of anim.channels) {
    const s = anim.samplers[ch.sampler];
    const j = ch.target.node;
    const where = `node ${j} ${ch.target.path}`;
    seen.add(`${j} ${ch.target.path}`);
    if (s.interpolation !== 'LINEAR') bad.push(`${where}: ${s.interpolation}, not LINEAR`);
    const times = floats(g, s.input);
    const values = floats(g, s.output);
    if (times.length !== S) {
      bad.push(`${where}: ${times.length} samples for ${S} frames`);
      continue;
    }
    for (let t = 0; t < S; t++) {
      if (times[t] !== Math.fround(t / m.fps)) bad.push(`${where}: sample ${t} at ${times[t]} s, not ${t}/${m.fps}`);
      if (ch.target.path === 'rotation') {
        const want = decodeRot(mt3, j, t);
        const got = Array.from(values.subarray(t * 4, t * 4 + 4));
        const e = angleDeg(got, want);
        if (!(e <= 1e-4)) bad.push(`${where}: frame ${t} is ${e} deg from the decoded MT3`);
      } else if (ch.target.path === 'translation') {
        const want =
          j === 0
            ? decodePos(mt3.root.frames, mt3.root.position, mt3.root.velocity, t).map((x, c) => x + offsetAt(0, t)[c])
            : offsetAt(j, t);
        for (let c = 0; c < 3; c++) {
          const got = values[t * 3 + c];
          if (!(Math.abs(got - want[c]) <= 1e-6 * (1 + Math.abs(want[c]))))
            bad.push(`${where}: frame ${t} component ${c} is ${got}, the decoded MT3 ${want[c]}`);
        }
      } else bad.push(`${where}: an unexpected path`);
      if (bad.length > 50) return bad;
    }
  }
  for (let j = 0; j < J; j++) if (!seen.has(`${j} rotation`)) bad.push(`node ${j}: no rotation channel`);
  if (!seen.has('0 translation')) bad.push('node 0: no translation channel');
  return bad;
}
