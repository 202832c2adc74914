/**
 * Fuzz target `recent-files`: the list behind File › Open Recent, `<userData>/recent-files.json`
 * (electron/recentFiles.ts), as anyone who can write the user profile could leave it. Each input is written to a
 * scratch folder's `recent-files.json` and read by the real store at start-up (createRecentFilesStore), which
 * writes the list it kept back over a damaged one.
 *
 * Judged: any throw is a crash; every entry kept must be one the app could have written (an absolute motion or
 * project path of its kind, no NUL or hidden character in path or name, a name of at most 255 characters, a finite
 * time), at most ten, each path once, and the list must survive its own file: written as the store writes it and
 * read again, the same list, without a word. A list not read whole must be said with a message naming the file,
 * and the file then holds the list kept (read again: the same list, without a word). Nothing may be written
 * outside the store's folder, and no temporary file left in it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { HIDDEN_CHARACTERS } from '../../shared/errors';
import type { RecentFile } from '../../shared/ipc/documents';
import { createRecentFilesStore, recentKindOfPath, RECENT_FILES_LIMIT } from '../../electron/recentFiles';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { mustLocate, namesIn, withScratch } from './scratch';

const FILE = 'recent-files.json';
const TOKENS = [
  '1e309',
  '-1e309',
  '"NaN"',
  '"mtn"',
  '"mt3"',
  '"project"',
  '"/p/../../outside/sentinel.mtn"',
  '"walk.mtn"',
  '"\\u202e"',
  '"__proto__"',
  '"path": "/etc/x.mtn", "path"',
  '9007199254740993',
  '"\\u0000"',
];
const STRINGS = [
  '/p/walk.mtn',
  '/p/stage.actguy.json',
  '../outside/sentinel.txt',
  '/p/../../etc/passwd.mtn',
  'C:\\motions\\walk.mtn',
  '\\\\host\\share\\walk.mtn',
  '/p/walk\u202egpj.mtn',
  '/p/walk.mtn\u0000.txt',
  '/p/\u200bwalk.mtn',
  'project',
  'mtn',
  'mar',
  'NaN',
  'Infinity',
  '/'.concat('a'.repeat(5000), '.mtn'),
  'n'.repeat(300),
];

/** The file as the store writes it, after the opens a user makes. */
function seed(): Uint8Array {
  return withScratch('recent-seed', ({ state }) => {
    let t = 1_700_000_000_000;
    const store = createRecentFilesStore(state, () => (t += 1000));
    store.add({ path: '/p/stage.actguy.json', name: 'stage', kind: 'project' });
    store.add({ path: '/p/motions/walk.mtn', name: 'walk', kind: 'mtn' });
    store.add({ path: '/p/out/stage.mar', name: 'stage.mar', kind: 'mar' });
    store.add({ path: '/p/run 2.MT3', name: 'run 2', kind: 'mt3' });
    return new Uint8Array(readFileSync(join(state, FILE)));
  });
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** What the app could have written (recentFiles.ts isRecentFile, and a time that survives JSON). */
function checkEntry(e: RecentFile): void {
  must(
    typeof e.path === 'string' && isAbsolute(e.path) && !e.path.includes('\0') && !HIDDEN_CHARACTERS.test(e.path),
    `kept the path ${JSON.stringify(e.path).slice(0, 120)}`,
  );
  must(recentKindOfPath(e.path) === e.kind, `kept ${JSON.stringify(e.path).slice(0, 80)} as a ${e.kind}`);
  must(
    typeof e.name === 'string' && e.name.length <= 255 && !HIDDEN_CHARACTERS.test(e.name),
    `kept the name ${JSON.stringify(e.name).slice(0, 120)}`,
  );
  must(Number.isFinite(e.openedAt), `kept the time ${e.openedAt}`);
}

/** A fresh store on the folder: its list, and what it said. */
function open(state: string): { list: RecentFile[]; problem: string | null; warnings: string[] } {
  const warnings: string[] = [];
  const store = createRecentFilesStore(state, Date.now, (m) => warnings.push(m));
  return { list: store.list(), problem: store.startupProblem, warnings };
}

function runIn(state: string, input: Uint8Array): Outcome {
  const file = join(state, FILE);
  writeFileSync(file, input);
  let first: ReturnType<typeof open>;
  try {
    first = open(state);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  must(first.list.length <= RECENT_FILES_LIMIT, `kept ${first.list.length} entries`);
  must(new Set(first.list.map((e) => e.path)).size === first.list.length, 'kept a path twice');
  first.list.forEach(checkEntry);
  if (first.problem !== null) {
    must(first.problem.includes(file), `the message does not name the file: ${first.problem.slice(0, 200)}`);
    for (const w of first.warnings) {
      if (!w.startsWith(`${file}: `)) throw new FuzzDefect('unnamed', `warning not naming ${file}: ${w.slice(0, 200)}`);
      mustLocate(w);
      if (/entries dropped/.test(w) && !/entries \d/.test(w))
        throw new FuzzDefect('unnamed', `says entries were dropped, not which: ${w.slice(0, 200)}`);
    }
  } else must(first.warnings.length === 0, `warned without a message: ${first.warnings[0]}`);
  // The list kept, as the store writes it (and, after a problem, as it wrote it already), reads back the same.
  if (first.problem === null) writeFileSync(file, `${JSON.stringify(first.list, null, 2)}\n`);
  const again = open(state);
  must(again.problem === null, `the list kept does not read back: ${again.problem}`);
  must(JSON.stringify(again.list) === JSON.stringify(first.list), 'the list kept reads back another list');
  const left = namesIn(state);
  must(left.join() === FILE, `files left in the store's folder: ${left.join(', ')}`);
  return first.problem === null ? 'accepted' : 'rejected';
}

export const recentFilesTarget: FuzzTarget = {
  name: 'recent-files',
  ext: 'json',
  seeds: () => [seed()],
  mutate,
  run: (input) => withScratch('recent', ({ state }) => runIn(state, input)),
};
