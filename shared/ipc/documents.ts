/**
 * The API family of motion files and documents (shared/ipc/api.ts): open, save, export .mt3, recent files, the
 * workspace listing, the unsaved-changes report and the app's start-up facts.
 */
import type { CompressRequest, DocumentId } from '../compress/request';
import type { MenuCommandId } from './menu';

/** The kind of motion file a document came from. */
export type MotionFileKind = 'mtn' | 'mt3' | 'mar';

/** Identifies one opened motion in the main process (declared with the compress request, which names it). */
export type { DocumentId };

/** A motion the main process opened and cached. */
export interface OpenedMotion {
  documentId: DocumentId;
  /** Absolute path of the file opened (the .mtn, .mt3 or .mar). */
  path: string;
  /** Display name: the base name without extension; for a .mar entry "<mar base>:<entry name>". */
  name: string;
  kind: MotionFileKind;
  /**
   * True for .mt3 and .mar: the motion was decoded from keyframes and cannot be
   * saved back in place (save-as .mtn is allowed; `saveMotion` refuses non-.mtn paths).
   */
  readOnly: boolean;
  /**
   * The motion as an MTN v1 file (FORMATS.md 1): for .mtn the file bytes as read,
   * for .mt3/.mar `writeMtn(decodeMt3ToMotion(mt3, skeleton))`. Read with `readMtn`.
   */
  mtnBytes: Uint8Array;
  /** The skeleton .mtn that named joints of a decoded .mt3/.mar motion; null for .mtn or when opened without one. */
  skeletonPath: string | null;
  /** For a .mar document, the entry index that was opened; otherwise null. */
  marEntry: number | null;
  /**
   * The tuning file beside an .mtn (`walk.mtn.actguy-tuning.json`, docs/formats-tuning.md): its text (parse it
   * with parseTuning against the motion), or why it could not be read. Absent or null when there is none.
   */
  tuning?: TuningFileRead | null;
  /**
   * What the open finished first: a Save of this .mtn with its tuning file that was killed mid-write, completed or
   * rolled back from its journal (electron/handlers.ts finishInterruptedSave). Absent when nothing lay there.
   */
  recovered?: string;
}

/** A motion's tuning file as main read it: the text, or why it could not be read (too large, unreadable). */
export type TuningFileRead = { path: string; text: string } | { path: string; error: string };

/** One motion inside a .mar archive, listed so the user can pick it. */
export interface MarEntrySummary {
  /** Index in the archive (0-based); pass as `OpenMotionRequest.marEntry`. */
  index: number;
  /** 24-bit GV_StrCode name hash. */
  nameCode: number;
  /** The name hash as text (formatStrCode), for display. */
  nameText: string;
  /** N: frames 0..N. */
  frameCount: number;
  /** Number of joint rotation tracks. */
  jointCount: number;
  /** Size of the entry's MT3 bytes. */
  byteLength: number;
}

/** Where a skeleton for a .mt3/.mar comes from. */
export interface OpenMotionRequest {
  /** Absolute path (must be in the allowed set: chosen in a dialog, recent, the sample, the project or the workspace). */
  path: string;
  /** For .mar: which entry to open. Omit to get the entry list back. */
  marEntry?: number;
  /**
   * For .mt3/.mar: the skeleton .mtn giving joint names and hierarchy. When
   * omitted, main looks for `<same base name>.mtn` beside the file.
   */
  skeletonPath?: string;
  /** For .mt3/.mar: decode without any skeleton (generic joint names) instead of asking for one. */
  withoutSkeleton?: boolean;
}

/**
 * Result of opening a motion. Besides `opened`:
 * - `cancelled`: the user closed the dialog.
 * - `chooseMarEntry`: a .mar was opened without `marEntry`; show `entries` and call
 *   `openMotion({ path, marEntry })` with the pick.
 * - `needsSkeleton`: a .mt3/.mar has no `<base>.mtn` beside it; ask the user for one
 *   (`chooseSkeletonDialog`) and call `openMotion` again with `skeletonPath`, or with
 *   `withoutSkeleton: true`.
 */
