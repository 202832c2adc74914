/**
 * Hot exit: main's copies of the window's unsaved work, so a crashed or hung
 * page (or a crash of the whole app) does not lose edits
 * (docs/install.md#unsaved-work-after-a-crash).
 *
 * The renderer sends a copy of each unsaved part (the motion, the SEV, the
 * project) shortly after it changes; this store keeps at most one per part in
 * memory and, when given a folder, also as a file there (`<part>.json`,
 * written atomically), so the next start finds them after an app crash. A
 * copy goes when its part is saved or its edits are discarded, and all of
 * them when the window closes cleanly.
 *
 * Everything here is untrusted input twice over: what the page sends (checked
 * by `checkBackup`, bounded in size) and what the folder holds at start-up
 * (read back with the same check; a file that does not hold up is renamed
 * aside with a message and never used).
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { quoteJson } from '../shared/errors';
import { findExcessiveNesting } from '../shared/json/nesting';
import { jsonSyntaxPlace } from '../shared/project/jsonPosition';
import type { BackupPart, HeldBackups, UnsavedBackup } from '../shared/ipc/backups';
import type { CompressTolerances } from '../shared/ipc/compress';
import { readMtn } from '../shared/mtn/read';
import { readSmallFile, writeFileAtomic, writeFileAtomicAsync } from './fsutil';
import { systemReason } from './fsErrors';
import { isSymbolicLink, quotePath } from './pathPolicy';
import { checkLoadedPair, type LoadedPair } from './loadedFiles';
import { sweepStaleTemps } from './tempFiles';
import { MAX_ROTATION_OVERRIDES } from './ipcArgs';

export const BACKUPS_FOLDER = 'Backups';
/** Under the backups folder: the texts of SEV and project copies a restart left without a file the window may write. */
export const NOT_RESTORED_FOLDER = 'Not restored';
export const BACKUP_PARTS: readonly BackupPart[] = ['motion', 'sev', 'project'];
/** Largest motion copy (MTN bytes): a 100-joint MTN of 10,000 frames is about 12 MiB. */
export const MAX_BACKUP_MTN_BYTES = 32 * 1024 * 1024;
/** Largest SEV or project text kept. */
export const MAX_BACKUP_TEXT_CHARS = 8 * 1024 * 1024;
/** Largest backup file read back (the motion's bytes as base64 plus its settings). */
export const MAX_BACKUP_FILE_BYTES = Math.ceil((MAX_BACKUP_MTN_BYTES * 4) / 3) + 1024 * 1024;
/** Longest name or path label kept. */
const MAX_LABEL_CHARS = 4096;
/** Files a motion was read from, kept at most (an .mt3 and its skeleton, an imported file and its buffers). */
const MAX_INPUTS = 64;

/** What the store checks a copy against: the documents main has open. */
export interface BackupContext {
  /** The path main holds for an open motion document, or undefined when it is not open. */
  documentPath(documentId: string): string | undefined;
  /** The files that document was read from (an .mt3 and its skeleton, an imported .glb): no save or export may replace them. */
  documentInputs(documentId: string): readonly string[] | undefined;
  /** Whether main already allows the file (a SEV or project path the page names grants nothing). */
  isAllowed(path: string): boolean;
  /**
   * Reads a motion copy's MTN bytes off the main thread (the handlers' motion check, in the text-check worker): the
   * reader's message, or null when they read. Without it they are read here, on the calling thread.
   */
  checkMtn?(mtnBytes: Uint8Array): Promise<string | null>;
  /** What main remembered of the document's .mtn and tuning file (loadedFiles.ts): kept with a motion's copy. */
  documentLoaded?(documentId: string): LoadedPair | null;
}

