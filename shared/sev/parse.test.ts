import { describe, expect, it } from 'vitest';
import { QUOTED_INPUT_MAX } from '../errors';
import { parseSev, parseSevStrict } from './parse';
import { serializeSev } from './serialize';
import { checkSevAgainstMotion } from './validate';
import { decodeUtf8Text, TEXT_MAX_BYTES } from './text';
import { FormatError } from '../errors';

const SAMPLE = `# footsteps for the walk cycle
sev 1   # version
motion walk
se 0 SE_FOOT_L
# right foot, per surface
se 1 SE_FOOT_R variants A0 A1 A2 A3 A4 A5 A6 A7
event 12 0 15   # left heel strike
event 40 1 -
# end
`;

function messages(text: string, file = 'walk.sev'): string[] {
  return parseSev(text, file).errors.map((e) => e.message);
}

describe('parseSev statements', () => {
  it('reads every statement kind with lines, columns and comments', () => {
    const { doc, errors } = parseSev(SAMPLE, 'walk.sev');
    expect(errors).toEqual([]);
    expect(doc.header).toEqual({ leading: [' footsteps for the walk cycle'], trailing: ' version' });
    expect(doc.headerLoc).toEqual({ line: 2, columns: [1, 5] });
    expect(doc.motion?.name).toBe('walk');
    expect(doc.motion?.loc?.line).toBe(3);
    expect(doc.ses.map((d) => [d.index, d.name, d.variants])).toEqual([
      [0, 'SE_FOOT_L', undefined],
      [1, 'SE_FOOT_R', ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']],
    ]);
    expect(doc.ses[1].comments.leading).toEqual([' right foot, per surface']);
    expect(doc.events).toMatchObject([
      {
        frame: 12,
        se: 0,
        joint: 15,
        comments: { leading: [], trailing: ' left heel strike' },
        loc: { line: 7, columns: [1, 7, 10, 12] },
      },
      { frame: 40, se: 1, joint: null },
    ]);
    expect(doc.trailingComments).toEqual([' end']);
  });

  it('accepts CRLF, lone CR, tabs and a BOM with the same lines and columns', () => {
    const unix = 'sev 1\nse 0 X\nevent 3 0 2\n';
    const dos = '\uFEFFsev 1\r\nse\t0\tX\r\nevent 3 0 2\r\n';
    const a = parseSev(unix);
    const b = parseSev(dos);
    expect(b.errors).toEqual([]);
    expect(b.doc.events).toEqual(a.doc.events);
    expect(b.doc.ses[0].loc).toEqual({ line: 2, columns: [1, 4, 6] });
    const cr = parseSev('sev 1\rse 0 X\revent 3 0 x\r');
    expect(cr.errors.map((e) => e.message)).toEqual([
      'SEV:3:11: joint must be an integer 0..254 or `-` (no joint), found `x`',
    ]);
    // a BOM inside bytes is dropped by the decoder too
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...Array.from('sev 1\n', (c) => c.charCodeAt(0))]);
    expect(parseSev(decodeUtf8Text(bytes, 'SEV', 'x.sev')).errors).toEqual([]);
  });

  it('treats # anywhere as a comment and ignores blank lines', () => {
    const { doc, errors } = parseSev('sev 1\n\n   \t\nse 0 X# glued\nevent 1 0 -#x\n');
    expect(errors).toEqual([]);
    expect(doc.ses[0].comments.trailing).toBe(' glued');
    expect(doc.events[0].comments.trailing).toBe('x');
  });

  it.each(['131_01', '9a', 'sna_mugen_bdn1', 'a.b-c', 'a234567890123456789012345678901'])(
    'accepts every motion name of the rule: motion %s',
    (name) => {
      const { doc, errors } = parseSev(`sev 1\nmotion ${name}\n`, 'x.sev');
      expect(errors).toEqual([]);
      expect(doc.motion?.name).toBe(name);
    },
  );

  it('lets events come before the se they use', () => {
    expect(parseSev('sev 1\nevent 1 0 -\nse 0 X\n').errors).toEqual([]);
  });
});

