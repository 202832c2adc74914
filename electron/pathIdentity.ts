/**
 * Whether two spellings name the same file: `./a.mtn`, `a.mtn`, `/abs/a.mtn`,
 * a symbolic link to it, a hard link, and `A.MTN` on a case-insensitive file
 * system are all one file. Every command that writes refuses an output that is
 * one of its inputs or another of its outputs; the CLI and
 * the app's save/export/build share this check.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { quotePath } from './pathPolicy';
import { outputNameLengthProblem } from './tempFiles';
import { foldName } from '../shared/foldedNames';

/** A path the user gave, with what it is for ("the input", "-o", "--report"). */
export interface RolePath {
  path: string;
  role: string;
}

/** An output that would destroy an input or another output; the message names both paths as the user wrote them. */
export class OutputClashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputClashError';
  }
}

interface Identity {
  /** dev:ino of an existing file (catches hard links and case-insensitive spellings). */
  inode?: string;
  /** Canonical path of the file (links resolved), folded to lower case where the folder ignores case. */
  key: string;
  /** Its folder does not exist yet, so whether it ignores case cannot be asked. */
  caseUnknown: boolean;
}

/** Whether the folder `dir` (which exists) treats names case-insensitively: its own name in other case resolves to it. */
function folderIgnoresCase(dir: string): boolean {
  const name = basename(dir);
  const swapped = swapCase(name);
  if (swapped === name) {
    // No letters in the folder's name: probe with an entry of the folder instead.
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return false;
    }
    const entry = entries.find((e) => swapCase(e) !== e);
    if (!entry) return false;
    try {
      const a = statSync(join(dir, entry));
      const b = statSync(join(dir, swapCase(entry)));
      return a.ino === b.ino && a.dev === b.dev;
    } catch {
      return false;
    }
  }
  try {
    const a = statSync(dir);
    const b = statSync(join(dirname(dir), swapped));
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

function swapCase(s: string): string {
  let out = '';
  for (const ch of s) out += ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
  return out;
}

/** Canonical path of `path`: links resolved in the longest existing prefix (the file itself may not exist yet). */
function canonicalFilePath(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync.native(abs);
  } catch {
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(canonicalFilePath(parent), basename(abs));
  }
}

/**
 * The identity of `path`. `caseFolders` remembers, for one check, which folders ignore case: a build's inputs
 * mostly share a few folders, and each answer costs two stats.
 */
function identityOf(path: string, caseFolders = new Map<string, boolean | null>()): Identity {
  const canon = canonicalFilePath(path);
  const inode = fileInode(canon);
  let key = canon;
  // A file that does not exist yet: two spellings differing in case still collide where its folder ignores case.
  const parent = dirname(canon);
  let ignoresCase = caseFolders.get(parent);
  if (ignoresCase === undefined) {
    try {
      ignoresCase = lstatSync(parent).isDirectory() && folderIgnoresCase(parent);
    } catch {
      ignoresCase = null; // the folder does not exist yet: its case rule cannot be asked
    }
    caseFolders.set(parent, ignoresCase);
  }
  // Such a folder (macOS) also takes a name's Unicode forms for one (`é` as one code point or two), and letters
  // that share an upper case (`ı`, `i`): the projects' fold (shared/foldedNames.ts).
  if (ignoresCase) key = join(parent, foldName(basename(canon)));
  return { inode, key, caseUnknown: ignoresCase === null };
}

