/**
 * Fuzz target `save-picker` (added 2026-12-05): the name typed in the browser build's save picker
 * (renderer/components/Dialogs.tsx savePickerName, existingSaveTarget), a folder or two before it allowed since round
 * 42. Each input is the text typed. Judged:
 * - rejected: a problem in words (a sentence);
 * - accepted: the name is '/'-separated parts, none empty, `.` or `..`, none holding a `\`, a control character or over
 *   255 bytes, not a full path, that lands inside the workspace folder; typed again it is the same name; and the file
 *   of the listing it is taken to replace (existingSaveTarget, asked before replacing) is the one at that name, or at
 *   that name with the picker's extension added, as the save names it.
 */
import { posix } from 'node:path';
import { existingSaveTarget, savePickerName } from '../../renderer/components/Dialogs';
import { choose, logLength, mutateText, pick, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

const PIECES = [
  '/',
  '\\',
  '//',
  '.',
  '..',
  './',
  '../',
  'C:',
  'c:\\',
  '\\\\host\\share\\',
  '~',
  '%2e%2e',
  'out',
  'msh',
  '.mtn',
  '.res8',
  'walk',
  '\u0000',
  '\u001b[31m',
  '\u007f',
  '\u202e',
  '\u200b',
  'é',
  ' ',
  '\t',
  'é'.repeat(128),
  'a'.repeat(255),
  'a'.repeat(256),
  'ＡＢ',
  '\ud800',
];

/** The listing the picker was given: files in the root and in folders, names that differ only in case or extension. */
const REQ = {
  extensions: ['mtn'],
  files: ['walk.mtn', 'out/run.mtn', 'out/Run.mtn', 'a b/c.mtn', 'walk.mtn.mtn', 'out/sub/deep.mtn', 'WALK.MTN'].map(
    (relativePath) => ({ path: `/ws/${relativePath}`, relativePath, extension: 'mtn', byteLength: 1 }),
  ),
};

function mutate(rnd: Rng, seed: Uint8Array): Uint8Array {
  let s = text(seed);
  const n = 1 + pick(rnd, 3);
  for (let k = 0; k < n; k++) {
    const at = pick(rnd, s.length + 1);
    switch (pick(rnd, 5)) {
      case 0:
        s = s.slice(0, at) + choose(rnd, PIECES) + s.slice(at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + logLength(rnd, 16));
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at).repeat(1 + pick(rnd, 4));
        break;
      case 3:
        s = choose(rnd, PIECES) + s;
        break;
      default:
        s = mutateText(rnd, s, PIECES, 4096);
    }
  }
  return utf8(s);
}

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function run(input: Uint8Array): Outcome {
  const typed = text(input);
  let checked: ReturnType<typeof savePickerName>;
  let target: ReturnType<typeof existingSaveTarget>;
  try {
    checked = savePickerName(typed);
    target = existingSaveTarget(REQ, typed);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if ('problem' in checked) {
    must(/^[A-Z"].*\.$/.test(checked.problem), `the problem is no sentence: ${JSON.stringify(checked.problem)}`);
    must(target === undefined, `refused, yet taken to replace ${target?.relativePath}`);
    return 'rejected';
  }
  const { name } = checked;
  const parts = name.split('/');
  for (const p of parts) {
    must(p !== '' && p !== '.' && p !== '..', `${JSON.stringify(name)} holds the part ${JSON.stringify(p)}`);
    // eslint-disable-next-line no-control-regex -- control characters are what it must not hold
    must(!/[\\\u0000-\u001f\u007f]/.test(p), `${JSON.stringify(name)} holds a backslash or a control character`);
    must(Buffer.byteLength(p) <= 255, `${JSON.stringify(name)} holds a part of ${Buffer.byteLength(p)} bytes`);
  }
  must(!/^[A-Za-z]:/.test(name), `${JSON.stringify(name)} starts with a drive`);
  must(posix.join('/ws', name).startsWith('/ws/'), `${JSON.stringify(name)} lands outside the workspace`);
  const again = savePickerName(name);
  must('name' in again && again.name === name, `${JSON.stringify(name)} typed again gives ${JSON.stringify(again)}`);
  if (target)
    must(
      target.relativePath === name || target.relativePath === `${name}.mtn`,
      `${JSON.stringify(typed)} saves ${name}, yet asks before replacing ${target.relativePath}`,
    );
  else
    must(
      !REQ.files.some((f) => f.relativePath === name || (!/\.mtn$/i.test(name) && f.relativePath === `${name}.mtn`)),
      `${JSON.stringify(typed)} saves over a listed file without asking`,
    );
  return 'accepted';
}

export const savePickerTarget: FuzzTarget = {
  name: 'save-picker',
  ext: 'txt',
  seeds: () => ['walk.mtn', 'out/run', './out//run.mtn', 'a b/c', 'msh/new.res8', 'walk'].map(utf8),
  mutate,
  run,
};
