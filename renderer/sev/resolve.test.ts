import { describe, expect, it } from 'vitest';
import { parseSls } from '../../shared/se-tables/sls';
import { mergeSeTables } from '../../shared/se-tables/table';
import { parseSevStrict } from '../../shared/sev/parse';
import { floorNameShort, placeEventLabels, nameOnFloor, resolveName, stackEvents, unknownNames } from './resolve';

const table = mergeSeTables([parseSls('SE_A 0x10\nSE_B = 17\nSE_A_WET 0x20\n', 'default.sls')]).table;

describe('SEV editor resolution', () => {
  it('resolves names to codes and says why an unknown name has none', () => {
    expect(resolveName(table, 'SE_B')).toEqual({ name: 'SE_B', code: 17, codeText: '0x0011', error: null });
    expect(resolveName(table, 'SE_NOPE').error).toBe('SE name SE_NOPE is not defined in default.sls');
    expect(resolveName(null, 'SE_NOPE').error).toBeNull();
  });

  it('picks the variant of the selected floor attribute, else the base SE', () => {
    const doc = parseSevStrict('sev 1\nse 0 SE_A variants SE_A SE_A_WET SE_A SE_A SE_A SE_A SE_A SE_X\nse 1 SE_B\n');
    expect([0, 1, 7].map((f) => nameOnFloor(doc.ses[0], f))).toEqual(['SE_A', 'SE_A_WET', 'SE_X']);
    expect(nameOnFloor(doc.ses[1], 5)).toBe('SE_B');
    expect(unknownNames(doc, table)).toEqual([
      { index: 0, name: 'SE_X', error: 'SE name SE_X is not defined in default.sls' },
    ]);
  });

  it('stacks events that share a frame', () => {
    const doc = parseSevStrict('sev 1\nse 0 SE_A\nevent 4 0 1\nevent 9 0 -\nevent 4 0 2\nevent 4 0 3\n');
    expect(stackEvents(doc).map((e) => [e.frame, e.stack])).toEqual([
      [4, 0],
      [9, 0],
      [4, 1],
      [4, 2],
    ]);
  });

  const G = { marker: 11, lineHeight: 13, height: 46, width: 1000 };
  const start = (x: number) => x + 5.5 + 3;

  it("cuts an event's name at the next marker its line crosses, on any stack level", () => {
    // A alone at x 100, two events stacked at x 130 (lines at 2 and 15), C alone at x 300 (line at 16.5). Every name
    // is short enough (10 px) to stay beside its marker.
    const places = [
      { index: 0, x: 100, top: 17.5, stacked: false, textWidth: 10 },
      { index: 1, x: 130, top: 3, stacked: true, textWidth: 10 },
      { index: 2, x: 130, top: 16, stacked: true, textWidth: 10 },
      { index: 3, x: 300, top: 17.5, stacked: false, textWidth: 10 },
    ];
    const at = placeEventLabels(places, G);
    expect(at.get(0)).toEqual({ left: start(100), top: 16.5, room: 130 - 11 - start(100) }); // stops at the lower stacked marker
    expect(at.get(1)).toEqual({ left: start(130), top: 2, room: 1000 - start(130) }); // the top line is free to the end
    expect(at.get(2)).toEqual({ left: start(130), top: 15, room: 300 - 11 - start(130) }); // stops at C
    expect(at.get(3)).toEqual({ left: start(300), top: 16.5, room: 1000 - start(300) });
  });

  it('moves a name that would be cut beside its marker to the line above, then below, the markers', () => {
    // Four lone events 30 px apart, each name 80 px wide: beside its marker each would read 10 px.
    const places = [0, 1, 2, 3].map((k) => ({ index: k, x: 100 + 30 * k, top: 17.5, stacked: false, textWidth: 80 }));
    const at = placeEventLabels(places, G);
    expect(at.get(0)).toEqual({ left: 100 - 5.5, top: 1, room: 1000 - (100 - 5.5) }); // above: whole
    expect(at.get(1)).toEqual({ left: 130 - 5.5, top: 32, room: 1000 - (130 - 5.5) }); // above is taken: below
    // Above and below are taken where it starts: beside its marker, cut at the next one.
    expect(at.get(2)).toEqual({ left: start(160), top: 16.5, room: 190 - 11 - start(160) });
    // The last one has the row to itself beside its marker.
    expect(at.get(3)).toEqual({ left: start(190), top: 16.5, room: 1000 - start(190) });
  });

  it("stops a name at a crowded frame's markers that have no name of their own", () => {
    // Four events on the frame at x 130 (only counted in the first one's name, here none named): every line crosses one.
    const crowd = [3, 13.3, 23.7, 34].map((top, k) => ({ index: k + 1, x: 130, top, stacked: true, textWidth: null }));
    const at = placeEventLabels([{ index: 0, x: 100, top: 17.5, stacked: false, textWidth: 300 }, ...crowd], G);
    expect(at.get(0)).toEqual({ left: 100 - 5.5, top: 1, room: 130 - 11 - (100 - 5.5) });
    expect(at.size).toBe(1);
  });

  it('leaves out a name with less than the least room', () => {
    // A crowded frame at x 125 (four unnamed markers) leaves A at x 100 19.5 px over and under the markers, 5.5 beside.
    const crowd = [3, 13.3, 23.7, 34].map((top, k) => ({ index: k + 1, x: 125, top, stacked: true, textWidth: null }));
    const places = [{ index: 0, x: 100, top: 17.5, stacked: false, textWidth: 80 }, ...crowd];
    expect(placeEventLabels(places, G).get(0)).toEqual({ left: 94.5, top: 1, room: 19.5 });
    expect(placeEventLabels(places, { ...G, minRoom: 24 }).has(0)).toBe(false);
    expect(placeEventLabels(places, { ...G, minRoom: 19 }).has(0)).toBe(true);
  });

  it('keeps the names of a stacked frame on their own lines, and no name starts inside an earlier one', () => {
    const places = [
      { index: 0, x: 100, top: 17.5, stacked: false, textWidth: 300 },
      { index: 1, x: 110, top: 3, stacked: true, textWidth: 300 },
      { index: 2, x: 110, top: 16, stacked: true, textWidth: 300 },
    ];
    const at = placeEventLabels(places, G);
    // The lone name goes above, whole... but the stacked frame's top marker is on that line: cut there, and the
    // line below is free: it goes below, whole.
    expect(at.get(0)).toEqual({ left: 100 - 5.5, top: 32, room: 1000 - (100 - 5.5) });
    expect(at.get(1)!.top).toBe(2);
    expect(at.get(2)!.top).toBe(15);
  });
});

describe('floorNameShort', () => {
  const foot = { index: 0, name: 'SE_FOOT_L', variants: ['SE_FOOT_L_CONC', 'SE_FOOT_R', 'SE_DRIP', 'SE_FOOT_L_'] };
  it('shows what a variant adds to its SE name, "same" for an SE without variants, else the whole name', () => {
    expect(floorNameShort(foot as never, 'SE_FOOT_L_CONC')).toBe('…_CONC');
    expect(floorNameShort(foot as never, 'SE_DRIP')).toBe('SE_DRIP');
    // One added character says less than the whole name.
    expect(floorNameShort(foot as never, 'SE_FOOT_L_')).toBe('SE_FOOT_L_');
    expect(floorNameShort({ index: 2, name: 'SE_CLOTH_SWISH' } as never, 'SE_CLOTH_SWISH')).toBe('same');
    // A variant equal to the base name still names it (the SE has variants: "same" would hide which floor differs).
    expect(floorNameShort(foot as never, 'SE_FOOT_L')).toBe('SE_FOOT_L');
  });
});
