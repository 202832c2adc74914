import { describe, expect, it } from 'vitest';
import type { SarEntry, SarEvent } from './types';
import { writeSar } from './write';

const entry = (name: number, indices: number, events: SarEvent[]): SarEntry => ({
  name,
  seCodes: new Uint16Array(indices * 8),
  events,
});
const refuse = (e: SarEntry) => () => writeSar([e], [e.name]);

describe('writeSar refuses entries it cannot store, at the limits', () => {
  it('names', () => {
    expect(() => writeSar([entry(1, 0, [])], [1])).not.toThrow();
    expect(() => writeSar([entry(0xffffff, 0, [])], [0xffffff])).not.toThrow();
    expect(refuse(entry(0, 0, []))).toThrow('SAR (entry 0): name 0 is not a 24-bit GV_StrCode');
    expect(refuse(entry(0x1000000, 0, []))).toThrow('SAR (entry 0): name 16777216 is not a 24-bit GV_StrCode');
    expect(refuse(entry(1.5, 0, []))).toThrow('name 1.5 is not a 24-bit GV_StrCode');
  });

  it('SE codes: whole groups of 8, at most 256 indices', () => {
    expect(() => writeSar([entry(7, 256, [])], [7])).not.toThrow();
    expect(refuse(entry(7, 257, []))).toThrow(
      'SAR (entry 0): seCodes has 2056 codes; expected 8 per SE index, at most 256 indices',
    );
    expect(refuse({ name: 7, seCodes: new Uint16Array(12), events: [] })).toThrow(
      'seCodes has 12 codes; expected 8 per SE index',
    );
  });

  it('events: u16 frames, defined SE indices, u8 joints', () => {
    const ok = entry(7, 2, [
      { frame: 0, se: 0, joint: 0 },
      { frame: 0xffff, se: 1, joint: 0xff },
    ]);
    expect(() => writeSar([ok], [7])).not.toThrow();
    expect(refuse(entry(7, 2, [{ frame: 0x10000, se: 0, joint: 0 }]))).toThrow(
      'SAR (entry 0): event 0 frame 65536 is not a u16',
    );
    expect(refuse(entry(7, 2, [{ frame: -1, se: 0, joint: 0 }]))).toThrow('event 0 frame -1 is not a u16');
    expect(
      refuse(
        entry(7, 2, [
          { frame: 1, se: 0, joint: 0 },
          { frame: 1, se: 2, joint: 0 },
        ]),
      ),
    ).toThrow('SAR (entry 0): event 1 uses SE index 2, but the entry defines 2');
    expect(refuse(entry(7, 2, [{ frame: 1, se: -1, joint: 0 }]))).toThrow(
      'event 0 uses SE index -1, but the entry defines 2',
    );
    expect(refuse(entry(7, 2, [{ frame: 1, se: 0, joint: 0x100 }]))).toThrow(
      'SAR (entry 0): event 0 joint 256 is not a u8',
    );
    expect(refuse(entry(7, 2, [{ frame: 1, se: 0, joint: -1 }]))).toThrow('event 0 joint -1 is not a u8');
  });
});
