/**
 * Small FBX files for tests and fuzz seeds: a bone chain with one rotation and
 * translation clip, written as binary or ASCII FBX 7.x. Only what the FBX
 * importer reads (GlobalSettings, LimbNode models, one AnimationStack with
 * curves, Connections); no meshes.
 */
import { encodeUtf8 } from '../../utf8';
import { writeBinaryFbx, type FbxNode, type FbxValue } from './container';

export type { FbxNode, FbxValue };

/** FBX time ticks per second. */
export const FBX_TICKS_PER_SECOND = 46186158000n;

export interface FbxSceneOptions {
  /** Bone names, root first; each bone is the child of the one before. */
  bones?: string[];
  /** Source frame rate (TimeMode 14 with CustomFrameRate when not a standard one). */
  fps?: number;
  /** Keys of the clip (frames 0..frames-1). */
  frames?: number;
  /** UnitScaleFactor (centimetres per unit). */
  unit?: number;
  /** Clip names; each animates the bones with a different amplitude. Empty: no animation. */
  clips?: string[];
  /** Animate a non-bone "Prop" node only (no skeletal clip). */
  propOnly?: boolean;
  /** PreRotation of every bone, degrees. */
  preRotation?: [number, number, number];
  /** PostRotation of every bone, degrees. */
  postRotation?: [number, number, number];
  /** RotationActive of every bone (default 1 when a pre- or post-rotation is given, else not written). */
  rotationActive?: 0 | 1;
  /** RotationOrder (enum 0..6) of every bone (not written when absent). */
  rotationOrder?: number;
  /** InheritType of every bone but the root (not written when absent). */
  inheritType?: number;
  /** Lcl Scaling of the root bone (not written when absent). */
  rootScaling?: [number, number, number];
  /** Rest Lcl Rotation (degrees) and Lcl Scaling of some bones (by index), written on the model. */
  boneRest?: { bone: number; rotation?: [number, number, number]; scaling?: [number, number, number] }[];
  /** A uniform Lcl Scaling curve on one bone of the first clip: its value at each frame (linear keys). */
  scaleKeys?: { bone: number; values: number[] };
  /** The keys of a curve (bone index, 'R' or 'T', axis 0..2), instead of the default sine keys; null: no curve. */
  keys?: (bone: number, attr: 'R' | 'T', axis: number) => FbxKeys | null | undefined;
}

/** One AnimationCurve's keys as FBX stores them. */
export interface FbxKeys {
  /** Key times in seconds. */
  seconds: number[];
  values: number[];
  /** KeyAttrFlags, KeyAttrDataFloat (4 per run) and KeyAttrRefCount, written as given (KeyAttrDataFloat as doubles when `dataDoubles`). */
  flags: number[];
  data: number[];
  refCount: number[];
  /** Write KeyAttrDataFloat as a double array (ASCII files print its weight entries as integers; see curves.ts). */
  dataDoubles?: boolean;
}

/** A float whose 32 bits are the given integer (how binary FBX stores the packed tangent weights). */
export function floatWithBits(bits: number): number {
  const i = new Int32Array([bits]);
  return new Float32Array(i.buffer)[0];
}

const TIME_MODES: Record<number, number> = { 120: 1, 100: 2, 60: 3, 50: 4, 48: 5, 30: 6, 25: 10, 24: 11 };

