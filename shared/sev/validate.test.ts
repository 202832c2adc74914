import { describe, expect, it } from 'vitest';
import { addEvent } from './edit';
import { parseSevStrict } from './parse';
import { checkedSevMotionName, checkSevAgainstMotion, droppedOnSave, sevMotionName, sevWarnings } from './validate';

const walk = { name: 'walk', frameCount: 120, jointCount: 22 };

describe('checkSevAgainstMotion', () => {
  it('accepts the last frame and joint, and refuses one past each', () => {
    const doc = parseSevStrict('sev 1\nse 0 X\nevent 120 0 21\nevent 0 0 -\nevent 121 0 22\n');
    expect(checkSevAgainstMotion(doc, walk, 'walk.sev').map((e) => e.message)).toEqual([
      'walk.sev:5:7: event frame 121 is past the end of motion walk (frames 0..120)',
      'walk.sev:5:13: event joint 22 does not exist in motion walk (joints 0..21)',
    ]);
  });

  it('places an error on an event made in the editor (no file location) by its index and frame', () => {
    const doc = addEvent(parseSevStrict('sev 1\nse 0 X\nevent 1 0 -\n'), { frame: 130, se: 0, joint: 30 });
    const errors = checkSevAgainstMotion(doc, walk, 'walk.sev');
    expect(errors.map((e) => e.message)).toEqual([
      'walk.sev [SEV] (event 1 (frame 130)): event frame 130 is past the end of motion walk (frames 0..120)',
      'walk.sev [SEV] (event 1 (frame 130)): event joint 30 does not exist in motion walk (joints 0..21)',
    ]);
    expect(errors.every((e) => e.kind === 'SEV')).toBe(true);
  });

  it('an event without a joint fits any motion, even one without joints', () => {
    const doc = parseSevStrict('sev 1\nse 0 X\nevent 3 0 -\n');
    expect(checkSevAgainstMotion(doc, { name: 'cam', frameCount: 3, jointCount: 0 })).toEqual([]);
  });
});

describe('the motion a SEV belongs to', () => {
  it('is its motion statement, else the file base name', () => {
    expect(sevMotionName(parseSevStrict('sev 1\nmotion run_01\n'), 'walk')).toBe('run_01');
    expect(sevMotionName(parseSevStrict('sev 1\n'), 'walk')).toBe('walk');
    expect(checkedSevMotionName(parseSevStrict('sev 1\nmotion 131_01\n'), 'x y')).toEqual({ name: '131_01' });
    expect(checkedSevMotionName(parseSevStrict('sev 1\n'), 'walk')).toEqual({ name: 'walk' });
  });

  it('refuses a file base name outside the motion-name rule, naming the file and saying how to fix it', () => {
    const r = checkedSevMotionName(parseSevStrict('sev 1\n'), 'walk cycle', 'walk cycle.sev');
    expect('error' in r && r.error.message).toBe(
      'walk cycle.sev [SEV] (motion name from the file name walk cycle): motion name "walk cycle" has whitespace ' +
        '(motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -); add a `motion NAME` line or rename the file',
    );
  });
});

describe('sevWarnings', () => {
  it('warns about two SEs of one name and two events of one sound within 2 frames, at the later statement', () => {
    const doc = parseSevStrict(
      'sev 1\nse 0 SE_FOOT_L variants A B C D E F G H\nse 1 SE_FOOT_R\nse 4 SE_FOOT_L\nevent 397 0 -\nevent 399 4 -\nevent 402 0 -\nevent 404 1 -\nevent 407 1 -\n',
    );
    expect(sevWarnings(doc, 'x.sev').map((w) => w.message)).toEqual([
      'x.sev:4:1: SE 4 SE_FOOT_L has the same name as SE 0 (SE 4: no floor variants, SE 0: 8 floor variants): its events play the one sound through two definitions; keep one',
      'x.sev:6:1: two SE_FOOT_L events 2 frames apart at frame 397 and 399 (SE 0 and SE 4): the sound plays twice',
    ]);
    expect(sevWarnings(parseSevStrict('sev 1\nse 0 A\nevent 5 0 -\nevent 5 0 -\n'))[0].message).toContain(
      'two A events on frame 5 (SE 0)',
    );
  });
});

describe('droppedOnSave', () => {
  it('names the floor variants a save would drop, and nothing else', () => {
    const saved = parseSevStrict(
      'sev 1\nse 0 SE_FOOT_L variants A B C D E F G H\nse 1 SE_FOOT_R variants a b c d e f g h\nse 2 X\n',
    );
    const doc = parseSevStrict(
      'sev 1\nse 0 SE_FOOT_L variants A B C D E F G H\nse 1 SE_FOOT_R\nse 2 X variants v1 v2 v3 v4 v5 v6 v7 v8\n',
    );
    expect(droppedOnSave(saved, doc)).toEqual(['the 8 floor variants of SE 1 SE_FOOT_R (a, b, c, d, e, f, g, h)']);
    expect(droppedOnSave(saved, saved)).toEqual([]);
    expect(droppedOnSave(null, doc)).toEqual([]);
  });
});

describe('sevWarnings on many events', () => {
  it('each event is warned about once, against the one before it: 1,000 events on one frame are 999 warnings, not 499,500', () => {
    const doc = parseSevStrict(`sev 1\nse 0 A\n${'event 5 0 -\n'.repeat(1000)}`);
    const warnings = sevWarnings(doc, 'x.sev');
    expect(warnings.length).toBe(999);
    expect(warnings[998].message).toBe('x.sev:1002:1: two A events on frame 5 (SE 0): the sound plays twice');
    // Three within reach (frames 1, 2, 3): 1-2 and 2-3, not 1-3 as well.
    expect(sevWarnings(parseSevStrict('sev 1\nse 0 A\nevent 1 0 -\nevent 2 0 -\nevent 3 0 -\n')).length).toBe(2);
  });
});
