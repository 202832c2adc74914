/**
 * The animation of an FBX file as ActGuy evaluates it (docs/import.md#fbx-keys): every AnimationStack (a take, in
 * file order) with the Lcl Translation, Lcl Rotation and Lcl Scaling curves of its first AnimationLayer, found
 * through the Connections (curve -> curve node "d|X" -> model "Lcl Rotation"; curve node -> layer -> stack), and
 * what of each Model the pose depends on beyond what three.js's FBXLoader reads: RotationActive and InheritType,
 * with the defaults of the file's Model property template.
 */
import { FormatError, quoteJson } from '../../errors';
import type { FbxNode, FbxValue } from './container';
import { MTN_MAX_JOINTS } from '../../mtn/constants';
import { readCurve, type FbxCurve } from './curves';

/** Deepest model tree read (levels below a root model), as deep as glTF nodes and BVH joints may nest (docs/limits.md). */
export const FBX_MAX_MODEL_DEPTH = 256;

/** The transform properties a curve node can animate, with the three.js track property each poses. */
export const ANIMATED_PROPERTIES = {
  'Lcl Translation': 'position',
  'Lcl Rotation': 'rotation',
  'Lcl Scaling': 'scale',
} as const;
export type AnimatedProperty = keyof typeof ANIMATED_PROPERTIES;

/** One animated transform property of a model: per axis a curve, or the curve node's value for an axis without one. */
export interface FbxAnimatedChannel {
  /** The model's object id as a number (as three.js's FBXLoader keeps it in `ID`). */
  model: number;
  property: AnimatedProperty;
  axes: [FbxCurve | number | undefined, FbxCurve | number | undefined, FbxCurve | number | undefined];
}

export interface FbxTake {
  name: string;
  channels: FbxAnimatedChannel[];
  /** First and last key time over the take's curves, in ticks (NaN when it has no keys). */
  firstTick: number;
  lastTick: number;
}

export interface FbxModelInfo {
  name: string;
  /** RotationActive: pre- and post-rotations count only when true. */
  rotationActive: boolean;
  /** InheritType: 0 RrSs, 1 RSrs, 2 Rrs. */
  inheritType: number;
}

export interface FbxAnimation {
  /** Every stack, in file order; empty when the file has no AnimationCurve (as the loader has no clips then). */
  takes: FbxTake[];
  models: Map<number, FbxModelInfo>;
}

const num = (v: FbxValue | undefined): number =>
  typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : typeof v === 'string' ? NaN : NaN;
const key = (v: FbxValue | undefined): string => (typeof v === 'bigint' || typeof v === 'number' ? String(v) : '');
/** An object's name as written: binary "Name\0\x01Class", ASCII "Class::Name" (the ASCII reader drops the class). */
export const objectName = (v: FbxValue | undefined): string =>
  typeof v === 'string' ? v.split('\0\x01')[0].replace(/^\w+::/, '') : '';
const child = (n: FbxNode | undefined, name: string) => n?.children.find((c) => c.name === name);
const array = (n: FbxNode | undefined, name: string): ArrayLike<number> => {
  const v = child(n, name)?.props[0];
  if (v instanceof BigInt64Array) return Array.from(v, Number);
  return v instanceof Float64Array || v instanceof Float32Array || v instanceof Int32Array ? v : [];
};

/** Properties70 entries by name: the values after name, type, label and flags. */
function properties(n: FbxNode | undefined): Map<string, FbxValue[]> {
  const out = new Map<string, FbxValue[]>();
  for (const p of child(n, 'Properties70')?.children ?? [])
    if (p.name === 'P' && typeof p.props[0] === 'string') out.set(p.props[0], p.props.slice(4));
  return out;
}

/** The Model property template's RotationActive and InheritType (Definitions > ObjectType "Model"). */
export function modelTemplate(definitions: FbxNode | undefined): { rotationActive: boolean; inheritType: number } {
  const type = definitions?.children.find((c) => c.name === 'ObjectType' && c.props[0] === 'Model');
  const p = properties(child(type, 'PropertyTemplate'));
  return { rotationActive: num(p.get('RotationActive')?.[0]) === 1, inheritType: num(p.get('InheritType')?.[0]) || 0 };
}

