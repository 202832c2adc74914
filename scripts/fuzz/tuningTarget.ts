/**
 * Fuzz target `tuning`: the per-motion tuning file the app writes beside a motion opened without a project,
 * `walk.mtn.actguy-tuning.json` (shared/tuning/sidecar.ts, docs/formats-tuning.md), as a received folder could
 * hold it. Each input is read as the app and `actguy compress` read it (parseTuning) against a skeleton with
 * awkward joint names: two joints of one name, `__proto__`, `constructor`, a name with a space, a name of digits.
 *
 * Judged: a FormatError naming the file and a place (line:column or a key path) is a rejection; any other throw is
 * a crash, and a FormatError not naming the file and place is unnamed; a tuning kept must be one the compressor
 * takes (tolerances finite, > 0, rotations at most 180 degrees, a shell only with an object tolerance, overrides
 * only for joints the motion has) and must survive its own file: serializeTuning, parsed again, compresses alike
 * (sameTuning) and serializes to the same text.
 */
import { FormatError } from '../../shared/errors';
import {
  parseTuning,
  serializeTuning,
  sameTuning,
  TUNING_MAX_DEGREES,
  TUNING_MAX_UNITS,
  type MotionTuning,
} from '../../shared/tuning/sidecar';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, namesFile, type FuzzTarget, type Outcome } from './judge';

const FILE = '/m/walk.mtn.actguy-tuning.json';
const JOINTS = ['Hips', 'Spine', 'Spine', '__proto__', 'constructor', 'Left Arm', '7', 'toString'].map((name) => ({
  name,
}));
const TOKENS = ['1e309', '-0', '0', '180', '180.0000001', '1e6', '1000001', '"refined"', '"classic"', '"7"', '"00"'];
const STRINGS = [
  'Hips',
  'Spine',
  '__proto__',
  'constructor',
  'toString',
  'Left Arm',
  '7',
  '8',
  '0007',
  'refined',
  'classic',
  'NaN',
  '../walk.mtn',
  '/etc/passwd',
  'Hips\u202e',
  '',
];

function seeds(): Uint8Array[] {
  const full: MotionTuning = {
    positionTolerance: 0.25,
    rotationToleranceDeg: 0.5,
    offsetTolerance: 0.1,
    method: 'classic',
    objectTolerance: 2,
    shell: 30,
    rotationOverridesDeg: { 0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8 },
  };
  const plain: MotionTuning = {
    positionTolerance: 1,
    rotationToleranceDeg: 180,
    offsetTolerance: 1e6,
    method: 'refined',
    rotationOverridesDeg: {},
  };
  return [full, plain].map((t) => new Uint8Array(Buffer.from(serializeTuning(t, JOINTS))));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const inRange = (v: number | undefined, max: number) => v !== undefined && Number.isFinite(v) && v > 0 && v <= max;

function check(t: MotionTuning): void {
  must(inRange(t.positionTolerance, TUNING_MAX_UNITS), `kept the position tolerance ${t.positionTolerance}`);
  must(inRange(t.rotationToleranceDeg, TUNING_MAX_DEGREES), `kept the rotation tolerance ${t.rotationToleranceDeg}`);
  must(inRange(t.offsetTolerance, TUNING_MAX_UNITS), `kept the offset tolerance ${t.offsetTolerance}`);
  must(t.method === 'refined' || t.method === 'classic', `kept the method ${String(t.method)}`);
  if (t.objectTolerance !== undefined)
    must(inRange(t.objectTolerance, TUNING_MAX_UNITS), `kept the object tolerance ${t.objectTolerance}`);
  if (t.shell !== undefined)
    must(inRange(t.shell, TUNING_MAX_UNITS) && t.objectTolerance !== undefined, `kept the shell ${t.shell}`);
  for (const [k, v] of Object.entries(t.rotationOverridesDeg)) {
    must(/^(0|[1-9][0-9]*)$/.test(k) && Number(k) < JOINTS.length, `kept an override of joint ${k}`);
    must(inRange(v, TUNING_MAX_DEGREES), `kept the override ${v} of joint ${k}`);
  }
}

function run(input: Uint8Array): Outcome {
  const text = Buffer.from(input).toString('utf8');
  let t: MotionTuning;
  try {
    t = parseTuning(text, FILE, JOINTS);
  } catch (e) {
    if (!(e instanceof FormatError)) throw new FuzzDefect('crash', describeThrown(e));
    if (!namesFile(e.message, FILE) || (e.place.line === undefined && !e.place.where))
      throw new FuzzDefect('unnamed', `error does not name ${FILE} and a place: ${e.message.slice(0, 200)}`);
    return 'rejected';
  }
  check(t);
  const once = serializeTuning(t, JOINTS);
  let back: MotionTuning;
  try {
    back = parseTuning(once, FILE, JOINTS);
  } catch (e) {
    throw new FuzzDefect('invalid', `the tuning kept does not read back: ${describeThrown(e)}`);
  }
  must(sameTuning(back, t), 'the tuning kept reads back as another');
  must(serializeTuning(back, JOINTS) === once, 'the tuning kept does not serialize to the same text again');
  return 'accepted';
}

export const tuningTarget: FuzzTarget = {
  name: 'tuning',
  ext: 'json',
  seeds,
  mutate,
  run,
};
