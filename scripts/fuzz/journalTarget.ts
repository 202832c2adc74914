/**
 * Fuzz target `journal`: the commit journal and lock that recovery
 * (electron/build/commit.ts) finds beside a build's outputs, as a received
 * folder could hold them (docs/safety-journal.md).
 *
 * Each input is an envelope: one byte of scene flags (the journal, an output,
 * a temp as links or hard links to files outside the outputs), a lock file's
 * text, and the journal's text, in which `@W` stands for the project folder
 * and `@S` for a sentinel folder outside it, so mutated journals name real
 * files. Before each input the scratch tree is reset; then recovery runs on
 * the outputs of a build. Judged:
 * - rejected: recovery refused with a message naming the journal or the lock,
 *   and no file changed;
 * - accepted: recovery returned, and no file outside the outputs' folder
 *   changed (the project's inputs and the sentinel tree hash the same, and
 *   no name appeared in or left the working folder, where relative paths land);
 * - a defect: any other exception (crash), a refusal not naming its file
 *   (unnamed), or a file touched outside the outputs' folder (invalid).
 */
import { createHash } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recoverOutputs } from '../../electron/build/commit';
import { OutputWriteError } from '../../electron/build/outputWriteError';
import { choose, mutateBinary, mutateJson, mutateText, pick, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';

const OUTPUT_NAMES = ['stage.mar', 'stage.sar', 'stage.report.json'];
const own = (name: string, kind: 'new' | 'old', tag = 'a') => `@W/out/${name}.actguy-${kind}.fuzzhost.1.${tag}.tmp`;

/** Scene flags (the envelope's first byte). */
const FLAG = {
  /** The journal is a link to a file outside the outputs' folder. */
  journalLink: 1,
  /** out/stage.sar is a link to a sentinel file. */
  outputLink: 2,
  /** The first temp of stage.mar is a link to a sentinel file. */
  tempLink: 4,
  /** out/stage.report.json is a hard link to a sentinel file. */
  outputHardLink: 8,
  /** A second temp of stage.mar (tag b) is a hard link to the project's walk.mtn. */
  tempHardLink: 16,
} as const;

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

function envelope(flags: number, lock: string, journal: string): Uint8Array {
  const l = utf8(lock);
  const j = utf8(journal);
  const out = new Uint8Array(3 + l.byteLength + j.byteLength);
  out[0] = flags;
  out[1] = l.byteLength & 0xff;
  out[2] = l.byteLength >> 8;
  out.set(l, 3);
  out.set(j, 3 + l.byteLength);
  return out;
}

function openEnvelope(b: Uint8Array): { flags: number; lock: Uint8Array; journal: Uint8Array } {
  const flags = b[0] ?? 0;
  const len = Math.min((b[1] ?? 0) | ((b[2] ?? 0) << 8), Math.max(0, b.byteLength - 3));
  return { flags, lock: b.subarray(3, 3 + len), journal: b.subarray(3 + len) };
}

function journalSeeds(): string[] {
  const outputs = OUTPUT_NAMES.map((n) => `@W/out/${n}`);
  const ours = (state: string, backups: boolean) =>
    JSON.stringify(
      {
        tool: 'actguy commit',
        version: 2,
        state,
        outputs,
        entries: OUTPUT_NAMES.map((n) => ({
          path: `@W/out/${n}`,
          temp: own(n, 'new'),
          backup: backups ? own(n, 'old') : null,
        })),
      },
      null,
      1,
    );
  return [
    ours('forward', true),
    ours('back', true),
    ours('forward', false),
    ours('back', false),
    // The reproducers of the journal refusal (the format before outputs were named, and entries aimed outside).
    JSON.stringify({
      tool: 'actguy commit',
      version: 1,
      state: 'forward',
      entries: [
        { path: '@S/keep.txt', temp: '@S/payload.txt', backup: '@S/gone.txt' },
        { path: '@W/walk.mtn', temp: '@S/payload.txt', backup: null },
      ],
    }),
    JSON.stringify({
      tool: 'actguy commit',
      version: 2,
      state: 'back',
      outputs: ['@S/keep.txt', '@W/walk.mtn', '@W/walk.sev'],
      entries: [
        { path: '@S/keep.txt', temp: '@S/none', backup: null },
        { path: '@W/walk.mtn', temp: '@W/x', backup: null },
        { path: '@W/walk.sev', temp: '@W/y', backup: null },
      ],
    }),
    JSON.stringify({
      tool: 'actguy commit',
      version: 2,
      state: 'forward',
      outputs: OUTPUT_NAMES,
      entries: OUTPUT_NAMES.map((n) => ({ path: n, temp: 'walk.mtn', backup: null })),
    }),
  ];
}

const LOCKS = [
  '',
  'fuzzhost 4242 1700000000000',
  'fuzzhost 4242 99999999999999',
  'fuzzhost 1 0',
  'x',
  '../../etc 1 2',
  'fuzzhost 4242 1700000000000\n',
];

/** Strings a mutated journal may use: real files in and outside the outputs' folder, names of our naming, states. */
const JOURNAL_STRINGS = [
  '@W/out/stage.mar',
  '@W/out/stage.sar',
  '@W/out/stage.report.json',
  '@W/walk.mtn',
  '@W/walk.sev',
  '@W/out',
  '@W',
  '@S',
  '@S/keep.txt',
  '@S/payload.txt',
  '@S/gone.txt',
  own('stage.mar', 'new'),
  own('stage.mar', 'new', 'b'),
  own('stage.mar', 'old'),
  own('stage.sar', 'new'),
  own('stage.sar', 'old'),
  own('stage.report.json', 'new'),
  '@W/out/stage.mar.actguy-new.fuzzhost.1.a.tmp/../../walk.mtn',
  '@W/out/../walk.mtn',
  '@W/out/stage.mar.actguy-lock',
  '@W/out/stage.mar.actguy-commit',
  'stage.mar',
  'walk.mtn',
  '../walk.mtn',
  '/dev/zero',
  '/proc/self/fd/0',
  '',
  'forward',
  'back',
  'actguy commit',
  'version',
  'outputs',
  'entries',
];

function mutateEnvelope(rnd: Rng, seed: Uint8Array): Uint8Array {
  const { flags, lock, journal } = openEnvelope(seed);
  const r = rnd();
  if (r < 0.08) return mutateBinary(rnd, seed);
  if (r < 0.18) return envelope(pick(rnd, 32), text(lock), text(journal));
  if (r < 0.3)
    return envelope(flags, rnd() < 0.5 ? choose(rnd, LOCKS) : mutateText(rnd, text(lock), LOCKS, 4096), text(journal));
  if (r < 0.42) return envelope(flags, text(lock), mutateText(rnd, text(journal), JOURNAL_STRINGS));
  let j = text(journal);
  const n = 1 + pick(rnd, 3);
  for (let k = 0; k < n; k++) {
    try {
      j = mutateJson(rnd, JSON.parse(j), JOURNAL_STRINGS);
    } catch {
      j = mutateText(rnd, j, JOURNAL_STRINGS);
    }
  }
  return envelope(flags, text(lock), j);
}

// ---- the scratch tree ----

interface Scratch {
  root: string;
  /** The project folder: walk.mtn, walk.sev and out/ (the outputs' folder, the only place recovery may change). */
  work: string;
  /** Files outside the project a journal may aim at; never to change. */
  sentinel: string;
  /** Where a journal given as a link points. */
  links: string;
  outputs: string[];
}

let scratch: Scratch | undefined;

/**
 * Removes scratch trees that no running target uses: those of processes that
 * are gone, and this process's earlier ones (`npm run fuzz` runs one worker at
 * a time, and a stopped worker cannot clean up after itself).
 */
function sweepOldScratch(): void {
  for (const name of readdirSync(tmpdir())) {
    const m = /^actguy-fuzz-journal-(\d+)-/.exec(name);
    if (!m) continue;
    let gone = Number(m[1]) === process.pid;
    if (!gone) {
      try {
        process.kill(Number(m[1]), 0);
      } catch (e) {
        gone = (e as NodeJS.ErrnoException).code === 'ESRCH';
      }
    }
    try {
      if (gone) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      /* not ours to remove */
    }
  }
}

function scratchTree(): Scratch {
  if (scratch) return scratch;
  sweepOldScratch();
  const root = mkdtempSync(join(tmpdir(), `actguy-fuzz-journal-${process.pid}-`));
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  const work = join(root, 'work');
  scratch = {
    root,
    work,
    sentinel: join(root, 'sentinel'),
    links: join(root, 'links'),
    outputs: OUTPUT_NAMES.map((n) => join(work, 'out', n)),
  };
  return scratch;
}

/** The project's inputs and the sentinel tree as they must stay; written afresh after an input changed them, so one defect cannot spoil the next inputs. */
function restoreGuarded(s: Scratch): void {
  rmSync(s.work, { recursive: true, force: true });
  rmSync(s.sentinel, { recursive: true, force: true });
  mkdirSync(join(s.sentinel, 'sub'), { recursive: true });
  mkdirSync(s.work);
  writeFileSync(join(s.work, 'walk.mtn'), 'the project input walk.mtn\n');
  writeFileSync(join(s.work, 'walk.sev'), 'the project input walk.sev\n');
  for (const [name, body] of [
    ['keep.txt', 'the user keeps this\n'],
    ['payload.txt', 'attacker bytes\n'],
    ['gone.txt', 'must not be deleted\n'],
    ['sub/deep.txt', 'deeper\n'],
  ])
    writeFileSync(join(s.sentinel, name), body);
}

/** Puts out/ back to a known state: old outputs, new temps and backups of our naming, and what the flags ask for. */
function resetScene(s: Scratch, flags: number, lock: Uint8Array, journal: string): void {
  const out = join(s.work, 'out');
  rmSync(out, { recursive: true, force: true });
  rmSync(s.links, { recursive: true, force: true });
  mkdirSync(out);
  mkdirSync(s.links);
  const at = (p: string) => p.replace(/^@W/, s.work);
  for (const n of OUTPUT_NAMES) {
    writeFileSync(join(out, n), `old ${n}\n`);
    writeFileSync(at(own(n, 'new')), `new ${n}\n`);
    writeFileSync(at(own(n, 'old')), `old ${n}\n`);
  }
  if (flags & FLAG.outputLink) {
    rmSync(join(out, 'stage.sar'));
    symlinkSync(join(s.sentinel, 'keep.txt'), join(out, 'stage.sar'));
  }
  if (flags & FLAG.tempLink) {
    rmSync(at(own('stage.mar', 'new')));
    symlinkSync(join(s.sentinel, 'payload.txt'), at(own('stage.mar', 'new')));
  }
  if (flags & FLAG.outputHardLink) {
    rmSync(join(out, 'stage.report.json'));
    linkSync(join(s.sentinel, 'gone.txt'), join(out, 'stage.report.json'));
  }
  if (flags & FLAG.tempHardLink) linkSync(join(s.work, 'walk.mtn'), at(own('stage.mar', 'new', 'b')));
  const jpath = `${s.outputs[0]}.actguy-commit`;
  const body = journal.split('@W').join(s.work).split('@S').join(s.sentinel);
  if (flags & FLAG.journalLink) {
    writeFileSync(join(s.links, 'journal.json'), body);
    symlinkSync(join(s.links, 'journal.json'), jpath);
  } else {
    writeFileSync(jpath, body);
  }
  if (lock.byteLength) writeFileSync(`${s.outputs[0]}.actguy-lock`, lock);
}

/** Every file under `dir` with a hash of its bytes (a link: its target), folders left out. */
function hashTree(dir: string, out: Map<string, string> = new Map(), skip?: string): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (p === skip) continue;
    const st = lstatSync(p);
    if (st.isDirectory()) hashTree(p, out, skip);
    else if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
    else if (!st.isFile()) out.set(p, 'special');
    else out.set(p, createHash('sha1').update(readFileSync(p)).digest('hex'));
  }
  return out;
}