/** The node tree of a small animated bone chain (see FbxSceneOptions). */
export function fbxScene(o: FbxSceneOptions = {}): FbxNode[] {
  const bones = o.bones ?? ['Hips', 'Spine', 'Head'];
  const fps = o.fps ?? 30;
  const frames = o.frames ?? 5;
  const clips = o.clips ?? ['Take 001'];
  const n = (name: string, props: FbxValue[] = [], children: FbxNode[] = [], ints = false): FbxNode => ({
    name,
    props,
    children,
    ints,
  });
  const p = (name: string, type: string, ...values: (number | bigint)[]) =>
    n(
      'P',
      [name, type, '', type === 'Lcl Rotation' || type === 'Lcl Translation' ? 'A' : '', ...values],
      [],
      type === 'int' || type === 'enum',
    );
  const objects: FbxNode[] = [];
  const connections: FbxNode[] = [];
  const oo = (child: bigint, parent: bigint) => connections.push(n('C', ['OO', child, parent]));
  const op = (child: bigint, parent: bigint, prop: string) => connections.push(n('C', ['OP', child, parent, prop]));
  let nextId = 1000n;
  const id = () => nextId++;

  const modelIds: bigint[] = [];
  const names = o.propOnly ? [...bones, 'Prop'] : bones;
  names.forEach((name, i) => {
    const mid = id();
    modelIds.push(mid);
    const isProp = o.propOnly && name === 'Prop';
    const rest = isProp ? undefined : o.boneRest?.find((r) => r.bone === i);
    const props = [
      p('Lcl Translation', 'Lcl Translation', 0, i === 0 ? 100 : 20, 0),
      p('Lcl Rotation', 'Lcl Rotation', ...(rest?.rotation ?? [0, 0, 0])),
    ];
    if (rest?.scaling) props.push(p('Lcl Scaling', 'Lcl Scaling', ...rest.scaling));
    if (o.preRotation && !isProp) props.push(p('PreRotation', 'Vector3D', ...o.preRotation));
    if (o.postRotation && !isProp) props.push(p('PostRotation', 'Vector3D', ...o.postRotation));
    const active = o.rotationActive ?? (o.preRotation || o.postRotation ? 1 : undefined);
    if (active !== undefined && !isProp) props.push(p('RotationActive', 'bool', active));
    if (o.rotationOrder !== undefined && !isProp) props.push(p('RotationOrder', 'enum', o.rotationOrder));
    if (o.inheritType !== undefined && i > 0 && !isProp) props.push(p('InheritType', 'enum', o.inheritType));
    if (o.rootScaling && i === 0) props.push(p('Lcl Scaling', 'Lcl Scaling', ...o.rootScaling));
    objects.push(
      n(
        'Model',
        [mid, `${name}\0\x01Model`, isProp ? 'Null' : 'LimbNode'],
        [n('Version', [232], [], true), n('Properties70', [], props)],
      ),
    );
    oo(mid, i === 0 || isProp ? 0n : modelIds[i - 1]);
  });

  clips.forEach((clipName, c) => {
    const stack = id(),
      layer = id();
    const stop = ((BigInt(frames - 1) * FBX_TICKS_PER_SECOND) / BigInt(Math.round(fps * 1000))) * 1000n;
    objects.push(
      n(
        'AnimationStack',
        [stack, `${clipName}\0\x01AnimStack`, ''],
        [n('Properties70', [], [p('LocalStop', 'KTime', stop)])],
      ),
    );
    objects.push(n('AnimationLayer', [layer, 'BaseLayer\0\x01AnimLayer', ''], []));
    oo(layer, stack);
    const animated = o.propOnly ? [modelIds[modelIds.length - 1]] : modelIds;
    animated.forEach((mid, b) => {
      for (const [attr, prop] of [
        ['R', 'Lcl Rotation'],
        ['T', 'Lcl Translation'],
      ] as const) {
        if (attr === 'T' && b > 0) continue;
        const node = id();
        objects.push(
          n(
            'AnimationCurveNode',
            [node, `${attr}\0\x01AnimCurveNode`, ''],
            [n('Properties70', [], [p('d|X', 'Number', 0), p('d|Y', 'Number', 0), p('d|Z', 'Number', 0)])],
          ),
        );
        oo(node, layer);
        op(node, mid, prop);
        ['X', 'Y', 'Z'].forEach((axis, k) => {
          const given = o.keys?.(b, attr, k);
          if (given === null) return;
          const curve = id();
          const times = new BigInt64Array(given ? given.seconds.length : frames);
          const values = new Float32Array(times.length);
          for (let f = 0; f < times.length; f++) {
            times[f] = given
              ? BigInt(Math.round(given.seconds[f] * Number(FBX_TICKS_PER_SECOND)))
              : (BigInt(f) * FBX_TICKS_PER_SECOND * 1000n) / BigInt(Math.round(fps * 1000));
            values[f] = given
              ? given.values[f]
              : attr === 'R'
                ? (c + 1) * (10 + 7 * k + 3 * b) * Math.sin(f * 0.7 + k)
                : (k === 1 ? 100 : 0) + (c + 1) * 5 * f * (k === 2 ? 1 : 0.2);
          }
          objects.push(
            n(
              'AnimationCurve',
              [curve, '\0\x01AnimCurve', ''],
              [
                n('Default', [0]),
                n('KeyVer', [4008], [], true),
                n('KeyTime', [times]),
                n('KeyValueFloat', [values]),
                n('KeyAttrFlags', [new Int32Array(given ? given.flags : [24840])]),
                n('KeyAttrDataFloat', [
                  given?.dataDoubles
                    ? new Float64Array(given.data)
                    : new Float32Array(given ? given.data : [0, 0, 0, 0]),
                ]),
                n('KeyAttrRefCount', [new Int32Array(given ? given.refCount : [frames])]),
              ],
            ),
          );
          op(curve, node, `d|${axis}`);
        });
      }
    });
    if (o.scaleKeys && c === 0) {
      const { bone, values } = o.scaleKeys;
      const node = id();
      objects.push(
        n(
          'AnimationCurveNode',
          [node, 'S\0\x01AnimCurveNode', ''],
          [n('Properties70', [], [p('d|X', 'Number', 1), p('d|Y', 'Number', 1), p('d|Z', 'Number', 1)])],
        ),
      );
      oo(node, layer);
      op(node, modelIds[bone], 'Lcl Scaling');
      for (const axis of ['X', 'Y', 'Z']) {
        const curve = id();
        const times = BigInt64Array.from(
          values,
          (_, f) => (BigInt(f) * FBX_TICKS_PER_SECOND * 1000n) / BigInt(Math.round(fps * 1000)),
        );
        objects.push(
          n(
            'AnimationCurve',
            [curve, '\0\x01AnimCurve', ''],
            [
              n('Default', [1]),
              n('KeyVer', [4008], [], true),
              n('KeyTime', [times]),
              n('KeyValueFloat', [Float32Array.from(values)]),
              n('KeyAttrFlags', [new Int32Array([0x4])]),
              n('KeyAttrDataFloat', [new Float32Array([0, 0, 0, 0])]),
              n('KeyAttrRefCount', [new Int32Array([values.length])]),
            ],
          ),
        );
        op(curve, node, `d|${axis}`);
      }
    }
  });

  const mode = TIME_MODES[fps];
  return [
    n('FBXHeaderExtension', [], [n('FBXHeaderVersion', [1003], [], true), n('FBXVersion', [7400], [], true)]),
    n(
      'GlobalSettings',
      [],
      [
        n('Version', [1000], [], true),
        n(
          'Properties70',
          [],
          [
            p('UpAxis', 'int', 1),
            p('UnitScaleFactor', 'double', o.unit ?? 1),
            p('TimeMode', 'enum', mode ?? 14),
            p('CustomFrameRate', 'double', mode ? -1 : fps),
          ],
        ),
      ],
    ),
    n('Objects', [], objects),
    n('Connections', [], connections),
  ];
}

