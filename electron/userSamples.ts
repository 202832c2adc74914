/**
 * The sample project a packaged app starts on, copied out of the install
 * folder on first run. The bundled one (resources/assets) is read-only on
 * Linux packages and in a macOS bundle (whose signature a write would break),
 * and shared by every user of a Windows install: saving or building it there
 * fails or overwrites the shipped files. So the app copies it once to a
 * folder of the user's (Documents/ActGuy Samples, docs/install.md#first-run)
 * and opens it from there.
 *
 * The copy is made in a temp folder beside the target and renamed into place,
 * so a killed start-up never leaves a half-copied sample folder that later
 * runs would take for the user's. An existing folder is never written to:
 * whatever the user did to their copy stays.
 */
import { cpSync, existsSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isSymbolicLink, type PathPolicy } from './pathPolicy';
import { isStaleTemp, ownTempName } from './tempFiles';

/** The folder name under Documents. */
export const SAMPLES_FOLDER_NAME = 'ActGuy Samples';
/** The motion the app opens at start-up, in the samples folder. */
export const STARTUP_SAMPLE = 'walk.mtn';

interface UserSamplesOptions {
  /** The bundled samples (resources/assets). */
  bundledDir: string;
  /** Where users keep documents (Electron's app.getPath('documents')), or null when the OS has none. */
  documentsDir: string | null;
  /** Used when Documents cannot take the copy: a folder of the app's own (under userData). */
  fallbackDir: string;
}

export interface UserSamples {
  /** The start-up motion: in the user's samples folder, or the bundled one when no copy could be made. */
  startupPath: string;
  /** The samples folder the app opens from, or null when it runs on the bundled copy. */
  folder: string | null;
  /** What the user is told at start-up (the copy was just made, or could not be), or null. */
  notice: string | null;
}

/**
 * The user's samples folder, copied from the bundle when it does not exist yet:
 * Documents/ActGuy Samples, else `<fallbackDir>/ActGuy Samples`. A folder that
 * exists is used as it is (one that is a symbolic link is not used at all); when it lacks the start-up motion (the user removed
 * it) the app starts on the bundled one.
 */
export function prepareUserSamples(o: UserSamplesOptions): UserSamples {
  const bundled = join(o.bundledDir, STARTUP_SAMPLE);
  const errors: string[] = [];
  for (const parent of [o.documentsDir, o.fallbackDir]) {
    if (!parent) continue;
    const folder = join(parent, SAMPLES_FOLDER_NAME);
    if (isSymbolicLink(folder)) {
      // The whole folder is granted for writing: through a link that could be anywhere (docs/install.md#first-run).
      errors.push(`${folder} is a symbolic link, and ActGuy opens its samples only from a real folder`);
      continue;
    }
    if (existsSync(folder)) {
      const own = join(folder, STARTUP_SAMPLE);
      if (existsSync(own)) return { startupPath: own, folder, notice: null };
      return {
        startupPath: bundled,
        folder: null,
        notice: `${folder} has no ${STARTUP_SAMPLE}: the bundled sample opens instead, from the install folder (use Save As to keep changes).`,
      };
    }
    try {
      copyFolderAtomically(o.bundledDir, folder);
      return {
        startupPath: join(folder, STARTUP_SAMPLE),
        folder,
        notice: `The sample project was copied to ${folder}: it opens from there, and your changes to it are saved there.${errors.length ? ` (${errors.join('; ')}.)` : ''}`,
      };
    } catch (e) {
      errors.push(`${folder}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return {
    startupPath: bundled,
    folder: null,
    notice: `The sample project could not be copied to a folder of yours (${errors.join('; ')}). It opens from the install folder, where it cannot be saved: use Save As.`,
  };
}

/** Copies `from` to a temp folder beside `to`, then renames it to `to`; a `to` that appeared meanwhile is kept. */
function copyFolderAtomically(from: string, to: string): void {
  sweepStaleCopies(to);
  const tmp = ownTempName(to, 'new');
  try {
    cpSync(from, tmp, { recursive: true, errorOnExist: true, force: false });
    renameSync(tmp, to);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Temp copies of `target` that a killed start-up left behind (their process is gone). */
function sweepStaleCopies(target: string): void {
  const dir = dirname(target);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // the parent does not exist yet: cpSync makes it
  }
  for (const name of names) {
    if (!name.startsWith(`${basename(target)}.actguy-new.`)) continue;
    const path = join(dir, name);
    try {
      if (isStaleTemp(name, lstatSync(path).mtimeMs)) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/**
 * What the app may do with the samples it starts on. The user's copy is theirs (the app made it for them,
 * in their Documents), so the whole folder is open for saving and building, as a workspace is; the bundled
 * copy in the install folder stays read-only (the handlers grant it for reading only).
 */
export function grantUserSamples(policy: Pick<PathPolicy, 'allowTree'>, samples: UserSamples): void {
  if (samples.folder) policy.allowTree(samples.folder);
}