/** Files outside the outputs' folder: the project folder but out/ (its inputs) and the sentinel tree. */
function guarded(s: Scratch): Map<string, string> {
  return hashTree(s.work, hashTree(s.sentinel), join(s.work, 'out'));
}

/** out/ and the links folder: what recovery may change, and a refusal must not. */
function scene(s: Scratch): Map<string, string> {
  return hashTree(s.links, hashTree(join(s.work, 'out')));
}

function differences(before: Map<string, string>, after: Map<string, string>, skip?: string): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((n) => n !== skip && before.get(n) !== after.get(n))
    .map((n) => `${n} ${after.has(n) ? (before.has(n) ? 'changed' : 'added') : 'removed'}`);
}

let pristine: Map<string, string> | undefined;
/** The project's inputs and the sentinel tree need writing afresh (at the start, and after an input changed them). */
let guardedDirty = true;
/** The working folder's entries (a relative path in a journal resolves there): none may appear or go. */
let cwdEntries: string | undefined;
const listCwd = () => readdirSync(process.cwd()).sort().join('\n');

function runJournalInput(input: Uint8Array): Outcome {
  const s = scratchTree();
  const { flags, lock, journal } = openEnvelope(input);
  if (guardedDirty) restoreGuarded(s);
  // Dirty until this input is judged clean: an input that throws past the checks gets the next one a fresh tree.
  guardedDirty = true;
  resetScene(s, flags, lock, text(journal));
  pristine ??= guarded(s);
  cwdEntries ??= listCwd();
  const before = scene(s);
  const jpath = `${s.outputs[0]}.actguy-commit`;
  const lockPath = `${s.outputs[0]}.actguy-lock`;
  let outcome: Outcome;
  try {
    // Without fsync: durability is not what is fuzzed here, and a disk flush per input would make 50,000 take an hour.
    recoverOutputs(s.outputs, { fs: { writeFileSync: (p, d, o) => writeFileSync(p, d, { flag: o?.flag ?? 'w' }) } });
    outcome = 'accepted';
  } catch (e) {
    if (!(e instanceof OutputWriteError)) throw new FuzzDefect('crash', describeThrown(e));
    if (!e.message.includes(jpath) && !e.message.includes(lockPath))
      throw new FuzzDefect('unnamed', `refusal names neither the journal nor the lock: ${e.message.slice(0, 200)}`);
    // Refused: nothing changed (a stale lock taken over before the journal was refused is the one file that may go).
    const changed = differences(before, scene(s), lockPath);
    if (changed.length) throw new FuzzDefect('invalid', `refused, but changed ${changed.slice(0, 3).join(', ')}`);
    outcome = 'rejected';
  }
  const touched = differences(pristine, guarded(s));
  guardedDirty = touched.length > 0;
  if (touched.length)
    throw new FuzzDefect('invalid', `touched a file outside the outputs' folder: ${touched.slice(0, 3).join(', ')}`);
  const cwdNow = listCwd();
  if (cwdNow !== cwdEntries) {
    const was = new Set(cwdEntries.split('\n').filter(Boolean));
    const now = new Set(cwdNow.split('\n').filter(Boolean));
    const diff = [
      ...[...now].filter((n) => !was.has(n)).map((n) => `${n} added`),
      ...[...was].filter((n) => !now.has(n)).map((n) => `${n} removed`),
    ];
    cwdEntries = cwdNow;
    throw new FuzzDefect('invalid', `changed the working folder ${process.cwd()}: ${diff.slice(0, 3).join(', ')}`);
  }
  return outcome;
}

export const journalTarget: FuzzTarget = {
  name: 'journal',
  ext: 'journalfuzz',
  seeds: () =>
    journalSeeds().flatMap((j, k) => [
      envelope(0, '', j),
      envelope([1, 2, 4, 8, 16, 0, 6][k % 7], LOCKS[k % LOCKS.length], j),
    ]),
  mutate: mutateEnvelope,
  run: runJournalInput,
};
