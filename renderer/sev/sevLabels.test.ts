import { describe, expect, it } from 'vitest';
import { emptySevDocument } from '../../shared/sev/types';
import {
  deltaLabel,
  eventsLabel,
  filterSeDefs,
  framesLabel,
  LABEL_NAME_MAX,
  labelName,
  seLabel,
  seNameLabel,
  seOptionLabel,
} from './sevLabels';

describe('names from files in undo labels', () => {
  it('keeps a short name as it is', () => {
    expect(labelName('LeftFoot')).toBe('LeftFoot');
  });

  it('clips a long name to LABEL_NAME_MAX characters, the ellipsis included, counting code points', () => {
    const long = 'a'.repeat(LABEL_NAME_MAX + 5);
    expect(labelName(long)).toBe(`${'a'.repeat(LABEL_NAME_MAX - 1)}…`);
    expect(labelName('a'.repeat(LABEL_NAME_MAX))).toBe('a'.repeat(LABEL_NAME_MAX));
    // An astral character is one character: it is never split in half.
    const emoji = '😀'.repeat(LABEL_NAME_MAX + 1);
    expect([...labelName(emoji)]).toHaveLength(LABEL_NAME_MAX);
    expect(labelName(emoji).endsWith('😀…')).toBe(true);
  });

  it('puts line breaks, tabs, control and bidi/zero-width characters on one line as spaces', () => {
    expect(labelName('Left\r\nFoot')).toBe('Left Foot');
    expect(labelName('\tHips\u0000\u0007')).toBe('Hips');
    expect(labelName('abc\u202edef\u200b')).toBe('abc def');
    expect(labelName('a\u2028b\u2029c')).toBe('a b c');
    expect(labelName(' \n\u202e ')).toBe('(unnamed)');
  });

  it('names an SE without saying SE twice', () => {
    expect(seNameLabel('SE_FOOT_L')).toBe('SE_FOOT_L');
    expect(seNameLabel('se_step')).toBe('se_step');
    expect(seNameLabel('footstep_l')).toBe('SE footstep_l');
    expect(seNameLabel('SEA_WAVES')).toBe('SE SEA_WAVES');
    const doc = { ...emptySevDocument('walk'), ses: [{ index: 4, name: 'footstep_l', comments: { leading: [] } }] };
    expect(seLabel(doc, 4)).toBe('SE footstep_l');
    expect(seLabel(doc, 7)).toBe('SE 7');
  });

  it("writes an SE picker's option name first (a select's type-ahead reads from the start), with the characters of before", () => {
    expect(seOptionLabel({ index: 0, name: 'SE_FOOT_L' })).toBe('SE_FOOT_L 0');
    expect(seOptionLabel({ index: 12, name: 'SE_CLOTH_SWISH' })).toBe('SE_CLOTH_SWISH 12');
    // The same characters as "12 SE_CLOTH_SWISH": the pickers lay out as wide as before.
    expect([...seOptionLabel({ index: 12, name: 'SE_CLOTH_SWISH' })].sort()).toEqual([...'12 SE_CLOTH_SWISH'].sort());
  });

  it('says where events are and how far they moved', () => {
    expect(framesLabel([12])).toBe('frame 12');
    expect(framesLabel([40, 12, 20])).toBe('frames 12–40');
    expect(framesLabel([7, 7])).toBe('frame 7');
    expect(deltaLabel(1)).toBe('+1 frame');
    expect(deltaLabel(-3)).toBe('-3 frames');
    const doc = {
      ...emptySevDocument('walk'),
      ses: [{ index: 0, name: 'SE_A', comments: { leading: [] } }],
      events: [
        { frame: 9, se: 0, joint: null, comments: { leading: [] } },
        { frame: 3, se: 0, joint: null, comments: { leading: [] } },
      ],
    };
    expect(eventsLabel(doc, [0])).toBe('SE_A at frame 9');
    expect(eventsLabel(doc, [0, 1])).toBe('2 events (frames 3–9)');
  });
});

describe('filtering an SE picker', () => {
  const defs = [
    { index: 0, name: 'SE_FOOT_L' },
    { index: 1, name: 'SE_FOOT_R' },
    { index: 2, name: 'SE_CLOTH_SWISH' },
    { index: 12, name: 'se_door_open' },
  ];
  it('keeps the SEs whose name holds the text, in any case, in their order', () => {
    expect(filterSeDefs(defs, 'foot').map((d) => d.index)).toEqual([0, 1]);
    expect(filterSeDefs(defs, 'CLOTH').map((d) => d.index)).toEqual([2]);
    expect(filterSeDefs(defs, 'Door').map((d) => d.index)).toEqual([12]);
    // Inside the name, not only at its start.
    expect(filterSeDefs(defs, 'swish').map((d) => d.index)).toEqual([2]);
  });
  it('finds an SE by its index too, and lists every SE for an empty or blank filter', () => {
    expect(filterSeDefs(defs, ' 12').map((d) => d.index)).toEqual([12]);
    expect(filterSeDefs(defs, '')).toEqual(defs);
    expect(filterSeDefs(defs, '   ')).toEqual(defs);
    expect(filterSeDefs(defs, 'nothing')).toEqual([]);
  });
});
