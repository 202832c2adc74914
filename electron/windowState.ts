/**
 * The main window's size, position and maximised state, kept between runs in
 * `<userData>/window-state.json` (docs/install.md#where-actguy-keeps-things).
 *
 * The file is read back as untrusted input: anything that is not a plausible
 * window (wrong types, absurd sizes) is set aside with a warning, and a
 * position on no connected screen (a monitor unplugged since) is dropped so
 * the window opens centred on the primary screen, never out of reach. The
 * first window fits the primary screen's work area, down to 1366x768.
 */
import { join } from 'node:path';
import { parseJsonObject } from '../shared/project/jsonPosition';
import { readSmallFile, writeFileAtomic } from './fsutil';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is saved: the window's normal (not maximised) bounds, and whether it was maximised. */
export interface SavedWindowState extends Rect {
  maximized: boolean;
}

/** What the window opens with: no x/y means centred by the OS. */
export interface InitialWindow {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** The size a first window asks for, when the screen has room. */
export const PREFERRED_SIZE = { width: 1400, height: 900 };
/** The window's minimum size (BrowserWindow minWidth/minHeight): fits a 1366x768 screen with a taskbar. */
export const MIN_SIZE = { width: 900, height: 600 };
/** Bigger saved sizes are not a window (a corrupt or hand-edited file). */
const MAX_SIDE = 32768;
/** How much of the title bar must be on a screen for a saved position to be kept. */
const REACHABLE = { width: 120, height: 40 };

export const WINDOW_STATE_FILE = 'window-state.json';
/** A window state is some 100 bytes; a larger file is not one. */
const WINDOW_STATE_MAX_BYTES = 64 * 1024;

/** The saved state in `text`, or a reason it is not one. */
export function parseWindowState(text: string): SavedWindowState | { problem: string } {
  const parsed = parseJsonObject(text);
  if ('problem' in parsed) return parsed;
  const o = parsed.object;
  for (const k of ['x', 'y', 'width', 'height'] as const) {
    if (typeof o[k] !== 'number' || !Number.isInteger(o[k]) || Math.abs(o[k] as number) > MAX_SIDE)
      return { problem: `${k} is not a whole number of pixels within ±${MAX_SIDE}` };
  }
  const width = o.width as number;
  const height = o.height as number;
  if (width < MIN_SIZE.width || height < MIN_SIZE.height)
    return { problem: `size ${width}x${height} is below the window's minimum ${MIN_SIZE.width}x${MIN_SIZE.height}` };
  if (typeof o.maximized !== 'boolean') return { problem: 'maximized is not true or false' };
  return { x: o.x as number, y: o.y as number, width, height, maximized: o.maximized };
}

/** The part of `a` inside `b`. */
function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/** A size that fits `area`, no bigger than `wanted` and no smaller than the minimum. */
function fit(wanted: { width: number; height: number }, area: Rect): { width: number; height: number } {
  return {
    width: Math.max(MIN_SIZE.width, Math.min(wanted.width, area.width)),
    height: Math.max(MIN_SIZE.height, Math.min(wanted.height, area.height)),
  };
}

/**
 * Where the window opens: the saved bounds when their title bar is on one of
 * the screens' work areas (`workAreas`), shrunk to that screen; else a window
 * of the saved (or preferred) size fitted to the primary work area, centred.
 */
export function initialWindow(
  saved: SavedWindowState | null,
  workAreas: readonly Rect[],
  primary: Rect,
): InitialWindow {
  if (!saved) return { ...fit(PREFERRED_SIZE, primary), maximized: false };
  const titleBar: Rect = { x: saved.x, y: saved.y, width: saved.width, height: REACHABLE.height };
  const screen = workAreas.find((area) => {
    const o = overlap(titleBar, area);
    return o.width >= Math.min(REACHABLE.width, saved.width) && o.height >= REACHABLE.height;
  });
  if (!screen) return { ...fit(saved, primary), maximized: saved.maximized };
  const size = fit(saved, screen);
  // Shrunk to the screen, the window is moved back onto it where it would stick out.
  const x = Math.min(Math.max(saved.x, screen.x), screen.x + screen.width - size.width);
  const y = Math.min(Math.max(saved.y, screen.y), screen.y + screen.height - size.height);
  return { x, y, ...size, maximized: saved.maximized };
}

/** Reads `<dir>/window-state.json`: null when there is none, or (with a warning) when it is not a window state. */
export function readWindowState(dir: string, warn: (message: string) => void): SavedWindowState | null {
  const file = join(dir, WINDOW_STATE_FILE);
  // Read as a file from a stranger: a FIFO in its place must not hold the start-up, nor a huge file fill memory.
  const read = readSmallFile(file, WINDOW_STATE_MAX_BYTES);
  if (read === undefined) return null;
  if ('problem' in read) {
    warn(`${file}: cannot be read (${read.problem}); the window opens at its default size`);
    return null;
  }
  const parsed = parseWindowState(read.text);
  if ('problem' in parsed) {
    warn(`${file}: set aside, ${parsed.problem}; the window opens at its default size`);
    return null;
  }
  return parsed;
}

/** Saves the window state atomically; a failure is only a warning (the next run opens at the default size). */
export function writeWindowState(dir: string, state: SavedWindowState, warn: (message: string) => void): void {
  try {
    writeFileAtomic(join(dir, WINDOW_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { own: true });
  } catch (e) {
    warn(`the window's size and position were not saved: ${e instanceof Error ? e.message : String(e)}`);
  }
}
