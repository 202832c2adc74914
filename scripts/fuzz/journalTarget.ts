/**
 * Fuzz targets `journal` and `save-journal`: the commit journal and lock that recovery (electron/build/commit.ts
 * recoverOutputs) finds beside a set of outputs, as a received folder could hold them (docs/safety-journal.md). The
 * `journal` scene is a build's: three outputs in the project's out/ folder. The `save-journal` scene is a Save's of a
 * motion with its tuning file (added 2026-12-05): the pair lies in the user's folder among other motions, and an
 * open of the motion finishes what a killed Save left (electron/handlers.ts finishInterruptedSave), also where the
 * .mtn itself is not there (a first Save killed past its commit point).
 *
 * Each input is an envelope: one byte of scene flags (the journal, an output, a temp as links or hard links to files
 * outside the outputs, the first output missing), a lock file's text, and the journal's text, in which `@W` stands
 * for the project folder and `@S` for a sentinel folder outside it, so mutated journals name real files. Before each
 * input the scratch tree is reset; then recovery runs on the outputs. Judged:
 * - rejected: recovery refused with a message naming the journal or the lock, and no file changed;
 * - accepted: recovery returned, no file outside the outputs and the files of their naming changed (the project's
 *   other files and the sentinel tree hash the same, and no name appeared in or left the working folder, where
 *   relative paths land), and neither journal nor lock is left for the next run (commitLeftovers);
 * - a defect: any other exception (crash), a refusal not naming its file (unnamed), a file touched outside the
 *   outputs or a journal left behind (invalid).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
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
import { basename, dirname, join } from 'node:path';
import { commitLeftovers, recoverOutputs } from '../../electron/build/commit';
import { OutputWriteError } from '../../electron/build/outputWriteError';
import { choose, mutateBinary, mutateJson, mutateText, pick, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';

/** A set of outputs in a project folder, and what recovery may change there. */
interface JournalScene {
  name: string;
  /** The outputs, relative to the project folder `@W`; the first one's journal and lock lie beside it. */
  outputs: readonly string[];
  /** The project's files beside the outputs that no recovery may change (relative to `@W`), with their text. */
  inputs: readonly (readonly [string, string])[];
  /** Whether a name right in the project folder is one recovery may change (the outputs' folder, or the outputs and files of their naming). */
  mayChange: (name: string) => boolean;
  /** The journals of the seeds besides our own of the outputs (the reproducers of earlier refusals). */
  moreJournals: readonly string[];
  /** Strings a mutated journal may use besides the outputs, their temps and the sentinel files. */
  strings: readonly string[];
  /** Scene flag values the mutations draw from (`FLAG`'s bits below this). */
  flagValues: number;
  /** As an open of the motion does: recovery runs only where a journal or a lock lies beside the first output. */
  onlyWithLeftovers: boolean;
}

/** Scene flags (the envelope's first byte). */
const FLAG = {
  /** The journal is a link to a file outside the outputs' folder. */
  journalLink: 1,
  /** The second output is a link to a sentinel file. */
  outputLink: 2,
  /** The first temp of the first output is a link to a sentinel file. */
  tempLink: 4,
  /** The last output is a hard link to a sentinel file. */
  outputHardLink: 8,
  /** A second temp of the first output (tag b) is a hard link to the project's first input. */
  tempHardLink: 16,
  /** The first output is not there (a first build or Save of it killed). */
  firstMissing: 32,
} as const;

const own = (output: string, kind: 'new' | 'old', tag = 'a') => `@W/${output}.actguy-${kind}.fuzzhost.1.${tag}.tmp`;

const BUILD_SCENE: JournalScene = {
  name: 'journal',
  outputs: ['out/stage.mar', 'out/stage.sar', 'out/stage.report.json'],
  inputs: [
    ['walk.mtn', 'the project input walk.mtn\n'],
    ['walk.sev', 'the project input walk.sev\n'],
  ],
  mayChange: (name) => name === 'out',
  moreJournals: [
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
    bareNamesJournal(['stage.mar', 'stage.sar', 'stage.report.json']),
  ],
  strings: [
    '@W/out/stage.mar.actguy-new.fuzzhost.1.a.tmp/../../walk.mtn',
    '@W/out/../walk.mtn',
    '@W/out/stage.mar.actguy-lock',
    '@W/out/stage.mar.actguy-commit',
    '@W/walk.mtn',
    '@W/walk.sev',
    '@W/out',
    'stage.mar',
    'walk.mtn',
    '../walk.mtn',
  ],
  flagValues: 32,
  onlyWithLeftovers: false,
};