/** RotationActive and InheritType of a Model node, its own or the template's. */
export function modelSettings(
  model: FbxNode,
  template: { rotationActive: boolean; inheritType: number },
): { rotationActive: boolean; inheritType: number } {
  const p = properties(model);
  const active = p.get('RotationActive')?.[0];
  const inherit = p.get('InheritType')?.[0];
  return {
    rotationActive: active === undefined ? template.rotationActive : num(active) === 1,
    inheritType: inherit === undefined ? template.inheritType : num(inherit),
  };
}

/** A model's properties the loader reads as its transform, each three numbers (docs/import.md#fbx). */
const TRANSFORM_VECTORS = [
  'Lcl Translation',
  'Lcl Rotation',
  'Lcl Scaling',
  'PreRotation',
  'PostRotation',
  'RotationOffset',
  'RotationPivot',
  'ScalingOffset',
  'ScalingPivot',
];
/** The property types three.js's loader reads as three numbers; any other gives it one value (or a string). */
const VECTOR_TYPES = ['Color', 'ColorRGB', 'Vector', 'Vector3D'];

/**
 * Refuses a model whose transform property (Lcl Rotation and the others above) is not three numbers: a type the loader
 * reads as one value ("Number", "KString") made it, or the pose after it, call an array method on a number (a
 * TypeError, reported as a defect with no place; found by `npm run fuzz`, 2026-12-05). Said at the property's place.
 */
function checkTransformVectors(
  model: FbxNode,
  placeOf: (n: FbxNode) => { offset?: number; line?: number; column?: number; where?: string },
): void {
  // The loader reads a string up to its first NUL ("Lcl Translation\0x" is Lcl Translation to it).
  const upToNul = (v: FbxValue | undefined) => (typeof v === 'string' ? v.split('\0')[0] : v);
  for (const p of child(model, 'Properties70')?.children ?? []) {
    const name = upToNul(p.props[0]);
    if (p.name !== 'P' || typeof name !== 'string' || !TRANSFORM_VECTORS.includes(name)) continue;
    const type = upToNul(p.props[1]);
    const vector = typeof type === 'string' && (VECTOR_TYPES.includes(type) || type.startsWith('Lcl '));
    const values = p.props.slice(4, 7);
    if (vector && values.length === 3 && values.every((v) => typeof v === 'number' || typeof v === 'bigint')) continue;
    throw new FormatError(
      'FBX',
      `model ${quoteJson(objectName(model.props[1]))}: its ${name} is ${vector ? `${values.length === 3 ? 'not three numbers' : `${values.length} value(s)`}` : `of type ${quoteJson(String(type))}`}, not a vector of three numbers: the file is damaged`,
      placeOf(p),
    );
  }
}

/**
 * Checks the model tree the loader will build from the Connections, before it runs: three.js adds each model to every
 * model it is linked under in turn (so the last link wins), refuses a model under itself with a console dump, leaves a
 * ring of models out of the scene, and walks the tree recursively (a 20,000-deep chain overflowed the stack after 10 s
 * of loading). Refused here, naming the model: a model linked under itself, a ring, a chain deeper than
 * FBX_MAX_MODEL_DEPTH, and more LimbNode bones than a motion holds. Linear in models and connections.
 */
