import { describe, expect, it } from 'vitest';
import {
  addEvent,
  moveEvent,
  nextFreeSeIndex,
  removeEvent,
  removeSeDefinition,
  setEventComments,
  setMotionName,
  setSeDefinition,
} from './edit';
import { parseSevStrict } from './parse';
import { serializeSev } from './serialize';

const BASE = `sev 1
# left foot
se 0 SE_FOOT_L
event 10 0 3  # heel
`;

describe('SEV edit helpers', () => {
  it('return new documents and never mutate the input', () => {
    const doc = parseSevStrict(BASE);
    const before = JSON.stringify(doc);
    const a = addEvent(doc, { frame: 5, se: 0, joint: null });
    const b = moveEvent(a, 0, { frame: 30 });
    const c = removeEvent(b, 1);
    expect(JSON.stringify(doc)).toBe(before);
    expect(a.events.map((e) => e.frame)).toEqual([10, 5]);
    expect(b.events.map((e) => e.frame)).toEqual([30, 5]);
    expect(c.events.map((e) => [e.frame, e.joint])).toEqual([[30, 3]]);
  });

  it('a load-edit-save keeps the comments on the statements they annotate', () => {
    let doc = parseSevStrict(BASE);
    doc = setSeDefinition(doc, { index: 0, name: 'SE_STEP', variants: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] });
    doc = addEvent(doc, { frame: 2, se: 0, joint: 4 });
    doc = moveEvent(doc, 0, { frame: 20, joint: null });
    doc = setMotionName(doc, 'walk');
    expect(serializeSev(doc)).toBe(`sev 1
motion walk

# left foot
se 0 SE_STEP variants A B C D E F G H

event 2 0 4
event 20 0 -  # heel
`);
  });

  it('refuses bad edits with a message and leaves the document alone', () => {
    const doc = parseSevStrict(BASE);
    expect(() => addEvent(doc, { frame: 1, se: 9, joint: null })).toThrow('SE index 9 is not defined');
    expect(() => addEvent(doc, { frame: -1, se: 0, joint: null })).toThrow(
      'event frame must be an integer 0..65535, got -1',
    );
    expect(() => addEvent(doc, { frame: 1, se: 0, joint: 255 })).toThrow('joint must be an integer 0..254, got 255');
    expect(() => moveEvent(doc, 3, { frame: 1 })).toThrow('no event 3 (the document has 1)');
    expect(() => setSeDefinition(doc, { index: 1, name: 'a b' })).toThrow('invalid SE name "a b"');
    expect(() => setSeDefinition(doc, { index: 1, name: 'X', variants: ['A'] })).toThrow(
      'variants need exactly 8 names, got 1',
    );
    expect(() => removeSeDefinition(doc, 0)).toThrow('SE index 0 is used by 1 event');
    expect(removeSeDefinition(doc, 0, { removeEvents: true }).events).toEqual([]);
    expect(() => setMotionName(doc, '')).toThrow('invalid motion name ""');
  });

  it('edits comments and finds a free SE index', () => {
    const doc = setEventComments(parseSevStrict(BASE), 0, { leading: ['note'], trailing: 'x' });
    expect(serializeSev(doc)).toContain('#note\nevent 10 0 3  #x\n');
    expect(nextFreeSeIndex(doc)).toBe(1);
  });
});

