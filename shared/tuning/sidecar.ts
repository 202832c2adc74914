/**
 * The tuning file kept beside a motion opened without a project
 * (`walk.mtn` -> `walk.mtn.actguy-tuning.json`, docs/formats-tuning.md):
 * every setting that shapes the compression and is not stored in the MTN
 * (tolerances, method, skeleton-aware bound and shell, per-joint rotation
 * overrides). The app writes it with the motion and reads it on open;
 * `actguy compress` reads it by default, so a saved motion compresses the
 * same way in both.
 *
 * The file is untrusted input: its size, keys, types, ranges and joint names
 * are checked strictly, and a bad file is one FormatError at its line:column
 * or key path (the motion itself still opens).
 */
import { DEFAULT_TOLERANCES, type CompressMethod, type CompressTolerances } from '../compress/types';
import { FormatError, quoteJson } from '../errors';
import { findExcessiveNesting, nestedTooDeeply } from '../json/nesting';
import { findJsonSyntaxError } from '../project/jsonPosition';
import { lineColumnAt } from '../json/lineColumn';
import { encodeUtf8 } from '../utf8';

/** Appended to the motion file's whole name: `walk.mtn` -> `walk.mtn.actguy-tuning.json`. */
export const TUNING_SUFFIX = '.actguy-tuning.json';
/** Largest tuning file read (a full one for a 255-joint skeleton is under 16 KiB). */
export const TUNING_MAX_BYTES = 64 * 1024;
/** The one format version written and read. */
export const TUNING_VERSION = 1;
/** Largest rotation tolerance or override, degrees. */
export const TUNING_MAX_DEGREES = 180;
/** Largest position, offset, object tolerance or shell, motion units. */
export const TUNING_MAX_UNITS = 1e6;

const TOP_KEYS = ['$schema', 'version', 'tolerances', 'rotationOverridesDeg'] as const;
const TOLERANCE_KEYS = ['position', 'rotationDeg', 'offset', 'method', 'object', 'shell'] as const;

/**
 * The compression settings of one motion: its tolerances (position, offset > 0; rotation > 0, <= 180 degrees; a
 * shell needs objectTolerance), with the method always named, and its per-joint overrides.
 */
export interface MotionTuning extends CompressTolerances {
  method: CompressMethod;
  /** Per-joint rotation tolerance in degrees, by joint index (every index names a joint of the motion). */
  rotationOverridesDeg: Record<number, number>;
}

/** The tuning file beside a motion file. */
export function tuningPathOf(motionPath: string): string {
  return `${motionPath}${TUNING_SUFFIX}`;
}

/** The settings a motion has without a tuning file. */
export function defaultTuning(): MotionTuning {
  return { ...DEFAULT_TOLERANCES, method: 'refined', rotationOverridesDeg: {} };
}

/** Whether two tunings compress alike. */
export function sameTuning(a: MotionTuning, b: MotionTuning): boolean {
  const ka = Object.keys(a.rotationOverridesDeg);
  return (
    a.positionTolerance === b.positionTolerance &&
    a.rotationToleranceDeg === b.rotationToleranceDeg &&
    a.offsetTolerance === b.offsetTolerance &&
    a.method === b.method &&
    a.objectTolerance === b.objectTolerance &&
    a.shell === b.shell &&
    ka.length === Object.keys(b.rotationOverridesDeg).length &&
    ka.every((k) => a.rotationOverridesDeg[+k] === b.rotationOverridesDeg[+k])
  );
}

/**
 * Reads a tuning file against the motion it belongs to (`joints`: its skeleton, in order). Throws one FormatError
 * (kind TUNING, naming `file`) at the first problem: too large, not JSON (line:column), an unknown key, a value of
 * the wrong type or out of range, or a joint the motion does not have.
 */
