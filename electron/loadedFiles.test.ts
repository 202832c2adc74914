/**
 * A save never silently replaces a file that changed on disk since the page loaded it (electron/loadedFiles.ts,
 * docs/security.md "Saves and files changed on disk"): Save SEV and Save Project compare the file with what was read,
 * by content, before they write and again right before the rename, and refuse with ChangedOnDiskError (its path and
 * what changed travel to the page as `changedOnDisk`). "Save anyway" (`overwriteChanged`) replaces only what the
 * refusal found.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActGuyApiError } from '../shared/ipc/transport';
import type { ApiHandlers } from './handlers';
import { dispatchInvoke } from './invokeReply';
import { ChangedOnDiskError, changeBetween, LoadedFiles, diskStateOf } from './loadedFiles';
import { ASSETS, testHandlers, useCompressClientPerTest } from './testing/handlerHarness';
import { inProcessTextChecker } from './project/textCheckJob';
import type { TextChecker } from './project/textCheck';

const compress = useCompressClientPerTest();
let ws: string;
let handlers: ApiHandlers;
/** Run while a save's text is checked: after the first check of the file, before its write and rename. */
let duringCheck: () => void = () => undefined;

beforeEach(() => {
  ws = mkdtempSync(join(tmpdir(), 'actguy-changed-on-disk-'));
  cpSync(ASSETS, ws, { recursive: true });
  const checkText: TextChecker = async (req) => {
    const r = await inProcessTextChecker(req);
    duringCheck();
    return r;
  };
  handlers = testHandlers({
    app: { startupPath: join(ws, 'walk.mtn'), workspaceRoot: ws },
    compress: compress(),
    checkText,
  });
  duringCheck = () => undefined;
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const temps = (): string[] => readdirSync(ws).filter((n) => n.endsWith('.tmp'));

/** The refusal a save ended with (it must be ChangedOnDiskError). */
async function refusal(p: Promise<unknown>): Promise<ChangedOnDiskError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ChangedOnDiskError);
  return e as ChangedOnDiskError;
}

