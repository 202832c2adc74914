import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { escapeControls } from '../shared/errors';
import { PATH_MAX } from '../shared/fileSystemLimits';
import { normalizePath } from '../shared/project/paths';
import { isNetworkPath } from '../shared/windowsNames';
import { danglingLinkReason, danglingOutputProblem, entryKind } from './fsErrors';

/**
 * Which files the renderer may make the main process touch. The renderer is
 * untrusted (a compromised page, or any page over loopback), so access is
 * granted only by things the renderer cannot forge:
 *
 * - the workspace folder (`--workspace`, the loopback transport's root);
 * - files the user picked in a native dialog, handed over on the command
 *   line or by the OS, opened before (recent files), and the bundled sample;
 * - the files a project names, but only a project the user picked in a
 *   dialog and the main process read from disk itself (projectHandlers'
 *   grantProject) -- never project text the renderer sends;
 * - a sound folder the user picked (sound files only).
 *
 * A file the app opens by itself (the bundled sample at start-up) is allowed
 * for reading only, and so is the .sev beside it: the page can show it but
 * never write it, nor anything it names, until the user chooses a file.
 *
 * Every check resolves symbolic links (the longest existing prefix, and a
 * dangling link's target), so a link inside an allowed folder that points
 * outside it is refused like the outside path itself.
 */
export interface PathPolicy {
  /**
   * Allows one file (chosen in a dialog, named by a picked project, a recent file). With `readOnly` (a file the
   * user did not choose: the sample opened at start-up) it may be read but not written; a later full grant wins.
   * With `asJudged`, `path` is canonical as a look just made found it (Open Recent's judgement of a listed file,
   * recentFiles.ts openRecentFile) and is granted as it is, not resolved again: a link swapped in at the path since
   * that look grants nothing where it leads (docs/security.md, round 29). With `listed`, the file is granted only
   * because it is in File › Open Recent (the start-up grant of recent motions): `grantedAsListed` says so until a
   * full grant without `listed` (a dialog's pick, a drop, a file the OS hands over) makes it the user's choice.
   * With `beside`, the file is granted only because it lies beside an opened motion (its .sev, its tuning file):
   * `grantedBeside` says so until a grant without `beside` makes it chosen.
   */
  allowFile(
    path: string,
    options?: { readOnly?: boolean; asJudged?: boolean; listed?: boolean; beside?: boolean },
  ): void;
  /**
   * Whether `path` (as listed: canonical) is allowed only by a `listed` grant: no pick of it and no tree holds it. Such a
   * file is judged again whenever it is opened (handlers.ts openMotion; docs/security.md, round 30).
   */
  grantedAsListed(path: string): boolean;
  /**
   * Whether `path` (canonical folder, name as given) is allowed only by `beside` grants: no pick of it, no project's
   * naming, no other tree holds it. Such a file may have been replaced since its motion opened, and is judged on the
   * descriptor it is read from (besideFiles.ts; docs/security.md, round 31).
   */
  grantedBeside(path: string): boolean;
  /**
   * Allows every file under a directory: the workspace root, or with
   * `extensions` (lower case, no dot) only files of those types plus the
   * folder itself for listing (an audition sound folder). With `beside`, a `sounds/` folder beside an opened motion.
   */
  allowTree(root: string, options?: { extensions?: readonly string[]; beside?: boolean }): void;
  /**
   * Returns the canonical absolute path when `path` is allowed, else throws
   * PathNotAllowedError. For writes the file may not exist yet: its directory
   * must, and the file itself must be allowed or under an allowed tree. A write to a name granted as a file (a plain
   * file or none when it was chosen or opened) that is a symbolic link now is refused, and so is one to a path granted
   * as spelled that resolves elsewhere now (a folder on it made a link): the link was put there since, and the write
   * would land where it leads (docs/security.md, round 32). A write to a symbolic link to nothing is refused: it would
   * make the file the link names (docs/security.md, round 50).
   */
  check(path: string, purpose: 'read' | 'write'): string;
  /** Whether `path` is allowed (check without throwing). */
  isAllowed(path: string): boolean;
  /** Whether `path` is allowed for writing by a grant (not only for reading): its folder need not exist. */
  mayWrite(path: string): boolean;
  /** The allowed trees without an extension filter (canonical): the workspace. */
  trees(): string[];
}

