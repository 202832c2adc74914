/**
 * The typed contract between the renderer and the main process.
 *
 * `ActGuyApi` is the whole main-process API. The main process implements it
 * once (electron/handlers) and two transports serve those same functions:
 * Electron IPC behind the preload (`window.actguy`) and, for tests and
 * `npm run web`, a loopback HTTP transport (electron/loopback). The renderer
 * gets either through `getApi()` in renderer/transport and never knows which.
 *
 * Rules that keep both transports honest:
 * - Every member is listed in `ACTGUY_INVOKE_MEMBERS` (request/response) or
 *   `ACTGUY_EVENT_MEMBERS` (subscriptions). A compile-time check below makes the
 *   lists match the interface exactly, and the transports refuse any other name.
 * - Invoke members take at most one argument (a plain object) and return a
 *   Promise of plain data: numbers, strings, booleans, null, arrays, objects and
 *   typed arrays (both transports carry typed arrays without copying to JSON).
 * - A failure rejects the promise with an Error whose message is readable as is
 *   (for a bad file it names the file and the place, as FormatError does).
 * - Names are `<verb><Thing>` for path-based work and `<verb><Thing>Dialog` for
 *   the same work after a file dialog, so later families (SEV, project, glTF
 *   import/export) slot in as `openSev`, `openSevDialog`, `exportGltfDialog`...
 *
 * Additive changes only; note every change in /work/notes/IPC-CHANGES.md.
 */
import type { ChannelReport, CompressMethod, CompressResult } from './compress/types';
import type { Mt3Motion, PositionTrack, RotationTrack } from './mt3/types';
import type { FileKind } from './errors';
import type { BuildReport } from './project/plan';
import type { InterchangeWarning } from './interchange/types';
import type { MshExportFiles } from './msh/files';

// ---------------------------------------------------------------------------
// Files and documents

/** The kind of motion file a document came from. */
export type MotionFileKind = 'mtn' | 'mt3' | 'mar';

/**
 * Identifies one opened motion in the main process. The main side caches the
 * decoded motion under this id so compress requests only send what edits change.
 * Opaque string; unique for the life of the main process.
 */
export type DocumentId = string;

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
}

