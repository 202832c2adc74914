/**
 * The main-process side of issue 5: project files, SEV files, SE tables,
 * archive builds and audition sounds. The same functions serve Electron IPC
 * and the loopback transport (electron/handlers.ts spreads them into the API).
 *
 * The renderer is untrusted. Every path goes through the PathPolicy: a
 * project file the user opened makes the files it lists allowed (its motions,
 * SEVs, SE tables and outputs, and its `sounds/` folder), a file picked in a
 * dialog becomes allowed, and nothing else is read or written. A build checks
 * every path of the (possibly unsaved) project text against the policy before
 * its worker reads anything.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { FormatError } from '../../shared/errors';
import type { ApiHandlersOf, BuildProblem, OpenProjectOutcome, ProjectFilePurpose, SavedFile, SoundFolderListing } from './types';
import { resolveFrom } from '../../shared/project/paths';
import { parseProject } from '../../shared/project/validate';
import { parseSev } from '../../shared/sev/parse';
import { decodeUtf8Text } from '../../shared/sev/text';
import type { DialogPort, FileFilter } from '../dialogPort';
import { baseNameOf, readBytes, writeFileAtomic } from '../fsutil';
import { requireObject, requireString } from '../ipcArgs';
import type { PathPolicy } from '../pathPolicy';
import { createBuildRunner, workerLauncher, type BuildJobLauncher, type BuildRunner } from './buildRunner';

/** Sound file types Web Audio decodes in Chromium. */
export const SOUND_EXTENSIONS = ['wav', 'ogg', 'mp3', 'flac'] as const;
/** Largest sound file served for audition. */
export const SOUND_MAX_BYTES = 16 * 1024 * 1024;
/** Text files a project holds that the renderer may read. */
const TEXT_EXTENSIONS = ['.sev', '.sls', '.h', '.json'];

const PROJECT_FILTERS: FileFilter[] = [{ name: 'ActGuy project (.actguy.json)', extensions: ['json'] }];
const PURPOSE_FILTERS: Record<ProjectFilePurpose, { title: string; filters: FileFilter[] }> = {
  mtn: { title: 'Add a motion to the project', filters: [{ name: 'Motion (.mtn)', extensions: ['mtn'] }] },
  sev: { title: 'Attach a sound-event file', filters: [{ name: 'Sound events (.sev)', extensions: ['sev'] }] },
  sound: { title: 'Choose any sound in the audition folder', filters: [{ name: 'Sounds', extensions: [...SOUND_EXTENSIONS] }] },
};

export interface ProjectHandlerContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  /** How builds run; defaults to buildWorker.cjs beside the running bundle. */
  launchBuild?: BuildJobLauncher;
}

export type ProjectHandlers = ApiHandlersOf<
  | 'openProject' | 'openProjectDialog' | 'saveProject' | 'chooseProjectFileDialog' | 'readProjectText' | 'saveSev'
  | 'startBuild' | 'getBuildStatus' | 'cancelBuild' | 'listSounds' | 'readSound'
>;

