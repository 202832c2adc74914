/**
 * Fuzz target `cache-entry`: a build cache entry file as a hostile shared
 * folder could hold it (docs/cache.md). Each input is written as the entry of
 * one key in a scratch cache folder (made under the OS temp folder for that
 * input and removed after it; nothing is written anywhere else), read back the
 * way a build reads it (openBuildCache), and verified against the motion it
 * claims to be (verifyCompressed).
 *
 * Judged: any throw is a crash; a damaged or rejected entry must be gone from
 * the folder afterwards, with no temp file left; an accepted one must be an
 * MT3 of this motion's name whose recomputed channels are each within their
 * tolerance or carry the precision warning, and must verify the same again.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { compressMotion } from '../../shared/compress/compress';
import type { CompressOptions } from '../../shared/compress/types';
import { verifyCompressed } from '../../shared/compress/verify';
import type { Motion } from '../../shared/motion/types';
import { readMt3 } from '../../shared/mt3/read';
import { compressedMotionOf } from '../../shared/project/plan';
import { gvStrCode } from '../../shared/strcode';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { cacheKey, encodeEntry, openBuildCache } from '../../electron/build/buildCache';
import { writeMtn } from '../../shared/mtn/write';
import { mutateBinary, mutateJson, mutateText, pick, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget } from './judge';

const motion: Motion = syntheticMotion({
  frames: 10,
  joints: 3,
  seed: 5,
  offsets: true,
  userKeys: 1,
  locks: 1,
  traceKeys: 1,
});
const OPTIONS: CompressOptions = {
  positionTolerance: 0.05,
  rotationToleranceDeg: 0.5,
  offsetTolerance: 0.05,
  name: 'fuzz',
};
const KEY = cacheKey(writeMtn(motion), OPTIONS);

/** An entry's parts: its JSON summary text and its MT3 bytes (undefined when the bytes are not an entry). */
function split(entry: Uint8Array): { json: string; mt3: Uint8Array } | undefined {
  const b = Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
  if (b.length < 40) return undefined;
  const len = b.readUInt32LE(36);
  if (40 + len > b.length) return undefined;
  return { json: b.toString('utf8', 40, 40 + len), mt3: new Uint8Array(b.subarray(40 + len)) };
}

/** An entry around any JSON text and MT3 bytes, its checksum right (as an attacker who rewrites one makes it). */
function join2(json: string, mt3: Uint8Array, entry: Uint8Array): Uint8Array {
  const text = Buffer.from(json, 'utf8');
  const body = Buffer.concat([Buffer.alloc(4), text, Buffer.from(mt3)]);
  body.writeUInt32LE(text.length, 0);
  return Buffer.concat([Buffer.from(entry.subarray(0, 4)), createHash('sha256').update(body).digest(), body]);
}

const TOKENS = [
  '"channels"',
  '"kind"',
  '"rotation"',
  '"translation"',
  '"offset"',
  '"tolerance"',
  '"maxError"',
  '"skeleton"',
  '"rounds"',
  '"key"',
  '"ms"',
  'null',
  '[]',
];

function mutate(rnd: Rng, seed: Uint8Array): Uint8Array {
  const parts = split(seed)!;
  switch (pick(rnd, 5)) {
    case 0: // raw damage: the checksum no longer holds (or the layout breaks)
      return mutateBinary(rnd, seed);
    case 1: {
      // the summary rewritten as a structure, checksum recomputed
      let value: unknown;
      try {
        value = JSON.parse(parts.json);
      } catch {
        value = {};
      }
      return join2(mutateJson(rnd, value, ['rotation', 'translation', 'offset', KEY, 'refined']), parts.mt3, seed);
    }
    case 2: // the summary edited as text
      return join2(mutateText(rnd, parts.json, TOKENS), parts.mt3, seed);
    default: {
      // the MT3 bytes changed, checksum recomputed
      let mt3 = parts.mt3;
      const n = 1 + pick(rnd, 3);
      for (let k = 0; k < n; k++) mt3 = mutateBinary(rnd, mt3);
      return join2(parts.json, mt3, seed);
    }
  }
}

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function run(input: Uint8Array): 'accepted' | 'rejected' {
  // A scratch cache folder of its own for every input, removed after it (nothing is written anywhere else).
  const dir = mkdtempSync(join(tmpdir(), 'actguy-fuzz-cache-'));
  try {
    return runIn(dir, input);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runIn(dir: string, input: Uint8Array): 'accepted' | 'rejected' {
  const file = join(dir, KEY.slice(0, 2), `${KEY}.mt3c`);
  let outcome: 'accepted' | 'rejected';
  try {
    const cache = openBuildCache(dir);
    mkdirSync(join(dir, KEY.slice(0, 2)));
    writeFileSync(file, input);
    const candidate = cache.read(KEY);
    if (!candidate) {
      must(!existsSync(file), 'a damaged entry was left in the cache folder');
      outcome = 'rejected';
    } else {
      const checked = verifyCompressed(motion, OPTIONS, candidate.bytes, candidate.claim);
      if (!checked.ok) {
        cache.reject(candidate);
        must(!existsSync(file), 'a rejected entry was left in the cache folder');
        outcome = 'rejected';
      } else {
        const v = checked.value;
        must(readMt3(v.bytes).name === gvStrCode(OPTIONS.name), 'accepted an MT3 of another name');
        for (const c of v.channels)
          must(
            c.met || v.warnings.some((w) => w.kind === c.kind && w.joint === c.joint),
            `accepted ${c.kind} ${c.joint} over its tolerance without a warning`,
          );
        const again = verifyCompressed(motion, OPTIONS, candidate.bytes, candidate.claim);
        must(
          again.ok && JSON.stringify(again.value.channels) === JSON.stringify(v.channels),
          'a second check disagrees',
        );
        outcome = 'accepted';
      }
    }
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', describeThrown(e));
  }
  const left = readdirSync(join(dir, KEY.slice(0, 2))).filter((f) => f !== `${KEY}.mt3c`);
  must(left.length === 0, `files left in the cache folder: ${left.join(', ')}`);
  return outcome;
}

export const cacheEntryTarget: FuzzTarget = {
  name: 'cache-entry',
  ext: 'mt3c',
  seeds: () => {
    const classic = { ...OPTIONS, method: 'classic' as const };
    // Plain Uint8Array copies: the binary mutator's slice() would share a Buffer's memory and damage the seed.
    return [
      OPTIONS,
      // Another compression of the same motion: valid bytes under the key, with the summary of the other settings.
      classic,
      { ...OPTIONS, objectTolerance: 0.5 },
    ].map((o) => new Uint8Array(encodeEntry(KEY, compressedMotionOf(compressMotion(motion, o)))));
  },
  mutate,
  run,
};