export type OpenMotionOutcome =
  | { status: 'opened'; motion: OpenedMotion }
  | { status: 'cancelled' }
  | { status: 'chooseMarEntry'; path: string; entries: MarEntrySummary[] }
  | { status: 'needsSkeleton'; path: string; kind: 'mt3' | 'mar'; marEntry: number | null };

/** Save the edited motion as MTN bytes (writeMtn of the document). */
export interface SaveMotionRequest {
  documentId: DocumentId;
  /** Absolute target path; must end in .mtn and be in the allowed set. */
  path: string;
  /** The whole motion as an MTN v1 file (keys, locks, trace keys and flags included). */
  mtnBytes: Uint8Array;
  /**
   * The tuning file's text (serializeTuning), written beside the .mtn together with it (both or neither);
   * omitted: a tuning file there stays as it is.
   */
  tuningText?: string;
  /**
   * Save anyway: replace the .mtn (and tuning file) although it changed on disk since it was opened, as long as it is
   * still what the refused save found there (electron/loadedFiles.ts). Without it such a save is refused, with the
   * reply's `changedOnDisk`.
   */
  overwriteChanged?: boolean;
}

export interface SaveMotionAsRequest {
  documentId: DocumentId;
  mtnBytes: Uint8Array;
  /** As SaveMotionRequest.tuningText: written beside the chosen .mtn with it. */
  tuningText?: string;
  /** Suggested file name (e.g. "walk.mtn"); the dialog starts beside the document. */
  defaultName?: string;
}

/**
 * The page's edits of a motion kept as a new file beside its .mtn before a Reload from disk drops them
 * (renderer/app/motionFiles.ts save): the motion, and the tuning file's text when the page keeps one beside it.
 */
export interface KeepMotionCopyRequest {
  documentId: DocumentId;
  mtnBytes: Uint8Array;
  /** As SaveMotionRequest.tuningText: written beside the copy with it. */
  tuningText?: string;
}

/** Where keepMotionCopy wrote the copy (a new file; nothing was replaced). */
export interface KeptMotionCopy {
  /** Absolute path of the new .mtn (listed under File › Open Recent). */
  path: string;
  /** Its tuning file, when one was written. */
  tuningPath: string | null;
}

/** A finished save. The main side now caches these bytes for the document. */
export interface SavedFile {
  /** Absolute path written. */
  path: string;
  /** Base name without extension. */
  name: string;
  /** Bytes written. */
  byteLength: number;
}

export type SaveOutcome = { status: 'saved'; file: SavedFile } | { status: 'cancelled' };

/** Export the compressed motion as .mt3: main compresses with these settings (in the worker) and writes atomically. */
export interface ExportMt3Request {
  /** The document state to compress (same shape as a compress request; its revision is ignored). */
  compress: CompressRequest;
  /** Absolute target path ending in .mt3, in the allowed set. */
  path: string;
}

export interface ExportMt3DialogRequest {
  compress: CompressRequest;
  /** Suggested file name (e.g. "walk.mt3"). */
  defaultName?: string;
}

export interface ExportedMt3 extends SavedFile {
  totalKeys: number;
  ratio: number;
}

export type ExportMt3Outcome = { status: 'exported'; file: ExportedMt3 } | { status: 'cancelled' };

export type DialogPathOutcome = { status: 'chosen'; path: string } | { status: 'cancelled' };

/** What a recent file is: a motion, or a project (`*.actguy.json`) opened with Open Project. */
export type RecentFileKind = MotionFileKind | 'project';

/** A file the user opened recently (newest first, at most 10, persisted in userData). */
export interface RecentFile {
  path: string;
  name: string;
  kind: RecentFileKind;
  /** ms since the epoch. */
  openedAt: number;
}

/** Files under the workspace root (loopback mode), for the in-app file picker. */
export interface WorkspaceListing {
  /** Absolute workspace root, or null when there is none (Electron without --workspace). */
  root: string | null;
  files: WorkspaceFile[];
  /**
   * The workspace's folders ('/'-separated, relative to the root; links to folders left out), for the save picker
   * to go into; absent where there is no workspace.
   */
  folders?: string[];
  /** Set when limits left files out (too many, too deep): a sentence saying which, shown in the picker. */
  incomplete?: string;
}