export interface SaveMotionAsRequest {
  documentId: DocumentId;
  mtnBytes: Uint8Array;
  /** As SaveMotionRequest.tuningText: written beside the chosen .mtn with it. */
  tuningText?: string;
  /** Suggested file name (e.g. "walk.mtn"); the dialog starts beside the document. */
  defaultName?: string;
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

/** A file the user opened recently (newest first, at most 10, persisted in userData). */
export interface RecentFile {
  path: string;
  name: string;
  kind: MotionFileKind;
  /** ms since the epoch. */
  openedAt: number;
}

/** Files under the workspace root (loopback mode), for the in-app file picker. */
export interface WorkspaceListing {
  /** Absolute workspace root, or null when there is none (Electron without --workspace). */
  root: string | null;
  files: WorkspaceFile[];
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
}

// ---------------------------------------------------------------------------
// Compression

/** Tolerances of one compression run (see CompressOptions). */
export interface CompressTolerances {
  /** Root translation tolerance, motion units. */
  positionTolerance: number;
  /** Joint rotation tolerance, degrees. */
  rotationToleranceDeg: number;
  /** Joint offset tolerance, motion units. */
  offsetTolerance: number;
  /** Key selection (CompressOptions.method); 'refined' when absent. */
  method?: CompressMethod;
  /** Skeleton-aware bound on the object-space error, motion units (CompressOptions.objectTolerance); off when absent. */
  objectTolerance?: number;
  /** Virtual-point distance for the object-space error, motion units; a tenth of the skeleton size when absent. */
  shell?: number;
}

/**
 * What an edit can change, sent on every recompression. The main side holds the
 * rest of the motion (sample data, skeleton) under `documentId`.
 */
export interface CompressRequest {
  documentId: DocumentId;
  /**
   * Increases with every request of a document. The worker drops queued requests
   * superseded by a newer revision, and the renderer ignores any response whose
   * revision is older than the newest it has shown.
   */
  revision: number;
  /** Word 0 (KeyFlag bits) of every translation key-info vector: N+1 entries. */
  translationKeyFlags: Uint32Array;
  /** Word 0 (KeyFlag bits) of every joint key-info vector, frame-major: (N+1) x J entries. */
  jointKeyFlags: Uint32Array;
  /** MotionFlag bits. */
  motionFlags: number;
  /** Waist joint for direction correction, -1 if none. */
  waistJoint: number;
  tolerances: CompressTolerances;
  /** Per-joint rotation tolerance overrides in degrees, by joint index. */
  rotationToleranceOverridesDeg?: Record<number, number>;
  /** Motion name hashed into the MT3 header; defaults to the document name. */
  name?: string;
  /** Also return the encoded .mt3 file bytes (off by default to keep responses small). */
  includeBytes?: boolean;
  /**
   * The revision of a complete answer of the same method (classic or refined) for this document that the caller
   * still holds. The compressor may then answer with a CompressDelta against it: what an edit left unchanged
   * (every channel but the one a key toggle touched) does not cross the process boundary again.
   */
  knownRevision?: number;
}

/**
 * A finished compression of one request: the compressor's own result
 * (CompressResult: stored values, per-channel reports, sizes) with the time
 * measured in the worker and the file bytes only when asked for.
 */
export interface CompressResponse extends Pick<CompressResult, 'mt3' | 'channels' | 'warnings' | 'totalKeys' | 'mt3Bytes' | 'mtnBytes' | 'ratio' | 'method' | 'objectError' | 'skeleton'> {
  status: 'done';
  documentId: DocumentId;
  revision: number;
  /** Milliseconds spent in compressMotion inside the worker. */
  compressMs: number;
  /** The encoded MT3 file, only when `includeBytes` was set. */
  bytes?: Uint8Array;
}

/** A request that a newer revision of the same document replaced before it ran. */
export interface CompressSuperseded {
  status: 'superseded';
  documentId: DocumentId;
  revision: number;
  /** The revision that replaced it. */
  supersededBy: number;
}

/**
 * A finished compression sent as the changes from an answer the caller holds (CompressRequest.knownRevision):
 * every field of CompressResponse, except that a channel report or a stored track that is the base answer's is
 * null. shared/compress/delta.ts makes and applies it; the caller turns it back into a CompressResponse.
 */
export interface CompressDelta extends Omit<CompressResponse, 'status' | 'channels' | 'mt3'> {
  status: 'delta';
  /** The revision of the answer this delta is against. */
  baseRevision: number;
  channels: (ChannelReport | null)[];
  mt3: Omit<Mt3Motion, 'root' | 'rotations' | 'offsets'> & {
    root: PositionTrack | null;
    rotations: (RotationTrack | null)[];
    offsets: (PositionTrack | null)[] | null;
  };
}

export type CompressOutcome = CompressResponse | CompressSuperseded | CompressDelta;

// ---------------------------------------------------------------------------
// Menu events

/**
 * Commands from the native menu (and accelerators the menu owns). The renderer
 * performs them so undo, dirty-checks and in-app dialogs stay in one place.
 */
export type MenuCommandId =
  | 'file.open'
  | 'file.openRecent'
  /** A file the OS handed over (motion, .sev or project); `path` names it, `projectPath` the project of a .sev. */
  | 'file.openFromSystem'
  | 'file.save'
  | 'file.saveAs'
  | 'file.exportMt3'
  | 'file.import'
  | 'file.exportGltfSource'
  | 'file.exportGltfCompressed'
  /** File › Export MSH…: the motion as MSH animation (.res8, .res19, .nodes.json). */
  | 'file.exportMsh'
  | 'edit.undo'
  | 'edit.redo'
  | 'view.resetCamera'
  | 'view.zoomToFit'
  /** Window layout: a work mode takes the whole window (again: the full layout comes back). */
  | 'view.maximizeTuning'
  | 'view.maximizeSev'
  | 'view.maximizeProject'
  /** Window layout: every panel shown and restored from collapsed, in the full layout. */
  | 'view.showAllPanels'
  | 'playback.togglePlay'
  | 'playback.stepForward'
  | 'playback.stepBack'
  | 'playback.firstFrame'
  | 'playback.lastFrame'
  | 'help.about'
  /** The Save of the native close question (Electron): save every unsaved part, then close the window. */
  | 'app.saveAllAndClose'
  | 'project.open'
  | 'project.save'
  | 'project.build'
  /** File › Open .sev…: a .sev with its motion, with or without a project. */
  | 'sev.open'
  /** The Events menu (shared/eventsMenu.ts): the SEV editor's actions on the open .sev, one undo step each. */
  | 'events.addAtPlayhead'
  | 'events.suggestFootsteps'
  | 'events.cut'
  | 'events.copy'
  | 'events.paste'
  | 'events.delete'
  | 'events.selectAll'
  | 'events.nudgeEarlier'
  | 'events.nudgeLater'
  | 'events.addSe'
  | 'events.saveSev';

export interface MenuCommand {
  command: MenuCommandId;
  /** For 'file.openRecent' and 'file.openFromSystem': the file to open. */
  path?: string;
  /** For 'file.openFromSystem' of a .sev: the project (*.actguy.json) beside it that lists it, when main found one. */
  projectPath?: string;
}

/** Removes a subscription. Calling it twice is harmless. */
export type Unsubscribe = () => void;

// ---------------------------------------------------------------------------
// Projects, SEV files, SE tables, archive builds, audition sounds (issue 5)

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
}

