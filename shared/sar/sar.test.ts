import { describe, expect, it } from 'vitest';
import { parseSevStrict } from '../sev/parse';
import { parseSls } from '../se-tables/sls';
import { parseSeDefine } from '../se-tables/define';
import { mergeSeTables } from '../se-tables/table';
import { gvStrCode } from '../strcode';
import { SAR_NO_CODE } from './constants';
import { compileSevEntry } from './compile';
import { describeSar } from './describe';
import { packSarEntries, type MarMotionInfo } from './pack';
import { checkSarPairsWithMar, readSar } from './read';
import { emptySarEntry, type SarEntry } from './types';
import { writeSar } from './write';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
const fromHex = (s: string) =>
  new Uint8Array(
    s
      .trim()
      .split(/\s+/)
      .map((x) => parseInt(x, 16)),
  );

// GV_StrCode by hand: walk = 0x77 -> 0xF41 -> 0x1E88C -> 0x3D11EB; run = 0x72 -> 0xEB5 -> 0x1D70E.
const WALK = 0x3d11eb;
const RUN = 0x1d70e;

const variants = Uint16Array.from([0x0201, 0x0202, 0x0203, 0x0204, 0x0205, 0x0206, 0x0207, 0x0208]);
const FIXTURE_ENTRIES: SarEntry[] = [
  {
    name: WALK,
    seCodes: Uint16Array.from([...new Array(8).fill(0x0101), ...variants]),
    events: [
      { frame: 12, se: 0, joint: 15 },
      { frame: 40, se: 1, joint: 0xff },
    ],
  },
  emptySarEntry(RUN),
];
// M = 2: table ends at 32 = dataBase. Entry 0: 8 + 2*16 + 2*4 = 48 bytes at 0; entry 1: 8 bytes at 48; file 32 + 64.
const FIXTURE = fromHex(`
  53 41 52 61 00 00 00 00 02 00 00 00 20 00 00 00
  00 00 00 00 30 00 00 00 30 00 00 00 08 00 00 00
  eb 11 3d 00 02 00 02 00 01 01 01 01 01 01 01 01
  01 01 01 01 01 01 01 01 01 02 02 02 03 02 04 02
  05 02 06 02 07 02 08 02 0c 00 00 0f 28 00 01 ff
  0e d7 01 00 00 00 00 00 00 00 00 00 00 00 00 00
`);

describe('SAR layout', () => {
  it('hashes the fixture names as computed by hand', () => {
    expect(gvStrCode('walk')).toBe(WALK);
    expect(gvStrCode('run')).toBe(RUN);
  });

  it('writes the hand-computed bytes', () => {
    expect(hex(writeSar(FIXTURE_ENTRIES, [WALK, RUN]))).toBe(hex(FIXTURE));
  });

  it('read(write(x)) gives x back field by field, and write(read(bytes)) the same bytes', () => {
    const back = readSar(FIXTURE);
    expect(back.dataBase).toBe(32);
    expect(back.entries).toEqual(FIXTURE_ENTRIES);
    expect(
      hex(
        writeSar(
          back.entries,
          back.entries.map((e) => e.name),
        ),
      ),
    ).toBe(hex(FIXTURE));
  });

  it('an empty archive is just the header', () => {
    const b = writeSar([], []);
    expect(hex(b)).toBe('53 41 52 61 00 00 00 00 00 00 00 00 10 00 00 00');
    expect(readSar(b).entries).toEqual([]);
  });

  it('the writer sorts events by frame and keeps file order on ties', () => {
    const e: SarEntry = {
      name: WALK,
      seCodes: new Uint16Array(16).fill(7),
      events: [
        { frame: 9, se: 1, joint: 1 },
        { frame: 3, se: 0, joint: 2 },
        { frame: 9, se: 0, joint: 3 },
        { frame: 3, se: 1, joint: 4 },
      ],
    };
    expect(readSar(writeSar([e], [WALK])).entries[0].events.map((v) => v.joint)).toEqual([2, 4, 1, 3]);
  });

  it('the writer refuses names that do not match the MAR one for one', () => {
    expect(() => writeSar(FIXTURE_ENTRIES, [RUN, WALK])).toThrow(
      'entry 0 is motion 0x3d11eb but MAR entry 0 is 0x01d70e',
    );
    expect(() => writeSar(FIXTURE_ENTRIES, [WALK])).toThrow(
      'the SAR would have 2 entries but the paired MAR has 1 motions',
    );
    expect(() => writeSar([emptySarEntry(WALK), emptySarEntry(WALK)], [WALK, WALK])).toThrow(
      'entries 0 and 1 have the same motion name 0x3d11eb',
    );
    expect(() => writeSar([{ ...emptySarEntry(WALK), events: [{ frame: 1, se: 0, joint: 1 }] }], [WALK])).toThrow(
      'event 0 uses SE index 0, but the entry defines 0',
    );
  });

  it('checkSarPairsWithMar lists every mismatch', () => {
    expect(checkSarPairsWithMar([WALK, RUN], [WALK, RUN])).toEqual([]);
    expect(checkSarPairsWithMar([RUN], [WALK, RUN], 'a.sar', 'b.mar')).toEqual([
      'a.sar has 1 entries but b.mar has 2',
      'entry 0: a.sar has 0x01d70e, b.mar has 0x3d11eb',
    ]);
    expect(checkSarPairsWithMar([RUN, WALK], [RUN])).toEqual(['SAR has 2 entries but MAR has 1']);
  });
});