describe('parseSev errors carry file:line:column', () => {
  it.each([
    ['', ['walk.sev:1:1: the file has no statements: a SEV starts with `sev 1`']],
    ['# only a comment\n', ['walk.sev:1:1: the file has no statements: a SEV starts with `sev 1`']],
    ['se 0 X\n', ['walk.sev:1:1: the first statement must be `sev 1`, found `se`']],
    ['sev 2\n', ['walk.sev:1:5: unsupported SEV version `2` (this tool reads version 1)']],
    ['sev\n', ['walk.sev:1:4: `sev` needs 1 argument (sev <version>), found 0']],
    ['sev 1 1\n', ['walk.sev:1:7: unexpected `1` after `sev <version>`']],
    ['sev 1\nsev 1\n', ['walk.sev:2:1: `sev` given twice (first at line 1)']],
    ['sev 1\nmotion a\n  motion b\n', ['walk.sev:3:3: `motion` given twice (first at line 2)']],
    [
      'sev 1\nmotion 歩\n',
      [
        'walk.sev:2:8: motion name "歩" has the non-ASCII character "歩" (U+6B69); GV_StrCode hashes ASCII bytes (motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -)',
      ],
    ],
    [
      'sev 1\nmotion -walk\n',
      [
        'walk.sev:2:8: motion name "-walk" starts with "-" (motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -)',
      ],
    ],
    [
      'sev 1\nmotion a2345678901234567890123456789012\n',
      [
        'walk.sev:2:8: motion name "a2345678901234567890123456789012" is 32 characters long (motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -)',
      ],
    ],
    [
      'sev 1\nmotion walk:2\n',
      [
        'walk.sev:2:8: motion name "walk:2" has the character ":" (motion names: 1-31 characters from A-Z a-z 0-9 _ . -, not starting with . or -)',
      ],
    ],
    ['sev 1\nsound 1\n', ['walk.sev:2:1: unknown statement `sound` (expected sev, motion, se or event)']],
    ['sev 1\nse 0\n', ['walk.sev:2:5: `se` needs 2 arguments (se <index> <name>), found 1']],
    ['sev 1\nse 256 X\n', ['walk.sev:2:4: SE index must be an integer 0..255, found `256`']],
    ['sev 1\nse -1 X\n', ['walk.sev:2:4: SE index must be an integer 0..255, found `-1`']],
    ['sev 1\nse 0 X-Y\n', ['walk.sev:2:6: invalid SE name `X-Y`: names match [A-Za-z_][A-Za-z0-9_]*']],
    ['sev 1\nse 0 X\nse 0 Y\n', ['walk.sev:3:4: SE index 0 defined twice (first at line 2)']],
    [
      'sev 1\nse 0 X variant A B C D E F G H\n',
      ['walk.sev:2:8: expected `variants` or the end of the line after the SE name, found `variant`'],
    ],
    [
      'sev 1\nse 0 X variants A B C\n',
      ['walk.sev:2:8: `variants` needs exactly 8 names (one per floor/wall attribute 0..7), found 3'],
    ],
    [
      'sev 1\nse 0 X variants A B C D E F G H I\n',
      ['walk.sev:2:33: `variants` needs exactly 8 names (one per floor/wall attribute 0..7), found 9'],
    ],
    [
      'sev 1\nse 0 X variants A B C D E 1F G H\n',
      ['walk.sev:2:27: invalid variant SE name `1F`: names match [A-Za-z_][A-Za-z0-9_]*'],
    ],
    [
      'sev 1\nse 0 X\nevent 1 0\n',
      ['walk.sev:3:10: `event` needs 3 arguments (event <frame> <se index> <joint | ->), found 2'],
    ],
    ['sev 1\nse 0 X\nevent 1 0 - 4\n', ['walk.sev:3:13: unexpected `4` after `event <frame> <se index> <joint | ->`']],
    ['sev 1\nse 0 X\nevent 65536 0 -\n', ['walk.sev:3:7: event frame must be an integer 0..65535, found `65536`']],
    ['sev 1\nse 0 X\nevent 1.5 0 -\n', ['walk.sev:3:7: event frame must be an integer 0..65535, found `1.5`']],
    ['sev 1\nse 0 X\nevent 1 x -\n', ['walk.sev:3:9: SE index must be an integer 0..255, found `x`']],
    [
      'sev 1\nse 0 X\nevent 1 0 255\n',
      ['walk.sev:3:11: joint must be an integer 0..254 or `-` (no joint), found `255`'],
    ],
    ['sev 1\nse 0 X\n\nevent 12 3 5\n', ['walk.sev:4:10: event uses undefined SE index 3']],
  ])('%j', (text, expected) => {
    expect(messages(text)).toEqual(expected);
  });

  it('reports every error of a file at once, in line order', () => {
    const text = 'sev 1\nse 0 X\nse 0 Y\nevent 5 7 -\nbogus\nevent x 0 -\n';
    expect(messages(text)).toEqual([
      'walk.sev:3:4: SE index 0 defined twice (first at line 2)',
      'walk.sev:4:9: event uses undefined SE index 7',
      'walk.sev:5:1: unknown statement `bogus` (expected sev, motion, se or event)',
      'walk.sev:6:7: event frame must be an integer 0..65535, found `x`',
    ]);
    for (const e of parseSev(text, 'walk.sev').errors) {
      expect(e).toBeInstanceOf(FormatError);
      expect(e.kind).toBe('SEV');
    }
  });

  it('lists the first 100 errors of a mangled file and counts the rest', () => {
    const errors = parseSev(`sev 1\n${'bogus\n'.repeat(500)}`, 'walk.sev').errors;
    expect(errors).toHaveLength(101);
    expect(errors[99].message).toBe('walk.sev:101:1: unknown statement `bogus` (expected sev, motion, se or event)');
    expect(errors[100].message).toBe('walk.sev:101:1: 400 more errors not listed (only the first 100 are)');
  });

  it('keeps a comment with a long run of blanks inside it and trims only the trailing ones', () => {
    const blanks = ' \t'.repeat(50000);
    const doc = parseSevStrict(`sev 1  # head${blanks}tail${blanks}\nse 0 A  #${blanks}\n`, 'walk.sev');
    expect(doc.header.trailing).toBe(` head${blanks}tail`);
    expect(doc.ses[0].comments.trailing).toBe('');
    expect(serializeSev(doc)).toBe(`sev 1  # head${blanks}tail\n\nse 0 A  #\n`);
  });

  it('does not report an undefined index for an se line that had another error', () => {
    expect(messages('sev 1\nse 3 bad-name\nevent 1 3 -\n')).toEqual([
      'walk.sev:2:6: invalid SE name `bad-name`: names match [A-Za-z_][A-Za-z0-9_]*',
    ]);
  });

  it('the strict helper throws the first error', () => {
    expect(() => parseSevStrict('sev 1\nx\ny\n', 'a.sev')).toThrow('a.sev:2:1: unknown statement `x`');
    expect(parseSevStrict(SAMPLE).events.length).toBe(2);
  });

  it('reports bad UTF-8 with its line and column', () => {
    const bytes = new Uint8Array([...Array.from('sev 1\nse 0 ', (c) => c.charCodeAt(0)), 0xc3, 0x28]);
    expect(() => decodeUtf8Text(bytes, 'SEV', 'w.sev')).toThrow(
      'w.sev:2:6: invalid UTF-8: byte 0x28 is not a continuation byte at byte offset 11',
    );
    expect(decodeUtf8Text(new Uint8Array([0x23, 0xe3, 0x81, 0x82, 0x0a]), 'SEV')).toBe('#\u3042\n');
  });

  it('refuses a text past TEXT_MAX_BYTES at 1:1 before decoding it (a 1.5 GB .sev took 40 s and 3 GB, then failed)', () => {
    const bytes = new Uint8Array(TEXT_MAX_BYTES + 1);
    expect(() => decodeUtf8Text(bytes, 'SEV', 'w.sev')).toThrow(
      `w.sev:1:1: the file is ${TEXT_MAX_BYTES + 1} bytes; ActGuy reads a text file of up to ${TEXT_MAX_BYTES} bytes (64 MiB)`,
    );
    expect(decodeUtf8Text(bytes.subarray(0, 4), 'SEV')).toBe('\0\0\0\0');
  });
});