describe('LoadedFiles', () => {
  it('compares by content: a touch with the same bytes is no change, other bytes of the same size are', () => {
    const path = join(ws, 'walk.sev');
    const text = readFileSync(path);
    const files = new LoadedFiles();
    files.remember(path, text);
    utimesSync(path, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(() => files.check(path)).not.toThrow();
    const other = Buffer.from(text);
    other[0] = other[0] === 0x23 ? 0x24 : 0x23;
    writeFileSync(path, other);
    utimesSync(path, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(() => files.check(path)).toThrow(/changed on disk since it was opened/);
  });

  it('names deleted, created, link and folder apart', () => {
    const file = { kind: 'file', size: 1, mtimeMs: 0, sha256: 'a' } as const;
    expect(changeBetween(file, { kind: 'absent' })).toBe('deleted');
    expect(changeBetween({ kind: 'absent' }, { kind: 'absent' })).toBeUndefined();
    expect(changeBetween({ kind: 'absent' }, file)).toBe('created');
    expect(changeBetween(file, { kind: 'other', what: 'link', mtimeMs: 0 })).toBe('link');
    expect(changeBetween(file, { kind: 'other', what: 'folder', mtimeMs: 0 })).toBe('folder');
    expect(
      changeBetween({ kind: 'other', what: 'folder', mtimeMs: 0 }, { kind: 'other', what: 'folder', mtimeMs: 5 }),
    ).toBeUndefined();
    expect(changeBetween(file, { ...file, sha256: 'b' })).toBe('changed');
    expect(changeBetween(file, { ...file, size: 2 })).toBe('changed');
    expect(changeBetween(file, { ...file, mtimeMs: 9 })).toBeUndefined();
  });

  it('reads the name without following a link, unless the name was a link when loaded', () => {
    const path = join(ws, 'walk.sev');
    const text = readFileSync(path);
    writeFileSync(join(ws, 'other.sev'), text);
    unlinkSync(path);
    symlinkSync(join(ws, 'other.sev'), path);
    expect(diskStateOf(path)).toMatchObject({ kind: 'other', what: 'link' });
    expect(diskStateOf(path, true)).toMatchObject({ kind: 'file', size: text.byteLength });
    // Loaded through a link that stood there: compared through it, so saving again is no change.
    const files = new LoadedFiles();
    files.remember(path, text);
    expect(() => files.check(path)).not.toThrow();
    writeFileSync(join(ws, 'other.sev'), 'motion other\n');
    expect(() => files.check(path)).toThrow(ChangedOnDiskError);
  });

  it('a path never loaded is a plain save', () => {
    expect(() => new LoadedFiles().check(join(ws, 'walk.sev'))).not.toThrow();
  });
});

describe('Save SEV and Save Project over a file changed on disk', () => {
  const kinds = [
    { what: 'Save SEV', name: 'walk.sev', save: (h: ApiHandlers) => h.saveSev.bind(h) },
    { what: 'Save Project', name: 'sample.actguy.json', save: (h: ApiHandlers) => h.saveProject.bind(h) },
  ] as const;

  /** Reads the file as the page loads it for editing. */
  const load = async (path: string): Promise<string> => {
    const r = await handlers.readProjectText({ path });
    return r.text ?? '';
  };

  /** An edit the checker accepts: a comment in a .sev, the project reformatted. */
  const edited = (name: string, text: string): string =>
    name.endsWith('.sev') ? `${text}# my edit\n` : JSON.stringify(JSON.parse(text), null, 4);

  for (const k of kinds) {
    it(`${k.what}: a colleague's edit is refused, nothing written; Save anyway replaces it`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      const theirs = edited(k.name, text).replace('my edit', 'their edit') + ' ';
      writeFileSync(path, theirs);
      const e = await refusal(k.save(handlers)({ path, text: edited(k.name, text) }));
      expect(e.path).toBe(path);
      expect(e.change).toBe('changed');
      expect(e.message).toContain(path);
      expect(readFileSync(path, 'utf8')).toBe(theirs);
      expect(temps()).toEqual([]);
      // The flag is honoured for what the refusal found: the save replaces it, and the next save is a plain one.
      await k.save(handlers)({ path, text: edited(k.name, text), overwriteChanged: true });
      expect(readFileSync(path, 'utf8')).toBe(edited(k.name, text));
      await k.save(handlers)({ path, text });
      expect(readFileSync(path, 'utf8')).toBe(text);
    });

    it(`${k.what}: the same bytes touched save as usual`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      writeFileSync(path, text);
      utimesSync(path, new Date(2030, 1, 1), new Date(2030, 1, 1));
      await k.save(handlers)({ path, text: edited(k.name, text) });
      expect(readFileSync(path, 'utf8')).toBe(edited(k.name, text));
    });

    it(`${k.what}: a change made while the save was checked is refused before the rename`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      duringCheck = () => writeFileSync(path, `${text} `);
      const e = await refusal(k.save(handlers)({ path, text: edited(k.name, text) }));
      expect(e.change).toBe('changed');
      expect(readFileSync(path, 'utf8')).toBe(`${text} `);
      expect(temps()).toEqual([]);
    });

    it(`${k.what}: Save anyway is asked again when the file changed again after the refusal`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      writeFileSync(path, `${text} `);
      await refusal(k.save(handlers)({ path, text: edited(k.name, text) }));
      writeFileSync(path, `${text}  `);
      await refusal(k.save(handlers)({ path, text: edited(k.name, text), overwriteChanged: true }));
      expect(readFileSync(path, 'utf8')).toBe(`${text}  `);
    });

    it(`${k.what}: deleted since it was loaded counts as changed; saving it again is a plain save`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      unlinkSync(path);
      const e = await refusal(k.save(handlers)({ path, text: edited(k.name, text) }));
      expect(e.change).toBe('deleted');
      expect(readdirSync(ws)).not.toContain(k.name);
      await k.save(handlers)({ path, text: edited(k.name, text), overwriteChanged: true });
      expect(readFileSync(path, 'utf8')).toBe(edited(k.name, text));
    });

    it(`${k.what}: replaced by a folder since it was loaded is refused`, async () => {
      const path = join(ws, k.name);
      const text = await load(path);
      unlinkSync(path);
      mkdirSync(path);
      const e = await refusal(k.save(handlers)({ path, text: edited(k.name, text) }));
      expect(e.change).toBe('folder');
    });
  }

  // Round 41: the comparison read the whole file at the name to hash it, whatever its size. A colleague who put a 3 GB
  // sparse file there (or any file larger than 2 GiB) made Save fail with Node's "The value of "length" is out of
  // range" (no question, no Save anyway) after allocating its size; under 2 GiB it was read and hashed on the main
  // thread. A size other than the one read is a change without reading a byte. Mutation: the size not asked first.
  it('Save SEV: a file of another size is a change without reading it (a 3 GB sparse file), and Save anyway replaces it', async () => {
    const path = join(ws, 'walk.sev');
    const text = (await handlers.readProjectText({ path })).text ?? '';
    writeFileSync(path, '');
    truncateSync(path, 3 * 1024 ** 3);
    const e = await refusal(handlers.saveSev({ path, text: `${text}# my edit\n` }));
    expect(e.change).toBe('changed');
    expect(statSync(path).size).toBe(3 * 1024 ** 3);
    // What the refusal found is not hashed either: Save anyway compares its size and time (written again since, with
    // the same size: asked again), and replaces it.
    utimesSync(path, new Date(2031, 1, 1), new Date(2031, 1, 1));
    await refusal(handlers.saveSev({ path, text: `${text}# my edit\n`, overwriteChanged: true }));
    await handlers.saveSev({ path, text: `${text}# my edit\n`, overwriteChanged: true });
    expect(readFileSync(path, 'utf8')).toBe(`${text}# my edit\n`);
    expect(temps()).toEqual([]);
  });

  it('Save SEV: replaced by a link since it was loaded is refused, the file it leads to untouched', async () => {
    const path = join(ws, 'walk.sev');
    const text = await load(path);
    const target = join(ws, 'cmu_01_01.sev');
    const targetText = readFileSync(target, 'utf8');
    unlinkSync(path);
    symlinkSync(target, path);
    // The policy may refuse the link itself first; either way nothing is written through it.
    const outcome = await handlers.saveSev({ path, text: `${text}# my edit\n` }).then(
      () => 'saved',
      (err: unknown) => err,
    );
    expect(outcome).not.toBe('saved');
    if (outcome instanceof ChangedOnDiskError) expect(outcome.change).toBe('link');
    expect(readFileSync(target, 'utf8')).toBe(targetText);
  });

  it('Save SEV: a .sev the editor found missing, made on disk since, is refused', async () => {
    const path = join(ws, 'new.sev');
    const r = await handlers.readProjectText({ path });
    expect(r.text).toBeNull();
    writeFileSync(path, 'motion walk\n');
    const e = await refusal(handlers.saveSev({ path, text: 'motion walk\n# mine\n' }));
    expect(e.change).toBe('created');
    expect(readFileSync(path, 'utf8')).toBe('motion walk\n');
  });

  it('after a save, the file saved is what the next save compares with', async () => {
    const path = join(ws, 'walk.sev');
    const text = await load(path);
    await handlers.saveSev({ path, text: `${text}# one\n` });
    await handlers.saveSev({ path, text: `${text}# two\n` });
    expect(readFileSync(path, 'utf8')).toBe(`${text}# two\n`);
    writeFileSync(path, `${text}# theirs\n`);
    await refusal(handlers.saveSev({ path, text: `${text}# three\n` }));
  });

  it('two saves of a loaded .sev at once both land (the second compares with the first)', async () => {
    const path = join(ws, 'walk.sev');
    const text = await load(path);
    await Promise.all([
      handlers.saveSev({ path, text: `${text}# one\n` }),
      handlers.saveSev({ path, text: `${text}# two\n` }),
    ]);
    expect(readFileSync(path, 'utf8')).toBe(`${text}# two\n`);
  });

  it('Open Project remembers the project it read: a change since is refused', async () => {
    const path = join(ws, 'sample.actguy.json');
    const r = await handlers.openProject({ path });
    expect(r.status).toBe('opened');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, `${text} `);
    const e = await refusal(handlers.saveProject({ path, text: JSON.stringify(JSON.parse(text), null, 4) }));
    expect(e.change).toBe('changed');
  });

  it('a read the page did not show: the save that names the read shown compares with it', async () => {
    const path = join(ws, 'walk.sev');
    const shown = await handlers.readProjectText({ path });
    const text = shown.text ?? '';
    expect(shown.loadedAs).toMatch(/^[0-9a-f]{64}$/);
    // A colleague's save, read by the page again (a motion selected again) and skipped: it keeps edits made meanwhile.
    writeFileSync(path, `${text}# theirs\n`);
    const skipped = await handlers.readProjectText({ path });
    expect(skipped.loadedAs).not.toBe(shown.loadedAs);
    const e = await refusal(handlers.saveSev({ path, text: `${text}# mine\n`, loadedAs: shown.loadedAs }));
    expect(e.change).toBe('changed');
    expect(readFileSync(path, 'utf8')).toBe(`${text}# theirs\n`);
    // Naming the newer read (or none: the last read) saves; after a save, what it wrote is compared.
    await handlers.saveSev({ path, text: `${text}# mine\n`, loadedAs: skipped.loadedAs });
    await handlers.saveSev({ path, text: `${text}# again\n`, loadedAs: shown.loadedAs });
    expect(readFileSync(path, 'utf8')).toBe(`${text}# again\n`);
    // A missing file is read as `none`; a name that is no read is refused before anything is compared.
    expect((await handlers.readProjectText({ path: join(ws, 'new.sev') })).loadedAs).toBe('none');
    await expect(handlers.saveSev({ path, text, loadedAs: '../x' })).rejects.toThrow(/loadedAs must name a read/);
  });

  it('the refusal reaches the page as changedOnDisk, with its path and change', async () => {
    const path = join(ws, 'walk.sev');
    const text = await load(path);
    writeFileSync(path, `${text} `);
    const reply = await dispatchInvoke(handlers, 'saveSev', { path, text: `${text}# mine\n` });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.changedOnDisk).toEqual({ path, change: 'changed' });
    expect(new ActGuyApiError(reply.error).changedOnDisk).toEqual({ path, change: 'changed' });
  });
});