describe('readSar rejects corrupt files, naming the part (header, entry, table) and the byte offset', () => {
  const patch = (at: number, bytes: number[]) => {
    const b = FIXTURE.slice();
    b.set(bytes, at);
    return b;
  };
  it.each([
    ['short', FIXTURE.slice(0, 8), 'SAR (header, offset 0): file is 8 bytes, shorter than the 16-byte header'],
    [
      'magic',
      patch(0, [0x4d, 0x41, 0x52, 0x61]),
      'SAR (header, offset 0): bad magic: expected "SARa" (53 41 52 61), found 4d 41 52 61',
    ],
    ['reserved', patch(4, [1]), 'SAR (header, offset 4): reserved word is 1, expected 0'],
    [
      'count',
      patch(8, [0xff, 0xff, 0xff, 0x0f]),
      'SAR (header, offset 8): entry count 268435455 needs a 2147483640-byte table, but the file is 96 bytes',
    ],
    ['dataBase align', patch(12, [0x21]), 'SAR (header, offset 12): dataBase 33 is not a multiple of 16'],
    [
      'dataBase in table',
      patch(12, [0x10]),
      'SAR (header, offset 12): dataBase 16 lies inside the 2-entry table (which ends at 32)',
    ],
    ['offset align', patch(24, [0x31]), 'SAR (entry 1, offset 24): offset 49 is not a multiple of 16'],
    [
      'range',
      patch(24, [0x40]),
      'SAR (entry 1, offset 24): range 96..104 (size 8) does not fit in the 96-byte file with an 8-byte entry header',
    ],
    [
      'size',
      patch(20, [0x2f]),
      'SAR (entry 0, offset 20): size 47 differs from the 48 bytes its 2 SEs and 2 events imply',
    ],
    ['same name', patch(24, [0x00]), 'SAR (entry 1, offset 32): entries 0 and 1 have the same motion name 0x3d11eb'],
    ['unsorted', patch(72, [0x29]), 'SAR (entry 0, offset 76): event 1 at frame 40 comes after an event at frame 41'],
    ['se index', patch(78, [0x02]), 'SAR (entry 0, offset 78): event 1 uses SE index 2, but the entry has 2'],
    // SE 0's eight codes (bytes 40..55) all 0xFFFF: event 0 plays nothing the game could find.
    [
      'undefined se',
      patch(40, new Array(16).fill(0xff)),
      'SAR (entry 0, offset 74): event 0 uses SE index 0, which the entry leaves undefined (0xFFFF)',
    ],
    [
      'trailing bytes',
      new Uint8Array([...FIXTURE, 0, 0, 0, 0]),
      'SAR (table): file is 100 bytes but its table implies 96 bytes',
    ],
  ])('%s', (_what, bytes, message) => {
    expect(() => readSar(bytes)).toThrow(message);
  });

  it('rejects overlapping ranges', () => {
    // entry 1 points into entry 0's SE slot, whose codes read as a valid empty entry (name 0x011234, S 0, E 0)
    const e: SarEntry[] = [
      { name: WALK, seCodes: Uint16Array.from([1, 1, 1, 1, 0x1234, 0x0001, 0, 0]), events: [] },
      emptySarEntry(0x011234),
    ];
    const b = writeSar(e, [WALK, 0x011234]).slice();
    const dv = new DataView(b.buffer);
    dv.setUint32(24, 16, true);
    expect(() => readSar(b.subarray(0, dv.getUint32(12, true) + 32))).toThrow(
      'SAR (table): entries 0 and 1 overlap (32..56 and 48..56)',
    );
  });

  it('a dataBase past the end of the file, and an entry range shorter than the entry header, are refused', () => {
    expect(() => readSar(patch(12, [0x70]))).toThrow(
      'SAR (header, offset 12): dataBase 112 is past the end of the 96-byte file',
    );
    // entry 1 (at 80) given size 4: inside the file, but too short for name, S and E
    expect(() => readSar(patch(28, [0x04]))).toThrow(
      'SAR (entry 1, offset 24): range 80..84 (size 4) does not fit in the 96-byte file with an 8-byte entry header',
    );
  });

  it('names must be 24-bit codes from 0x000001 to 0xffffff', () => {
    expect(() => readSar(patch(80, [0, 0, 0, 0]))).toThrow(
      'SAR (entry 1, offset 80): name 0x000000 is not a 24-bit GV_StrCode',
    );
    expect(() => readSar(patch(80, [0, 0, 0, 1]))).toThrow(
      'SAR (entry 1, offset 80): name 0x1000000 is not a 24-bit GV_StrCode',
    );
    for (const name of [1, 0xffffff])
      expect(readSar(writeSar([emptySarEntry(name)], [name])).entries[0].name).toBe(name);
  });

  it('an entry may define 256 SE indices (the u8 limit) but not 257', () => {
    const full: SarEntry = {
      name: WALK,
      seCodes: new Uint16Array(256 * 8).fill(0x0101),
      events: [{ frame: 3, se: 255, joint: 1 }],
    };
    expect(readSar(writeSar([full], [WALK])).entries[0]).toEqual(full);
    // by hand: one entry of 257 empty-event SEs, its size matching what S and E imply
    const size = 8 + 257 * 16;
    const b = new Uint8Array(32 + Math.ceil(size / 16) * 16);
    const dv = new DataView(b.buffer);
    b.set([0x53, 0x41, 0x52, 0x61]);
    dv.setUint32(8, 1, true);
    dv.setUint32(12, 32, true);
    dv.setUint32(20, size, true);
    dv.setUint32(32, WALK, true);
    dv.setUint16(36, 257, true);
    expect(() => readSar(b)).toThrow('SAR (entry 0, offset 36): SE count 257 exceeds 256 (SE indices are u8)');
  });

  it('an event on an undefined SE index is refused whichever index it is', () => {
    // SE 1's eight codes (bytes 56..71) all 0xFFFF while SE 0 stays defined: event 1 (at 76) uses SE 1
    expect(() => readSar(patch(56, new Array(16).fill(0xff)))).toThrow(
      'SAR (entry 0, offset 78): event 1 uses SE index 1, which the entry leaves undefined (0xFFFF)',
    );
  });

  it('the last entry may end exactly at the end of the file', () => {
    const b = writeSar([FIXTURE_ENTRIES[0]], [WALK]);
    expect(b.length).toBe(32 + 48);
    expect(readSar(b).entries).toEqual([FIXTURE_ENTRIES[0]]);
  });

  it('entries stored in another order than the table lists them read back; overlaps are found in any order', () => {
    // table: entry 0 (walk, 48 bytes) at offset 16, entry 1 (run, 8 bytes) at offset 0
    const b = new Uint8Array(96);
    b.set(FIXTURE.subarray(0, 32));
    const dv = new DataView(b.buffer);
    dv.setUint32(16, 16, true);
    dv.setUint32(24, 0, true);
    b.set(FIXTURE.subarray(80, 88), 32);
    b.set(FIXTURE.subarray(32, 80), 48);
    expect(readSar(b).entries).toEqual(FIXTURE_ENTRIES);
    // entry 1 (24 bytes at 32) holds entry 0 (8 bytes at 48) inside its SE slot
    const e: SarEntry[] = [
      { name: WALK, seCodes: Uint16Array.from([1, 1, 1, 1, 0x1234, 0x0001, 0, 0]), events: [] },
      emptySarEntry(0x011234),
    ];
    const o = writeSar(e, [WALK, 0x011234]).slice();
    const ov = new DataView(o.buffer);
    ov.setUint32(16, 16, true);
    ov.setUint32(20, 8, true);
    ov.setUint32(24, 0, true);
    ov.setUint32(28, 24, true);
    expect(() => readSar(o.subarray(0, 64))).toThrow('SAR (table): entries 1 and 0 overlap (32..56 and 48..56)');
  });

  it('a bad magic shows every byte as two hex digits', () => {
    expect(() => readSar(new Uint8Array(16))).toThrow('found 00 00 00 00');
  });
});