describe('checkSevAgainstMotion', () => {
  it('places frame and joint errors on their tokens', () => {
    const { doc } = parseSev('sev 1\nse 0 X\nevent 10 0 3\nevent 121 0 22\n');
    const errs = checkSevAgainstMotion(doc, { name: 'walk', frameCount: 120, jointCount: 22 }, 'walk.sev');
    expect(errs.map((e) => e.message)).toEqual([
      'walk.sev:4:7: event frame 121 is past the end of motion walk (frames 0..120)',
      'walk.sev:4:13: event joint 22 does not exist in motion walk (joints 0..21)',
    ]);
    expect(checkSevAgainstMotion(doc, { name: 'walk', frameCount: 121, jointCount: 23 })).toEqual([]);
  });
});

describe('serializeSev', () => {
  it('writes the canonical order and keeps comments on their statements', () => {
    const text = `# head
sev 1
event 40 1 -  # late
# first se
se 1 B
event 12 0 15
motion walk   # m
se 0 A
event 12 1 3  # same frame, later in file
# tail
`;
    const out = serializeSev(parseSevStrict(text));
    expect(out).toBe(`# head
sev 1
motion walk  # m

se 0 A

# first se
se 1 B

event 12 0 15
event 12 1 3  # same frame, later in file
event 40 1 -  # late

# tail
`);
    expect(serializeSev(parseSevStrict(out))).toBe(out);
  });

  it('is idempotent on the sample with CRLF and tabs', () => {
    const once = serializeSev(parseSevStrict(SAMPLE.replace(/\n/g, '\r\n').replace(/ /g, '\t')));
    expect(serializeSev(parseSevStrict(once))).toBe(once);
    expect(once).toContain('event 12 0 15  #\tleft\theel\tstrike\n');
  });
});

