/**
 * The commit journal and lock (build/commit.ts, build/commitLock.ts) read as what they are: files
 * in a folder the user may have received from anyone. A journal is acted on
 * only when it provably belongs to the outputs being written now; a lock
 * blocks only while it is plausibly held. See docs/safety-journal.md.
 */
import * as nodeFs from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { quoteJson } from '../../shared/errors';
import { notPlainFile } from '../fsutil';

/** The journal: which temps replace which targets, and the backups of the old files. */
export interface Journal {
  tool: 'actguy commit';
  version: 2;
  /** 'forward': install the temps; 'back': restore the backups. */
  state: 'forward' | 'back';
  /** The whole output set the journal was written for (absolute paths, in commit order). */
  outputs: string[];
  /** One per output, in the same order: `path` is `outputs[k]`. */
  entries: { path: string; temp: string; backup: string | null }[];
}

export const JOURNAL_VERSION = 2;

/** A value from a hostile file for a message: a string quoted, anything else as JSON; clipped. */
function quoteClipped(value: unknown, max = 120): string {
  const clip = (s: string) => (s.length > max ? `${s.slice(0, max)}…` : s);
  if (typeof value === 'string') return quoteJson(clip(value), Infinity);
  if (typeof value !== 'object' || value === null)
    return clip(value === undefined ? 'nothing' : quoteJson(value, Infinity));
  return Array.isArray(value) ? 'a list' : 'an object';
}

/**
 * The largest journal this tool could have written for `outputs`: each path
 * appears four times (outputs, path, temp, backup), at most 6 bytes per
 * character once JSON-escaped, a temp suffix of at most 300 more.
 */
export function journalByteLimit(outputs: readonly string[]): number {
  return 1024 + outputs.reduce((n, p) => n + 4 * (6 * p.length + 300) + 100, 0);
}

/** The names a temp or backup of `path` has: `<path>.actguy-<kind>.<host>.<pid>.<random>.tmp` (tempFiles.ts). */
const TEMP_TAIL = /^[A-Za-z0-9-]{0,253}\.\d{1,10}\.[0-9a-z]{1,12}\.tmp$/;
function isOwnTempOf(path: string, candidate: string, kind: 'new' | 'old'): boolean {
  const prefix = `${path}.actguy-${kind}.`;
  return candidate.startsWith(prefix) && TEMP_TAIL.test(candidate.slice(prefix.length));
}

/** A file-system identity for "the entry `basename` in this folder": the folder's dev+ino (links followed) and the name. */
function entryIdentity(path: string): string | undefined {
  try {
    const d = nodeFs.statSync(dirname(path), { bigint: true });
    return `${d.dev}:${d.ino}/${basename(path)}`;
  } catch {
    return undefined;
  }
}

/** `path` spelled from the real path of its folder (links resolved), or undefined when the folder cannot be resolved. */
function realSpelling(path: string): string | undefined {
  try {
    return join(nodeFs.realpathSync(dirname(path)), basename(path));
  } catch {
    return undefined;
  }
}

/** What is wrong with a journal, in words; the caller says which journal and what to do. */
export class JournalProblem extends Error {}

/**
 * Parses and checks a journal against the outputs this run writes
 * (`outputs`: absolute paths). Returns it only when every entry is provably
 * ours for exactly these outputs; throws JournalProblem otherwise. Reads the
 * file system (identities, lstat) but never changes it.
 */