export interface BackupStore {
  /**
   * Keeps `backup` as the copy (`ctx` null: a copy main made itself, read from `inputs`) of its part (replacing the
   * previous one); throws, naming the field, when it does not hold up. A motion's copy keeps the files its document
   * was read from (ctx's, else `inputs`), so the document a restore opens refuses outputs onto them as the first did.
   * Resolves once the copy is on disk (or its write failed, with a warning, or a later copy or removal of its part
   * took its place); rejects only when the copy does not hold up. Copies of a part are kept in the order they came:
   * one that comes after a later copy or a removal of its part (its MTN check took longer) is dropped, and a write
   * that ends after a later copy's, or after the part's removal, replaces nothing (docs/architecture.md#electron).
   */
  put(
    backup: unknown,
    ctx: BackupContext | null,
    inputs?: readonly string[],
    loaded?: LoadedPair | null,
  ): Promise<void>;
  /** The files the motion copy's document was read from (empty for another part, or a copy without any). */
  inputsOf(part: BackupPart): string[];
  /**
   * What the motion copy's edits were made over (its .mtn and tuning file as main remembered them, ctx's
   * documentLoaded, else `loaded`), for the Save of the restored copy to compare with; null when not known.
   */
  loadedOf(part: BackupPart): LoadedPair | null;
  /** Drops the copy of `part`. */
  remove(part: BackupPart): void;
  /** Drops the copy of `part` when it is about `documentIdOrPath` (a save of that document or file). */
  removeSaved(part: BackupPart, documentIdOrPath: string): void;
  /** The copies held, oldest part first, and what was set aside reading them back. */
  held(): HeldBackups;
  /** Drops every copy (the window closed cleanly). */
  clear(): void;
  /**
   * For each SEV or project copy whose file the window may not write now (`mayWrite` false: after a restart a
   * copy's path grants nothing, so neither reopening nor Save reaches it), keeps its text as a plain file under
   * `Backups/Not restored/`, once, which no clean close removes; returns a message for each naming both files.
   */
  keepUnwritable(mayWrite: (path: string) => boolean): string[];
}

function fail(what: string, expected: string): never {
  throw new Error(`backup: ${what} must be ${expected}`);
}

function label(v: unknown, what: string, nullable = false): string {
  if (nullable && v === null) return null as unknown as string;
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_LABEL_CHARS)
    fail(what, `a string of 1..${MAX_LABEL_CHARS} characters${nullable ? ' or null' : ''}`);
  return v;
}

/**
 * A copy's path: the file main holds for it, so an absolute path without NUL. A copy read back from disk naming
 * `walk.sev` or `../x` was restored naming a file relative to wherever the app started (found by the backup fuzz
 * target).
 */
function pathLabel(v: unknown, nullable = false): string {
  const path = label(v, 'path', nullable);
  if (path !== null && (!isAbsolute(path) || path.includes('\0')))
    fail('path', `an absolute path without NUL${nullable ? ' or null' : ''}`);
  return path;
}

function editedAt(v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail('editedAt', 'a time in ms since the epoch');
  return v;
}

function text(v: unknown): string {
  if (typeof v !== 'string' || v.length > MAX_BACKUP_TEXT_CHARS)
    fail('text', `a string of at most ${MAX_BACKUP_TEXT_CHARS} characters`);
  return v;
}

function positive(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(what, 'a number > 0');
  return v;
}

function tolerances(v: unknown): CompressTolerances {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('tolerances', 'an object');
  const t = v as Record<string, unknown>;
  const out: CompressTolerances = {
    positionTolerance: positive(t.positionTolerance, 'tolerances.positionTolerance'),
    rotationToleranceDeg: positive(t.rotationToleranceDeg, 'tolerances.rotationToleranceDeg'),
    offsetTolerance: positive(t.offsetTolerance, 'tolerances.offsetTolerance'),
  };
  if (t.method !== undefined) {
    if (t.method !== 'classic' && t.method !== 'refined') fail('tolerances.method', '"classic" or "refined"');
    out.method = t.method;
  }
  if (t.objectTolerance !== undefined) out.objectTolerance = positive(t.objectTolerance, 'tolerances.objectTolerance');
  if (t.shell !== undefined) out.shell = positive(t.shell, 'tolerances.shell');
  return out;
}

function overrides(v: unknown): Record<number, number> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('rotationOverridesDeg', 'an object');
  const entries = Object.entries(v as Record<string, unknown>);
  // As many per-joint overrides as a request may carry (a skeleton has far fewer joints).
  if (entries.length > MAX_ROTATION_OVERRIDES) fail('rotationOverridesDeg', `at most ${MAX_ROTATION_OVERRIDES} joints`);
  const out: Record<number, number> = {};
  for (const [joint, deg] of entries) {
    if (!/^\d{1,5}$/.test(joint)) fail(`rotationOverridesDeg key ${quoteJson(joint.slice(0, 16))}`, 'a joint index');
    out[Number(joint)] = positive(deg, `rotationOverridesDeg[${joint}]`);
  }
  return out;
}