const SLS = parseSls('SE_FOOT_L 0x0101\nSE_FOOT_R 0x0102\n', 'default.sls');
const DEF = parseSeDefine(
  '#define SE_FOOT_R_BASE 0x0200\n#define SE_FOOT_R_CONC (SE_FOOT_R_BASE + 1)\n#define SE_FOOT_R_GRASS (SE_FOOT_R_BASE + 2)\n#define SE_WHOOSH 0x300\n',
  'se_define.h',
);
const TABLE = mergeSeTables([SLS, DEF]).table;

describe('compileSevEntry', () => {
  it('resolves base names and variants, leaves gaps undefined, sorts events by frame then file order', () => {
    const doc = parseSevStrict(`sev 1
se 0 SE_FOOT_L
se 2 SE_FOOT_R variants SE_FOOT_R_CONC SE_FOOT_R_GRASS SE_FOOT_R SE_FOOT_R SE_FOOT_R SE_FOOT_R SE_FOOT_R SE_FOOT_R
event 30 2 4
event 10 0 3
event 30 0 -
`);
    const { entry, errors } = compileSevEntry(doc, TABLE, WALK, 'walk.sev');
    expect(errors).toEqual([]);
    expect(Array.from(entry.seCodes)).toEqual([
      ...new Array(8).fill(0x0101),
      ...new Array(8).fill(SAR_NO_CODE),
      0x0201,
      0x0202,
      0x0102,
      0x0102,
      0x0102,
      0x0102,
      0x0102,
      0x0102,
    ]);
    expect(entry.events).toEqual([
      { frame: 10, se: 0, joint: 3 },
      { frame: 30, se: 2, joint: 4 },
      { frame: 30, se: 0, joint: 0xff },
    ]);
  });

  it('reports every unknown SE name at its SEV token', () => {
    const doc = parseSevStrict(
      'sev 1\nse 0 SE_NOPE\nse 1 SE_FOOT_L variants A SE_FOOT_L SE_FOOT_L SE_FOOT_L SE_FOOT_L SE_FOOT_L SE_FOOT_L B\n',
    );
    expect(compileSevEntry(doc, TABLE, WALK, 'walk.sev').errors.map((e) => e.message)).toEqual([
      'walk.sev:2:6: SE name SE_NOPE is not defined in default.sls or se_define.h',
      'walk.sev:3:25: SE name A is not defined in default.sls or se_define.h',
      'walk.sev:3:87: SE name B is not defined in default.sls or se_define.h',
    ]);
  });
});

