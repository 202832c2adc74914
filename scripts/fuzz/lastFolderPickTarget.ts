/**
 * Fuzz target `last-folder-pick` (added 2026-12-06): the desktop app's `<userData>/last-folder.json` (the `last-folder`
 * target's inputs) read by the real store, then a dialog's answer remembered over it: a file chosen
 * (rememberFileChosen, its folder) or, since Export All asks for a folder (2026-12-05), a folder chosen
 * (rememberFolderChosen, the folder itself). The answer and its kind are drawn from the input's bytes: a folder, a
 * link to one, the same with a trailing slash, a file, a missing name, `..`, the root, a relative path, a name with a
 * direction mark, NUL or a line break, one past the path bound, the folder the file already held.
 *
 * Judged: any throw is a crash. An answer the store may keep (an absolute path of at most 4096 characters with no
 * control or invisible character, by this target's own test) replaces the file: a fresh store reads it without a
 * word and offers it exactly when it is a folder now. Any other answer changes nothing: the file holds the bytes it
 * held. The store's folder holds its one file, and the folders chosen from are as they were. Accepted: the answer
 * remembered; rejected: not.
 */
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { HIDDEN_CHARACTERS } from '../../shared/errors';
import { createLastFolderStore, LAST_FOLDER_FILE, parseLastFolder } from '../../electron/lastFolder';
import { equalBytes, FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { lastFolderTarget } from './lastFolderTarget';
import { namesIn, withScratch } from './scratch';

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** The answers a dialog gives, `@` standing for the folder chosen from. */
const ANSWERS = [
  '@/real',
  '@/real/',
  '@/link',
  '@/link/',
  '@/real/sub',
  '@/file.txt',
  '@/missing',
  '@/real/..',
  '/',
  'relative/folder',
  '@/real/a\u202eb',
  '@/real/new\nline',
  '@/real/nul\u0000',
  `@/${'a'.repeat(4100)}`,
  '@/real/é',
  'C:\\motions',
  'held',
];

/** A folder this target would keep: absolute, at most 4096 characters, no control or invisible character. */
const keepable = (f: string) => isAbsolute(f) && f.length <= 4096 && !HIDDEN_CHARACTERS.test(f);

function isFolderNow(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function runIn(root: string, input: Uint8Array): Outcome {
  const profile = join(root, 'profile');
  const picks = join(root, 'picks');
  mkdirSync(profile);
  mkdirSync(join(picks, 'real', 'sub'), { recursive: true });
  symlinkSync('real', join(picks, 'link'));
  writeFileSync(join(picks, 'file.txt'), 'x');
  const file = join(profile, LAST_FOLDER_FILE);
  writeFileSync(file, input);
  let h = 5;
  for (const b of input) h = (h * 33 + b) >>> 0;
  const held = parseLastFolder(new TextDecoder().decode(input));
  const spec = ANSWERS[h % ANSWERS.length];
  const answer = spec === 'held' ? ('folder' in held ? held.folder : '/') : spec.replace(/^@/, picks);
  const isFolder = (h >>> 8) % 2 === 0;
  const folder = isFolder ? answer : dirname(answer);
  const pickedFrom = namesIn(picks);
  let remembered: boolean;
  try {
    const store = createLastFolderStore(profile);
    if (isFolder) store.rememberFolderChosen(answer);
    else store.rememberFileChosen(answer);
    remembered = keepable(folder);
    if (remembered) {
      const warnings: string[] = [];
      const again = createLastFolderStore(profile, (m) => warnings.push(m));
      must(warnings.length === 0, `the folder chosen does not read back: ${warnings[0]?.slice(0, 200)}`);
      const offered = again.folder();
      must(
        offered === (isFolderNow(folder) ? folder : undefined),
        `chose ${JSON.stringify(folder).slice(0, 100)}, offered ${JSON.stringify(offered)?.slice(0, 100)}`,
      );
    } else
      must(
        equalBytes(new Uint8Array(readFileSync(file)), input),
        `${JSON.stringify(folder).slice(0, 100)} changed the file`,
      );
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', describeThrown(e));
  }
  must(namesIn(profile).join() === LAST_FOLDER_FILE, `left in the store's folder: ${namesIn(profile).join(', ')}`);
  must(namesIn(picks).join() === pickedFrom.join(), `the folder chosen from changed: ${namesIn(picks).join(', ')}`);
  return remembered ? 'accepted' : 'rejected';
}

export const lastFolderPickTarget: FuzzTarget = {
  name: 'last-folder-pick',
  ext: 'json',
  seeds: lastFolderTarget.seeds,
  mutate: lastFolderTarget.mutate,
  run: (input) => withScratch('last-folder-pick', ({ state }) => runIn(state, input)),
};