function mtnBytes(v: unknown, read: boolean): Uint8Array {
  if (!(v instanceof Uint8Array)) fail('mtnBytes', 'a Uint8Array');
  if (v.byteLength > MAX_BACKUP_MTN_BYTES)
    fail('mtnBytes', `at most ${MAX_BACKUP_MTN_BYTES} bytes (found ${v.byteLength})`);
  if (read)
    try {
      readMtn(v);
    } catch (e) {
      throw new Error(notValidMtn((e as Error).message));
    }
  return v;
}

const notValidMtn = (why: string) => `backup: mtnBytes is not a valid MTN file (${why})`;

/**
 * The copy as it may be kept: every field checked and only the known fields
 * taken. `ctx` ties it to what main knows (an open motion, an allowed file);
 * a copy read back from disk is checked without it. A context that checks the MTN bytes itself (`checkMtn`) leaves
 * them unread here.
 */
export function checkBackup(raw: unknown, ctx: BackupContext | null): UnsavedBackup {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('the copy', 'an object');
  const b = raw as Record<string, unknown>;
  switch (b.part) {
    case 'motion': {
      const documentId = label(b.documentId, 'documentId');
      const path = pathLabel(b.path, true);
      if (ctx) {
        const own = ctx.documentPath(documentId);
        if (own === undefined) throw new Error(`backup: document ${documentId.slice(0, 64)} is not open`);
        // The label must be the file main holds for the document: the page cannot attach a copy to another file.
        if (path !== null && path !== own) throw new Error('backup: path is not the file of that document');
      }
      return {
        part: 'motion',
        documentId,
        name: label(b.name, 'name'),
        path,
        editedAt: editedAt(b.editedAt),
        mtnBytes: mtnBytes(b.mtnBytes, !ctx?.checkMtn),
        tolerances: tolerances(b.tolerances),
        rotationOverridesDeg: overrides(b.rotationOverridesDeg),
      };
    }
    case 'sev':
    case 'project': {
      const path = pathLabel(b.path);
      if (ctx && !ctx.isAllowed(path))
        throw new Error(`backup: ${b.part === 'sev' ? 'the .sev' : 'the project'} is not a file this window has open`);
      const name = label(b.name, 'name');
      if (b.part === 'project')
        return { part: 'project', name, path, editedAt: editedAt(b.editedAt), text: text(b.text) };
      return {
        part: 'sev',
        name,
        path,
        motionName: label(b.motionName, 'motionName'),
        editedAt: editedAt(b.editedAt),
        text: text(b.text),
      };
    }
    default:
      return fail('part', '"motion", "sev" or "project"');
  }
}

/**
 * The files a motion copy was read from, as its backup file lists them. A planted list can only add refusals
 * (an output onto a listed file is refused), never grant anything; it is still held to its shape.
 */
function checkInputs(v: unknown): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_INPUTS) fail('inputs', `a list of at most ${MAX_INPUTS} paths`);
  return v.map((p, i) => {
    if (typeof p !== 'string' || p.length === 0 || p.length > MAX_LABEL_CHARS || p.includes('\0') || !isAbsolute(p))
      fail(`inputs[${i}]`, `an absolute path of 1..${MAX_LABEL_CHARS} characters`);
    return p;
  });
}

/**
 * A copy as its backup file holds it: the JSON of the copy, the MTN bytes as base64, and a motion's inputs.
 *
 * Made on the main thread at each pause in editing, so a motion's copy (up to 43 MB of base64) is not made the plain
 * way: `JSON.stringify` of the whole copy scans the base64 once more for characters to escape (it has none) and the
 * write then encodes that string to UTF-8 again. The JSON of the copy is made with an empty `mtnBytes`, and the
 * base64 goes between its quotes as bytes: the same bytes as `JSON.stringify` gives. It comes as pieces, made one at
 * a time as the write asks for them (writeFileAtomicAsync): the base64 of BACKUP_PIECE_BYTES of MTN at a time, so
 * the main thread is never held for the whole encoding (a 30 MB motion held it 0.3 to 0.5 s in one stall; in pieces
 * its longest stall is a few milliseconds; docs/architecture.md#electron).
 */