export function checkModelTree(objects: FbxNode, connections: FbxNode | undefined): void {
  const names = new Map<string, string>();
  // The loader makes a bone of every LimbNode and of every model a skin cluster links, whatever its type, matching
  // each model against each cluster; both count here (16,000 nulls under clusters took 28 s before a later refusal).
  const bones = new Set<string>();
  const clusters = new Set<string>();
  for (const o of objects.children)
    if (o.name === 'Model') {
      names.set(key(o.props[0]), objectName(o.props[1]));
      if (o.props[2] === 'LimbNode' || o.props[2] === 'Root') bones.add(key(o.props[0]));
    } else if (o.name === 'Deformer' && o.props[2] === 'Cluster') clusters.add(key(o.props[0]));
  const where = { where: 'Connections' };
  const tooManyBones = () => {
    if (bones.size > MTN_MAX_JOINTS)
      throw new FormatError('FBX', `the skeleton has ${bones.size} joints; a motion holds at most ${MTN_MAX_JOINTS}`, {
        where: 'Objects',
      });
  };
  tooManyBones();
  const parentOf = new Map<string, string>();
  for (const c of connections?.children ?? []) {
    if (c.name !== 'C') continue;
    const from = key(c.props[1]),
      to = key(c.props[2]);
    if (clusters.has(to) && names.has(from)) bones.add(from);
    if (!names.has(from) || !names.has(to)) continue;
    if (from === to)
      throw new FormatError(
        'FBX',
        `model ${quoteJson(names.get(from)!)} is linked under itself: the file is damaged`,
        where,
      );
    parentOf.set(from, to);
  }
  tooManyBones();
  // Depth below its root of every model, each walked up once (ON_PATH marks the chain being walked: met again, a ring).
  const ON_PATH = -1;
  const depth = new Map<string, number>();
  for (const start of names.keys()) {
    const path: string[] = [];
    let at: string | undefined = start;
    while (at !== undefined && !depth.has(at)) {
      depth.set(at, ON_PATH);
      path.push(at);
      at = parentOf.get(at);
    }
    if (at !== undefined && depth.get(at) === ON_PATH) {
      const ring = path.slice(path.indexOf(at));
      throw new FormatError(
        'FBX',
        `models ${ring
          .slice(0, 8)
          .map((id) => quoteJson(names.get(id)!))
          .join(
            ' -> ',
          )}${ring.length > 8 ? ' -> ...' : ''} are linked in a ring, each under the next: the file is damaged`,
        where,
      );
    }
    let d = at === undefined ? -1 : depth.get(at)!;
    for (let k = path.length - 1; k >= 0; k--) {
      depth.set(path[k], ++d);
      if (d > FBX_MAX_MODEL_DEPTH)
        throw new FormatError(
          'FBX',
          `nested too deeply: model ${quoteJson(names.get(path[k])!)} is ${d} levels below its root model (a model tree is read up to ${FBX_MAX_MODEL_DEPTH} levels)`,
          where,
        );
    }
  }
}

/**
 * Reads the takes and models. `weightBits` gives the 32-bit pattern of a KeyAttrDataFloat weight entry (see
 * readCurve); `placeOf` says where an object is in the file.
 */
