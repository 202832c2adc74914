import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { parseSev } from './parse';
import { eventsByFrame, serializeSev } from './serialize';
import type { SevComments, SevDocument } from './types';

function randomDoc(seed: number): SevDocument {
  const r = seededRandom(seed);
  const int = (n: number) => Math.floor(r() * n);
  const name = () => {
    const first = 'ABCXYZ_abz';
    const rest = 'ABCXYZ_abz0189';
    let s = first[int(first.length)];
    for (let k = int(12); k > 0; k--) s += rest[int(rest.length)];
    return s;
  };
  const text = () => {
    const chars = ' \tab#;:é-=あ0';
    let s = '';
    for (let k = int(10); k > 0; k--) s += chars[int(chars.length)];
    return s.replace(/[ \t]+$/, '');
  };
  const comments = (): SevComments => {
    const c: SevComments = { leading: Array.from({ length: int(3) }, text) };
    if (r() < 0.4) c.trailing = text();
    return c;
  };
  const indices = new Set<number>();
  for (let k = int(8); k > 0; k--) indices.add(int(256));
  const ses = [...indices].map((index) => {
    const d: SevDocument['ses'][number] = { index, name: name(), comments: comments() };
    if (r() < 0.4) d.variants = Array.from({ length: 8 }, name);
    return d;
  });
  const used = [...indices];
  const events = used.length
    ? Array.from({ length: int(20) }, () => ({
        frame: r() < 0.2 ? 65535 : int(40),
        se: used[int(used.length)],
        joint: r() < 0.3 ? null : int(255),
        comments: comments(),
      }))
    : [];
  return {
    header: comments(),
    motion: r() < 0.5 ? { name: name(), comments: comments() } : undefined,
    ses,
    events,
    trailingComments: Array.from({ length: int(3) }, text),
  };
}

/** The document as the serializer orders it, without file locations. */
function canonical(doc: SevDocument): unknown {
  const strip = <T extends { loc?: unknown }>(x: T) => {
    const { loc: _loc, ...rest } = x;
    return rest;
  };
  return {
    header: doc.header,
    motion: doc.motion ? strip(doc.motion) : undefined,
    ses: doc.ses
      .slice()
      .sort((a, b) => a.index - b.index)
      .map(strip),
    events: eventsByFrame(doc.events).map(strip),
    trailingComments: doc.trailingComments,
  };
}

describe('SEV random round trips', () => {
  it('parse(serialize(doc)) gives the same document, and serialize is idempotent', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const doc = randomDoc(seed);
      const text = serializeSev(doc);
      const { doc: back, errors } = parseSev(text, `seed${seed}.sev`);
      expect(errors, `seed ${seed}`).toEqual([]);
      expect(canonical(back), `seed ${seed}`).toEqual(canonical(doc));
      expect(serializeSev(back), `seed ${seed}`).toBe(text);
    }
  });

  it('never throws on random junk, and clean junk serializes idempotently', () => {
    const pieces = [
      'sev',
      '1',
      'motion',
      'se',
      'event',
      'variants',
      '-',
      '0',
      '12',
      '255',
      '256',
      'X',
      'A_1',
      '#',
      '# c',
      '\t',
      ' ',
      '  ',
      '\r\n',
      '\n',
      'é',
    ];
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRandom(seed * 7919);
      let text = 'sev 1\n';
      for (let k = Math.floor(r() * 60); k > 0; k--)
        text += pieces[Math.floor(r() * pieces.length)] + (r() < 0.5 ? ' ' : '');
      const { doc, errors } = parseSev(text, 'junk.sev');
      for (const e of errors) expect(e.message).toMatch(/^junk\.sev:\d+:\d+: /);
      if (errors.length === 0) {
        const once = serializeSev(doc);
        expect(serializeSev(parseSev(once).doc)).toBe(once);
      }
    }
  });
});

describe('SEV long comment runs', () => {
  it('200,000 comment lines before a statement and after the last one write back (a spread of them overflowed the stack)', () => {
    const run = '# note\n'.repeat(200000);
    const text = `sev 1\n${run}se 0 SE_A\n${run}`;
    const parsed = parseSev(text);
    expect(parsed.errors).toEqual([]);
    const out = serializeSev(parsed.doc!);
    expect(out.split('\n').filter((l) => l === '# note').length).toBe(400000);
    expect(out).toContain('se 0 SE_A\n\n# note\n');
  });
});