describe('SEV edit helpers at their boundaries', () => {
  const TWO = `sev 1
# left
se 0 L
se 1 R  # right
event 10 0 3
event 20 1 -
event 30 1 4
`;

  it('refuse with a SEV error placed at the edit, at the exact limits', () => {
    const doc = parseSevStrict(TWO);
    expect(addEvent(doc, { frame: 65535, se: 1, joint: 254 }).events[3]).toEqual({
      frame: 65535,
      se: 1,
      joint: 254,
      comments: { leading: [] },
    });
    let error: unknown;
    try {
      addEvent(doc, { frame: 65536, se: 0, joint: null });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      kind: 'SEV',
      message: 'SEV (edit): event frame must be an integer 0..65535, got 65536',
    });
    expect(() => addEvent(doc, { frame: 1.5, se: 0, joint: null })).toThrow(
      'event frame must be an integer 0..65535, got 1.5',
    );
    expect(() => addEvent(doc, { frame: 1, se: 256, joint: null })).toThrow(
      'SE index must be an integer 0..255, got 256',
    );
    expect(() => addEvent(doc, { frame: 1, se: 2, joint: null })).toThrow('SEV (edit): SE index 2 is not defined');
    expect(() => setSeDefinition(doc, { index: 256, name: 'X' })).toThrow(
      'SE index must be an integer 0..255, got 256',
    );
    expect(() =>
      setSeDefinition(doc, { index: 2, name: 'X', variants: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'h-8'] }),
    ).toThrow('invalid variant SE name "h-8"');
  });

  it('refuse an event index that is negative, fractional or one past the end', () => {
    const doc = parseSevStrict(TWO);
    expect(() => moveEvent(doc, -1, { frame: 1 })).toThrow('no event -1 (the document has 3)');
    expect(() => removeEvent(doc, 1.5)).toThrow('no event 1.5 (the document has 3)');
    expect(() => removeEvent(doc, 3)).toThrow('no event 3 (the document has 3)');
    expect(() => setEventComments(doc, 3, { leading: [] })).toThrow('no event 3 (the document has 3)');
    expect(removeEvent(doc, 2).events.map((e) => e.frame)).toEqual([10, 20]);
  });

  it('move an event to another SE and keep its comments', () => {
    const doc = parseSevStrict(TWO);
    const moved = moveEvent(doc, 2, { se: 0, joint: null });
    expect(moved.events[2]).toEqual({ frame: 30, se: 0, joint: null, comments: doc.events[2].comments });
    expect(moved.events[0]).toBe(doc.events[0]);
  });

  it('define a new SE after the others, redefine one in place keeping its comments, without variants too', () => {
    const doc = parseSevStrict(TWO);
    const added = setSeDefinition(doc, { index: 5, name: 'NEW' });
    expect(added.ses.map((d) => [d.index, d.name])).toEqual([
      [0, 'L'],
      [1, 'R'],
      [5, 'NEW'],
    ]);
    expect(added.ses[2]).toStrictEqual({ index: 5, name: 'NEW', comments: { leading: [] } });
    const renamed = setSeDefinition(doc, { index: 1, name: 'RIGHT' });
    expect(renamed.ses.map((d) => [d.index, d.name])).toEqual([
      [0, 'L'],
      [1, 'RIGHT'],
    ]);
    expect(renamed.ses[0]).toBe(doc.ses[0]);
    expect(renamed.ses[1]).toStrictEqual({ index: 1, name: 'RIGHT', comments: { leading: [], trailing: ' right' } });
    const variants = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
    const withVariants = setSeDefinition(doc, { index: 0, name: 'L', variants });
    variants[0] = 'CHANGED';
    expect(withVariants.ses[0].variants).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']);
    expect(withVariants.ses[0].comments.leading).toEqual([' left']);
  });

  it('remove an SE only when it exists and no event needs it, or with the events that use it', () => {
    const doc = parseSevStrict(TWO);
    expect(() => removeSeDefinition(doc, 7)).toThrow('SEV (edit): SE index 7 is not defined');
    expect(() => removeSeDefinition(doc, 1)).toThrow(/^SEV \(edit\): SE index 1 is used by 2 events$/);
    expect(() => removeSeDefinition(doc, 0)).toThrow(/^SEV \(edit\): SE index 0 is used by 1 event$/);
    const gone = removeSeDefinition(doc, 1, { removeEvents: true });
    expect(gone.ses.map((d) => d.index)).toEqual([0]);
    expect(gone.events.map((e) => [e.frame, e.se])).toEqual([[10, 0]]);
    const unused = removeSeDefinition(setSeDefinition(doc, { index: 9, name: 'SPARE' }), 9);
    expect(unused.ses.map((d) => d.index)).toEqual([0, 1]);
    expect(unused.events).toEqual(doc.events);
  });

  it('remove the motion statement, and replace only the comments of the chosen event', () => {
    const doc = setMotionName(parseSevStrict(TWO), 'walk');
    expect(doc.motion?.name).toBe('walk');
    const none = setMotionName(doc, undefined);
    expect(none.motion).toBeUndefined();
    expect(serializeSev(none)).not.toContain('motion');
    const leading = ['a'];
    const noted = setEventComments(doc, 1, { leading });
    leading.push('b');
    expect(noted.events[1].comments).toEqual({ leading: ['a'] });
    expect(noted.events[0]).toBe(doc.events[0]);
    expect(noted.events[2]).toBe(doc.events[2]);
  });

  it('find the last free SE index and report -1 when all 256 are used', () => {
    let doc = parseSevStrict('sev 1\n');
    expect(nextFreeSeIndex(doc)).toBe(0);
    for (let i = 0; i < 255; i++) doc = setSeDefinition(doc, { index: i, name: `S${i}` });
    expect(nextFreeSeIndex(doc)).toBe(255);
    doc = setSeDefinition(doc, { index: 255, name: 'LAST' });
    expect(nextFreeSeIndex(doc)).toBe(-1);
  });
});