export function* backupFilePieces(
  b: UnsavedBackup,
  inputs: readonly string[],
  loaded: LoadedPair | null = null,
): Generator<Uint8Array> {
  if (b.part !== 'motion') {
    yield Buffer.from(JSON.stringify(b));
    return;
  }
  // A string value holds no unescaped quote, so the first `"mtnBytes":""` is the key, never text inside a name or path.
  const shell = JSON.stringify({ ...b, mtnBytes: '', inputs, ...(loaded ? { loaded } : {}) });
  const at = shell.indexOf('"mtnBytes":""') + '"mtnBytes":"'.length;
  yield Buffer.from(shell.slice(0, at));
  const mtn = Buffer.from(b.mtnBytes.buffer, b.mtnBytes.byteOffset, b.mtnBytes.byteLength);
  // A multiple of 3 bytes: each piece's base64 ends without padding, so the pieces join into the base64 of the whole.
  for (let from = 0; from < mtn.byteLength; from += BACKUP_PIECE_BYTES)
    yield Buffer.from(mtn.subarray(from, from + BACKUP_PIECE_BYTES).toString('base64'), 'latin1');
  yield Buffer.from(shell.slice(at));
}

/** MTN bytes per base64 piece of a backup file (a multiple of 3): 768 KiB, 1 MiB of base64. */
export const BACKUP_PIECE_BYTES = 3 * 256 * 1024;

/** The whole backup file at once (backupFilePieces joined): for tests and the fuzz target's seeds. */
export function backupFileBytes(
  b: UnsavedBackup,
  inputs: readonly string[],
  loaded: LoadedPair | null = null,
): Uint8Array {
  return Buffer.concat([...backupFilePieces(b, inputs, loaded)]);
}

function fromFileText(raw: string): { backup: UnsavedBackup; inputs: string[]; loaded: LoadedPair | null } {
  // A copy nests four levels; 44 MB of `[` would cost JSON.parse seconds and memory for nothing.
  const deep = findExcessiveNesting(raw);
  if (deep) throw new Error(`nested too deeply at line ${deep.line}, column ${deep.column}`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new Error(`not JSON ${jsonSyntaxPlace(raw)}`);
  }
  if (typeof v === 'object' && v !== null && (v as { part?: unknown }).part === 'motion') {
    const o = v as Record<string, unknown>;
    if (typeof o.mtnBytes !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(o.mtnBytes)) fail('mtnBytes', 'base64 text');
    o.mtnBytes = new Uint8Array(Buffer.from(o.mtnBytes, 'base64'));
  }
  const backup = checkBackup(v, null);
  const motion = backup.part === 'motion';
  return {
    backup,
    inputs: motion ? checkInputs((v as { inputs?: unknown }).inputs) : [],
    loaded: motion ? checkLoadedPair((v as { loaded?: unknown }).loaded) : null,
  };
}

/** Local time as `YYYYMMDD-HHMMSS`, for the names of kept texts. */
function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** A copy's file name (a label read back from disk) as a plain name: letters, digits, `.`, `_`, `-`, at most 100. */
function safeFileName(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return /^[A-Za-z0-9]/.test(plain) ? plain : `_${plain}`;
}

/** Copies set aside (`<part>.json.bad-<time>`) kept per part: each may be 44 MB, and a crash loop makes one a start. */
export const MAX_SET_ASIDE_PER_PART = 5;

/**
 * Removes the oldest set-aside copies of `part` past MAX_SET_ASIDE_PER_PART (by the time in their name), never
 * `justMade`, and only plain files named exactly so (a folder or link of that name, or a user's file, stays).
 * A failure to remove one is not an error: the copy was set aside already.
 */
function pruneSetAside(folder: string, part: BackupPart, justMade: string): void {
  const named = new RegExp(`^${part}\\.json\\.bad-(\\d{1,16})$`);
  const found: { name: string; time: number }[] = [];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const m = named.exec(name);
    if (!m || join(folder, name) === justMade) continue;
    try {
      if (lstatSync(join(folder, name)).isFile()) found.push({ name, time: Number(m[1]) });
    } catch {
      /* gone meanwhile */
    }
  }
  found.sort((a, b) => b.time - a.time || (a.name < b.name ? 1 : -1));
  for (const { name } of found.slice(MAX_SET_ASIDE_PER_PART - 1))
    try {
      rmSync(join(folder, name), { force: true });
    } catch {
      /* kept: pruning is best effort */
    }
}