/** The default worker: dist/electron/buildWorker.cjs (unpacked beside app.asar in a packaged app). */
export function defaultBuildWorkerPath(): string {
  return join(__dirname, 'buildWorker.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`);
}

/** Every path a project text names, resolved (also for a project with validation errors, as far as its JSON goes). */
export function pathsNamedByProject(text: string, projectFile: string): { inputs: string[]; outputs: string[] } {
  const parsed = parseProject(text, projectFile);
  if (parsed.resolved) {
    const r = parsed.resolved;
    const inputs = [...r.motions.flatMap((m) => (m.sevPath ? [m.mtnPath, m.sevPath] : [m.mtnPath]))];
    if (r.slsPath) inputs.push(r.slsPath);
    if (r.seDefinePath) inputs.push(r.seDefinePath);
    return { inputs, outputs: [r.marPath, r.sarPath, r.reportPath] };
  }
  // A project with errors still opens (the panel lists them); allow what its JSON plainly names.
  const inputs: string[] = [];
  const outputs: string[] = [];
  try {
    const json = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    const add = (into: string[], v: unknown) => {
      if (typeof v === 'string' && v) into.push(resolveFrom(projectFile, v));
    };
    if (Array.isArray(json.motions)) for (const m of json.motions as Record<string, unknown>[]) if (m && typeof m === 'object') { add(inputs, m.mtn); add(inputs, m.sev); }
    const t = json.seTables as Record<string, unknown> | undefined;
    if (t && typeof t === 'object') { add(inputs, t.sls); add(inputs, t.seDefine); }
    const o = json.outputs as Record<string, unknown> | undefined;
    if (o && typeof o === 'object') { add(outputs, o.mar); add(outputs, o.sar); add(outputs, o.report); }
  } catch {
    // not JSON: nothing to allow
  }
  return { inputs, outputs };
}

export function createProjectHandlers(ctx: ProjectHandlerContext): ProjectHandlers {
  const { policy, dialogs } = ctx;
  const runner: BuildRunner = createBuildRunner(ctx.launchBuild ?? workerLauncher(defaultBuildWorkerPath()));
  /** Folders of the projects opened in this session: a motion's first .sev may be created there. */
  const projectFolders = new Set<string>();

  const allowProjectFiles = (path: string, text: string): void => {
    const named = pathsNamedByProject(text, path);
    for (const p of [...named.inputs, ...named.outputs]) policy.allowFile(p);
    const sounds = join(dirname(path), 'sounds');
    if (existsSync(sounds) && statSync(sounds).isDirectory()) policy.allowTree(sounds);
    projectFolders.add(resolve(dirname(path)));
  };

  const readText = (path: string): string => {
    try {
      return decodeUtf8Text(readBytes(path), extname(path).toLowerCase() === '.sev' ? 'SEV' : 'PROJECT', path);
    } catch (e) {
      if (e instanceof FormatError) throw e;
      throw new Error(`Could not read ${path}: ${reason(e)}`);
    }
  };

  const openProject = async (raw: { path: string }): Promise<OpenProjectOutcome> => {
    const req = requireObject<{ path: string }>(raw, 'openProject');
    const given = requireString(req.path, 'openProject: path');
    if (!given.toLowerCase().endsWith('.json')) throw new Error(`${given}: not a project file (expected *.actguy.json)`);
    const path = policy.check(given, 'read');
    const text = readText(path);
    allowProjectFiles(path, text);
    return { status: 'opened', project: { path, text } };
  };

  /** A .sev chosen to edit opens with its motion: `<motion>.mtn` beside it (its `motion` statement, else its own base name). */
  const allowMotionOfSev = (sevPath: string): void => {
    policy.allowFile(join(dirname(sevPath), `${baseNameOf(sevPath)}.mtn`));
    try {
      const named = parseSev(readText(sevPath), sevPath).doc?.motion?.name;
      if (named) policy.allowFile(join(dirname(sevPath), `${named}.mtn`));
    } catch {
      // unreadable or broken: the renderer reports it when it reads the file
    }
  };

  const requireBuildId = (raw: unknown, what: string): string => requireString(requireObject<{ buildId: string }>(raw, what).buildId, `${what}: buildId`);

  return {
    openProject,

    openProjectDialog: async () => {
      const path = await dialogs.chooseFileToOpen({ title: 'Open project', filters: PROJECT_FILTERS });
      if (!path) return { status: 'cancelled' };
      policy.allowFile(path);
      return openProject({ path });
    },

    saveProject: async (raw) => {
      const req = requireObject<{ path: string; text: string }>(raw, 'saveProject');
      const given = requireString(req.path, 'saveProject: path');
      if (!given.toLowerCase().endsWith('.json')) throw new Error(`Could not save ${given}: a project file name ends in .actguy.json`);
      if (typeof req.text !== 'string') throw new Error('saveProject: text must be a string');
      const path = policy.check(given, 'write');
      const file = writeCheckedText(path, req.text, parseProject(req.text, path).errors, 'the project', 'the file on disk is unchanged');
      allowProjectFiles(path, req.text);
      return file;
    },

    chooseProjectFileDialog: async (raw) => {
      const req = requireObject<{ purpose: ProjectFilePurpose }>(raw, 'chooseProjectFileDialog');
      const kind = PURPOSE_FILTERS[req.purpose];
      if (!kind) throw new Error(`chooseProjectFileDialog: purpose must be one of ${Object.keys(PURPOSE_FILTERS).join(', ')}`);
      const path = await dialogs.chooseFileToOpen(kind);
      if (!path) return { status: 'cancelled' };
      policy.allowFile(path);
      if (req.purpose === 'sound') policy.allowTree(dirname(path));
      if (req.purpose === 'sev') allowMotionOfSev(path);
      return { status: 'chosen', path };
    },

    readProjectText: async (raw) => {
      const req = requireObject<{ path: string }>(raw, 'readProjectText');
      const given = requireString(req.path, 'readProjectText: path');
      if (!TEXT_EXTENSIONS.includes(extname(given).toLowerCase())) throw new Error(`${given}: not a project text file (.sev, .sls, .h, .json)`);
      const path = policy.check(given, 'read');
      if (!existsSync(path)) {
        if (extname(path).toLowerCase() === '.sev') return { path: given, text: null };
        throw new Error(`Could not read ${path}: no such file`);
      }
      return { path: given, text: readText(path) };
    },

    saveSev: async (raw) => {
      const req = requireObject<{ path: string; text: string }>(raw, 'saveSev');
      const given = requireString(req.path, 'saveSev: path');
      if (extname(given).toLowerCase() !== '.sev') throw new Error(`Could not save ${given}: a sound-event file name ends in .sev`);
      if (typeof req.text !== 'string') throw new Error('saveSev: text must be a string');
      if (!policy.isAllowed(given) && projectFolders.has(resolve(dirname(given)))) policy.allowFile(given);
      const path = policy.check(given, 'write');
      return writeCheckedText(path, req.text, parseSev(req.text, path).errors, 'the text', 'the file on disk is unchanged and your edits are kept');
    },

    startBuild: async (raw) => {
      const req = requireObject<{ projectPath: string; projectText: string; sevTexts?: { path: string; text: string }[]; dryRun?: boolean }>(raw, 'startBuild');
      const projectPath = policy.check(requireString(req.projectPath, 'startBuild: projectPath'), 'read');
      if (typeof req.projectText !== 'string') throw new Error('startBuild: projectText must be a string');
      const sevTexts = Array.isArray(req.sevTexts) ? req.sevTexts : [];
      for (const s of sevTexts)
        if (typeof s?.path !== 'string' || typeof s.text !== 'string') throw new Error('startBuild: sevTexts must be {path, text} objects');
      const dryRun = req.dryRun === true;
      // Every file the build will touch must be one the user's project (or a dialog) allowed.
      const named = pathsNamedByProject(req.projectText, projectPath);
      const refused: BuildProblem[] = [];
      for (const p of named.inputs) if (!policy.isAllowed(p)) refused.push({ message: `ActGuy refused to read ${p}: the project file on disk does not list it (save the project or add the file with its dialog)`, file: p });
      if (!dryRun) for (const p of named.outputs) if (!policy.isAllowed(p)) refused.push({ message: `ActGuy refused to write ${p}: the project file on disk does not name it as an output`, file: p });
      if (refused.length) return runner.reject(refused, dryRun);
      return runner.start({ projectPath: req.projectPath, projectText: req.projectText, sevTexts: sevTexts.map((s) => ({ path: s.path, text: s.text })), dryRun });
    },

    getBuildStatus: async (raw) => runner.status(requireBuildId(raw, 'getBuildStatus')),

    cancelBuild: async (raw) => runner.cancel(requireBuildId(raw, 'cancelBuild')),

    listSounds: async (raw): Promise<SoundFolderListing> => {
      const req = requireObject<{ folder: string }>(raw, 'listSounds');
      const folder = policy.check(requireString(req.folder, 'listSounds: folder'), 'read');
      let names: string[];
      try {
        names = readdirSync(folder).sort();
      } catch (e) {
        throw new Error(`Could not list ${folder}: ${reason(e)}`);
      }
      const sounds: SoundFolderListing['sounds'] = [];
      for (const name of names) {
        const extension = extname(name).slice(1).toLowerCase();
        if (!(SOUND_EXTENSIONS as readonly string[]).includes(extension)) continue;
        const path = join(folder, name);
        try {
          const st = statSync(path);
          if (st.isFile()) sounds.push({ name: baseNameOf(name), path, byteLength: st.size, extension });
        } catch {
          // vanished between readdir and stat: leave it out
        }
      }
      return { folder, sounds };
    },

    readSound: async (raw) => {
      const req = requireObject<{ path: string }>(raw, 'readSound');
      const given = requireString(req.path, 'readSound: path');
      if (!(SOUND_EXTENSIONS as readonly string[]).includes(extname(given).slice(1).toLowerCase()))
        throw new Error(`${given}: not a sound file (${SOUND_EXTENSIONS.join(', ')})`);
      const path = policy.check(given, 'read');
      let size: number;
      try {
        size = statSync(path).size;
      } catch (e) {
        throw new Error(`Could not read ${path}: ${reason(e)}`);
      }
      if (size > SOUND_MAX_BYTES) throw new Error(`${path}: ${size} bytes is too large for audition (at most ${SOUND_MAX_BYTES})`);
      return { path: given, bytes: readBytes(path) };
    },
  };
}

function saved(path: string, byteLength: number): SavedFile {
  return { path, name: baseNameOf(path), byteLength };
}

/**
 * Writes text that was just parsed, atomically, only when the parse found no
 * errors. `subject` names what had errors ("the project"); `unchanged` says
 * what the user keeps when the write itself fails.
 */
function writeCheckedText(path: string, text: string, errors: readonly { message: string }[], subject: string, unchanged: string): SavedFile {
  if (errors.length) throw new Error(`Could not save ${path}: ${subject} has errors; nothing was written\n${errors.map((e) => e.message).join('\n')}`);
  try {
    writeFileAtomic(path, text);
  } catch (e) {
    throw new Error(`Could not save ${path}: ${reason(e)}; ${unchanged}`);
  }
  return saved(path, Buffer.byteLength(text));
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    ENOENT: 'no such file or folder', EACCES: 'permission denied', EPERM: 'the operation is not permitted',
    ENOSPC: 'no space left on the disk', EROFS: 'the disk is read-only', EISDIR: 'a folder has that name',
  };
  return (code && known[code]) ?? (e instanceof Error ? e.message : String(e));
}
