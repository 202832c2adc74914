/**
 * A scratch folder per input for the targets that drive a real store on its own folder (the user-profile files:
 * recent files, window state, last folder, unsaved-work backups). Each input gets a fresh folder under /dev/shm (or the OS
 * temp folder), removed after it; the folder holds `state/` (the store's own folder) and `outside/` (a sentinel beside
 * it that no store may touch), so a target can judge that nothing was written outside the store's folder.
 */
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuzzDefect } from './judge';

export interface Scratch {
  /** The store's folder (Electron's userData, or its Backups folder). */
  state: string;
  /** A sentinel folder beside it, holding one file that must stay as it is. */
  outside: string;
}

/**
 * Where scratch folders go: memory where the system has it (the stores save atomically, with an fsync per file, which
 * on a disk made a run of 2000 inputs take 40 s instead of 4), else the OS temp folder.
 */
const SCRATCH_BASE = isWritableFolder('/dev/shm') ? '/dev/shm' : tmpdir();

function isWritableFolder(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const SENTINEL = 'sentinel.txt';
const SENTINEL_TEXT = 'no store writes here\n';

const OWN_NAME = /^actguy-fuzz-store-(\d+)-/;
let swept = false;

/**
 * Removes the scratch folders no running target uses: those of processes that are gone, and this process's earlier
 * ones (a worker stopped by the watchdog mid-input cannot remove its own; workers run one at a time).
 */
function sweepOldScratch(): void {
  swept = true;
  let names: string[];
  try {
    names = readdirSync(SCRATCH_BASE);
  } catch {
    return;
  }
  for (const name of names) {
    const m = OWN_NAME.exec(name);
    if (!m) continue;
    let gone = Number(m[1]) === process.pid;
    if (!gone)
      try {
        process.kill(Number(m[1]), 0);
      } catch (e) {
        gone = (e as NodeJS.ErrnoException).code === 'ESRCH';
      }
    if (gone) rmSync(join(SCRATCH_BASE, name), { recursive: true, force: true });
  }
}

function makeScratch(prefix: string): { root: string; s: Scratch } {
  if (!swept) sweepOldScratch();
  const root = mkdtempSync(join(SCRATCH_BASE, `actguy-fuzz-store-${process.pid}-${prefix}-`));
  const s = { state: join(root, 'state'), outside: join(root, 'outside') };
  mkdirSync(s.state);
  mkdirSync(s.outside);
  writeFileSync(join(s.outside, SENTINEL), SENTINEL_TEXT);
  return { root, s };
}

/** Nothing beside the store's folder made or changed. */
function checkScratch(root: string, s: Scratch): void {
  const names = readdirSync(root).sort();
  if (names.join() !== 'outside,state')
    throw new FuzzDefect('invalid', `a file was made beside the store's folder: ${names.join(', ')}`);
  const left = readdirSync(s.outside);
  if (left.join() !== SENTINEL || readFileSync(join(s.outside, SENTINEL), 'utf8') !== SENTINEL_TEXT)
    throw new FuzzDefect('invalid', `the folder beside the store's changed: ${left.join(', ')}`);
}

/** Runs `fn` in a fresh scratch folder, then checks the sentinel and removes the folder. */
export function withScratch<T>(prefix: string, fn: (s: Scratch) => T): T {
  const { root, s } = makeScratch(prefix);
  try {
    const out = fn(s);
    checkScratch(root, s);
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** withScratch for a store whose writes finish later (the backup store writes off the main thread). */
export async function withScratchAsync<T>(prefix: string, fn: (s: Scratch) => Promise<T>): Promise<T> {
  const { root, s } = makeScratch(prefix);
  try {
    const out = await fn(s);
    checkScratch(root, s);
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The names in `dir`, sorted. */
export const namesIn = (dir: string): string[] => readdirSync(dir).sort();

/** A refusal of text that is not JSON must say where it goes wrong (line and column), not only that it does. */
export function mustLocate(message: string): void {
  if (/not JSON/.test(message) && !/line \d+, column \d+/.test(message))
    throw new FuzzDefect('unnamed', `says "not JSON" without a place: ${message.slice(0, 200)}`);
}