describe('parseSev keeps only clean statements in the document', () => {
  it.each([
    ['sev 1\nse 300 X\n', 'ses'],
    ['sev 1\nse 0 1bad\n', 'ses'],
    ['sev 1\nse 0 X variant A B C D E F G H\n', 'ses'],
    ['sev 1\nse 0 X variants A B C D E F G\n', 'ses'],
    ['sev 1\nse 0 X variants A B C D E F G 1H\n', 'ses'],
    ['sev 1\nse 0 X\nevent x 0 -\n', 'events'],
    ['sev 1\nse 0 X\nevent 1 x -\n', 'events'],
    ['sev 1\nse 0 X\nevent 1 0 x\n', 'events'],
    ['sev 1\nse 0 X\nevent 1 0 - 4\n', 'events'],
  ] as const)('%j has no %s', (text, field) => {
    const { doc, errors } = parseSev(text);
    expect(errors).toHaveLength(1);
    expect(doc[field]).toEqual([]);
  });

  it('keeps the first of two definitions of one index and a motion statement only when it has one argument', () => {
    expect(parseSev('sev 1\nse 0 A\nse 0 B\n').doc.ses.map((d) => d.name)).toEqual(['A']);
    expect(parseSev('sev 1\nmotion a b\n').doc.motion).toBeUndefined();
    expect(messages('sev 1\nmotion\n')).toEqual(['walk.sev:2:7: `motion` needs 1 argument (motion <name>), found 0']);
  });

  it('builds statements without keys for what the file does not have', () => {
    const { doc } = parseSev('sev 1\nse 0 X\nse 1 Y variants A B C D E F G H  # v\n');
    expect(doc.ses[0]).toStrictEqual({
      index: 0,
      name: 'X',
      comments: { leading: [] },
      loc: { line: 2, columns: [1, 4, 6] },
    });
    expect(doc.ses[1].comments).toStrictEqual({ leading: [], trailing: ' v' });
    const headless = parseSev('se 0 X\n').doc;
    expect(headless.header).toEqual({ leading: [] });
    expect(parseSev('sev 1\n').doc.ses).toEqual([]);
  });

  it('says where sev belongs when it is not first', () => {
    expect(messages('se 0 X\nsev 1\n')).toEqual([
      'walk.sev:1:1: the first statement must be `sev 1`, found `se`',
      'walk.sev:2:1: `sev` must be the first statement',
    ]);
  });

  it('treats only plain decimal digits as numbers (no hex, exponent or sign)', () => {
    expect(messages('sev 1\nse 0 X\nevent 1 0 0x5\nevent 1 0 1e1\n')).toEqual([
      'walk.sev:3:11: joint must be an integer 0..254 or `-` (no joint), found `0x5`',
      'walk.sev:4:11: joint must be an integer 0..254 or `-` (no joint), found `1e1`',
    ]);
    // an se line missing its name still counts as defining a decimal index, but not a hex one
    expect(messages('sev 1\nse 0x5\nevent 1 5 -\n')).toEqual([
      'walk.sev:2:7: `se` needs 2 arguments (se <index> <name>), found 1',
      'walk.sev:3:9: event uses undefined SE index 5',
    ]);
    expect(messages('sev 1\nse 12\nevent 1 12 -\n')).toEqual([
      'walk.sev:2:6: `se` needs 2 arguments (se <index> <name>), found 1',
    ]);
    expect(messages('sev 1\nse 5\nse 5 X\n')).toEqual([
      'walk.sev:2:5: `se` needs 2 arguments (se <index> <name>), found 1',
      'walk.sev:3:4: SE index 5 defined twice (first at line 2)',
    ]);
  });

  it('does not take an out-of-range index as defined', () => {
    expect(messages('sev 1\nse 300 X\nse 300 Y\n')).toEqual([
      'walk.sev:2:4: SE index must be an integer 0..255, found `300`',
      'walk.sev:3:4: SE index must be an integer 0..255, found `300`',
    ]);
  });

  it('orders errors of one line by column, the late undefined-SE check included', () => {
    expect(messages('sev 1\nevent x 9 300\n')).toEqual([
      'walk.sev:2:7: event frame must be an integer 0..65535, found `x`',
      'walk.sev:2:9: event uses undefined SE index 9',
      'walk.sev:2:11: joint must be an integer 0..254 or `-` (no joint), found `300`',
    ]);
  });
});

