/**
 * `actguy info FILE --json`: what `info` prints, as one JSON document (docs/cli.md, "--json"). Each kind of file has
 * its own fields after `command`, `file` and `kind`; the values are those the text shows (counts, hashes, durations),
 * numbers as numbers and hashes as their `0x…` text.
 */
import { effectiveDurationMs } from '../../shared/motion/frameRate';
import { KeyFlag, type Motion } from '../../shared/motion/types';
import type { KnownName } from '../../shared/mar/names';
import { readMar } from '../../shared/mar/read';
import { MSH_NO_MAP } from '../../shared/msh/constants';
import type { MshAnimation } from '../../shared/msh/types';
import { mt3StreamSpans, readMt3, readMt3Header } from '../../shared/mt3/read';
import type { EntryDuration } from '../../shared/project/durations';
import { SAR_NO_CODE, SAR_NO_JOINT, SAR_VARIANTS } from '../../shared/sar/constants';
import type { SarDisplayNames } from '../../shared/sar/describe';
import { readSar } from '../../shared/sar/read';
import { formatSeCode } from '../../shared/se-tables/types';
import { formatStrCode, gvStrCode } from '../../shared/strcode';

/** A duration in ms, or null where the frames, rate or speed give none. */
function durationOrNull(frames: number, fps: number, speed: number): number | null {
  try {
    return effectiveDurationMs(frames, fps, speed);
  } catch {
    return null;
  }
}

const mt3Keys = (m: ReturnType<typeof readMt3>): number =>
  m.root.frames.length +
  m.rotations.reduce((s, r) => s + r.frames.length, 0) +
  (m.offsets?.reduce((s, t) => s + t.frames.length, 0) ?? 0);

export function mtnJson(file: string, m: Motion, size: number, speed: number): Record<string, unknown> {
  const N = m.frameCount;
  const J = m.joints.length;
  const jointKeys = new Array<number>(J).fill(0);
  let translationKeys = 0;
  const traceFrames: number[] = [];
  const lockedFrames: number[] = [];
  for (let f = 0; f <= N; f++) {
    const fl = m.translationKeyInfo[f * 4];
    if (fl & KeyFlag.KEY) translationKeys++;
    if (fl & KeyFlag.TRACE) traceFrames.push(f);
    let locked = false;
    for (let j = 0; j < J; j++) {
      const jf = m.jointKeyInfo[(f * J + j) * 4];
      if (jf & KeyFlag.KEY) jointKeys[j]++;
      if (jf & KeyFlag.LOCK) locked = true;
    }
    if (locked) lockedFrames.push(f);
  }
  return {
    command: 'info',
    file,
    kind: 'mtn',
    bytes: size,
    frameCount: N,
    fps: m.fps,
    speed,
    durationMs: durationOrNull(N, m.fps, speed),
    flags: m.flags >>> 0,
    waistJoint: m.waistJoint,
    userKeys: { translation: translationKeys, joints: jointKeys.reduce((a, b) => a + b, 0) },
    lockedFrames: lockedFrames.length,
    traceFrames,
    joints: m.joints.map((j, i) => ({
      index: i,
      name: j.name,
      parent: j.parent,
      mirror: j.mirror,
      part: j.part,
      userKeys: jointKeys[i],
    })),
  };
}

export function mt3Json(
  file: string,
  bytes: Uint8Array,
  motionName: string | undefined,
  jointNames: readonly string[] | undefined,
): Record<string, unknown> {
  const h = readMt3Header(bytes);
  const m = readMt3(bytes);
  const spans = mt3StreamSpans(h);
  const bytesOf = (name: string) => {
    const s = spans.find((x) => x.name === name);
    return s ? (s.end - s.start) * 2 : 0;
  };
  return {
    command: 'info',
    file,
    kind: 'mt3',
    bytes: bytes.byteLength,
    hash: formatStrCode(h.name),
    name: motionName ?? null,
    flags: h.flags >>> 0,
    baseTick: h.baseTick,
    frameCount: h.numFrames,
    joints: h.numJoints,
    keys: mt3Keys(m),
    streams: [
      { stream: 'root translation', joint: null, keys: m.root.frames.length, bytes: bytesOf('root translation') },
      ...m.rotations.map((r, j) => ({
        stream: 'rotation',
        joint: j,
        jointName: jointNames?.[j] ?? null,
        keys: r.frames.length,
        bytes: bytesOf(`rotation joint ${j}`),
      })),
      ...(m.offsets
        ? [
            {
              stream: 'offsets',
              joint: null,
              keys: m.offsets.reduce((s, t) => s + t.frames.length, 0),
              bytes: bytesOf('root (joint offsets)'),
            },
          ]
        : []),
      ...(m.move ? [{ stream: 'move', joint: null, keys: m.move.frames.length, bytes: bytesOf('move (trace)') }] : []),
    ],
    turnJoint: m.turn,
    lockRanges: m.fix?.map((r) => ({ first: r.firstFrame, last: r.lastFrame, joint: r.joint })) ?? null,
  };
}