/** A text file a project holds (a .sev, default.sls, se_define.h). */
export interface ProjectTextFile {
  path: string;
  /** The text (UTF-8, BOM removed), or null when the file does not exist yet (a .sev the project names but nobody wrote). */
  text: string | null;
}

/** Writes a .sev atomically (the serializer's text; comments are the user's). */
export interface SaveSevRequest {
  /**
   * Absolute path ending in `.sev`: an allowed file, or a new .sev beside the
   * open project file (a motion's first SEV).
   */
  path: string;
  text: string;
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
  /** The build report (state 'done'). */
  report: BuildReport | null;
  /** Milliseconds since the build started (or its total once finished). */
  elapsedMs: number;
}

/** Audition sounds: files in a folder named by SE name (`SE_FOOT_L_CONC.wav`). */
export interface SoundFolderListing {
  folder: string;
  sounds: { name: string; path: string; byteLength: number; extension: string }[];
}

// ---------------------------------------------------------------------------
// Motion interchange: File > Import (BVH, glTF/GLB), File > Export glTF (issue 6)

/** Options of an import (both default to the importer's defaults). */
export interface ImportMotionOptions {
  /** Target frames per second, > 0 and <= 1000. Default 30 (the rate MGS2 motions play at). */
  fps?: number;
  /** Multiplies every position and offset (unit conversion), > 0. Default 1. */
  scale?: number;
}

/** Imports a .bvh, .glb, .gltf or .fbx by path as a new, unsaved motion. */
export interface ImportMotionRequest extends ImportMotionOptions {
  /** Absolute path of the source file (allowed set: chosen in a dialog or inside the workspace). */
  path: string;
  /** For a glTF or FBX with several animation clips: the clip's index (from `chooseClip`) or name. */
  clip?: number | string;
}

/** One animation clip of a glTF or FBX, offered when a file holds several. */
export interface ImportClipSummary {
  /** Pass as `ImportMotionRequest.clip`. */
  index: number;
  name: string;
  /** Seconds from the clip's first to its last key. */
  duration: number;
}

/**
 * A motion made by an importer. It has no file yet: the renderer shows it as
 * modified, and Save asks for a path (saveMotionAsDialog) like Save As.
 */
export interface ImportedMotion {
  /** Cached in main like an opened motion (compress and save requests name it). */
  documentId: DocumentId;
  /** Suggested name (source base name, plus the clip name for a multi-clip glTF); Save As proposes `<name>.mtn`. */
  name: string;
  /** The file it was imported from. */
  sourcePath: string;
  sourceKind: 'bvh' | 'gltf' | 'fbx';
  /** The clip imported from a glTF or FBX when one was chosen among several (its name), else null. */
  clip: string | null;
  /** What the importer read and how (FBX: clip, bones, duration, unit applied), for the import message; null when the frame counts say it all. */
  summary: string | null;
  /** The new motion as an MTN v1 file (writeMtn); read with `readMtn`. */
  mtnBytes: Uint8Array;
  /** What the importer changed or could not carry over (truncated names, scale tracks, ...). */
  warnings: InterchangeWarning[];
}

/**
 * Result of an import:
 * - `imported`: a new document (see ImportedMotion).
 * - `chooseClip`: a glTF holds several clips and none was named; show `clips`
 *   and call `importMotion({ path, clip, fps, scale })` with the pick.
 * - `chosenMany`: the dialog returned several files (each now allowed); import
 *   them together with `importMotionBatch`.
 * - `cancelled`: the user closed the dialog.
 */
