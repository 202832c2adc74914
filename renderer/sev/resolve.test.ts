import { describe, expect, it } from 'vitest';
import { parseSls } from '../../shared/se-tables/sls';
import { mergeSeTables } from '../../shared/se-tables/table';
import { parseSevStrict } from '../../shared/sev/parse';
import { eventLabelRooms, nameOnFloor, resolveName, stackEvents, unknownNames } from './resolve';

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

  it("cuts an event's name at the next marker its line crosses, on any stack level", () => {
    // A alone at x 100, two events stacked at x 130 (lines at 2 and 15), C alone at x 300 (line at 16).
    const places = [
      { index: 0, x: 100, top: 16 },
      { index: 1, x: 130, top: 2 },
      { index: 2, x: 130, top: 15 },
      { index: 3, x: 300, top: 16 },
    ];
    const rooms = eventLabelRooms(places, 11, 13, 1000);
    const start = (x: number) => x + 5.5 + 3;
    expect(rooms.get(0)).toBe(130 - 11 - start(100)); // stops at the lower stacked marker
    expect(rooms.get(1)).toBe(1000 - start(130)); // the top line is free to the end
    expect(rooms.get(2)).toBe(300 - 11 - start(130)); // stops at C, whose line it crosses
    expect(rooms.get(3)).toBe(1000 - start(300));
  });
});
