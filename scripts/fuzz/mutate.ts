/**
 * Deterministic mutators for the fuzz harness: every input is a function of
 * (seed, format, index), so any finding replays from its three numbers.
 * Binary mutations model what corrupt files look like (bit flips, cuts,
 * garbage tails, copied chunks, counts and offsets that point past the end);
 * text mutations model careless edits and hostile text (token and line edits,
 * unicode, NUL, very long lines, deep nesting); JSON mutations change the
 * shape of the tree (wrong types, out-of-range indices, missing keys).
 */

export type Rng = () => number;

/** An integer in 0..n-1. */
export const pick = (rnd: Rng, n: number): number => Math.floor(rnd() * n);
export const choose = <T>(rnd: Rng, list: readonly T[]): T => list[pick(rnd, list.length)];
/** A length drawn log-uniformly in 1..max (mostly short, sometimes huge). */
export const logLength = (rnd: Rng, max: number): number => Math.max(1, Math.floor(Math.exp(rnd() * Math.log(max))));

/** Mixes the seed, the format index and the input index into one PRNG seed. */
export function inputSeed(seed: number, format: number, index: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const v of [format, index, index / 4294967296]) {
    h = Math.imul(h ^ (v >>> 0), 0x85ebca6b) >>> 0;
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35) >>> 0;
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const INTERESTING_U32 = [
  0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 1024, 1025, 65535, 65536, 0x7fffffff, 0x80000000,
  0xfffffffe, 0xffffffff,
];

/** A recipe's mutation (the `compress` and `gltf-nodes` targets): one or two binary edits, cut to `maxBytes`. */
export const mutateRecipe =
  (maxBytes: number) =>
  (rnd: Rng, seed: Uint8Array): Uint8Array => {
    let b = seed;
    for (let k = 1 + pick(rnd, 2); k > 0; k--) b = mutateBinary(rnd, b);
    return b.subarray(0, maxBytes);
  };

/** One binary mutation of `b` (returns a new array). `maxSize` bounds growth. */
export function mutateBinary(rnd: Rng, input: Uint8Array, maxSize = 1 << 20): Uint8Array {
  let b = input.slice();
  const n = b.length;
  const at = () => pick(rnd, Math.max(1, b.length));
  const aligned = () => pick(rnd, Math.max(1, b.length >> 2)) << 2;
  const dv = () => new DataView(b.buffer, b.byteOffset, b.byteLength);
  switch (pick(rnd, 11)) {
    case 0: {
      // bit flips
      const k = 1 + pick(rnd, 8);
      for (let i = 0; i < k && b.length; i++) b[at()] ^= 1 << pick(rnd, 8);
      break;
    }
    case 1: {
      // interesting bytes
      const k = 1 + pick(rnd, 4);
      for (let i = 0; i < k && b.length; i++) b[at()] = choose(rnd, [0, 0xff, 0x7f, 0x80, 0x01, 0xfe, 0x20, 0x0a]);
      break;
    }
    case 2: // truncation
      b = b.subarray(0, pick(rnd, n + 1)).slice();
      break;
    case 3: {
      // extension: garbage, zeros or a copy of the head
      const k = logLength(rnd, 4096);
      const tail = new Uint8Array(Math.min(k, Math.max(0, maxSize - n)));
      const mode = pick(rnd, 3);
      for (let i = 0; i < tail.length; i++)
        tail[i] = mode === 0 ? pick(rnd, 256) : mode === 1 ? 0 : b[i % Math.max(1, n)];
      const out = new Uint8Array(n + tail.length);
      out.set(b);
      out.set(tail, n);
      b = out;
      break;
    }
    case 4: {
      // copied chunk: overwrite elsewhere
      if (n < 2) break;
      const len = Math.min(n, logLength(rnd, n));
      const from = pick(rnd, n - len + 1);
      const to = pick(rnd, n - len + 1);
      b.copyWithin(to, from, from + len);
      break;
    }
    case 5: {
      // copied chunk: inserted
      if (n < 2) break;
      const len = Math.min(n, logLength(rnd, n), Math.max(0, maxSize - n));
      const from = pick(rnd, n - len + 1);
      const to = pick(rnd, n + 1);
      const out = new Uint8Array(n + len);
      out.set(b.subarray(0, to));
      out.set(b.subarray(from, from + len), to);
      out.set(b.subarray(to), to + len);
      b = out;
      break;
    }
    case 6: {
      // deleted chunk
      if (n < 2) break;
      const len = logLength(rnd, n);
      const from = pick(rnd, n - Math.min(len, n) + 1);
      const out = new Uint8Array(n - Math.min(len, n - from));
      out.set(b.subarray(0, from));
      out.set(b.subarray(from + len), from);
      b = out;
      break;
    }
    case 7: {
      // huge or boundary count at a 4-aligned offset
      if (n < 4) break;
      const o = Math.min(aligned(), n - 4);
      dv().setUint32(o, choose(rnd, INTERESTING_U32), true);
      break;
    }
    case 8: {
      // an offset or size just past the end
      if (n < 4) break;
      const o = Math.min(aligned(), n - 4);
      dv().setUint32(o, (n + choose(rnd, [-4, -1, 0, 1, 4, 16, 4096])) >>> 0, true);
      break;
    }
    case 9: {
      // 16-bit boundary values
      if (n < 2) break;
      const o = Math.min(pick(rnd, n >> 1) << 1, n - 2);
      dv().setUint16(o, choose(rnd, [0, 1, 0x7fff, 0x8000, 0xfffe, 0xffff, 0x7c00, 0xfc00, 0x7e00]), true);
      break;
    }
    default: {
      // non-finite or extreme float
      if (n < 4) break;
      const o = Math.min(aligned(), n - 4);
      dv().setFloat32(o, choose(rnd, [NaN, Infinity, -Infinity, 3.4e38, -0, 1e-45, 1e30]), true);
    }
  }
  return b;
}