export type ImportMotionOutcome =
  | { status: 'imported'; motion: ImportedMotion }
  | { status: 'chooseClip'; path: string; clips: ImportClipSummary[] }
  | { status: 'chosenMany'; paths: string[] }
  | { status: 'cancelled' };

/** Several source files at once (docs/import.md): one .mtn per clip beside the first file, named after its file. */
export interface ImportMotionBatchRequest extends ImportMotionOptions {
  /** Absolute paths of the sources, in the order the motions are wanted (allowed set, as for importMotion). */
  paths: string[];
  /** Write nothing unless every file imports (the renderer asks this when the motions go into an open project). */
  allOrNothing?: boolean;
  /** Motion names already taken (the open project's): a file that would take one is refused. */
  reservedNames?: string[];
}

/** One motion of a batch import, or one file (or clip) that could not become one. */
export interface ImportBatchItem {
  sourcePath: string;
  /** The clip's name, for a file of several clips; else null. */
  clip: string | null;
  /** The motion name (the .mtn's base name), when one could be given. */
  name: string | null;
  /** The .mtn written (or that would have been), when named. */
  mtnPath: string | null;
  /** Why this file (or clip) failed; null when it imported. */
  error: string | null;
  /** "31 joints, frames 0..687 at 30 fps", when it imported. */
  shape: string | null;
  warnings: InterchangeWarning[];
}

export type ImportMotionBatchOutcome =
  | { status: 'done'; items: ImportBatchItem[]; failed: number; written: string[]; conclusion: string }
  | { status: 'cancelled' };

/** Which motion a glTF export writes: the source (the edited .mtn) or the MT3 the current settings produce, decoded. */
export type GltfExportSource = 'source' | 'compressed';

export interface ExportGltfDialogRequest {
  documentId: DocumentId;
  source: GltfExportSource;
  /** The document's current motion (writeMtn): the source motion, and the skeleton the compressed one is decoded with. */
  mtnBytes: Uint8Array;
  /** For 'compressed': the current tolerances, overrides and key flags (as a compress request; its revision is ignored). */
  compress?: CompressRequest;
  /** Multiplies positions in the file (0.01: centimetres to metres). Default 1. */
  scale?: number;
  /** Suggested file name (e.g. "walk_compressed.glb"). */
  defaultName?: string;
}

export interface ExportGltfRequest extends Omit<ExportGltfDialogRequest, 'defaultName'> {
  /** Absolute target path ending in .glb, in the allowed set. */
  path: string;
}

export interface ExportedGltf extends SavedFile {
  source: GltfExportSource;
  jointCount: number;
  /** N: frames 0..N. */
  frameCount: number;
  fps: number;
  /** For 'compressed': the keys of the MT3 that was decoded; null for 'source'. */
  totalKeys: number | null;
}

export type ExportGltfOutcome = { status: 'exported'; file: ExportedGltf } | { status: 'cancelled' };

/**
 * File > Export MSH: the document's motion as MSH animation (MSH-ANIM.md), the
 * three files `PREFIX.res8`, `PREFIX.res19` and `PREFIX.nodes.json` written as
 * one unit. The motion is the one main holds for the document (its samples are
 * never edited); the export runs in a worker.
 */
export interface ExportMshDialogRequest {
  documentId: DocumentId;
  /** Position tolerance (root translation and joint offsets), motion units, >= 0. */
  positionTolerance: number;
  /** Rotation tolerance, degrees, >= 0. */
  rotationToleranceDeg: number;
  /** Per-joint rotation tolerances in degrees, by joint index (the tuning panel's overrides). */
  rotationToleranceOverridesDeg?: Record<number, number>;
  /** Suggested file name of the .res8 (e.g. "walk.res8"); the prefix is the name without `.res8`. */
  defaultName?: string;
}

export interface ExportMshRequest extends Omit<ExportMshDialogRequest, 'defaultName'> {
  /** Absolute path of the .res8 to write (ends in .res8, in the allowed set); the .res19 and .nodes.json go beside it with the same prefix. */
  path: string;
}