describe('packSarEntries', () => {
  const mar: MarMotionInfo[] = [
    { name: gvStrCode('idle'), frameCount: 30, jointCount: 10, displayName: 'idle' },
    { name: WALK, frameCount: 40, jointCount: 20, displayName: 'walk' },
    { name: RUN, frameCount: 20, jointCount: 20, displayName: 'run' },
  ];
  const sev = (file: string, text: string) => ({
    file,
    baseName: file.replace(/\.sev$/, ''),
    doc: parseSevStrict(text),
  });

  it('pairs a digit-first motion name (motion 131_01 and 131_01.sev) and refuses a file base name outside the rule', () => {
    const cmu: MarMotionInfo[] = [
      { name: gvStrCode('131_01'), frameCount: 30, jointCount: 10 },
      { name: gvStrCode('131_02'), frameCount: 30, jointCount: 10 },
    ];
    const r = packSarEntries(
      cmu,
      [
        sev('steps.sev', 'sev 1\nmotion 131_01\nse 0 SE_FOOT_L\nevent 3 0 -\n'),
        sev('131_02.sev', 'sev 1\nse 0 SE_FOOT_L\nevent 4 0 -\n'),
        sev('歩.sev', 'sev 1\nse 0 SE_FOOT_L\n'),
      ],
      TABLE,
      'cmu.mar',
    );
    expect(r.paired.map((p) => p?.file)).toEqual(['steps.sev', '131_02.sev']);
    expect(r.errors.map((e) => e.message)).toEqual([
      '歩.sev [SEV] (motion name from the file name 歩): motion name "歩" has the non-ASCII character "歩" (U+6B69); GV_StrCode hashes ASCII bytes (motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -); add a `motion NAME` line or rename the file',
    ]);
  });

  it('pairs by motion name in any order and gives motions without a SEV empty entries', () => {
    const r = packSarEntries(
      mar,
      [
        sev('run.sev', 'sev 1\nse 0 SE_WHOOSH\nevent 5 0 -\n'),
        sev('steps.sev', 'sev 1\nmotion walk\nse 0 SE_FOOT_L\nevent 40 0 19\n'),
      ],
      TABLE,
      'stage.mar',
    );
    expect(r.errors).toEqual([]);
    expect(r.entries.map((e) => [e.name, e.seCodes.length / 8, e.events.length])).toEqual([
      [gvStrCode('idle'), 0, 0],
      [WALK, 1, 1],
      [RUN, 1, 1],
    ]);
    expect(r.paired.map((p) => p?.file)).toEqual([undefined, 'steps.sev', 'run.sev']);
    const bytes = writeSar(
      r.entries,
      mar.map((m) => m.name),
    );
    expect(readSar(bytes).entries).toEqual(r.entries);
    expect(describeSar(bytes, { motionNames: ['walk', 'run', 'idle'], seTable: TABLE })).toBe(
      [
        'SAR: 3 entries, 2 events, 128 bytes (dataBase 48)',
        `  [0] idle (0x${gvStrCode('idle').toString(16).padStart(6, '0')}): 0 events, 0 SE slots`,
        '  [1] walk (0x3d11eb): 1 event, 1 SE slot',
        '      se 0: SE_FOOT_L (0x0101)',
        '      frame    40  se 0 SE_FOOT_L (0x0101)  joint 19',
        '  [2] run (0x01d70e): 1 event, 1 SE slot',
        '      se 0: SE_WHOOSH (0x0300)',
        '      frame     5  se 0 SE_WHOOSH (0x0300)  joint -',
      ].join('\n'),
    );
  });

  it('refuses a SEV for a motion not in the MAR and two SEVs for one motion, naming the files', () => {
    const r = packSarEntries(
      mar,
      [
        sev('walk.sev', 'sev 1\nse 0 SE_FOOT_L\n'),
        sev('other.sev', 'sev 1\nmotion   walk\nse 0 SE_FOOT_L\n'),
        sev('jump.sev', 'sev 1\nse 0 SE_FOOT_L\n'),
      ],
      TABLE,
      'stage.mar',
    );
    expect(r.errors.map((e) => e.message)).toEqual(
      [
        'other.sev:2:10: walk.sev and other.sev are both for motion walk (stage.mar entry 1); give each motion one .sev',
        'jump.sev [SEV] (motion name jump from the file name): motion jump (0x0eb7c0) is not in stage.mar',
      ].map((m) => m.replace('0x0eb7c0', `0x${gvStrCode('jump').toString(16).padStart(6, '0')}`)),
    );
  });

  it('checks event frames and joints against the paired motion', () => {
    const r = packSarEntries(mar, [sev('run.sev', 'sev 1\nse 0 SE_WHOOSH\nevent 21 0 20\n')], TABLE, 'stage.mar');
    expect(r.errors.map((e) => e.message)).toEqual([
      'run.sev:3:7: event frame 21 is past the end of motion run (frames 0..20)',
      'run.sev:3:12: event joint 20 does not exist in motion run (joints 0..19)',
    ]);
  });
});

describe('readSar on damaged files', () => {
  it('every truncation and random byte change gives a SAR FormatError or a valid archive, never a crash', () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let n = 0; n < FIXTURE.length; n++) expect(() => readSar(FIXTURE.subarray(0, n))).toThrow(/^SAR/);
    for (let k = 0; k < 2000; k++) {
      const b = FIXTURE.slice();
      for (let m = 1 + Math.floor(rnd() * 3); m > 0; m--) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      try {
        const back = readSar(b);
        // a change the reader accepts (a code, a joint, padding) still describes a consistent archive
        const names = back.entries.map((e) => e.name);
        expect(readSar(writeSar(back.entries, names)).entries).toEqual(back.entries);
      } catch (e) {
        expect((e as Error).name).toBe('FormatError');
      }
    }
  });
});
