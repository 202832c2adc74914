/**
 * Fuzz target `window-state`: the main window's size and place, `<userData>/window-state.json`
 * (electron/windowState.ts), as anyone who can write the user profile could leave it. Each input is written to a
 * scratch folder and read as the app reads it at start-up (readWindowState), then placed on a set of screens
 * (initialWindow).
 *
 * Judged: any throw is a crash; a state kept must be a window (whole pixels within ±32768, at least the minimum
 * size, maximized true or false) that survives its own file (written by writeWindowState and read again: the same
 * state, without a word), and the window it opens must be whole, at least the minimum size and, when placed, on a
 * screen. A state set aside must be said with a message naming the file. Nothing may be written outside the
 * store's folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  initialWindow,
  MIN_SIZE,
  readWindowState,
  WINDOW_STATE_FILE,
  writeWindowState,
  type Rect,
  type SavedWindowState,
} from '../../electron/windowState';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import { mustLocate, namesIn, withScratch } from './scratch';

const TOKENS = ['1e309', '-0', '0.5', '32768', '32769', '-32768', 'null', '"true"', '900', '599', '"x"', '1e-7'];
const STRINGS = ['true', 'false', '1400', 'NaN', 'Infinity', '-Infinity', '0x10', ' 900', '\u202e900'];

/** A primary screen and one to its left, as Electron reports work areas. */
const PRIMARY: Rect = { x: 0, y: 0, width: 1920, height: 1040 };
const SCREENS: Rect[] = [PRIMARY, { x: -1366, y: 200, width: 1366, height: 728 }];

function seeds(): Uint8Array[] {
  const states: SavedWindowState[] = [
    { x: 120, y: 80, width: 1400, height: 900, maximized: false },
    { x: -1300, y: 260, width: 1200, height: 700, maximized: true },
  ];
  return states.map((s) =>
    withScratch('window-seed', ({ state }) => {
      writeWindowState(state, s, () => undefined);
      return new Uint8Array(readFileSync(join(state, WINDOW_STATE_FILE)));
    }),
  );
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const whole = (v: unknown) => Number.isSafeInteger(v);

function runIn(dir: string, input: Uint8Array): Outcome {
  const file = join(dir, WINDOW_STATE_FILE);
  writeFileSync(file, input);
  const warnings: string[] = [];
  let saved: SavedWindowState | null;
  try {
    saved = readWindowState(dir, (m) => warnings.push(m));
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (saved === null) {
    must(warnings.length === 1, `set aside with ${warnings.length} warnings`);
    if (!warnings[0].startsWith(`${file}: `))
      throw new FuzzDefect('unnamed', `warning not naming ${file}: ${warnings[0].slice(0, 200)}`);
    mustLocate(warnings[0]);
  } else {
    must(warnings.length === 0, `kept, with the warning ${warnings[0]}`);
    for (const k of ['x', 'y', 'width', 'height'] as const)
      must(whole(saved[k]) && Math.abs(saved[k]) <= 32768, `kept ${k} ${saved[k]}`);
    must(saved.width >= MIN_SIZE.width && saved.height >= MIN_SIZE.height, `kept ${saved.width}x${saved.height}`);
    must(typeof saved.maximized === 'boolean', `kept maximized ${String(saved.maximized)}`);
    const keys = Object.keys(saved).sort().join();
    must(keys === 'height,maximized,width,x,y', `kept the keys ${keys}`);
    writeWindowState(dir, saved, (m) => warnings.push(m));
    const again = readWindowState(dir, (m) => warnings.push(m));
    must(warnings.length === 0 && JSON.stringify(again) === JSON.stringify(saved), 'the state kept reads back another');
  }
  const w = initialWindow(saved, SCREENS, PRIMARY);
  must(
    whole(w.width) && whole(w.height) && w.width >= MIN_SIZE.width && w.height >= MIN_SIZE.height,
    `opens a ${w.width}x${w.height} window`,
  );
  if (w.x !== undefined || w.y !== undefined) {
    must(whole(w.x) && whole(w.y), `opens at ${w.x},${w.y}`);
    const on = SCREENS.some((s) => w.x! >= s.x && w.y! >= s.y && w.x! < s.x + s.width && w.y! + 40 <= s.y + s.height);
    must(on, `opens at ${w.x},${w.y}, on no screen`);
  }
  const left = namesIn(dir);
  must(left.join() === WINDOW_STATE_FILE, `files left in the store's folder: ${left.join(', ')}`);
  return saved === null ? 'rejected' : 'accepted';
}

export const windowStateTarget: FuzzTarget = {
  name: 'window-state',
  ext: 'json',
  seeds,
  mutate,
  run: (input) => withScratch('window', ({ state }) => runIn(state, input)),
};