/** A finished MSH export: what the fit achieved (as MshExportFiles reports it), with the three files written. */
export interface ExportedMsh extends Pick<MshExportFiles, 'totalKeys' | 'mapWords' | 'frameCount' | 'nodeCount' | 'animatedNodes' | 'warnings'> {
  /** The three files written, absolute paths. */
  files: { res8: string; res19: string; nodes: string };
  /** Bytes of each file. */
  byteLengths: { res8: number; res19: number; nodes: number };
}

export type ExportMshOutcome = { status: 'exported'; export: ExportedMsh } | { status: 'cancelled' };

// ---------------------------------------------------------------------------
// Hot exit: copies of unsaved work held by main (docs/install.md#unsaved-work-after-a-crash)

/** The parts of the window's work that can be unsaved, and so backed up. */
export type BackupPart = 'motion' | 'sev' | 'project';

/**
 * A copy of one unsaved document, sent by the renderer whenever it changes so
 * a crash of the page (or of the whole app) does not lose it. Main keeps at
 * most one per part. Its `path` is a label only: restoring never writes it and
 * grants nothing; Save goes through the normal save path.
 */
export type UnsavedBackup =
  | {
      part: 'motion';
      /** The document it edits: must be one main has open. */
      documentId: DocumentId;
      /** Display name. */
      name: string;
      /** The document's file (the one main holds for documentId), or null for a motion never saved (an import). */
      path: string | null;
      /** ms since the epoch of the edit this copy holds. */
      editedAt: number;
      /** The motion as Save would write it (writeMtn). */
      mtnBytes: Uint8Array;
      /** The tuner's compression settings (not part of the MTN). */
      tolerances: CompressTolerances;
      /** Per-joint rotation tolerance overrides in degrees, by joint index. */
      rotationOverridesDeg: Record<number, number>;
    }
  | {
      part: 'sev';
      name: string;
      /** The .sev it edits (a file main already allows). */
      path: string;
      /** The motion it belongs to (project name). */
      motionName: string;
      editedAt: number;
      /** The text Save would write, or the text being fixed when it does not parse. */
      text: string;
    }
  | {
      part: 'project';
      name: string;
      /** The project file (a file main already allows). */
      path: string;
      editedAt: number;
      /** The project text Save would write. */
      text: string;
    };

/** Replaces (or, with `backup: null`, removes) the copy of one part. */
export interface BackupUnsavedRequest {
  part: BackupPart;
  backup: UnsavedBackup | null;
}

/** The copies main holds, handed back after a crash. A restored motion is a new main-side document. */
export interface HeldBackups {
  backups: UnsavedBackup[];
  /** Copies read back from disk that did not hold up (each says which file and why); they were moved aside, not used. */
  setAside: string[];
}

// ---------------------------------------------------------------------------
// The API

export interface ActGuyApi {
  /** Version, sample path, start-up file and transport facts. */
  getAppInfo(): Promise<AppInfo>;

  /** Opens a motion file by path (.mtn, .mt3, .mar). See OpenMotionOutcome for the follow-up steps. */
  openMotion(req: OpenMotionRequest): Promise<OpenMotionOutcome>;
  /** Shows an open dialog (.mtn/.mt3/.mar), then behaves as openMotion on the chosen file. */
  openMotionDialog(): Promise<OpenMotionOutcome>;
  /** Asks the user for a skeleton .mtn for a .mt3/.mar (the chosen file becomes allowed). */
  chooseSkeletonDialog(): Promise<DialogPathOutcome>;
  /** Drops the main-side cache of a document (call when it is replaced or closed). */
  closeDocument(req: { documentId: DocumentId }): Promise<void>;

  /** Writes the motion atomically; on failure rejects with why, and the file on disk is untouched. */
  saveMotion(req: SaveMotionRequest): Promise<SaveOutcome>;
  /** Shows a save dialog (.mtn), then saves there. */
  saveMotionAsDialog(req: SaveMotionAsRequest): Promise<SaveOutcome>;

  /** Compresses the document's current state in the worker thread. */
  compressMotion(req: CompressRequest): Promise<CompressOutcome>;
  /** Compresses and writes a .mt3 atomically. */
  exportMt3(req: ExportMt3Request): Promise<ExportMt3Outcome>;
  /** Shows a save dialog (.mt3), then exports there. */
  exportMt3Dialog(req: ExportMt3DialogRequest): Promise<ExportMt3Outcome>;

