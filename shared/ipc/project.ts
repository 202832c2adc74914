/**
 * The API family of projects (shared/ipc/api.ts): project files, SEV files, SE tables, archive builds and
 * audition sounds.
 */
import type { CompressResult } from '../compress/types';
import type { FileKind } from '../errors';
import type { GltfExportSource } from './interchange';
import type { PlainFileProblem } from '../fileProblem';
import type { BuildReport } from '../project/plan';

/**
 * A project file (`*.actguy.json`) as read from disk. The renderer validates
 * and edits it with shared/project (parseProject); main only reads it and
 * allows the files it lists (motions, SEVs, SE tables, outputs, `sounds/`).
 */
export interface OpenedProject {
  /** Absolute path of the project file. */
  path: string;
  /** The file's text (UTF-8, BOM removed). */
  text: string;
}

export type OpenProjectOutcome = { status: 'opened'; project: OpenedProject } | { status: 'cancelled' };

/** Writes a project file atomically; refused (with every validation error) when the text is not a valid project. */
export interface SaveProjectRequest {
  /** Absolute path ending in `.json`, in the allowed set. */
  path: string;
  text: string;
  /**
   * The user chose "Save anyway" after this save was refused because the file changed on disk since it was opened
   * (ActGuyApiError.changedOnDisk): main replaces the file only while it is still what that refusal found.
   */
  overwriteChanged?: boolean;
}

/** A text file a project holds (a .sev, default.sls, se_define.h). */
export interface ProjectTextFile {
  path: string;
  /** The text (UTF-8, BOM removed), or null when the file does not exist yet (a .sev the project names but nobody wrote). */
  text: string | null;
  /**
   * Set when the request named the project (`project`) and the file, links resolved, lies outside that project's
   * folder: a received project may name another project's .sev by `../` or through a link, and the editor says so
   * before a save writes there (docs/security.md, round 35).
   */
  outsideProject?: true;
  /**
   * Which read this was (for a .sev or a project file): its SHA-256 in hex, or `none` when there was no file. A save
   * that names it (SaveSevRequest.loadedAs) compares the file on disk with this read, not with a later one the page
   * did not show (loadSev keeps edits made while a file was read; electron/loadedFiles.ts).
   */
  loadedAs?: string;
}

/** Writes a .sev atomically (the serializer's text; comments are the user's). */
export interface SaveSevRequest {
  /**
   * Absolute path ending in `.sev`: an allowed file, or a new .sev beside the
   * open project file (a motion's first SEV).
   */
  path: string;
  text: string;
  /**
   * The user chose "Save anyway" after this save was refused because the file changed on disk since it was opened
   * (ActGuyApiError.changedOnDisk): main replaces the file only while it is still what that refusal found.
   */
  overwriteChanged?: boolean;
  /**
   * The read the editor shows (ProjectTextFile.loadedAs), when it did not show the last one: the file on disk is
   * compared with that read. Omitted: with the last read or save of the file.
   */
  loadedAs?: string;
}

/** What a project file dialog picks: a motion to add, a SEV to attach, or a sound file whose folder holds the audition sounds. */
export type ProjectFilePurpose = 'mtn' | 'sev' | 'sound';

/** A new archive build (or a dry run that compresses without writing, for the project panel's status). */
export interface StartBuildRequest {
  /** Absolute path of the project file (relative paths in it resolve against its folder). */
  projectPath: string;
  /** The project as edited (may be unsaved); validated exactly as `actguy build` does. */
  projectText: string;
  /** SEV files edited in the app but not saved: their text replaces the file on disk for this build. */
  sevTexts?: { path: string; text: string }[];
  /** Compress and check everything, write nothing. */
  dryRun?: boolean;
}

/** One problem of a build, placed so the app can jump to it. */
export interface BuildProblem {
  /** Readable as is (`walk.sev:12:7: ...`). */
  message: string;
  /** File kind of the FormatError (SEV, PROJECT, MTN, ...). */
  kind?: FileKind;
  /** The file it is about, when known. */
  file?: string;
  line?: number;
  column?: number;
  /** A readable place such as `motions[1].sev`. */
  where?: string;
  /** A bad file's problem in plain words, shown before `message` (shared/fileProblem.ts). */
  plain?: PlainFileProblem;
}

/** One motion compressed by a build, in archive order: the compressor's sizes plus what the build measured. */
export interface BuildMotionResult extends Pick<CompressResult, 'totalKeys' | 'mt3Bytes' | 'mtnBytes' | 'ratio'> {
  /** Archive index. */
  index: number;
  /** Taken from the build cache (unchanged since an earlier build) instead of compressed. */
  cached?: boolean;
  name: string;
  /** Largest error over all channels as a fraction of its tolerance (<= 1 when every tolerance is met). */
  maxErrorRatio: number;
  /** Largest rotation error, degrees. */
  maxRotationErrorDeg: number;
  /** Largest root translation error, motion units. */
  maxPositionError: number;
  /** SE slots and events in the motion's SAR entry. */
  seSlots: number;
  events: number;
  /** Frames 0..frameCount as the game plays them, at `fps` (after resampling, when the build resampled). */
  frameCount: number;
  /** The project's playback rate. */
  fps: number;
  /** The MTN's own rate when the build resampled it, else null. */
  resampledFromFps: number | null;
  /** Authored playback factor, and the effective duration round(frameCount / fps / speed * 1000) in ms. */
  speed: number;
  durationMs: number;
}