export function marJson(
  file: string,
  bytes: Uint8Array,
  names: Map<number, KnownName> | undefined,
  fps: number,
): Record<string, unknown> {
  const mar = readMar(bytes);
  return {
    command: 'info',
    file,
    kind: 'mar',
    bytes: bytes.byteLength,
    maxJoint: mar.maxJoint,
    dataBase: mar.dataBase,
    fps,
    entries: mar.entries.map((e, i) => ({
      index: i,
      hash: formatStrCode(e.name),
      name: names?.get(e.name)?.name ?? null,
      offset: e.fileOffset,
      bytes: e.bytes.byteLength,
      joints: e.mt3.rotations.length,
      frameCount: e.mt3.numFrames,
      keys: mt3Keys(e.mt3),
      flags: e.mt3.flags >>> 0,
      durationMs: durationOrNull(e.mt3.numFrames, fps, 1),
    })),
  };
}

export function sarJson(file: string, bytes: Uint8Array, names: SarDisplayNames = {}): Record<string, unknown> {
  const sar = readSar(bytes);
  const motionByHash = new Map<number, string>();
  if (names.motionNames instanceof Map) for (const [k, v] of names.motionNames) motionByHash.set(k, v);
  else if (Array.isArray(names.motionNames)) for (const n of names.motionNames) motionByHash.set(gvStrCode(n), n);
  const code = (c: number) =>
    c === SAR_NO_CODE ? null : { code: formatSeCode(c), names: names.seTable?.byCode.get(c)?.map((e) => e.name) ?? [] };
  return {
    command: 'info',
    file,
    kind: 'sar',
    bytes: bytes.byteLength,
    dataBase: sar.dataBase,
    events: sar.entries.reduce((s, e) => s + e.events.length, 0),
    entries: sar.entries.map((e, i) => {
      const joints = names.jointNames?.get(e.name);
      return {
        index: i,
        hash: formatStrCode(e.name),
        name: motionByHash.get(e.name) ?? null,
        seSlots: Array.from({ length: e.seCodes.length / SAR_VARIANTS }, (_, s) =>
          Array.from(e.seCodes.subarray(s * SAR_VARIANTS, (s + 1) * SAR_VARIANTS)).map(code),
        ),
        events: e.events.map((ev) => ({
          frame: ev.frame,
          se: ev.se,
          joint: ev.joint === SAR_NO_JOINT ? null : ev.joint,
          jointName: ev.joint === SAR_NO_JOINT ? null : (joints?.[ev.joint] ?? null),
        })),
      };
    }),
  };
}

export function projectJson(
  file: string,
  project: { fps: number; motions: unknown[]; aliases: unknown[] },
  entries: readonly EntryDuration[],
): Record<string, unknown> {
  return {
    command: 'info',
    file,
    kind: 'project',
    fps: project.fps,
    motions: project.motions.length,
    aliases: project.aliases.length,
    entries: entries.map((e) => ({
      index: e.index,
      name: e.name,
      aliasOf: e.target ?? null,
      frameCount: e.frameCount ?? null,
      resampledFrom: e.resampledFrom ?? null,
      speed: e.speed,
      durationMs: e.durationMs ?? null,
      problem: e.problem ?? null,
    })),
  };
}

export function mshJson(
  file: string,
  files: { nodes: string; res8: string; res19: string },
  source: string,
  a: MshAnimation,
): Record<string, unknown> {
  let first = 0;
  return {
    command: 'info',
    file,
    kind: 'msh',
    files,
    source,
    keys: a.keys.length,
    res8Bytes: a.keys.length * 24,
    mapWords: a.mapWords.length,
    frameCount: a.frameCount,
    nodes: a.nodes.map((n, j) => {
      const keys = n.fallbackKey - first + 1;
      first = n.fallbackKey + 1;
      return {
        index: j,
        name: n.name,
        parent: n.parent,
        animMapStart: n.animMapStart === MSH_NO_MAP ? null : n.animMapStart,
        fallbackKey: n.fallbackKey,
        keys,
      };
    }),
  };
}
