/**
 * Fuzz target `verdicts`: the per-user verdict file of a build cache (docs/cache.md, "Local verdicts") as
 * anyone who can write the state folder could leave it. Each input is parsed as a build reads it
 * (parseVerdicts; nothing is written anywhere).
 *
 * Each input is also applied as a line of the verdict file's log of saves (checksummed for an empty file), which
 * holds its records to the same rules.
 *
 * Judged: any throw is a crash; every record kept must be of the exact shape a build relies on: verdict and
 * file digests are SHA-256 hex, stamps are whole numbers, and a motion header kept holds to the MTN reader's
 * rules (rate, frame count, skeleton), since a build checks the project against it instead of the file; a
 * size-limit walk record kept is a time and a byte count, both whole-number safe and not negative.
 */
import { parseVerdicts, verdictLogKey, verdictLogLine } from '../../electron/build/verdicts';
import { COMPRESSOR_IDENTITY } from '../../electron/build/buildCache';
import { MTN_MAX_FRAMES, MTN_MAX_JOINTS } from '../../shared/mtn/constants';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget } from './judge';

const CACHE_ID = 'f'.repeat(64);
const HEX = 'a'.repeat(64);
const TOKENS = ['-1', '0', '65536', '1025', '1e309', 'null', '[]', '{}', '"x"', '"'.concat(COMPRESSOR_IDENTITY, '"')];
const STAMP = [1024, '1700000000000000000', '1700000000000000000', '42', '2049'];

function seed(): string {
  const skeleton = [
    [-1, 0, 0, 0, 'Hips'],
    [0, 2, 0, 0, 'LeftUpLeg'],
    [0, 1, 0, 0, 'RightUpLeg'],
    [0, 3, 1, 0, 'Spine'],
  ];
  return JSON.stringify({
    tool: 'actguy cache verdicts',
    version: 1,
    cache: CACHE_ID,
    cacheDir: '/tmp/cache',
    verdicts: { [HEX]: [HEX, 5], ['b'.repeat(64)]: [HEX, 6, ...STAMP] },
    files: {
      '/p/walk.mtn': [...STAMP, HEX, 7, [COMPRESSOR_IDENTITY, 30, 120, 0]],
      '/p/run.mtn': [...STAMP, HEX, 8, [COMPRESSOR_IDENTITY, 29.97, 65535, 0]],
      '/p/old.mtn': [...STAMP, HEX, 9],
    },
    skeletons: [skeleton],
    walk: [1700000000000, 4096],
  });
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array =>
  mutateJsonDocument(rnd, input, TOKENS, ['Hips', COMPRESSOR_IDENTITY, HEX, CACHE_ID]);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const isDigits = (v: unknown) => typeof v === 'string' && /^[0-9]{1,30}$/.test(v);

/** A verdict file with no records, and the key its log's lines are checksummed with. */
const EMPTY_BASE = JSON.stringify({ tool: 'actguy cache verdicts', version: 1, cache: CACHE_ID });
const LOG_KEY = verdictLogKey({ size: EMPTY_BASE.length, mtimeNs: '1', ctimeNs: '2', ino: '3', dev: '4' });

function run(input: Uint8Array): 'accepted' | 'rejected' {
  const text = Buffer.from(input).toString('utf8');
  let stored: ReturnType<typeof parseVerdicts>;
  let logged: ReturnType<typeof parseVerdicts>;
  try {
    stored = parseVerdicts(text, CACHE_ID);
    // The same document as a line of the log of saves (checksummed, so it is applied): held to the same rules.
    logged = parseVerdicts(EMPTY_BASE, CACHE_ID, {
      text: verdictLogLine(LOG_KEY, text.replace(/\n/g, ' ')),
      key: LOG_KEY,
    });
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  const fromLog = judge(logged);
  const fromFile = judge(stored);
  return fromFile === 'accepted' || fromLog === 'accepted' ? 'accepted' : 'rejected';
}

function judge(stored: ReturnType<typeof parseVerdicts>): 'accepted' | 'rejected' {
  let headers = 0;
  const walk = stored.walk;
  if (walk)
    must(
      Number.isFinite(walk.at) && walk.at >= 0 && Number.isSafeInteger(walk.written) && walk.written >= 0,
      `kept the size-limit walk ${JSON.stringify(walk)}`,
    );
  for (const [key, v] of stored.verdicts) {
    must(/^[0-9a-f]{64}$/.test(key) && /^[0-9a-f]{64}$/.test(v.digest), `kept the verdict ${key}`);
    if (v.stamp)
      must(
        Number.isSafeInteger(v.stamp.size) &&
          [v.stamp.mtimeNs, v.stamp.ctimeNs, v.stamp.ino, v.stamp.dev].every(isDigits),
        `kept a malformed entry stamp for ${key}`,
      );
  }
  for (const [path, r] of stored.files) {
    must(
      /^[0-9a-f]{64}$/.test(r.sha256) && Number.isSafeInteger(r.stamp.size) && r.stamp.size >= 0,
      `kept the file record of ${path}`,
    );
    const h = r.header?.value;
    if (!h) continue;
    headers++;
    must(Number.isFinite(h.fps) && h.fps > 0, `kept the rate ${h.fps}`);
    must(
      Number.isInteger(h.frameCount) && h.frameCount >= 1 && h.frameCount <= MTN_MAX_FRAMES,
      `kept the frame count ${h.frameCount}`,
    );
    const J = h.joints.length;
    must(J >= 1 && J <= MTN_MAX_JOINTS, `kept ${J} joints`);
    h.joints.forEach((j, k) => {
      must(
        k === 0 ? j.parent === -1 : Number.isInteger(j.parent) && j.parent >= 0 && j.parent < k,
        `kept joint ${k}'s parent ${j.parent}`,
      );
      must(Number.isInteger(j.mirror) && j.mirror >= 0 && j.mirror < J, `kept joint ${k}'s mirror ${j.mirror}`);
      must(/^[\x20-\x7e]{0,31}$/.test(j.name), `kept the joint name ${JSON.stringify(j.name)}`);
    });
  }
  return headers > 0 ? 'accepted' : 'rejected';
}

export const verdictsTarget: FuzzTarget = {
  name: 'verdicts',
  ext: 'json',
  seeds: () => [new Uint8Array(Buffer.from(seed()))],
  mutate,
  run,
};
