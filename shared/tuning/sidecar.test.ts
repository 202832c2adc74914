import { describe, expect, it } from 'vitest';
import { FormatError } from '../errors';
import {
  defaultTuning,
  parseTuning,
  sameTuning,
  serializeTuning,
  TUNING_MAX_BYTES,
  tuningPathOf,
  type MotionTuning,
} from './sidecar';

const joints = [{ name: 'Hips' }, { name: 'LeftFoot' }, { name: 'dup' }, { name: 'dup' }];
const F = '/m/walk.mtn.actguy-tuning.json';

function problem(text: string): string {
  try {
    parseTuning(text, F, joints);
  } catch (e) {
    expect(e).toBeInstanceOf(FormatError);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

describe('tuning file', () => {
  it('sits beside the motion file under its whole name', () => {
    expect(tuningPathOf('/m/walk.mtn')).toBe('/m/walk.mtn.actguy-tuning.json');
  });

  it('round-trips every setting, overrides by unique joint name or else by index', () => {
    const t: MotionTuning = {
      positionTolerance: 0.3,
      rotationToleranceDeg: 2,
      offsetTolerance: 0.7,
      method: 'classic',
      objectTolerance: 1.5,
      shell: 12,
      rotationOverridesDeg: { 1: 0.25, 3: 4 },
    };
    const text = serializeTuning(t, joints);
    expect(JSON.parse(text).rotationOverridesDeg).toEqual({ LeftFoot: 0.25, 3: 4 });
    expect(parseTuning(text, F, joints)).toEqual(t);
    expect(sameTuning(parseTuning(text, F, joints), t)).toBe(true);
    expect(sameTuning(defaultTuning(), t)).toBe(false);
    expect(parseTuning('{"version":1}', F, joints)).toEqual(defaultTuning());
  });

  it('keeps an override of a joint named __proto__ through a save and a read (the save dropped it)', () => {
    const named = [{ name: 'Hips' }, { name: '__proto__' }];
    const t: MotionTuning = { ...defaultTuning(), rotationOverridesDeg: { 1: 0.1 } };
    const text = serializeTuning(t, named);
    expect(text).toContain('"__proto__": 0.1');
    expect(parseTuning(text, F, named)).toEqual(t);
  });

  it('refuses a bad file with its place: syntax at line:column, a value at its key path', () => {
    expect(problem('{"version":1,\n "tolerances": {"position": 1,}}')).toMatch(
      /^\/m\/walk\.mtn\.actguy-tuning\.json:2:/,
    );
    expect(problem('[]')).toContain('one JSON object');
    expect(problem('{"version":2}')).toContain('(version): must be 1, found 2');
    expect(problem('{"version":1,"extra":1}')).toContain('unknown key "extra"');
    expect(problem('{"version":1,"tolerances":{"rotationDeg":-1}}')).toContain(
      '(tolerances.rotationDeg): must be a number greater than 0 and at most 180 degrees, found -1',
    );
    expect(problem('{"version":1,"tolerances":{"rotationDeg":181}}')).toContain('tolerances.rotationDeg');
    expect(problem('{"version":1,"tolerances":{"position":"1"}}')).toContain('tolerances.position');
    expect(problem('{"version":1,"tolerances":{"method":"fast"}}')).toContain('must be "refined" or "classic"');
    expect(problem('{"version":1,"tolerances":{"shell":3}}')).toContain('needs tolerances.object');
    expect(problem('{"version":1,"rotationOverridesDeg":{"LeftFut":1}}')).toContain(
      '(rotationOverridesDeg.LeftFut): no joint named "LeftFut"',
    );
    expect(problem('{"version":1,"rotationOverridesDeg":{"4":1}}')).toContain(
      'joint 4 does not exist: the motion has joints 0..3',
    );
    expect(problem('{"version":1,"rotationOverridesDeg":{"1":1,"LeftFoot":2}}')).toContain('is given twice');
    expect(problem('{"version":1,"rotationOverridesDeg":{"Hips":null}}')).toContain('rotationOverridesDeg.Hips');
    expect(problem(`{"version":1,"x":"${'a'.repeat(TUNING_MAX_BYTES)}"}`)).toContain('too large for a tuning file');
    expect(problem(`${'['.repeat(200)}${']'.repeat(200)}`)).toContain('nested too deeply');
  });

  it('a key or value from the file reaches the message with every control character escaped (C0, DEL, C1)', () => {
    // U+009B is a terminal's CSI, U+001B its ESC: raw, "\u009b2J" in a message clears the screen.
    const cases = [
      ['{"version":1,"\u009b2J\u007f":1}', '(\\u009b2J\\u007f): unknown key "\\u009b2J\\u007f"'],
      ['{"version":1,"tolerances":{"\\u001b]0;t\\u0007":1}}', '(tolerances.\\u001b]0;t\\u0007): unknown key'],
      ['{"version":1,"tolerances":{"method":"\u0085"}}', 'found "\\u0085"'],
      ['{"version":1,"rotationOverridesDeg":{"\u009b":1}}', '(rotationOverridesDeg.\\u009b): no joint named "\\u009b"'],
    ];
    for (const [text, shown] of cases) {
      const message = problem(text);
      expect(message).toContain(shown);
      // eslint-disable-next-line no-control-regex
      expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it('finds the joint of each override by name without searching the skeleton for each (fuzz round 4)', () => {
    // 1,024 joints (the MTN bound) and an override of each by name: a search per override read ~525,000 names.
    let reads = 0;
    const skeleton = Array.from({ length: 1024 }, (_, i) => ({
      get name() {
        reads++;
        return `j${i}`;
      },
    }));
    const overrides = Object.fromEntries(skeleton.map((_, i) => [`j${1023 - i}`, 1 + (i % 7)]));
    const t = parseTuning(JSON.stringify({ version: 1, rotationOverridesDeg: overrides }), F, skeleton);
    expect(Object.keys(t.rotationOverridesDeg)).toHaveLength(1024);
    expect(t.rotationOverridesDeg[1023]).toBe(1);
    expect(reads).toBeLessThanOrEqual(2 * 1024);
  });

  it('writes each override by name without counting the skeleton for each (fuzz round 5)', () => {
    // 1,024 joints and an override of each: counting each name over the skeleton read 1,049,600 names (mutation:
    // `joints.filter` put back fails the bound); names shared by two joints are still written by index.
    let reads = 0;
    const skeleton = Array.from({ length: 1024 }, (_, i) => ({
      get name() {
        reads++;
        return i === 1023 ? 'j0' : `j${i}`;
      },
    }));
    const t: MotionTuning = {
      ...defaultTuning(),
      rotationOverridesDeg: Object.fromEntries(skeleton.map((_, i) => [i, 1 + (i % 7)])),
    };
    const written = JSON.parse(serializeTuning(t, skeleton)).rotationOverridesDeg as Record<string, number>;
    expect(reads).toBeLessThanOrEqual(2 * 1024);
    expect(Object.keys(written)).toHaveLength(1024);
    expect(written).toMatchObject({ 0: 1, 1023: 1 + (1023 % 7), j1: 2, j1022: 1 + (1022 % 7) });
    expect(written.j0).toBeUndefined();
  });

  it('an override by name is of the first joint so named, as before', () => {
    expect(parseTuning('{"version":1,"rotationOverridesDeg":{"dup":2}}', F, joints).rotationOverridesDeg).toEqual({
      2: 2,
    });
  });
});