const UNICODE = [
  '\u00e9',
  '\u6b69',
  '\u{1F600}',
  '\ufffd',
  '\u200f',
  '\ufeff',
  '\u0000',
  '\r',
  '\t',
  '\u2028',
  '\ud800',
  'İ',
  '\u0301',
];
const TOKENS = [
  '0',
  '-1',
  '1',
  '255',
  '256',
  '65535',
  '65536',
  '4294967296',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x',
  '0xFFFF',
  '0x10000',
  '99999999999999999999999',
  '1.5',
  '.',
  '-',
  '+',
  '{',
  '}',
  '(',
  ')',
  '=',
  ':',
  '#',
  '//',
  '/*',
  '*/',
  '\\',
  '"',
  "'",
  ',',
  ';',
  'null',
  'true',
  '[]',
  '{}',
  '""',
];

/** One text mutation of `s` (UTF-16 string). `extraTokens` are words of the format (keywords, names). */
export function mutateText(rnd: Rng, s: string, extraTokens: readonly string[], maxLength = 1 << 17): string {
  const lines = s.split('\n');
  const tokenRe = /\S+/g;
  const tokens: { at: number; text: string }[] = [];
  for (let m = tokenRe.exec(s); m; m = tokenRe.exec(s)) tokens.push({ at: m.index, text: m[0] });
  const word = () =>
    rnd() < 0.5 ? choose(rnd, TOKENS) : extraTokens.length ? choose(rnd, extraTokens) : choose(rnd, TOKENS);
  const cap = (t: string) => (t.length > maxLength ? t.slice(0, maxLength) : t);
  switch (pick(rnd, 10)) {
    case 0: {
      // replace a token
      if (!tokens.length) return word();
      const t = choose(rnd, tokens);
      return s.slice(0, t.at) + word() + s.slice(t.at + t.text.length);
    }
    case 1: {
      // delete or duplicate a token
      if (!tokens.length) return s;
      const t = choose(rnd, tokens);
      return rnd() < 0.5
        ? s.slice(0, t.at) + s.slice(t.at + t.text.length)
        : s.slice(0, t.at) + t.text + ' ' + s.slice(t.at);
    }
    case 2: {
      // insert a token
      const at = pick(rnd, s.length + 1);
      return s.slice(0, at) + choose(rnd, [' ', '', '\n']) + word() + choose(rnd, [' ', '', '\n']) + s.slice(at);
    }
    case 3: {
      // delete, duplicate, swap or move lines
      if (lines.length < 2) return s + '\n' + s;
      const a = pick(rnd, lines.length),
        b2 = pick(rnd, lines.length);
      const out = lines.slice();
      const mode = pick(rnd, 4);
      if (mode === 0) out.splice(a, 1);
      else if (mode === 1) out.splice(a, 0, lines[a]);
      else if (mode === 2) [out[a], out[b2]] = [out[b2], out[a]];
      else {
        const [l] = out.splice(a, 1);
        out.splice(b2, 0, l);
      }
      return out.join('\n');
    }
    case 4: {
      // unicode, NUL, lone surrogates, BOM
      const at = pick(rnd, s.length + 1);
      return s.slice(0, at) + choose(rnd, UNICODE) + s.slice(at);
    }
    case 5: {
      // a very long line: repeated character or token
      const at = pick(rnd, s.length + 1);
      const unit = choose(rnd, [
        'a',
        ' ',
        '\t',
        '0',
        '9',
        ' x',
        '#',
        '(',
        '-',
        '\\\n',
        '\\',
        '/*',
        '"',
        '[',
        '{',
        'x ',
        ...extraTokens.slice(0, 8).map((t) => t + ' '),
      ]);
      const count = logLength(rnd, Math.max(1, Math.floor(maxLength / unit.length)));
      return cap(s.slice(0, at) + unit.repeat(count) + s.slice(at));
    }
    case 6: {
      // truncate
      return s.slice(0, pick(rnd, s.length + 1));
    }
    case 7: {
      // line endings
      const mode = pick(rnd, 3);
      return mode === 0 ? s.replace(/\n/g, '\r\n') : mode === 1 ? s.replace(/\n/g, '\r') : s.replace(/\n/g, '');
    }
    case 8: {
      // copy a chunk of the text elsewhere
      if (s.length < 2) return s + s;
      const len = Math.min(s.length, logLength(rnd, s.length));
      const from = pick(rnd, s.length - len + 1);
      const to = pick(rnd, s.length + 1);
      return cap(s.slice(0, to) + s.slice(from, from + len) + s.slice(to));
    }
    default: {
      // a number made extreme in place
      const nums = tokens.filter((t) => /^[-+]?\d/.test(t.text));
      if (!nums.length) return s;
      const t = choose(rnd, nums);
      const v = choose(rnd, [
        '0',
        '-0',
        '1e308',
        '-1e308',
        '1e-320',
        '4294967295',
        '18446744073709551616',
        '0.0000001',
        '-999999',
        t.text + t.text,
        '9'.repeat(logLength(rnd, 400)),
      ]);
      return s.slice(0, t.at) + v + s.slice(t.at + t.text.length);
    }
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every (container, key) slot of a JSON tree, for picking one to change. */
function slots(root: Json): { parent: Json[] | { [k: string]: Json }; key: string | number }[] {
  const out: { parent: Json[] | { [k: string]: Json }; key: string | number }[] = [];
  const stack: Json[] = [root];
  while (stack.length) {
    const v = stack.pop() as Json;
    if (Array.isArray(v))
      v.forEach((c, i) => {
        out.push({ parent: v, key: i });
        stack.push(c);
      });
    else if (v && typeof v === 'object')
      for (const k of Object.keys(v)) {
        out.push({ parent: v, key: k });
        stack.push(v[k]);
      }
  }
  return out;
}

/** One structural change of a JSON value, returned as JSON text (deep nesting is spliced in as text). */
export function mutateJson(rnd: Rng, value: unknown, extraStrings: readonly string[]): string {
  const root = JSON.parse(JSON.stringify(value)) as Json;
  const all = slots(root);
  if (!all.length) return JSON.stringify(root);
  const { parent, key } = choose(rnd, all);
  const get = () => (parent as Record<string | number, Json>)[key];
  const set = (v: Json) => {
    (parent as Record<string | number, Json>)[key] = v;
  };
  const old = get();
  let nested: string | undefined;
  switch (pick(rnd, 9)) {
    case 0: // another type
      set(choose<Json>(rnd, [null, true, 'x', '', [], {}, 0, -1, [0], { length: 3 }, '0']));
      break;
    case 1: // a number out of range
      set(
        choose<Json>(rnd, [
          -1,
          0,
          1,
          2,
          3,
          1.5,
          -0.5,
          1e9,
          2 ** 31,
          2 ** 32,
          2 ** 53,
          1e308,
          -1e308,
          typeof old === 'number' ? old + 1 : 7,
          typeof old === 'number' ? -old : -7,
          typeof old === 'number' ? old * 1000 : 9999,
        ]),
      );
      break;
    case 2: // delete the key or element
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      break;
    case 3: // duplicate an array element / empty a container
      if (Array.isArray(parent)) parent.splice(key as number, 0, JSON.parse(JSON.stringify(old)) as Json);
      else if (Array.isArray(old)) set([]);
      else if (old && typeof old === 'object') set({});
      else set([old, old]);
      break;
    case 4: {
      // copy another slot's value here
      const other = choose(rnd, all);
      set(JSON.parse(JSON.stringify((other.parent as Record<string | number, Json>)[other.key] ?? null)) as Json);
      break;
    }
    case 5: {
      // deep nesting (as text: building it as a tree would overflow JSON.stringify here)
      const n = logLength(rnd, 20000);
      const [open, close] = rnd() < 0.5 ? ['[', ']'] : ['{"a":', '}'];
      nested = open.repeat(n) + JSON.stringify(old ?? null) + close.repeat(n);
      set('\u0000nested');
      break;
    }
    case 6: // a format string
      set(extraStrings.length ? choose(rnd, extraStrings) : 'x');
      break;
    case 7: // a long array of numbers
      set(Array.from({ length: logLength(rnd, 5000) }, () => choose(rnd, [0, 1, -1, 0.5, 1e9])));
      break;
    default: // a small index-like number
      set(pick(rnd, 12) - 2);
  }
  const text = JSON.stringify(root);
  return nested === undefined ? text : text.replace('"\\u0000nested"', () => nested as string);
}

/**
 * A JSON document (UTF-8 bytes) mutated half the time as text (mutateText with `tokens`) and half the time as a
 * tree (mutateJson with `strings`; text that does not parse mutates from `{}`): the files ActGuy keeps for itself.
 */
export function mutateJsonDocument(
  rnd: Rng,
  input: Uint8Array,
  tokens: readonly string[],
  strings: readonly string[],
): Uint8Array {
  const text = Buffer.from(input).toString('utf8');
  if (pick(rnd, 2) === 0) return new Uint8Array(Buffer.from(mutateText(rnd, text, tokens)));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = {};
  }
  return new Uint8Array(Buffer.from(mutateJson(rnd, value, strings)));
}