export type BuildState = 'checking' | 'compressing' | 'writing' | 'done' | 'failed' | 'cancelled';

/** Where a build is: poll it with getBuildStatus (both transports serve it the same way). */
export interface BuildStatus {
  buildId: string;
  dryRun: boolean;
  state: BuildState;
  /** Motions compressed so far, and how many there are (0 until the project validated). */
  done: number;
  count: number;
  /** The motion being compressed, or null. */
  current: string | null;
  /** Finished motions, in archive order (motions finish in any order on the pool). */
  motions: BuildMotionResult[];
  /** Estimated milliseconds left while compressing (null before the first motion finished, or when not compressing). */
  etaMs?: number | null;
  /** Every error (state 'failed'); nothing was written. */
  errors: BuildProblem[];
  warnings: string[];
  /** Files written (state 'done', not dry run): .mar, .sar, report. */
  written: string[];
  /** The size in bytes of each file in `written`, in its order (the build dialog shows what the build wrote). */
  writtenBytes?: number[];
  /** The build report (state 'done'; null when up to date). */
  report: BuildReport | null;
  /**
   * State 'done' with nothing done: every input and setting was the last build's and its outputs are still the files
   * it wrote (docs/cache.md, "Up to date"); nothing was compressed or written, and `motions` is empty.
   */
  upToDate?: boolean;
  /**
   * Up to date: the last build's outputs (.mar, .sar, report), left as they were, with their sizes now (null where
   * the file could not be read), so the dialog says what the archives weigh though nothing was written.
   */
  unchanged?: { path: string; bytes: number | null }[];
  /** Milliseconds since the build started (or its total once finished). */
  elapsedMs: number;
  /**
   * State 'cancelled': false from the Cancel until the build's worker has ended, true from then on; absent in any other
   * state. A cancelled build writes nothing (the main process commits only a build that ended on its own); once
   * stopped, nothing of it runs any more either, so a check that nothing appeared is judged after it
   * (docs/testing.md, "Tests under load, round 2").
   */
  stopped?: boolean;
}

/** Audition sounds: files in a folder named by SE name (`SE_FOOT_L_CONC.wav`). */
export interface SoundFolderListing {
  folder: string;
  sounds: { name: string; path: string; byteLength: number; extension: string }[];
}

/** What a whole-project export writes: every motion and alias as MSH animation, or as glTF (.glb). */
export type ProjectExportFormat = 'msh' | 'gltf';

/** Project › Export All as MSH… / glTF…: every motion and alias of the project into one folder, as one unit. */
export interface StartProjectExportRequest {
  /** Absolute path of the project file (relative paths in it resolve against its folder). */
  projectPath: string;
  /** The project as edited (may be unsaved); read as `actguy export-msh --project` reads the file. */
  projectText: string;
  format: ProjectExportFormat;
  /**
   * glTF: the motion each file holds, the source (default) or the compressed one: each motion compressed with its
   * project settings as a build compresses it, then decoded (`actguy export-gltf --project --compressed`). Not for MSH.
   */
  gltfSource?: GltfExportSource;
  /**
   * A file in the folder to export into, as the save picker named it (`walk.res8`, `walk.glb`): its folder is the
   * export's. The dialog member asks for it.
   */
  path: string;
}

/** The dialog asks for `path` itself, offering `defaultName` (the first motion's file) in the project's folder. */
export interface StartProjectExportDialogRequest extends Omit<StartProjectExportRequest, 'path'> {
  defaultName?: string;
  /**
   * The names of the files the export writes (each motion's and alias's), for the browser build's folder picker to
   * say before anything is written; main plans its own from the project text and reads nothing from these.
   */
  fileNames?: string[];
}

/** A dialog the user closed without choosing. */
export interface Cancelled {
  status: 'cancelled';
}

/**
 * 'confirm': the desktop app's export, its folder chosen in the system's dialog, waits before any work for the page to
 * say what it writes there (`planned`) and for confirmProjectExport (or cancelProjectExport).
 */
export type ProjectExportState = 'exporting' | 'confirm' | 'writing' | 'done' | 'failed' | 'cancelled';

/** Where a whole-project export is: poll it with getProjectExportStatus. */
export interface ProjectExportStatus {
  exportId: string;
  format: ProjectExportFormat;
  /** glTF: which motion the files hold (StartProjectExportRequest). */
  gltfSource?: GltfExportSource;
  state: ProjectExportState;
  /** The folder it writes into. */
  folder: string;
  /**
   * State 'confirm': the names of the files main plans to write in `folder`, and those of them the folder holds now
   * (replaced by the export).
   */
  planned?: { files: string[]; replaced: string[] };
  /** Entries (motions, then aliases) exported so far, and how many there are (0 until the project read). */
  done: number;
  count: number;
  /** The entry being exported, or null. */
  current: string | null;
  /** State 'done': every file written, with its size, entry by entry. */
  written: { name: string; of?: string; files: { path: string; bytes: number }[] }[];
  /** State 'failed': every problem; nothing was written. */
  errors: BuildProblem[];
  warnings: string[];
  /**
   * State 'done', a glTF of the compressed motions with the project's build cache: how it was used, in the words of
   * `actguy build` ("cache: 3 reused, 0 rejected, 1 compressed").
   */
  cache?: string;
}
