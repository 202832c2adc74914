import { describe, expect, it } from 'vitest';
import { addEvent, moveEvent, nextFreeSeIndex, removeEvent, removeSeDefinition, setEventComments, setMotionName, setSeDefinition } from './edit';
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
    expect(() => addEvent(doc, { frame: -1, se: 0, joint: null })).toThrow('event frame must be an integer 0..65535, got -1');
    expect(() => addEvent(doc, { frame: 1, se: 0, joint: 255 })).toThrow('joint must be an integer 0..254, got 255');
    expect(() => moveEvent(doc, 3, { frame: 1 })).toThrow('no event 3 (the document has 1)');
    expect(() => setSeDefinition(doc, { index: 1, name: 'a b' })).toThrow('invalid SE name "a b"');
    expect(() => setSeDefinition(doc, { index: 1, name: 'X', variants: ['A'] })).toThrow('variants need exactly 8 names, got 1');
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