  /** Recently opened files, newest first. */
  getRecentFiles(): Promise<RecentFile[]>;
  clearRecentFiles(): Promise<void>;

  /** Files under the workspace root (loopback: the in-app picker's source). */
  listWorkspace(req: ListWorkspaceRequest): Promise<WorkspaceListing>;

  /** Asks whether to throw away unsaved edits; resolves true to discard. */
  confirmDiscardChanges(req: ConfirmDiscardRequest): Promise<boolean>;
  /** Tells main whether there are unsaved edits, so closing the window asks first. */
  reportDocumentState(req: DocumentStateReport): Promise<void>;

  /** Opens a project file; its listed files become allowed. */
  openProject(req: { path: string }): Promise<OpenProjectOutcome>;
  /** Shows an open dialog (*.actguy.json), then behaves as openProject. */
  openProjectDialog(): Promise<OpenProjectOutcome>;
  /** Validates and writes the project file atomically. */
  saveProject(req: SaveProjectRequest): Promise<SavedFile>;
  /** Picks a file for the project (a motion, a SEV, a sound whose folder becomes the audition folder); it becomes allowed. */
  chooseProjectFileDialog(req: { purpose: ProjectFilePurpose }): Promise<DialogPathOutcome>;
  /** Reads a .sev / .sls / .h the project holds (text null when a .sev does not exist yet). */
  readProjectText(req: { path: string }): Promise<ProjectTextFile>;
  /** Writes a .sev atomically. */
  saveSev(req: SaveSevRequest): Promise<SavedFile>;
  /** Starts an archive build (or dry run) in a worker; poll getBuildStatus. */
  startBuild(req: StartBuildRequest): Promise<BuildStatus>;
  getBuildStatus(req: { buildId: string }): Promise<BuildStatus>;
  /** Stops a build; nothing is written once this resolves with state 'cancelled'. */
  cancelBuild(req: { buildId: string }): Promise<BuildStatus>;
  /** Sound files (.wav/.ogg/.mp3/.flac) in an allowed folder, named by SE name. */
  listSounds(req: { folder: string }): Promise<SoundFolderListing>;
  /** The bytes of one sound file (at most 16 MiB), for Web Audio's decodeAudioData. */
  readSound(req: { path: string }): Promise<{ path: string; bytes: Uint8Array }>;

  /** Imports a .bvh/.glb/.gltf/.fbx as a new unsaved motion (see ImportMotionOutcome). */
  importMotion(req: ImportMotionRequest): Promise<ImportMotionOutcome>;
  /** Shows an open dialog (.bvh/.glb/.gltf/.fbx, several may be chosen), then behaves as importMotion on one chosen file, or answers `chosenMany`. */
  importMotionDialog(req: ImportMotionOptions): Promise<ImportMotionOutcome>;
  /** Imports several files, each in the import worker, and writes their .mtn files (see ImportMotionBatchRequest); cancelImport stops it with nothing written. */
  importMotionBatch(req: ImportMotionBatchRequest): Promise<ImportMotionBatchOutcome>;
  /**
   * Stops every import in progress: each one's importMotion resolves `cancelled`
   * and no document is opened. Resolves with how many were stopped. (An import
   * that runs past its time budget is stopped on its own, with a message.)
   */
  cancelImport(): Promise<{ cancelled: number }>;
  /** Writes the source or the compressed motion as a .glb atomically. */
  exportGltf(req: ExportGltfRequest): Promise<ExportGltfOutcome>;
  /** Shows a save dialog (.glb), then exports there. */
  exportGltfDialog(req: ExportGltfDialogRequest): Promise<ExportGltfOutcome>;
  /** Writes the motion as MSH animation: PREFIX.res8, .res19 and .nodes.json, all three or none. */
  exportMsh(req: ExportMshRequest): Promise<ExportMshOutcome>;
  /** Shows a save dialog (.res8, naming the prefix), then exports there. */
  exportMshDialog(req: ExportMshDialogRequest): Promise<ExportMshOutcome>;

  /**
   * Keeps a copy of one unsaved document in main (memory and, under Electron, a backup file), or drops it.
   * The renderer sends a part shortly after it changes; main drops it itself when the part is saved.
   */
  backupUnsaved(req: BackupUnsavedRequest): Promise<void>;
  /**
   * The copies main holds (after a crashed page reloads, or from the backup files of an app that crashed):
   * restore them as unsaved documents. A motion comes back under a new documentId main has opened for it.
   */
  restoreBackups(): Promise<HeldBackups>;

