import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { host } from './tempFiles';
import { createPathPolicy } from './pathPolicy';
import { grantUserSamples, prepareUserSamples, SAMPLES_FOLDER_NAME } from './userSamples';

const root = mkdtempSync(join(tmpdir(), 'actguy-samples-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const assets = resolve(__dirname, '..', 'assets');

/** A bundled samples folder like resources/assets: the sample project, its .sev, a sound in a subfolder. */
function bundle(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'sounds'), { recursive: true });
  for (const f of ['walk.mtn', 'walk.sev', 'sample.actguy.json']) copyFileSync(join(assets, f), join(dir, f));
  writeFileSync(join(dir, 'sounds', 'step.wav'), 'RIFF');
  return dir;
}

/** A temporary home: its Documents and the app's user-data folder. */
function home(name: string): { documents: string; userData: string } {
  const h = join(root, name);
  mkdirSync(join(h, 'Documents'), { recursive: true });
  return { documents: join(h, 'Documents'), userData: join(h, '.config', 'ActGuy') };
}

const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

describe('the sample project on first run', () => {
  const bundled = bundle('bundle');

  it('is copied to Documents/ActGuy Samples and opens from there, and the user is told where', () => {
    const h = home('first');
    const r = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    const folder = join(h.documents, SAMPLES_FOLDER_NAME);
    expect(r.folder).toBe(folder);
    expect(r.startupPath).toBe(join(folder, 'walk.mtn'));
    expect(listing(folder)).toEqual(listing(bundled));
    expect(readFileSync(join(folder, 'walk.mtn'))).toEqual(readFileSync(join(bundled, 'walk.mtn')));
    expect(r.notice).toContain(folder);
    // Nothing but the folder: no temp copy left beside it.
    expect(readdirSync(h.documents)).toEqual([SAMPLES_FOLDER_NAME]);
  });

  it("the user's copy can be saved and built; the bundled copy stays read-only", () => {
    const h = home('grant');
    const copied = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    const policy = createPathPolicy();
    grantUserSamples(policy, copied);
    expect(policy.mayWrite(join(copied.folder!, 'walk.sev'))).toBe(true);
    expect(policy.isAllowed(join(copied.folder!, 'out', 'stage.mar'))).toBe(true);
    const onBundle = createPathPolicy();
    grantUserSamples(onBundle, { startupPath: join(bundled, 'walk.mtn'), folder: null, notice: 'no copy' });
    expect(onBundle.isAllowed(join(bundled, 'walk.sev'))).toBe(false);
  });

  it("never overwrites the user's copy on a later run, and says nothing", () => {
    const h = home('later');
    prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    const folder = join(h.documents, SAMPLES_FOLDER_NAME);
    writeFileSync(join(folder, 'walk.sev'), '# my edits\n');
    rmSync(join(folder, 'sounds'), { recursive: true });
    const again = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    expect(again).toEqual({ startupPath: join(folder, 'walk.mtn'), folder, notice: null });
    expect(readFileSync(join(folder, 'walk.sev'), 'utf8')).toBe('# my edits\n');
    expect(existsSync(join(folder, 'sounds'))).toBe(false);
  });

  it('a folder the user emptied of walk.mtn is left alone: the bundled sample opens, with a note', () => {
    const h = home('emptied');
    const folder = join(h.documents, SAMPLES_FOLDER_NAME);
    mkdirSync(folder);
    writeFileSync(join(folder, 'mine.txt'), 'x');
    const r = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    expect(r).toMatchObject({ startupPath: join(bundled, 'walk.mtn'), folder: null });
    expect(r.notice).toContain(folder);
    expect(readdirSync(folder)).toEqual(['mine.txt']);
  });

  it("goes to the app's own folder when Documents cannot take it, and to the bundled copy (with the reason) when nothing can", () => {
    const h = home('nodocs');
    const blocked = join(h.documents, 'file-not-folder');
    writeFileSync(blocked, 'x');
    const r = prepareUserSamples({ bundledDir: bundled, documentsDir: blocked, fallbackDir: h.userData });
    expect(r.startupPath).toBe(join(h.userData, SAMPLES_FOLDER_NAME, 'walk.mtn'));
    expect(r.notice).toContain(join(h.userData, SAMPLES_FOLDER_NAME));
    const none = prepareUserSamples({ bundledDir: bundled, documentsDir: null, fallbackDir: join(blocked, 'sub') });
    expect(none.startupPath).toBe(join(bundled, 'walk.mtn'));
    expect(none.folder).toBeNull();
    expect(none.notice).toMatch(/could not be copied.*file-not-folder.*Save As/s);
  });

  it("a samples folder that is a symbolic link is not used (it would grant its target for writing): the app's own folder takes the copy, and the user is told why", () => {
    const h = home('linked');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'walk.mtn'), 'not a sample');
    const link = join(h.documents, SAMPLES_FOLDER_NAME);
    symlinkSync(elsewhere, link);
    const r = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    expect(r.folder).toBe(join(h.userData, SAMPLES_FOLDER_NAME));
    expect(r.startupPath).toBe(join(h.userData, SAMPLES_FOLDER_NAME, 'walk.mtn'));
    expect(r.notice).toContain(`${link} is a symbolic link, and ActGuy opens its samples only from a real folder`);
    const policy = createPathPolicy();
    grantUserSamples(policy, r);
    expect(policy.isAllowed(join(elsewhere, 'walk.mtn'))).toBe(false);
    // Where the app's folder is a link too, the bundled copy opens read-only, with both reasons.
    const h2 = home('linked2');
    mkdirSync(join(h2.userData), { recursive: true });
    symlinkSync(elsewhere, join(h2.documents, SAMPLES_FOLDER_NAME));
    symlinkSync(elsewhere, join(h2.userData, SAMPLES_FOLDER_NAME));
    const none = prepareUserSamples({ bundledDir: bundled, documentsDir: h2.documents, fallbackDir: h2.userData });
    expect(none).toMatchObject({ startupPath: join(bundled, 'walk.mtn'), folder: null });
    expect(none.notice).toMatch(/could not be copied.*linked2\/Documents.*symbolic link.*ActGuy.*symbolic link/s);
    expect(readFileSync(join(elsewhere, 'walk.mtn'), 'utf8')).toBe('not a sample');
  });

  it("a copy that fails halfway leaves no folder a later run would take for the user's; a killed run's temp copy is swept", () => {
    if (process.platform === 'win32') return; // mkfifo
    const broken = bundle('broken-bundle');
    // A FIFO cannot be copied: cpSync fails after copying the files before it.
    execFileSync('mkfifo', [join(broken, 'zz-fifo')]);
    const h = home('halfway');
    const noFallback = join(h.documents, 'file');
    writeFileSync(noFallback, '');
    const r = prepareUserSamples({ bundledDir: broken, documentsDir: h.documents, fallbackDir: noFallback });
    expect(r).toMatchObject({ startupPath: join(broken, 'walk.mtn'), folder: null });
    expect(readdirSync(h.documents)).toEqual(['file']);
    // A temp copy of a process that no longer runs (pid 2^22 + 1 is above Linux's pid_max).
    const stale = join(h.documents, `${SAMPLES_FOLDER_NAME}.actguy-new.${host()}.4194305.abc123.tmp`);
    mkdirSync(stale);
    writeFileSync(join(stale, 'walk.mtn'), 'half');
    const ok = prepareUserSamples({ bundledDir: bundled, documentsDir: h.documents, fallbackDir: h.userData });
    expect(ok.folder).toBe(join(h.documents, SAMPLES_FOLDER_NAME));
    expect(readdirSync(h.documents).sort()).toEqual([SAMPLES_FOLDER_NAME, 'file']);
  });
});