export function readFbxAnimation(
  objects: FbxNode,
  connections: FbxNode | undefined,
  definitions: FbxNode | undefined,
  weightBits: (x: number) => number,
  placeOf: (n: FbxNode) => { offset?: number; line?: number; column?: number; where?: string },
): FbxAnimation {
  checkModelTree(objects, connections);
  const template = modelTemplate(definitions);
  const byId = new Map<string, FbxNode>();
  const models = new Map<number, FbxModelInfo>();
  for (const o of objects.children) {
    byId.set(key(o.props[0]), o);
    if (o.name === 'Model') {
      checkTransformVectors(o, placeOf);
      models.set(num(o.props[0]), { name: objectName(o.props[1]), ...modelSettings(o, template) });
    }
  }
  const childrenOf = new Map<string, { id: string; prop?: string }[]>();
  const parentsOf = new Map<string, { id: string; prop?: string }[]>();
  for (const c of connections?.children ?? []) {
    if (c.name !== 'C') continue;
    const [kind, from, to, prop] = c.props;
    if (kind !== 'OO' && kind !== 'OP') continue;
    const link = { prop: kind === 'OP' && typeof prop === 'string' ? prop : undefined };
    const f = key(from),
      t = key(to);
    // Appended in place: a parent with many children (a layer's curve nodes) stays linear to read.
    const children = childrenOf.get(t) ?? [];
    if (!children.length) childrenOf.set(t, children);
    children.push({ id: f, ...link });
    const parents = parentsOf.get(f) ?? [];
    if (!parents.length) parentsOf.set(f, parents);
    parents.push({ id: t, ...link });
  }
  const curves = new Map<string, FbxCurve>();
  const curveOf = (id: string, label: string): FbxCurve | undefined => {
    const o = byId.get(id);
    if (o?.name !== 'AnimationCurve') return undefined;
    const done = curves.get(id);
    if (done) return done.times.length ? done : undefined;
    const c = readCurve(
      label,
      placeOf(o),
      array(o, 'KeyTime'),
      array(o, 'KeyValueFloat'),
      array(o, 'KeyAttrFlags'),
      array(o, 'KeyAttrDataFloat'),
      array(o, 'KeyAttrRefCount'),
      weightBits,
    );
    const bad = c.values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0)
      throw new FormatError(
        'FBX',
        `animation curve ${label}: key ${bad} has the value ${c.values[bad]}: key values must be finite numbers`,
        c.place,
      );
    curves.set(id, c);
    return c.times.length ? c : undefined;
  };
  if (!objects.children.some((o) => o.name === 'AnimationCurve')) return { takes: [], models };

  // A curve node's channel, worked out once however many layers (or repeated links) name it: the connections are
  // read once each, so a file that links one curve node 100,000 times stays linear to read (docs/security.md).
  const nodeChannels = new Map<string, FbxAnimatedChannel | null>();
  const channelOf = (nodeId: string): FbxAnimatedChannel | null => {
    const done = nodeChannels.get(nodeId);
    if (done !== undefined) return done;
    nodeChannels.set(nodeId, null);
    const node = byId.get(nodeId);
    if (node?.name !== 'AnimationCurveNode') return null;
    const target = (parentsOf.get(nodeId) ?? []).find(
      (p) => p.prop !== undefined && p.prop in ANIMATED_PROPERTIES && byId.get(p.id)?.name === 'Model',
    );
    if (!target) return null;
    const property = target.prop as AnimatedProperty;
    const modelId = num(byId.get(target.id)!.props[0]);
    const modelName = models.get(modelId)?.name ?? '';
    const defaults = properties(node);
    const links = new Map<string, string>();
    for (const c of childrenOf.get(key(node.props[0])) ?? [])
      if (c.prop !== undefined && !links.has(c.prop)) links.set(c.prop, c.id);
    const axes = (['X', 'Y', 'Z'] as const).map((axis) => {
      const link = links.get(`d|${axis}`);
      const curve = link !== undefined && curveOf(link, `${quoteJson(modelName)} ${property} ${axis}`);
      if (curve) return curve;
      const d = num(defaults.get(`d|${axis}`)?.[0]);
      return Number.isFinite(d) ? d : undefined;
    }) as FbxAnimatedChannel['axes'];
    const channel = axes.some((a) => typeof a === 'object') ? { model: modelId, property, axes } : null;
    nodeChannels.set(nodeId, channel);
    return channel;
  };
  // A layer's channels, read once however many stacks name it (so a file of many stacks stays linear to read), each
  // curve node once however often the layer links it.
  const layers = new Map<string, Omit<FbxTake, 'name'>>();
  const layerChannels = (layerId: string): Omit<FbxTake, 'name'> => {
    const done = layers.get(layerId);
    if (done) return done;
    const out: Omit<FbxTake, 'name'> = { channels: [], firstTick: NaN, lastTick: NaN };
    layers.set(layerId, out);
    const seen = new Set<string>();
    for (const link of childrenOf.get(layerId) ?? []) {
      if (seen.has(link.id)) continue;
      seen.add(link.id);
      const channel = channelOf(link.id);
      if (!channel) continue;
      for (const curve of channel.axes) {
        if (typeof curve !== 'object') continue;
        if (!(curve.times[0] >= out.firstTick)) out.firstTick = curve.times[0];
        if (!(curve.times[curve.times.length - 1] <= out.lastTick)) out.lastTick = curve.times[curve.times.length - 1];
      }
      out.channels.push(channel);
    }
    return out;
  };
  const takes: FbxTake[] = [];
  for (const stack of objects.children) {
    if (stack.name !== 'AnimationStack') continue;
    // The first layer only, as the loader (which says so when there are more).
    const layer = (childrenOf.get(key(stack.props[0])) ?? []).find((c) => byId.get(c.id)?.name === 'AnimationLayer');
    const name = objectName(stack.props[1]);
    takes.push(layer ? { name, ...layerChannels(layer.id) } : { name, channels: [], firstTick: NaN, lastTick: NaN });
  }
  return { takes, models };
}