export function checkJournal(text: string, outputs: readonly string[]): Journal {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new JournalProblem(`it is not valid JSON (${(e as Error).message.slice(0, 200)})`);
  }
  if (!isObject(raw) || raw.tool !== 'actguy commit') throw new JournalProblem('it is not an ActGuy commit journal');
  if (raw.version !== JOURNAL_VERSION || !Array.isArray(raw.outputs))
    throw new JournalProblem(
      `it does not name the outputs it belongs to (journal version ${quoteClipped(raw.version, 20)}; this ActGuy writes version ${JOURNAL_VERSION})`,
    );
  if (raw.state !== 'forward' && raw.state !== 'back')
    throw new JournalProblem(`its state ${quoteClipped(raw.state, 40)} is neither "forward" nor "back"`);
  const listed = raw.outputs;
  if (!Array.isArray(raw.entries) || raw.entries.length !== listed.length)
    throw new JournalProblem(
      `it lists ${listed.length} output(s) but ${Array.isArray(raw.entries) ? raw.entries.length : 'no list of'} entries`,
    );
  if (listed.length !== outputs.length)
    throw new JournalProblem(
      `it was written for ${listed.length} output(s), and this run writes ${outputs.length}: ${outputs.map((o) => quoteClipped(o)).join(', ')}`,
    );

  // Every output of this run, as this run spells it and as the real path of its folder spells it (how this tool
  // writes them, whichever run wrote the journal); each journal output must be one of them, each at most once. The
  // same files by another spelling prove nothing: a link may lead wherever the reader is, so a journal naming
  // `/proc/self/cwd/out/stage.mar` is about the outputs of whoever builds from the project folder, and its writer
  // needed to know nothing of where they lie (docs/security.md, round 13).
  const wanted = new Map<string, string>();
  const identities = new Set<string>();
  for (const o of outputs) {
    wanted.set(o, o);
    const real = realSpelling(o);
    if (real !== undefined) wanted.set(real, o);
    const id = entryIdentity(o);
    if (id) identities.add(id);
  }
  const entries: Journal['entries'] = [];
  const seen = new Set<string>();
  listed.forEach((path: unknown, k: number) => {
    const where = `output ${k + 1}`;
    if (typeof path !== 'string') throw new JournalProblem(`${where} is ${quoteClipped(path, 40)}, not a path`);
    if (!isAbsolute(path) || resolve(path) !== path)
      throw new JournalProblem(`${where} ${quoteClipped(path)} is not an absolute path as this tool writes them`);
    const output = wanted.get(path);
    if (output === undefined) {
      const id = entryIdentity(path);
      throw new JournalProblem(
        id !== undefined && identities.has(id)
          ? `${where} ${quoteClipped(path)} names an output of this run by another spelling (through a link); ActGuy acts only on a journal that spells its outputs as it writes them`
          : `${where} ${quoteClipped(path)} is not one of the outputs of this run`,
      );
    }
    if (seen.has(output)) throw new JournalProblem(`${where} ${quoteClipped(path)} is listed twice`);
    seen.add(output);
    const e: unknown = (raw.entries as unknown[])[k];
    if (!isObject(e)) throw new JournalProblem(`entry ${k + 1} is not an object`);
    if (e.path !== path)
      throw new JournalProblem(`entry ${k + 1} is for ${quoteClipped(e.path)}, not ${quoteClipped(path)}`);
    if (typeof e.temp !== 'string' || !isOwnTempOf(path, e.temp, 'new'))
      throw new JournalProblem(
        `entry ${k + 1}: ${quoteClipped(e.temp)} is not a temp file of ${quoteClipped(path)} (${basename(path)}.actguy-new.….tmp beside it)`,
      );
    if (e.backup !== null && (typeof e.backup !== 'string' || !isOwnTempOf(path, e.backup, 'old')))
      throw new JournalProblem(
        `entry ${k + 1}: ${quoteClipped(e.backup)} is not a backup of ${quoteClipped(path)} (${basename(path)}.actguy-old.….tmp beside it)`,
      );
    for (const p of [path, e.temp, e.backup]) {
      if (p === null) continue;
      let st: nodeFs.Stats;
      try {
        st = nodeFs.lstatSync(p);
      } catch {
        continue; // absent: nothing to install from, or nothing there yet
      }
      const kind = notPlainFile(st);
      if (kind) throw new JournalProblem(`entry ${k + 1}: ${quoteClipped(p)} is not a plain file (${kind})`);
    }
    entries.push({ path, temp: e.temp, backup: e.backup });
  });
  return {
    tool: 'actguy commit',
    version: JOURNAL_VERSION,
    state: raw.state,
    outputs: entries.map((e) => e.path),
    entries,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Who holds a lock, as its file says: `<host> <pid> <milliseconds since 1970> [<process start>]`. */
export interface LockHolder {
  host: string;
  pid: number;
  /** The holder's process start (tempFiles.ts processStart), where its system could tell it. */
  start?: string;
  /** When it was taken: the date it records, or its file's change time when that is earlier (a date in the future is not believed). */
  sinceMs: number;
  /** The recorded date is later than now. */
  futureDated: boolean;
}

export const LOCK_MAX_BYTES = 512;
const LOCK_TEXT = /^([A-Za-z0-9-]{1,253}) ([1-9][0-9]{0,9}) ([0-9]{1,16})(?: ([0-9a-f.-]{1,100}))?$/;

/** Parses a lock file's text; undefined for an empty lock (its writer has not written it yet, or died doing so). */
export function parseLock(text: string, ctimeMs: number, now: number): LockHolder | undefined {
  if (text === '') return undefined;
  const m = LOCK_TEXT.exec(text);
  if (!m)
    throw new JournalProblem(
      `it is not an ActGuy lock (${quoteClipped(text, 60)}; a lock reads "<host> <process id> <time>")`,
    );
  const recorded = Number(m[3]);
  return {
    host: m[1],
    pid: Number(m[2]),
    start: m[4],
    sinceMs: Math.min(recorded, ctimeMs),
    futureDated: recorded > now,
  };
}