/** Longest piece of a user's path quoted in a message: a hostile 1 MB path must not come back in every reply. */
const QUOTED_PATH_MAX = 300;

/**
 * A path for a message: as given, but at most QUOTED_PATH_MAX characters (its head and its tail), with its control
 * and hidden characters escaped (`escapeControls`): a folder a received archive made may hold a line break, an ESC
 * or a bidirectional override.
 */
export function quotePath(path: string): string {
  if (path.length <= QUOTED_PATH_MAX) return escapeControls(path);
  const half = Math.floor((QUOTED_PATH_MAX - 1) / 2);
  return escapeControls(`${path.slice(0, half)}…${path.slice(-half)}`);
}

/**
 * A line break in a name (LF, CR, U+2028, U+2029). The handlers name a file as its path is (`Could not read ${path}:
 * …`) and the reply keeps a message's own line breaks (escapeControlsKeepingLines), so a received file named
 * `walk<LF>Built 9 motions: ok<LF>x.sev` forged a line of its own in the message; no file name needs one, and the CLI
 * refuses such an argument (round 11). docs/security.md, round 53.
 */
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const lineBreakReason = (which: string) =>
  `${which} holds a line break, which would break the line of every message that names it; ActGuy reads and writes no such file: rename it`;

/** A path outside the allowed set. The message names the path and says what to do instead. */
export class PathNotAllowedError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`ActGuy refused to access ${quotePath(path)}: ${reason}`);
    this.name = 'PathNotAllowedError';
    this.path = path;
  }
}

/**
 * Why the folder of a write's `path` (`canon` resolved) is not there, naming what is: a FIFO or a file there, or a link
 * to nothing at the folder's name, was said as `its folder … does not exist` about a name `ls` lists, the link's
 * target named in its place (docs/security.md, round 49).
 */
function folderMissing(path: string, canon: string): string {
  const dir = dirname(canon);
  try {
    return `its folder ${quotePath(dir)} is ${entryKind(lstatSync(dir))}, not a folder`;
  } catch {
    // not there: a link to nothing on the way, or nothing
  }
  const given = dirname(resolve(path));
  const link = danglingLinkReason(given);
  return link
    ? `its folder ${quotePath(given)} ${link.replace(/^it /, '')}`
    : `its folder ${quotePath(dir)} does not exist`;
}

/** Symbolic links followed while resolving one path before it counts as a loop. */
const MAX_LINK_HOPS = 40;

/**
 * The real location of a path: symbolic links of the longest existing prefix
 * resolved, and a dangling link followed to where it points, so a file that
 * does not exist yet (or a link to one) gets the path a write would create.
 */
export function canonicalPath(path: string, hops = 0): string {
  const abs = resolve(path);
  try {
    return realpathSync.native(abs);
  } catch {
    // missing, or a dangling link: resolved below
  }
  // The deepest part of the path that exists, found by halving (a part exists only if every part above it does):
  // walking up one level at a time cost each level a copy of the whole path, so a project naming a missing
  // `a/a/a/…/x.sev` 4,000 levels deep took 1.5 s per path in the main process, and 16,000 levels overflowed the stack.
  const root = parse(abs).root;
  const parts = abs
    .slice(root.length)
    .split(sep)
    .filter((p) => p !== '');
  const upTo = (k: number) => root + parts.slice(0, k).join(sep);
  let found = 0;
  for (let missing = parts.length + 1; missing - found > 1;) {
    const mid = (found + missing) >> 1;
    if (lstatExists(upTo(mid))) found = mid;
    else missing = mid;
  }
  const existing = upTo(found);
  const rest = parts.slice(found);
  let linkTarget: string | null = null;
  try {
    // Stryker disable next-line ConditionalExpression: readlinkSync throws EINVAL on a non-link, into the empty catch below, so reading unconditionally changes nothing
    if (lstatSync(existing).isSymbolicLink()) linkTarget = readlinkSync(existing);
  } catch {
    // nothing of it exists (another drive's root)
  }
  let head = existing;
  if (linkTarget !== null) {
    if (hops >= MAX_LINK_HOPS) throw new PathNotAllowedError(abs, 'its symbolic links form a loop');
    head = canonicalPath(resolve(dirname(existing), linkTarget), hops + 1);
  } else {
    try {
      head = realpathSync.native(existing);
    } catch {
      // a file in the way, or a folder that vanished meanwhile: kept as spelled
    }
  }
  return rest.length === 0 ? head : join(head, ...rest);
}