const SAVE_SCENE: JournalScene = {
  name: 'save-journal',
  outputs: ['walk.mtn', 'walk.mtn.actguy-tuning.json'],
  inputs: [
    ['run.mtn', 'another motion run.mtn\n'],
    ['run.mtn.actguy-tuning.json', '{"tuning of":"run.mtn"}\n'],
    ['walk.sev', 'the events of walk\n'],
    ['walk.mtn.bak', 'the user keeps this copy\n'],
    ['sub/walk.mtn', 'a motion of the same name in a folder below\n'],
  ],
  // The pair, its journal, lock, temps and backups: every name the Save writes begins so.
  mayChange: (name) => name === 'walk.mtn' || name.startsWith('walk.mtn.actguy-'),
  moreJournals: [
    // Journals aimed at the folder's other files: as outputs, and as the pair's temps and backups; one of bare names
    // (relative to the working folder).
    JSON.stringify({
      tool: 'actguy commit',
      version: 2,
      state: 'back',
      outputs: ['@W/run.mtn', '@W/run.mtn.actguy-tuning.json'],
      entries: [
        { path: '@W/run.mtn', temp: '@W/walk.mtn', backup: null },
        { path: '@W/run.mtn.actguy-tuning.json', temp: '@S/payload.txt', backup: null },
      ],
    }),
    JSON.stringify({
      tool: 'actguy commit',
      version: 2,
      state: 'forward',
      outputs: ['@W/walk.mtn', '@W/walk.mtn.actguy-tuning.json'],
      entries: [
        { path: '@W/walk.mtn', temp: '@W/run.mtn', backup: null },
        { path: '@W/walk.mtn.actguy-tuning.json', temp: '@W/run.mtn.actguy-tuning.json', backup: null },
      ],
    }),
    bareNamesJournal(['walk.mtn', 'walk.mtn.actguy-tuning.json']),
  ],
  strings: [
    '@W/run.mtn',
    '@W/run.mtn.actguy-tuning.json',
    '@W/walk.sev',
    '@W/walk.mtn.bak',
    '@W/sub/walk.mtn',
    '@W/sub/../walk.mtn',
    '@W/walk.mtn.actguy-lock',
    '@W/walk.mtn.actguy-commit',
    '@W/walk.mtn.actguy-tuning.json.actguy-commit',
    '@W/walk.mtn.actguy-new.fuzzhost.1.a.tmp/../run.mtn',
    'walk.mtn',
    'walk.mtn.actguy-tuning.json',
    '../walk.mtn',
  ],
  flagValues: 64,
  onlyWithLeftovers: true,
};

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

/** A journal naming the outputs by bare names (which resolve in the working folder), each its own temp a project input. */
function bareNamesJournal(names: readonly string[]): string {
  return JSON.stringify({
    tool: 'actguy commit',
    version: 2,
    state: 'forward',
    outputs: names,
    entries: names.map((n) => ({ path: n, temp: 'walk.mtn', backup: null })),
  });
}