/** A folder the save picker asks for (makeWorkspaceFolder): `name` made in the workspace folder `parent`. */
export interface MakeWorkspaceFolderRequest {
  /** The folder to make it in, relative to the workspace root, '/'-separated; '' is the root. */
  parent: string;
  /** The new folder's name: one name, no separator. */
  name: string;
}

/** The folder makeWorkspaceFolder made. */
export interface MadeWorkspaceFolder {
  /** Absolute path. */
  path: string;
  /** Relative to the workspace root, '/'-separated. */
  relativePath: string;
}

export interface WorkspaceFile {
  /** Absolute path (pass to openMotion/saveMotion). */
  path: string;
  /** Path relative to the root, '/'-separated, for display. */
  relativePath: string;
  byteLength: number;
  /** Lower-case extension without the dot ("mtn", "mt3", "mar", ...). */
  extension: string;
}

export interface ListWorkspaceRequest {
  /** Only files with these lower-case extensions (no dot); all files when omitted. */
  extensions?: string[];
}

/** Confirmation before unsaved edits are thrown away (opening another file, closing). */
export interface ConfirmDiscardRequest {
  /** The document's display name. */
  documentName: string;
  /** What is about to happen, e.g. "open another motion". */
  action: string;
}

/** The renderer reports its dirty state so main can confirm on window close. */
export interface DocumentStateReport {
  /** Null when no document is open. */
  documentId: DocumentId | null;
  documentName: string | null;
  /** True when there are edits not yet saved (in the motion, the open SEV or the open project). */
  dirty: boolean;
  /**
   * What is unsaved, as display names in the order motion, SEV, project (e.g. ["walk.mtn", "walk.sev",
   * "the project"]); main names them in its close confirmation. Omitted by older renderers: documentName is used.
   */
  unsaved?: string[];
  /**
   * Menu commands that cannot run now (no .sev open, no event selected, nothing copied, ...): the native menu
   * greys them out. Omitted by older renderers: every item stays enabled.
   */
  disabledCommands?: MenuCommandId[];
  /**
   * Sent once by the Save of main's close question when it ended with the window still open (a save failed, or its
   * Save As was cancelled): that close, and the quit that asked for it (Cmd+Q), is over, as if Cancel had been
   * answered; a later close of the window is only a close. Omitted otherwise.
   */
  keptOpen?: boolean;
}

/** A file handed over at start-up: a project, or a .sev with the project that lists it. */
export interface StartupFile {
  path: string;
  projectPath?: string;
}

export interface AppInfo {
  /** package.json version. */
  version: string;
  /**
   * Absolute path of the sample motion: the user's copy of the bundled samples in a packaged app
   * (Documents/ActGuy Samples/walk.mtn, docs/install.md#first-run), else assets/walk.mtn.
   */
  samplePath: string;
  /** The file to open at start-up (command line argument), else the sample. */
  startupPath: string;
  /**
   * Projects and .sev files to open after `startupPath` (`npm run web -- --open FILE`), each where its kind
   * belongs; a .sev comes with the project that lists it. Electron sends these as menu commands instead.
   */
  startupFiles?: StartupFile[];
  transport: 'electron' | 'loopback';
  /**
   * False over loopback: the dialog members are then served by the in-app picker
   * that the renderer registers with `setInAppDialogs` (renderer/transport).
   */
  nativeDialogs: boolean;
  /** Workspace root (loopback) or null. */
  workspaceRoot: string | null;
  /** process.platform of the main process ("linux", "darwin", "win32"). */
  platform: string;
  /** Something the user should read once the start-up file is open (where the sample project was copied), if any. */
  startupNotice?: string;
  /**
   * Problems with what main read back from its user-data folder at start-up, each said once as a warning in the
   * message list (the recent-files list was damaged and reset, or entries were dropped), without holding the start.
   */
  startupWarnings?: string[];
}