/**
 * A backup store; with `folder` (Electron: `<userData>/Backups`) copies are also files there, and the copies a
 * previous run left are read back now. Without it (the loopback server) they live in memory only.
 */
export function createBackupStore(
  folder: string | null,
  warn: (message: string) => void = () => undefined,
): BackupStore {
  const copies = new Map<BackupPart, UnsavedBackup>();
  /** Copies whose text keepUnwritable has kept already (one file per copy, however often the page asks). */
  const keptCopies = new WeakSet<UnsavedBackup>();
  /** The files the motion copy's document was read from (see BackupStore.put). */
  let motionInputs: string[] = [];
  /** What the motion copy's edits were made over (see BackupStore.loadedOf). */
  let motionLoaded: LoadedPair | null = null;
  const setAside: string[] = [];
  const fileOf = (part: BackupPart) => join(folder!, `${part}.json`);

  const readBack = (part: BackupPart): void => {
    const file = fileOf(part);
    // Read as a file from a stranger (docs/security.md, round 12): a link is not followed (a copy linked to a file
    // elsewhere was read, and restored, from there), a FIFO does not hold the start-up, a huge file is not read, and
    // bytes that are not UTF-8 are refused, not turned into U+FFFD.
    const read = readSmallFile(file, MAX_BACKUP_FILE_BYTES);
    if (read === undefined) return;
    try {
      if ('problem' in read) throw new Error(read.problem);
      const { backup: b, inputs, loaded } = fromFileText(read.text);
      if (b.part !== part) throw new Error(`it holds a ${b.part} copy`);
      copies.set(part, b);
      if (part === 'motion') {
        motionInputs = inputs;
        motionLoaded = loaded;
      }
    } catch (e) {
      const aside = `${file}.bad-${Date.now()}`;
      let where = `moved to ${aside}`;
      try {
        renameSync(file, aside);
        pruneSetAside(folder!, part, aside);
      } catch (r) {
        where = `not moved (${systemReason(r)}): it is read again at the next start`;
      }
      const message = `The backup ${file} could not be used (${(e as Error).message}); ${where}.`;
      setAside.push(message);
      warn(message);
    }
  };

  // A Backups folder that is a symbolic link leads elsewhere: its copies are neither read from nor written there
  // (the link stays as it is); this run keeps its copies in memory and says so.
  if (folder && isSymbolicLink(folder)) {
    warn(`${folder} is a symbolic link, not a folder: copies of unsaved work are kept for this run only`);
    folder = null;
  }
  if (folder) {
    for (const part of BACKUP_PARTS) readBack(part);
    // The temporary file of a write a crash, or a quit that could wait no longer (main.ts), cut off (up to 44 MB) is
    // swept now, not left until its part is next copied, which may never be (tempFiles.ts: only a dead writer's).
    sweepStaleTemps(BACKUP_PARTS.map(fileOf));
  }

  /**
   * The copy's file, written off the main thread. It replaces the part's file only while the copy is still the one
   * held (checked right before the rename, in the same turn): a later copy's write, or the part's removal (a save, a
   * discard, the clean close), is never undone by this one ending late. A write that fails leaves the previous file.
   */
  const persist = (b: UnsavedBackup): Promise<void> => {
    if (!folder) return Promise.resolve();
    const file = fileOf(b.part);
    return (async () => {
      try {
        const motion = b.part === 'motion';
        await writeFileAtomicAsync(
          file,
          backupFilePieces(b, motion ? motionInputs : [], motion ? motionLoaded : null),
          {
            stillWanted: () => copies.get(b.part) === b,
            own: true,
          },
        );
      } catch (e) {
        // The copy in memory still survives a crashed page; only an app crash would lose it.
        warn(`the backup of ${b.name} was not written: ${systemReason(e)}`);
      }
    })();
  };

  /** Per part, the arrival number of the last copy kept or removal made: an earlier copy checked later is dropped. */
  let arrivals = 0;
  const applied = new Map<BackupPart, number>();

  const remove = (part: BackupPart): void => {
    applied.set(part, ++arrivals);
    copies.delete(part);
    if (part === 'motion') {
      motionInputs = [];
      motionLoaded = null;
    }
    if (!folder) return;
    // A copy no longer needed that stays on disk (Windows: a scanner or an indexer holds it open) fails nothing: not
    // the save that made it unneeded (the file is written), nor main's clean close. At worst the next start offers it
    // back as unsaved work, which the user can discard.
    try {
      rmSync(fileOf(part), { force: true });
    } catch (e) {
      warn(
        `${fileOf(part)} could not be removed (${systemReason(e)}): if it is still there at the next start, it comes back as unsaved work`,
      );
    }
  };

  return {
    async put(raw, ctx, inputs, loaded) {
      const b = checkBackup(raw, ctx);
      const arrived = ++arrivals;
      const held =
        b.part === 'motion' ? [...((ctx ? ctx.documentInputs(b.documentId) : checkInputs(inputs ?? [])) ?? [])] : [];
      if (b.part === 'motion' && ctx?.checkMtn) {
        const problem = await ctx.checkMtn(b.mtnBytes);
        if (problem !== null) throw new Error(notValidMtn(problem));
      }
      // A later copy of this part, or its removal, came while this one was checked: it stands.
      if ((applied.get(b.part) ?? 0) > arrived) return;
      applied.set(b.part, arrived);
      if (b.part === 'motion') {
        motionInputs = held;
        motionLoaded = (ctx ? ctx.documentLoaded?.(b.documentId) : loaded) ?? null;
      }
      copies.set(b.part, b);
      await persist(b);
    },
    inputsOf: (part) => (part === 'motion' && copies.has('motion') ? motionInputs.slice() : []),
    loadedOf: (part) => (part === 'motion' && copies.has('motion') ? motionLoaded : null),
    remove,
    removeSaved(part, key) {
      const b = copies.get(part);
      if (b && (b.part === 'motion' ? b.documentId : b.path) === key) remove(part);
    },
    held() {
      return {
        backups: BACKUP_PARTS.flatMap((p) => (copies.has(p) ? [copies.get(p)!] : [])),
        setAside: setAside.slice(),
      };
    },
    clear() {
      for (const part of BACKUP_PARTS) remove(part);
      setAside.length = 0;
    },
    keepUnwritable(mayWrite) {
      if (!folder) return [];
      const messages: string[] = [];
      for (const part of BACKUP_PARTS) {
        const b = copies.get(part);
        if (!b || b.part === 'motion' || keptCopies.has(b) || mayWrite(b.path)) continue;
        keptCopies.add(b);
        const kept = join(folder, NOT_RESTORED_FOLDER, `${stamp(new Date())}-${safeFileName(basename(b.path))}`);
        const opens = b.part === 'project' ? 'with File › Open Project…' : 'with its motion or project';
        let where: string;
        try {
          mkdirSync(join(folder, NOT_RESTORED_FOLDER), { recursive: true });
          writeFileAtomic(kept, b.text, { own: true });
          where = `Their text is kept in ${kept}: open the file again ${opens} and copy the text back.`;
        } catch (e) {
          where = `Their text could not be kept apart (${systemReason(e)}); it stays in ${fileOf(part)} until the window closes cleanly.`;
        }
        messages.push(
          `The unsaved changes to ${quotePath(b.path)} could not be restored for saving: this window may not write that file now (after a restart, a backup's path grants nothing). ${where}`,
        );
      }
      return messages;
    },
  };
}

/**
 * A store that hands every call to the store set last: the loopback server (electron/loopback/serve.ts) must give
 * the handlers a store before it listens, but knows the folder its copies may use only once it holds its port.
 * `use` is called before the server prints its address, so no page has sent a copy to the store it replaces.
 */
export function deferredBackupStore(first: BackupStore): { store: BackupStore; use(next: BackupStore): void } {
  let inner = first;
  const store: BackupStore = {
    put: (backup, ctx, inputs, loaded) => inner.put(backup, ctx, inputs, loaded),
    inputsOf: (part) => inner.inputsOf(part),
    loadedOf: (part) => inner.loadedOf(part),
    remove: (part) => inner.remove(part),
    removeSaved: (part, key) => inner.removeSaved(part, key),
    held: () => inner.held(),
    clear: () => inner.clear(),
    keepUnwritable: (mayWrite) => inner.keepUnwritable(mayWrite),
  };
  return {
    store,
    use(next) {
      inner = next;
    },
  };
}