/** `dev:ino` of an existing file (links followed) that is not a folder; undefined for a folder or one not there yet. */
function fileInode(path: string): string | undefined {
  try {
    const st = statSync(path);
    return st.isDirectory() ? undefined : `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

function same(a: Identity, b: Identity): boolean {
  return (a.inode !== undefined && a.inode === b.inode) || a.key === b.key;
}

/** Whether two paths name the same file (after links, `./`, case on case-insensitive folders, hard links). */
export function sameFile(a: string, b: string): boolean {
  return same(identityOf(a), identityOf(b));
}

/**
 * The clashes among a command's paths: each output that is one of the inputs
 * or an earlier output, as messages naming the user's spellings. Empty when
 * every output is a file of its own.
 */
export function findOutputClashes(inputs: readonly RolePath[], outputs: readonly RolePath[]): string[] {
  // A name or path with no room for the files written beside it fails only at the write, after the work, with
  // ENAMETOOLONG naming a file the user never named: refused here, before any (docs/security.md, round 12).
  const tooLong = outputs.flatMap((o) => {
    const problem = outputNameLengthProblem(o.path);
    return problem ? [`${o.role}: ${problem}; nothing was written`] : [];
  });
  if (tooLong.length) return tooLong;
  const caseFolders = new Map<string, boolean | null>();
  const outIds = outputs.map((o) => ({ ...o, id: identityOf(o.path, caseFolders) }));
  // Where every output is an existing file (a rebuild), an input that is an existing file of another dev:ino is
  // none of them: writing an output replaces the file at its path, never that input. Such an input is settled by
  // one stat; the others (a folder, one not there, one of an output's dev:ino) get their whole identity.
  const outInodes = new Set<string>();
  for (const o of outIds) if (o.id.inode !== undefined) outInodes.add(o.id.inode);
  const settledByStat = outInodes.size > 0 && outIds.every((o) => o.id.inode !== undefined);
  const inIds: (RolePath & { id: Identity })[] = [];
  for (const i of inputs) {
    if (settledByStat) {
      const inode = fileInode(i.path);
      if (inode !== undefined && !outInodes.has(inode)) continue;
    }
    inIds.push({ ...i, id: identityOf(i.path, caseFolders) });
  }
  const problems: string[] = [];
  outIds.forEach((o, k) => {
    const input = inIds.find((i) => same(i.id, o.id));
    if (input) {
      problems.push(`${o.role} ${o.path} is ${input.role} ${input.path}; an output never overwrites an input`);
      return;
    }
    const earlier = outIds.slice(0, k).find((p) => same(p.id, o.id));
    if (earlier) {
      problems.push(`${o.role} ${o.path} is also ${earlier.role} ${earlier.path}; each output needs a file of its own`);
      return;
    }
    // Two names that differ only in Unicode form (`café` with `é` as one code point or as `e` + U+0301) print alike
    // and are one file on macOS, whatever this disk does: refused everywhere, as a project travels (round 11).
    const lookalike = outIds.slice(0, k).find((p) => p.id.key.normalize('NFC') === o.id.key.normalize('NFC'));
    if (lookalike) {
      problems.push(
        `${o.role} ${quotePath(o.path)} and ${lookalike.role} ${quotePath(lookalike.path)} differ only in the Unicode form of their ` +
          'names (they look alike, and macOS takes them for one file); give the outputs names that differ in more than that',
      );
      return;
    }
    // Where the folder is yet to be made, it may ignore case (macOS, Windows): two names differing only in case are one file there.
    const unlike = outIds
      .slice(0, k)
      .find((p) => (p.id.caseUnknown || o.id.caseUnknown) && foldName(p.id.key) === foldName(o.id.key));
    if (unlike)
      problems.push(
        `${o.role} ${o.path} and ${unlike.role} ${unlike.path} differ only in letter case, and their folder does not exist yet ` +
          '(where it ignores case they are one file); give the outputs names that differ in more than case',
      );
  });
  return problems;
}

/** Throws OutputClashError (all clashes, one per line) when an output would overwrite an input or another output. */
export function refuseOutputClashes(inputs: readonly RolePath[], outputs: readonly RolePath[]): void {
  const problems = findOutputClashes(inputs, outputs);
  if (problems.length) throw new OutputClashError(problems.join('\n'));
}

/** The first of `inputs` that `output` would overwrite, or null (the app's saves, exports and builds ask this). */
export function inputOverwrittenBy(output: string, inputs: readonly string[]): string | null {
  for (const input of inputs) if (sameFile(output, input)) return input;
  return null;
}

/** Refuses a save or export onto a file the document was read from (its .mt3/.mar, skeleton or import source), however spelled. */
export function refuseOverwritingInput(verb: 'save' | 'export', path: string, inputs: readonly string[]): void {
  const input = inputOverwrittenBy(path, inputs);
  if (input !== null)
    throw new Error(
      `Could not ${verb} ${quotePath(path)}: it is ${quotePath(input)}, a file this motion was read from; choose another name (nothing was written)`,
    );
}