/** A binary FBX file of the tree (version 7400 or 7500, which widens the record fields to 64 bits); `compress` stores arrays zlib-compressed, as the FBX SDK does. */
export function writeFbxBinary(tree: FbxNode[], version = 7400, compress = false): Uint8Array {
  return writeBinaryFbx(tree, version, compress);
}

/** An ASCII FBX file of the tree. */
export function writeFbxAscii(tree: FbxNode[], version = 7400): Uint8Array {
  const lines = [`; FBX ${Math.floor(version / 1000)}.${Math.floor((version % 1000) / 100)}.0 project file`, ''];
  const scalar = (v: FbxValue): string => {
    if (typeof v === 'string') {
      const [name, cls] = v.split('\0\x01');
      return JSON.stringify(cls !== undefined ? `${cls}::${name}` : name);
    }
    return String(v);
  };
  const node = (nd: FbxNode, indent: string) => {
    const arrays = nd.props.filter((v) => typeof v === 'object');
    if (arrays.length) {
      const a = arrays[0] as ArrayLike<number | bigint>;
      lines.push(
        `${indent}${nd.name}: *${a.length} {`,
        `${indent}\ta: ${Array.from(a, String).join(',')}`,
        `${indent}}`,
      );
      return;
    }
    // As the FBX SDK writes them: strings after ", ", numbers after "," (`P: "UpAxis", "int", "Integer", "",1`).
    const head = `${indent}${nd.name}: ${nd.props.map((v, i) => (i === 0 ? '' : typeof v === 'string' ? ', ' : ',') + scalar(v)).join('')}`;
    if (!nd.children.length && nd.name !== 'Properties70' && nd.name !== 'Objects' && nd.name !== 'AnimationLayer') {
      lines.push(head);
      return;
    }
    lines.push(`${head} {`);
    nd.children.forEach((c) => node(c, `${indent}\t`));
    lines.push(`${indent}}`);
  };
  tree.forEach((nd) => node(nd, ''));
  return encodeUtf8(lines.join('\n') + '\n');
}