  /** Native menu commands. Over loopback no native menu exists and the callback never fires. */
  onMenuCommand(callback: (command: MenuCommand) => void): Unsubscribe;
}

/** Members that are a request with one response. */
export const ACTGUY_INVOKE_MEMBERS = [
  'getAppInfo',
  'openMotion',
  'openMotionDialog',
  'chooseSkeletonDialog',
  'closeDocument',
  'saveMotion',
  'saveMotionAsDialog',
  'compressMotion',
  'exportMt3',
  'exportMt3Dialog',
  'getRecentFiles',
  'clearRecentFiles',
  'listWorkspace',
  'confirmDiscardChanges',
  'reportDocumentState',
  'openProject',
  'openProjectDialog',
  'saveProject',
  'chooseProjectFileDialog',
  'readProjectText',
  'saveSev',
  'startBuild',
  'getBuildStatus',
  'cancelBuild',
  'listSounds',
  'readSound',
  'importMotion',
  'importMotionDialog',
  'importMotionBatch',
  'cancelImport',
  'exportGltf',
  'exportGltfDialog',
  'exportMsh',
  'exportMshDialog',
  'backupUnsaved',
  'restoreBackups',
] as const;

/** Members that subscribe to events from main (callback in, unsubscribe out). */
export const ACTGUY_EVENT_MEMBERS = ['onMenuCommand'] as const;

export type ActGuyInvokeMember = (typeof ACTGUY_INVOKE_MEMBERS)[number];
export type ActGuyEventMember = (typeof ACTGUY_EVENT_MEMBERS)[number];

/** Every member of ActGuyApi. */
export const ACTGUY_API_MEMBERS: readonly (keyof ActGuyApi)[] = [...ACTGUY_INVOKE_MEMBERS, ...ACTGUY_EVENT_MEMBERS];

/**
 * Members that show a native dialog. Over loopback the renderer-side client
 * serves them with the in-app picker instead of calling the server.
 */
export const ACTGUY_DIALOG_MEMBERS = [
  'openMotionDialog',
  'chooseSkeletonDialog',
  'saveMotionAsDialog',
  'exportMt3Dialog',
  'confirmDiscardChanges',
  'openProjectDialog',
  'chooseProjectFileDialog',
  'importMotionDialog',
  'exportGltfDialog',
  'exportMshDialog',
] as const satisfies readonly ActGuyInvokeMember[];

// Compile-time proof that the lists and the interface agree in both directions.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const membersMatchInterface: Exact<ActGuyInvokeMember | ActGuyEventMember, keyof ActGuyApi> = true;
void membersMatchInterface;

/** The Electron IPC channel of an invoke member. */
export function ipcInvokeChannel(member: ActGuyInvokeMember): string {
  return `actguy:${member}`;
}

/** The Electron IPC channel main sends menu commands on. */
export const MENU_COMMAND_CHANNEL = 'actguy:event:menuCommand';

/** Whether a string names an invoke member (transports refuse every other name). */
export function isInvokeMember(name: string): name is ActGuyInvokeMember {
  return (ACTGUY_INVOKE_MEMBERS as readonly string[]).includes(name);
}

/** Argument and result types of an invoke member. */
export type InvokeArg<M extends ActGuyInvokeMember> = Parameters<ActGuyApi[M]> extends [infer A] ? A : undefined;
export type InvokeResult<M extends ActGuyInvokeMember> = Awaited<ReturnType<ActGuyApi[M]>>;

/**
 * How a handler failure travels over a transport: the message (readable as is)
 * plus the FormatError kind when the failure was a bad file.
 */
export interface IpcErrorPayload {
  message: string;
  /** Set when the failure was a FormatError. */
  formatKind?: FileKind;
}

/** A transport's reply envelope: handlers never let an exception cross a transport raw. */
export type IpcReply<T> = { ok: true; value: T } | { ok: false; error: IpcErrorPayload };

/** The error a transport client rejects with; its message is the handler's message. */
export class ActGuyApiError extends Error {
  readonly formatKind: FileKind | undefined;
  constructor(payload: IpcErrorPayload) {
    super(payload.message);
    this.name = 'ActGuyApiError';
    this.formatKind = payload.formatKind;
  }
}