export function parseTuning(text: string, file: string, joints: readonly { name: string }[]): MotionTuning {
  const fail = (where: string, detail: string): never => {
    throw new FormatError('TUNING', detail, { where }, file);
  };
  const bytes = encodeUtf8(text).byteLength;
  if (bytes > TUNING_MAX_BYTES)
    fail('(file)', `${bytes} bytes is too large for a tuning file (at most ${TUNING_MAX_BYTES})`);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const deep = findExcessiveNesting(body);
  if (deep) throw new FormatError('TUNING', nestedTooDeeply(), { line: deep.line, column: deep.column }, file);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    const at = findJsonSyntaxError(body);
    const place = at ? lineColumnAt(body, at.offset) : { line: 1, column: 1 };
    throw new FormatError(
      'TUNING',
      at ? `not valid JSON: expected ${at.expected}` : `not valid JSON: ${(e as Error).message}`,
      place,
      file,
    );
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const known = (obj: Record<string, unknown>, keys: readonly string[], where: string) => {
    for (const k of Object.keys(obj))
      if (!keys.includes(k))
        fail(where ? `${where}.${k}` : k, `unknown key ${quoteJson(k)} (expected one of ${keys.join(', ')})`);
  };
  const inRange = (v: unknown, where: string, max: number, unit: string): number | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > max)
      fail(where, `must be a number greater than 0 and at most ${max} ${unit}, found ${quoteJson(v)}`);
    return v as number;
  };

  if (!isObject(json)) return fail('(top level)', 'a tuning file holds one JSON object');
  known(json, TOP_KEYS, '');
  if (json.version !== TUNING_VERSION) fail('version', `must be ${TUNING_VERSION}, found ${quoteJson(json.version)}`);
  const tuning = defaultTuning();
  const tol = json.tolerances ?? {};
  if (!isObject(tol))
    return fail('tolerances', 'must be an object with position, rotationDeg, offset, method, object and/or shell');
  known(tol, TOLERANCE_KEYS, 'tolerances');
  tuning.positionTolerance =
    inRange(tol.position, 'tolerances.position', TUNING_MAX_UNITS, 'units') ?? tuning.positionTolerance;
  tuning.rotationToleranceDeg =
    inRange(tol.rotationDeg, 'tolerances.rotationDeg', TUNING_MAX_DEGREES, 'degrees') ?? tuning.rotationToleranceDeg;
  tuning.offsetTolerance =
    inRange(tol.offset, 'tolerances.offset', TUNING_MAX_UNITS, 'units') ?? tuning.offsetTolerance;
  if (tol.method !== undefined && tol.method !== 'refined' && tol.method !== 'classic')
    fail('tolerances.method', `must be "refined" or "classic", found ${quoteJson(tol.method)}`);
  if (tol.method === 'classic') tuning.method = 'classic';
  const object = inRange(tol.object, 'tolerances.object', TUNING_MAX_UNITS, 'units');
  const shell = inRange(tol.shell, 'tolerances.shell', TUNING_MAX_UNITS, 'units');
  if (shell !== undefined && object === undefined)
    fail('tolerances.shell', 'needs tolerances.object (the shell is where the object-space error is measured)');
  if (object !== undefined) tuning.objectTolerance = object;
  if (shell !== undefined) tuning.shell = shell;
  const overrides = json.rotationOverridesDeg ?? {};
  if (!isObject(overrides)) return fail('rotationOverridesDeg', 'must be an object of joint name or index -> degrees');
  // Each name's first joint, found once: a search of the skeleton per override was overrides x joints (fuzz round 4,
  // docs/testing.md).
  const byName = new Map<string, number>();
  joints.forEach((j, i) => {
    const name = j.name;
    if (!byName.has(name)) byName.set(name, i);
  });
  for (const [key, deg] of Object.entries(overrides)) {
    const where = `rotationOverridesDeg.${key}`;
    const joint = /^[0-9]+$/.test(key) ? Number(key) : (byName.get(key) ?? -1);
    if (/^[0-9]+$/.test(key) && joint >= joints.length)
      fail(where, `joint ${joint} does not exist: the motion has joints 0..${joints.length - 1}`);
    if (joint < 0)
      fail(
        where,
        `no joint named ${quoteJson(key)} in the motion (its joints: ${joints.map((j) => j.name).join(', ')})`,
      );
    const value = inRange(deg, where, TUNING_MAX_DEGREES, 'degrees');
    if (value === undefined) fail(where, 'must be a number of degrees');
    if (tuning.rotationOverridesDeg[joint] !== undefined)
      fail(where, `joint ${joint} (${joints[joint].name}) is given twice`);
    tuning.rotationOverridesDeg[joint] = value!;
  }
  return tuning;
}

/**
 * The tuning file's text: 2-space JSON, one trailing newline. Overrides are keyed by joint name where the name is
 * unique in the skeleton (readable, and stable if joints are added), else by index.
 */
export function serializeTuning(t: MotionTuning, joints: readonly { name: string }[]): string {
  const tolerances: Record<string, number | string> = {
    position: t.positionTolerance,
    rotationDeg: t.rotationToleranceDeg,
    offset: t.offsetTolerance,
    method: t.method,
  };
  if (t.objectTolerance !== undefined) tolerances.object = t.objectTolerance;
  if (t.shell !== undefined && t.objectTolerance !== undefined) tolerances.shell = t.shell;
  // No prototype: a joint named "__proto__" is a key like any other (on {} its override vanished from the file).
  const overrides: Record<string, number> = Object.create(null) as Record<string, number>;
  const keys = Object.keys(t.rotationOverridesDeg)
    .map(Number)
    .sort((a, b) => a - b);
  // How many joints bear each name, counted once: counting over the skeleton for each override was overrides x
  // joints (fuzz round 5, docs/testing.md).
  const bearers = new Map<string, number>();
  if (keys.length) for (const { name } of joints) bearers.set(name, (bearers.get(name) ?? 0) + 1);
  for (const j of keys) {
    const name = joints[j]?.name ?? '';
    const unique = /^[A-Za-z_][A-Za-z0-9_.:-]*$/.test(name) && bearers.get(name) === 1;
    overrides[unique ? name : String(j)] = t.rotationOverridesDeg[j];
  }
  return `${JSON.stringify({ version: TUNING_VERSION, tolerances, rotationOverridesDeg: overrides }, null, 2)}\n`;
}