/** Journals as ActGuy writes them for the scene's outputs, in both states, with and without backups. */
function journalSeeds(scene: JournalScene): string[] {
  const outputs = scene.outputs.map((o) => `@W/${o}`);
  const ours = (state: string, backups: boolean) =>
    JSON.stringify(
      {
        tool: 'actguy commit',
        version: 2,
        state,
        outputs,
        entries: scene.outputs.map((o) => ({
          path: `@W/${o}`,
          temp: own(o, 'new'),
          backup: backups ? own(o, 'old') : null,
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
    ...scene.moreJournals,
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

/** Strings a mutated journal may use: the outputs, their temps, the sentinel's files, the scene's own, states. */
function journalStrings(scene: JournalScene): string[] {
  const first = scene.outputs[0];
  return [
    ...scene.outputs.map((o) => `@W/${o}`),
    '@W',
    '@S',
    '@S/keep.txt',
    '@S/payload.txt',
    '@S/gone.txt',
    own(first, 'new'),
    own(first, 'new', 'b'),
    own(first, 'old'),
    ...scene.outputs.slice(1).flatMap((o, k) => (k === 0 ? [own(o, 'new'), own(o, 'old')] : [own(o, 'new')])),
    ...scene.strings,
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
}

function envelopeMutator(scene: JournalScene): (rnd: Rng, seed: Uint8Array) => Uint8Array {
  const strings = journalStrings(scene);
  return (rnd, seed) => {
    const { flags, lock, journal } = openEnvelope(seed);
    const r = rnd();
    if (r < 0.08) return mutateBinary(rnd, seed);
    if (r < 0.18) return envelope(pick(rnd, scene.flagValues), text(lock), text(journal));
    if (r < 0.3)
      return envelope(
        flags,
        rnd() < 0.5 ? choose(rnd, LOCKS) : mutateText(rnd, text(lock), LOCKS, 4096),
        text(journal),
      );
    if (r < 0.42) return envelope(flags, text(lock), mutateText(rnd, text(journal), strings));
    let j = text(journal);
    const n = 1 + pick(rnd, 3);
    for (let k = 0; k < n; k++) {
      try {
        j = mutateJson(rnd, JSON.parse(j), strings);
      } catch {
        j = mutateText(rnd, j, strings);
      }
    }
    return envelope(flags, text(lock), j);
  };
}

// ---- the scratch tree ----

interface Scratch {
  root: string;
  /** The project folder: its inputs and the outputs (with their folder, for a build). */
  work: string;
  /** Files outside the project a journal may aim at; never to change. */
  sentinel: string;
  /** Where a journal given as a link points. */
  links: string;
  /** The outputs, absolute. */
  outputs: string[];
}

const scratches = new Map<string, Scratch>();

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

function scratchTree(scene: JournalScene): Scratch {
  const had = scratches.get(scene.name);
  if (had) return had;
  if (!scratches.size) sweepOldScratch();
  const root = mkdtempSync(join(tmpdir(), `actguy-fuzz-journal-${process.pid}-`));
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  const work = join(root, 'work');
  const s = {
    root,
    work,
    sentinel: join(root, 'sentinel'),
    links: join(root, 'links'),
    outputs: scene.outputs.map((o) => join(work, o)),
  };
  scratches.set(scene.name, s);
  return s;
}

/** The project's inputs and the sentinel tree as they must stay; written afresh after an input changed them, so one defect cannot spoil the next inputs. */
function restoreGuarded(scene: JournalScene, s: Scratch): void {
  rmSync(s.work, { recursive: true, force: true });
  rmSync(s.sentinel, { recursive: true, force: true });
  mkdirSync(join(s.sentinel, 'sub'), { recursive: true });
  mkdirSync(s.work);
  for (const [name, body] of scene.inputs) {
    mkdirSync(dirname(join(s.work, name)), { recursive: true });
    writeFileSync(join(s.work, name), body);
  }
  for (const [name, body] of [
    ['keep.txt', 'the user keeps this\n'],
    ['payload.txt', 'attacker bytes\n'],
    ['gone.txt', 'must not be deleted\n'],
    ['sub/deep.txt', 'deeper\n'],
  ])
    writeFileSync(join(s.sentinel, name), body);
}

/** Puts the outputs back to a known state: old outputs, new temps and backups of our naming, and what the flags ask for. */
function resetScene(scene: JournalScene, s: Scratch, flags: number, lock: Uint8Array, journal: string): void {
  for (const name of readdirSync(s.work))
    if (scene.mayChange(name)) rmSync(join(s.work, name), { recursive: true, force: true });
  rmSync(s.links, { recursive: true, force: true });
  mkdirSync(s.links);
  const at = (p: string) => p.replace(/^@W/, s.work);
  const [first, second] = s.outputs;
  const last = s.outputs[s.outputs.length - 1];
  scene.outputs.forEach((o, k) => {
    mkdirSync(dirname(s.outputs[k]), { recursive: true });
    writeFileSync(s.outputs[k], `old ${basename(o)}\n`);
    writeFileSync(at(own(o, 'new')), `new ${basename(o)}\n`);
    writeFileSync(at(own(o, 'old')), `old ${basename(o)}\n`);
  });
  if (flags & FLAG.outputLink) {
    rmSync(second);
    symlinkSync(join(s.sentinel, 'keep.txt'), second);
  }
  if (flags & FLAG.tempLink) {
    rmSync(at(own(scene.outputs[0], 'new')));
    symlinkSync(join(s.sentinel, 'payload.txt'), at(own(scene.outputs[0], 'new')));
  }
  if (flags & FLAG.outputHardLink) {
    rmSync(last);
    linkSync(join(s.sentinel, 'gone.txt'), last);
  }
  if (flags & FLAG.tempHardLink) linkSync(join(s.work, scene.inputs[0][0]), at(own(scene.outputs[0], 'new', 'b')));
  if (flags & FLAG.firstMissing) rmSync(first);
  const jpath = `${first}.actguy-commit`;
  const body = journal.split('@W').join(s.work).split('@S').join(s.sentinel);
  if (flags & FLAG.journalLink) {
    writeFileSync(join(s.links, 'journal.json'), body);
    symlinkSync(join(s.links, 'journal.json'), jpath);
  } else {
    writeFileSync(jpath, body);
  }
  if (lock.byteLength) writeFileSync(`${first}.actguy-lock`, lock);
}

/** Every file under `dir` that `taken` takes, with a hash of its bytes (a link: its target), folders left out. */
function hashTree(
  dir: string,
  out: Map<string, string> = new Map(),
  taken: (path: string) => boolean = () => true,
): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (!taken(p)) continue;
    const st = lstatSync(p);
    if (st.isDirectory()) hashTree(p, out, taken);
    else if (st.isSymbolicLink()) out.set(p, `link ${readlinkSync(p)}`);
    else if (!st.isFile()) out.set(p, 'special');
    else out.set(p, createHash('sha1').update(readFileSync(p)).digest('hex'));
  }
  return out;
}

/** Whether a path under the project folder is one recovery may change (by its name right in the project folder). */
const changeable = (scene: JournalScene, s: Scratch) => (p: string) =>
  dirname(p) !== s.work || scene.mayChange(basename(p));

/** Files recovery must never change: the project's but the outputs and their files, and the sentinel tree. */
function guarded(scene: JournalScene, s: Scratch): Map<string, string> {
  const may = changeable(scene, s);
  return hashTree(s.work, hashTree(s.sentinel), (p) => dirname(p) !== s.work || !may(p));
}

/** The outputs, their files and the links folder: what recovery may change, and a refusal must not. */
function scene(sc: JournalScene, s: Scratch): Map<string, string> {
  return hashTree(s.work, hashTree(s.links), changeable(sc, s));
}

function differences(before: Map<string, string>, after: Map<string, string>, skip?: string): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((n) => n !== skip && before.get(n) !== after.get(n))
    .map((n) => `${n} ${after.has(n) ? (before.has(n) ? 'changed' : 'added') : 'removed'}`);
}

/** Per scene: the guarded files as they must stay, and whether they need writing afresh (at the start, and after an input changed them). */
const pristine = new Map<string, Map<string, string>>();
const guardedDirty = new Map<string, boolean>();
/** The working folder's entries (a relative path in a journal resolves there): none may appear or go. */
let cwdEntries: string | undefined;
const listCwd = () => readdirSync(process.cwd()).sort().join('\n');

function runJournalInput(sc: JournalScene, input: Uint8Array): Outcome {
  const s = scratchTree(sc);
  const { flags, lock, journal } = openEnvelope(input);
  if (guardedDirty.get(sc.name) ?? true) restoreGuarded(sc, s);
  // Dirty until this input is judged clean: an input that throws past the checks gets the next one a fresh tree.
  guardedDirty.set(sc.name, true);
  resetScene(sc, s, flags, lock, text(journal));
  if (!pristine.has(sc.name)) pristine.set(sc.name, guarded(sc, s));
  cwdEntries ??= listCwd();
  const before = scene(sc, s);
  const first = s.outputs[0];
  const jpath = `${first}.actguy-commit`;
  const lockPath = `${first}.actguy-lock`;
  let outcome: Outcome;
  try {
    // An open of the motion looks first (handlers.ts finishInterruptedSave): the .mtn or its journal there, and a
    // journal or a lock beside it.
    if (sc.onlyWithLeftovers && !((existsSync(first) || existsSync(jpath)) && commitLeftovers(first)))
      outcome = 'accepted';
    else {
      // Without fsync: durability is not what is fuzzed here, and a disk flush per input would make 50,000 take an hour.
      recoverOutputs(s.outputs, { fs: { writeFileSync: (p, d, o) => writeFileSync(p, d, { flag: o?.flag ?? 'w' }) } });
      outcome = 'accepted';
      if (commitLeftovers(first))
        throw new FuzzDefect('invalid', `recovered, but left ${existsSync(jpath) ? jpath : lockPath} for the next run`);
    }
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    if (!(e instanceof OutputWriteError)) throw new FuzzDefect('crash', describeThrown(e));
    if (!e.message.includes(jpath) && !e.message.includes(lockPath))
      throw new FuzzDefect('unnamed', `refusal names neither the journal nor the lock: ${e.message.slice(0, 200)}`);
    // Refused: nothing changed (a stale lock taken over before the journal was refused is the one file that may go).
    const changed = differences(before, scene(sc, s), lockPath);
    if (changed.length) throw new FuzzDefect('invalid', `refused, but changed ${changed.slice(0, 3).join(', ')}`);
    outcome = 'rejected';
  }
  const touched = differences(pristine.get(sc.name)!, guarded(sc, s));
  guardedDirty.set(sc.name, touched.length > 0);
  if (touched.length)
    throw new FuzzDefect('invalid', `touched a file outside the outputs: ${touched.slice(0, 3).join(', ')}`);
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

function journalSceneTarget(sc: JournalScene): FuzzTarget {
  return {
    name: sc.name,
    ext: 'journalfuzz',
    seeds: () =>
      journalSeeds(sc).flatMap((j, k) => [
        envelope(0, '', j),
        envelope([1, 2, 4, 8, 16, 0, 6, 32, 40][k % (sc.flagValues > 32 ? 9 : 7)], LOCKS[k % LOCKS.length], j),
      ]),
    mutate: envelopeMutator(sc),
    run: (input) => runJournalInput(sc, input),
  };
}

export const journalTarget = journalSceneTarget(BUILD_SCENE);
export const saveJournalTarget = journalSceneTarget(SAVE_SCENE);