/**
 * A path as the local state knows it (the record of a project's last build, lastBuild.ts; the verdicts' file
 * records, build/verdicts.ts): absolute, with its symbolic links resolved (canonicalPath), so that every spelling
 * of one file (`actguy build p.actguy.json` in its folder, the absolute path the app's Build sends, a path through a
 * link to the folder) keys the same record. Only spellings a build was given (the project file, the paths it
 * resolves), never one read from a record. A path that cannot be resolved (a loop of links) stays as resolve()
 * makes it: the build itself then reports it.
 */
export function keyPath(path: string): string {
  try {
    return canonicalPath(path);
  } catch {
    return resolve(path);
  }
}

/** Whether anything (a file, a folder, a link, even a dangling one) has that name. */
export function lstatExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether `path` is a symbolic link (to a folder, a file or nothing); false when nothing is there. */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether `target` is `root` or inside it (both canonical). */
export function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  // Stryker disable next-line ConditionalExpression,StringLiteral: rel === '' is a short cut: '' also passes the three tests after it, so dropping it changes nothing (the '..' tests are guarded by pathPolicy.test.ts 'the folder above an allowed tree')
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Where `path` really lies when a symbolic link carries it out of `folder`, else null. A file granted because it
 * is named beside something the user chose (a motion's .sev or tuning file, the .mtn beside a chosen .sev, what
 * a picked project names inside its folder) is granted only where it really lies inside that folder: a received
 * folder cannot hand out `~/.bashrc` as its `walk.sev`. A path named outside the folder on purpose
 * (`../common/default.sls`) is no link's doing and gives null.
 */
export function linkOutOf(folder: string, path: string): string | null {
  if (!isInside(resolve(folder), resolve(path))) return null;
  const real = canonicalPath(path);
  return isInside(canonicalPath(folder), real) ? null : real;
}

/** What allowUnlessLinkedOut grants: a file (allowFile's options; the default) or a folder (allowTree's options). */
export type GrantBeside =
  | { as: 'file'; readOnly?: boolean; beside?: boolean }
  | { as: 'tree'; extensions?: readonly string[]; beside?: boolean };

/**
 * Grants `path`, named beside something the user chose in `folder`, unless a symbolic link carries it out of that
 * folder (linkOutOf): the one way every such grant is made, so a received folder's link never reaches the page.
 * Returns whether it granted. A path named outside the folder on purpose is no link's doing and is granted.
 */
export function allowUnlessLinkedOut(
  policy: PathPolicy,
  folder: string,
  path: string,
  grant: GrantBeside = { as: 'file' },
): boolean {
  try {
    if (linkOutOf(folder, path) !== null) return false;
  } catch (e) {
    // Links that form a loop lead nowhere: nothing is granted, and the one thing named beside (a motion's `walk.sev`
    // linked to itself) no longer refuses the whole open of what was chosen (docs/security.md, round 46).
    if (e instanceof PathNotAllowedError) return false;
    throw e;
  }
  if (grant.as === 'tree') policy.allowTree(path, { extensions: grant.extensions, beside: grant.beside });
  else policy.allowFile(path, { readOnly: grant.readOnly, beside: grant.beside });
  return true;
}

/** A save dialog's answer with its extension added where the user left it off (`walk2` -> `walk2.mtn`). */
export function withExtension(chosen: string, extension: string): string {
  return extname(chosen).toLowerCase() === `.${extension}` ? chosen : `${chosen}.${extension}`;
}

/**
 * Grants a file a save dialog's answer names: the name chosen itself, or, where the app made it another name (an
 * extension added, `walk2` -> `walk2.mtn`; an MSH export's three files from one prefix), that file only where it really
 * lies in the chosen folder. The dialog asked about replacing `walk2`, not a `walk2.mtn` that links out of the folder
 * (docs/architecture.md#electron, "Maintainer's read, round 5").
 */
export function allowDialogAnswer(policy: PathPolicy, chosen: string, path: string): void {
  if (path === chosen) policy.allowFile(path);
  else allowUnlessLinkedOut(policy, dirname(path), path);
}

/** Longest path accepted from the renderer, in characters (Linux's PATH_MAX; Windows long paths are shorter in practice). */
export const MAX_PATH_LENGTH = PATH_MAX;