describe('serializeSev leaves its input alone', () => {
  it('sorts copies, and folds a multi-line trailing comment into one line', () => {
    const doc = parseSevStrict('sev 1\nse 1 B\nse 0 A\nevent 9 0 -\nevent 2 0 -\n');
    doc.events[0].comments.trailing = 'a\r\nb\nc';
    const out = serializeSev(doc);
    expect(out).toBe('sev 1\n\nse 0 A\nse 1 B\n\nevent 2 0 -\nevent 9 0 -  #a b c\n');
    expect(doc.ses.map((d) => d.index)).toEqual([1, 0]);
    expect(doc.events.map((e) => e.frame)).toEqual([9, 2]);
  });
});

describe('quoted input is clipped', () => {
  it('a 10 MB .sev of NUL bytes gives one short message, its NULs escaped (the whole token was quoted: 20 MB)', () => {
    const text = decodeUtf8Text(new Uint8Array(10_000_000), 'SEV', 'nul.sev');
    const { errors } = parseSev(text, 'nul.sev');
    expect(errors[0].message).toBe(
      `nul.sev:1:1: the first statement must be \`sev 1\`, found \`${'\\u0000'.repeat(QUOTED_INPUT_MAX)}…\` (10000000 characters)`,
    );
    for (const e of errors) expect(e.message.length).toBeLessThan(400);
  });

  it('every message quoting a token clips it: an unknown statement, a bad index, an unexpected argument', () => {
    const long = 'x'.repeat(100_000);
    const { errors } = parseSev(`sev 1\n${long}\nevent 1 ${long} 0\nmotion walk ${long}\n`, 'long.sev');
    expect(errors.length).toBe(3);
    for (const e of errors) {
      expect(e.message.length).toBeLessThan(200);
      expect(e.message).toContain(`${'x'.repeat(QUOTED_INPUT_MAX)}…\` (100000 characters)`);
    }
  });
});
