/**
 * Fuzz target `last-build`: the record of a project's last build (docs/cache.md, "Up to date") as anyone who can
 * write the state folder could leave it. Each input is parsed as a build reads it (parseLastBuild; nothing is
 * written anywhere).
 *
 * Judged: any throw is a crash; a record kept must be of the exact shape a build compares against: a SHA-256 hex
 * plan and motion digests, three outputs each with a whole, non-negative size and stamps of digits, a summary
 * of whole, non-negative counts and string warnings (it is printed as the build's own), and one part per motion,
 * null or a SHA-256 hex digest with whole, non-negative offsets and counts (what a rebuild carries).
 */
import { parseLastBuild } from '../../electron/build/lastBuild';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget } from './judge';

const HEX = 'a'.repeat(64);
const TOKENS = ['-1', '0', '1.5', '1e309', 'null', '[]', '{}', '"x"', `"${HEX}"`, '9007199254740993'];
const STAMP = [1024, '1700000000000000000', '1700000000000000000', '42', '2049'];

function seed(): string {
  return JSON.stringify({
    tool: 'actguy last build',
    version: 2,
    project: '/p/stage.actguy.json',
    code: '9:abc:def',
    plan: HEX,
    inputs: [HEX, 'b'.repeat(64)],
    parts: [[HEX, 400, 5000, 900, 60000, []], null],
    outputs: ['/p/out/stage.mar', '/p/out/stage.sar', '/p/out/stage.report.json'].map((p) => [p, ...STAMP]),
    summary: {
      outputs: { mar: { path: 'out/stage.mar', bytes: 4096 }, sar: { path: 'out/stage.sar', bytes: 48 }, report: 'r' },
      totals: { motions: 2, aliases: 0, keys: 900, mtnBytes: 100000, mt3Bytes: 4000, events: 3 },
      warnings: ['walk_60: resampled from 60 fps (frames 0..264) to 30 fps (frames 0..132)'],
    },
  });
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array =>
  mutateJsonDocument(rnd, input, TOKENS, [HEX, 'actguy last build', 'out/stage.mar']);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const isDigits = (v: unknown) => typeof v === 'string' && /^[0-9]{1,30}$/.test(v);
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

function run(input: Uint8Array): 'accepted' | 'rejected' {
  let record: ReturnType<typeof parseLastBuild>;
  try {
    record = parseLastBuild(Buffer.from(input).toString('utf8'));
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (!record) return 'rejected';
  must(/^[0-9a-f]{64}$/.test(record.plan), `kept the plan ${JSON.stringify(record.plan)}`);
  must(typeof record.code === 'string', 'kept a code that is not a string');
  for (const d of record.inputs) must(/^[0-9a-f]{64}$/.test(d), `kept the motion digest ${JSON.stringify(d)}`);
  must(record.outputs.length === 3, `kept ${record.outputs.length} outputs`);
  for (const o of record.outputs) {
    must(typeof o.path === 'string', 'kept an output path that is not a string');
    must(isCount(o.stamp.size), `kept the output size ${o.stamp.size}`);
    must([o.stamp.mtimeNs, o.stamp.ctimeNs, o.stamp.ino, o.stamp.dev].every(isDigits), 'kept a malformed stamp');
  }
  const s = record.summary;
  must(
    typeof s.outputs.mar.path === 'string' &&
      typeof s.outputs.sar.path === 'string' &&
      typeof s.outputs.report === 'string',
    'kept an output name that is not a string',
  );
  must(isCount(s.outputs.mar.bytes) && isCount(s.outputs.sar.bytes), 'kept an output size that is not a count');
  for (const v of Object.values(s.totals)) must(isCount(v), `kept the total ${v}`);
  must(
    s.warnings.every((w) => typeof w === 'string'),
    'kept a warning that is not a string',
  );
  return 'accepted';
}

export const lastBuildTarget: FuzzTarget = {
  name: 'last-build',
  ext: 'json',
  seeds: () => [new Uint8Array(Buffer.from(seed()))],
  mutate,
  run,
};