/** The folder of a lexical key (`/`-separated, from normalizePath), or the key itself at the top. */
function dirnameOfKey(key: string): string {
  const i = key.lastIndexOf('/');
  return i <= 0 ? key : key.slice(0, i);
}

export function createPathPolicy(): PathPolicy {
  const files = new Set<string>();
  /** Files of `files` granted only because they are listed in Open Recent (allowFile's `listed`). */
  const listedOnly = new Set<string>();
  /** Files granted only as beside an opened motion (allowFile's `beside`), in `files` or `readOnlyFiles`. */
  const besideOnly = new Set<string>();
  /** Files allowed for reading only (opened by the app itself); never also in `files`. */
  const readOnlyFiles = new Set<string>();
  const roots: { root: string; extensions: readonly string[] | null; beside: boolean }[] = [];
  const writableCanonical = (canon: string): boolean =>
    files.has(canon) ||
    roots.some(({ root, extensions }) =>
      extensions === null
        ? isInside(root, canon)
        : canon === root || (isInside(root, canon) && extensions.includes(extname(canon).slice(1).toLowerCase())),
    );
  const allowedCanonical = (canon: string): boolean => readOnlyFiles.has(canon) || writableCanonical(canon);
  /**
   * Network paths (`\\host\share\…`, `//host/…`) as granted, spelled as given and as resolved, compared
   * lexically: resolving a path on a host connects to it (on Windows, offering it the user's credentials), so
   * one that no grant spells is refused before anything touches it. A file chosen on a share, or inside a
   * workspace on one, is still checked as any other once it passes.
   */
  const networkGrants = new Set<string>();
  const networkKey = (p: string) => normalizePath(p.replace(/\\/g, '/')).toLowerCase();
  const noteNetwork = (...paths: string[]) => {
    for (const p of paths) if (isNetworkPath(p)) networkGrants.add(networkKey(p));
  };
  const networkGranted = (path: string): boolean => {
    const key = networkKey(path);
    for (let k = key; ; k = dirnameOfKey(k)) {
      if (networkGrants.has(k)) return true;
      if (dirnameOfKey(k) === k) return false;
    }
  };
  const refuseUngrantedNetworkPath = (path: string): void => {
    if (isNetworkPath(path) && !networkGranted(path))
      throw new PathNotAllowedError(
        path,
        'it is a network path that was not chosen (ActGuy does not connect to a host to find out what it is); choose it with Open or Save As',
      );
  };
  const policy: PathPolicy = {
    allowFile(path, options) {
      const canon = options?.asJudged ? resolve(path) : canonicalPath(path);
      noteNetwork(path, canon);
      if (!options?.beside) besideOnly.delete(canon);
      else if (!files.has(canon) && !readOnlyFiles.has(canon)) besideOnly.add(canon);
      if (options?.readOnly) {
        if (!files.has(canon)) readOnlyFiles.add(canon);
        return;
      }
      readOnlyFiles.delete(canon);
      // Listed stays listed; a pick of the same file makes it the user's choice for the session.
      if (!options?.listed) listedOnly.delete(canon);
      else if (!files.has(canon)) listedOnly.add(canon);
      files.add(canon);
    },
    grantedAsListed(path) {
      const canon = resolve(path);
      return listedOnly.has(canon) && !roots.some((r) => r.extensions === null && isInside(r.root, canon));
    },
    grantedBeside(path) {
      const canon = resolve(path);
      const holds = (r: (typeof roots)[number]) =>
        r.extensions === null
          ? isInside(r.root, canon)
          : isInside(r.root, canon) && r.extensions.includes(extname(canon).slice(1).toLowerCase());
      const byFile = files.has(canon) || readOnlyFiles.has(canon);
      if (byFile && !besideOnly.has(canon)) return false;
      const trees = roots.filter(holds);
      if (trees.some((r) => !r.beside)) return false;
      return byFile || trees.length > 0;
    },
    allowTree(root, options) {
      const canon = canonicalPath(root);
      noteNetwork(root, canon);
      const extensions = options?.extensions ? options.extensions.map((e) => e.toLowerCase()) : null;
      const beside = options?.beside === true;
      const same = roots.find((r) => r.root === canon && String(r.extensions) === String(extensions));
      // A tree granted without `beside` (a project's sound folder) makes one granted beside a motion chosen.
      if (!same) roots.push({ root: canon, extensions, beside });
      else if (!beside) same.beside = false;
    },
    check(path, purpose) {
      if (typeof path !== 'string' || path.length === 0)
        throw new PathNotAllowedError(String(path).slice(0, 100), 'no path given');
      if (path.includes('\0')) throw new PathNotAllowedError(JSON.stringify(path), 'the path contains a NUL character');
      if (path.length > MAX_PATH_LENGTH)
        throw new PathNotAllowedError(path, `the path is longer than ${MAX_PATH_LENGTH} characters`);
      if (!isAbsolute(path)) throw new PathNotAllowedError(path, 'only absolute paths are accepted');
      refuseUngrantedNetworkPath(path);
      const canon = canonicalPath(path);
      // Asked of the path as given (`/w/x<LF>forged/../a.sev` resolves to a plain name) and of where it resolves (a
      // link to such a name): a handler may name either.
      if (LINE_BREAK.test(path)) throw new PathNotAllowedError(path, lineBreakReason('the path'));
      if (LINE_BREAK.test(canon))
        throw new PathNotAllowedError(path, `it resolves to ${quotePath(canon)}, and ${lineBreakReason('that path')}`);
      if (!allowedCanonical(canon)) {
        throw new PathNotAllowedError(
          path,
          canon === resolve(path)
            ? 'it is not a file you chose, a file of a project you opened, a recent file, the bundled sample or inside the workspace; choose it with Open or Save As'
            : `it resolves to ${quotePath(canon)}, which is not a file you chose, a file of a project you opened, a recent file, the bundled sample or inside the workspace`,
        );
      }
      if (purpose === 'write') {
        // The name itself was granted (it was a plain file, or none, when chosen or opened); a link at it now was put
        // there since, by whoever may write its folder (a colleague in a shared one), and the write would replace
        // the file it leads to, another file the page may write (a workspace file, another pick). A link that already
        // stood there when chosen granted its target, not its name, and is written through as before.
        const named = join(canonicalPath(dirname(path)), basename(path));
        if (named !== canon && files.has(named) && isSymbolicLink(named))
          throw new PathNotAllowedError(
            path,
            `it is a symbolic link to ${quotePath(canon)} now, put there since it was chosen or opened, and ActGuy writes nothing through such a link: remove the link, or save a copy with Save As; nothing was written`,
          );
        // Granted as spelled, where it was canonical then (the page saves a document at the path it was opened as); it
        // resolves elsewhere now: a folder on its path was made a link since (a colleague renamed a shared folder
        // away and put a link to the user's workspace in its place), and the write would land where that leads.
        const spelled = resolve(path);
        if (spelled !== canon && files.has(spelled))
          throw new PathNotAllowedError(
            path,
            `it resolves to ${quotePath(canon)} now, not where it lay when it was chosen or opened: a folder on its path was made a symbolic link since, and ActGuy writes nothing through it; put the folder back, or save a copy with Save As; nothing was written`,
          );
        // A link to nothing at the name: canon is where it leads, and the write would make that file, the link
        // standing (the app's saves and exports) or be replaced by it (a commit): refused here for every write of the
        // app, as the CLI's writes and a build refuse it (docs/security.md, rounds 48 to 50).
        const dangling = danglingOutputProblem(path);
        if (dangling) throw new PathNotAllowedError(path, `${dangling.reason}; nothing was written`);
        if (!writableCanonical(canon))
          throw new PathNotAllowedError(
            path,
            'ActGuy opened it by itself at start-up (it is not a file you chose), so it is only read; choose it with Open to change it, or save a copy with Save As',
          );
        let folderOk = false;
        try {
          folderOk = lstatSync(dirname(canon)).isDirectory();
        } catch {
          // missing folder: refused below
        }
        if (!folderOk) throw new PathNotAllowedError(path, folderMissing(path, canon));
      }
      return canon;
    },
    isAllowed(path) {
      try {
        // Stryker disable next-line StringLiteral: check treats every purpose but 'write' as a read
        policy.check(path, 'read');
        return true;
      } catch {
        return false;
      }
    },
    mayWrite(path) {
      try {
        refuseUngrantedNetworkPath(path);
        return writableCanonical(canonicalPath(path));
      } catch {
        return false;
      }
    },
    trees: () => roots.filter((r) => r.extensions === null).map((r) => r.root),
  };
  return policy;
}
