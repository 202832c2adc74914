/**
 * Fuzz target `picker-folders` (added 2026-12-06): the browser build's remembered picker folders as the preferences
 * keep them (localStorage `actguy.preferences`, `pickerFolders`: renderer/state/rememberedFolders.ts, read by the real
 * store as `preferences` reads it), then where a picker starts from them (renderer/app/pickerFolders.ts
 * pickerStartFolder) and what a pick remembers (rememberPickerFolder, with a chosen path and a kind of picker drawn
 * from the input's bytes: inside the workspace, outside it, beside its root, through `..`, with a direction mark).
 *
 * Judged: any throw is a crash; the folders kept, before and after the pick, are at most 32, each under a kind of
 * 1 to 16 lower-case letters and digits, each '' (the root) or a path relative to the workspace of at most 1024
 * characters with '/' between names, none empty, `.` or `..`, no backslash, no control or invisible character
 * (checked here, not with the reader's own test); a picker starts in the root or a folder the listing gives now; and
 * what the pick leaves survives its own storage (stored, read by a fresh store: the same folders), so the app never
 * remembers what it sets aside at the next start. Accepted: some folder kept from the input; rejected: none.
 */
import { HIDDEN_CHARACTERS } from '../../shared/errors';
import { pickerStartFolder, rememberPickerFolder, workspaceFolderOf } from '../../renderer/app/pickerFolders';
import { preferencesStore } from '../../renderer/state/preferencesStore';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { startOn, stored } from './preferencesTarget';

const ROOT = '/w/motions';
/** The workspace listing's folders (no link to a folder, nothing under one, nothing outside). */
const LISTED = ['out', 'out/msh', 'takes', 'a b', 'é', 'takes/2026'];
const TOKENS = ['""', '"."', '".."', '"/"', '"out"', '"out/msh"', 'null', '1', '{}', '[]', '"mtn": "out", "mtn"'];
const STRINGS = [
  'out',
  'out/msh',
  'takes',
  '',
  '.',
  '..',
  '../outside',
  'out/../..',
  '/etc',
  'C:\\motions',
  'out\\msh',
  'out//msh',
  'out/',
  'a\u202eb',
  'a\u200bb',
  'a\u0000b',
  'gone',
  'x'.repeat(1025),
  'mtn',
  'res8',
  'MTN',
  'nodes.json',
  '__proto__',
  'k'.repeat(17),
];

/** The pickers' kinds of file (their extension lists) a pick is made with. */
const PICKERS = [['mtn', 'mt3', 'mar'], ['res8', 'res19', 'json'], ['json'], ['glb'], ['sev'], ['wav', 'ogg'], []];

function seeds(): Uint8Array[] {
  const { state } = startOn(null);
  return [
    { mtn: 'takes', res8: 'out/msh', glb: '', json: 'a b' },
    { mtn: 'out', sev: 'takes/2026', wav: 'é' },
  ].map(
    (pickerFolders) =>
      new Uint8Array(Buffer.from(JSON.stringify({ state: { ...stored(state), pickerFolders }, version: 1 }))),
  );
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** A folder of the form the picker remembers, by this target's own reading of it. */
function rememberable(f: string): boolean {
  if (f === '') return true;
  return (
    f.length <= 1024 &&
    !f.includes('\\') &&
    !HIDDEN_CHARACTERS.test(f) &&
    f.split('/').every((p) => p !== '' && p !== '.' && p !== '..')
  );
}

function checkKept(folders: unknown, when: string): Record<string, string> {
  must(typeof folders === 'object' && folders !== null && !Array.isArray(folders), `${when}: not an object`);
  const entries = Object.entries(folders as Record<string, unknown>);
  must(entries.length <= 32, `${when}: ${entries.length} kinds kept`);
  for (const [k, f] of entries) {
    must(/^[a-z0-9]{1,16}$/.test(k), `${when}: the kind ${JSON.stringify(k).slice(0, 40)}`);
    must(typeof f === 'string' && rememberable(f), `${when}: ${k} -> ${JSON.stringify(f).slice(0, 80)}`);
  }
  return folders as Record<string, string>;
}

/** A number from the input's bytes, for the choices the input does not spell. */
function hashOf(input: Uint8Array): number {
  let h = 7;
  for (const b of input) h = (h * 33 + b) >>> 0;
  return h;
}

function run(input: Uint8Array): Outcome {
  const text = Buffer.from(input).toString('utf8');
  try {
    const kept = checkKept(startOn(text).state.pickerFolders, 'read back');
    const values = Object.values(kept);
    for (const kind of [...Object.keys(kept), 'mtn', 'zzz']) {
      const near = values.length ? values[(hashOf(input) >>> 4) % values.length] : undefined;
      const documentFolder = near === undefined ? undefined : workspaceFolderOf(ROOT, `${ROOT}/${near}/walk.mtn`);
      const start = pickerStartFolder(LISTED, kept[kind], documentFolder);
      must(start === '' || LISTED.includes(start), `a ${kind} picker starts in ${JSON.stringify(start).slice(0, 80)}`);
    }
    // A pick over what was read back: where, of which kind, a file or the folder itself, from the input's bytes.
    const h = hashOf(input);
    const inside = values.map((v) => `${ROOT}/${v}`);
    const places = [
      ...inside,
      ROOT,
      `${ROOT}/`,
      `${ROOT}/out/msh`,
      '/elsewhere',
      `${ROOT}/..`,
      `${ROOT}x`,
      `${ROOT}/a\u202eb`,
      `${ROOT}/a//b`,
      `${ROOT}/./out`,
      `${ROOT}\\win`,
      '/',
    ];
    const place = places[h % places.length];
    const isFolder = (h >>> 8) % 3 === 0;
    preferencesStore.setState({ pickerFolders: kept });
    rememberPickerFolder(PICKERS[(h >>> 12) % PICKERS.length], ROOT, isFolder ? place : `${place}/x.res8`, isFolder);
    const after = checkKept(preferencesStore.getState().pickerFolders, 'after a pick');
    const fresh = startOn(JSON.stringify({ state: { ...stored(preferencesStore.getState()) }, version: 1 }));
    must(
      JSON.stringify(fresh.state.pickerFolders) === JSON.stringify(after),
      `remembered ${JSON.stringify(after).slice(0, 120)}, read back as ${JSON.stringify(fresh.state.pickerFolders).slice(0, 120)}`,
    );
    return values.length ? 'accepted' : 'rejected';
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', describeThrown(e));
  }
}

export const pickerFoldersTarget: FuzzTarget = { name: 'picker-folders', ext: 'json', seeds, mutate, run };
