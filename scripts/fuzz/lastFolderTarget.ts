/**
 * Fuzz target `last-folder`: the folder the file dialogs start in, `<userData>/last-folder.json`
 * (electron/lastFolder.ts), as anyone who can write the user profile could leave it. Each input is written to a
 * scratch folder and read by the real store at start-up (createLastFolderStore); the store then remembers a pick
 * in its own folder, which must replace whatever the file held.
 *
 * Judged: any throw is a crash; a folder kept must be one the app could have written (an absolute path of at most
 * 4096 characters, no control or invisible character) that survives its own file (written as the store writes it
 * and parsed again: the same folder), and the store offers it only when it is a folder now. A file set aside must
 * be said with a message naming the file. After the pick, a fresh store reads the picked folder without a word.
 * Nothing may be written outside the store's folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { HIDDEN_CHARACTERS } from '../../shared/errors';
import { createLastFolderStore, LAST_FOLDER_FILE, parseLastFolder } from '../../electron/lastFolder';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { mustLocate, namesIn, withScratch } from './scratch';

const TOKENS = ['null', '1e309', '[]', '{}', '"/"', '"."', '".."', '"\\u202e"', '"\\u0000"', '"folder": 1, "folder"'];
const STRINGS = [
  '/home/u/motions',
  '..',
  '../outside',
  '/p/../../etc',
  'relative/folder',
  'C:\\motions',
  '\\\\host\\share',
  '/p/\u202emotions',
  '/p/mo\u0000tions',
  '/p/\u200b',
  '/'.concat('a'.repeat(5000)),
  '/tmp',
  '__proto__',
];

function seeds(): Uint8Array[] {
  return ['/home/u/motions', '/p/stage 1/out'].map((folder) =>
    withScratch('last-folder-seed', ({ state }) => {
      createLastFolderStore(state).rememberFileChosen(join(folder, 'walk.mtn'));
      return new Uint8Array(readFileSync(join(state, LAST_FOLDER_FILE)));
    }),
  );
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function runIn(dir: string, outside: string, input: Uint8Array): Outcome {
  const file = join(dir, LAST_FOLDER_FILE);
  writeFileSync(file, input);
  const warnings: string[] = [];
  let outcome: Outcome;
  try {
    const store = createLastFolderStore(dir, (m) => warnings.push(m));
    // Decoded as the store decodes it (a byte order mark dropped).
    const text = new TextDecoder().decode(input);
    const parsed = parseLastFolder(text);
    if (warnings.length) {
      must(warnings.length === 1, `${warnings.length} warnings`);
      if (!warnings[0].startsWith(`${file}: `))
        throw new FuzzDefect('unnamed', `warning not naming ${file}: ${warnings[0].slice(0, 200)}`);
      mustLocate(warnings[0]);
      must(store.folder() === undefined, 'offers a folder from a file set aside');
      outcome = 'rejected';
    } else {
      must('folder' in parsed, 'read without a word, but the text holds no folder');
      const folder = (parsed as { folder: string }).folder;
      must(
        isAbsolute(folder) && folder.length <= 4096 && !HIDDEN_CHARACTERS.test(folder),
        `kept the folder ${JSON.stringify(folder).slice(0, 120)}`,
      );
      const back = parseLastFolder(`${JSON.stringify({ folder }, null, 2)}\n`);
      must('folder' in back && back.folder === folder, 'the folder kept does not read back');
      const offered = store.folder();
      must(offered === undefined || offered === folder, `offers ${offered} for ${folder}`);
      outcome = 'accepted';
    }
    // A pick replaces the file, whatever it held (a link is replaced, never written through).
    store.rememberFileChosen(join(outside, 'picked.mtn'));
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', describeThrown(e));
  }
  const later: string[] = [];
  const again = createLastFolderStore(dir, (m) => later.push(m));
  must(later.length === 0 && again.folder() === outside, `the pick does not read back: ${later[0] ?? again.folder()}`);
  const left = namesIn(dir);
  must(left.join() === LAST_FOLDER_FILE, `files left in the store's folder: ${left.join(', ')}`);
  return outcome;
}

export const lastFolderTarget: FuzzTarget = {
  name: 'last-folder',
  ext: 'json',
  seeds,
  mutate,
  run: (input) => withScratch('last-folder', ({ state, outside }) => runIn(state, outside, input)),
};
