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
 * - Every member is listed in `ACTGUY_INVOKE_MEMBERS` (request/response),
 *   `ACTGUY_EVENT_MEMBERS` (subscriptions) or `ACTGUY_LOCAL_MEMBERS` (served by the transport itself). A compile-time check below makes the
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
 * Additive changes only. Each family's request and answer types live in their own module beside this one
 * (documents, compress, menu, project, interchange, backups); the transport glue is in ./transport.
 */
import type { BackupUnsavedRequest, HeldBackups } from './backups';
import type { CompressOutcome, CompressRequest } from './compress';
import type {
  AppInfo,
  ConfirmDiscardRequest,
  DialogPathOutcome,
  DocumentId,
  DocumentStateReport,
  ExportMt3DialogRequest,
  ExportMt3Outcome,
  ExportMt3Request,
  ListWorkspaceRequest,
  MadeWorkspaceFolder,
  MakeWorkspaceFolderRequest,
  OpenMotionOutcome,
  OpenMotionRequest,
  RecentFile,
  SaveMotionAsRequest,
  KeepMotionCopyRequest,
  KeptMotionCopy,
  SaveMotionRequest,
  SaveOutcome,
  SavedFile,
  WorkspaceListing,
} from './documents';
import type {
  ExportGltfDialogRequest,
  ExportGltfOutcome,
  ExportGltfRequest,
  ExportMshDialogRequest,
  ExportMshOutcome,
  ExportMshRequest,
  ImportMotionBatchOutcome,
  ImportMotionBatchRequest,
  ImportMotionOptions,
  ImportMotionOutcome,
  ImportMotionRequest,
} from './interchange';
import type { DroppedFileHandle, DroppedFileOutcome } from './drop';
import type { MenuCommand } from './menu';
import type {
  BuildStatus,
  OpenProjectOutcome,
  ProjectFilePurpose,
  ProjectTextFile,
  SaveProjectRequest,
  SaveSevRequest,
  SoundFolderListing,
  StartBuildRequest,
  StartProjectExportRequest,
  StartProjectExportDialogRequest,
  ProjectExportStatus,
  Cancelled,
} from './project';

/** Removes a subscription. Calling it twice is harmless. */
export type Unsubscribe = () => void;

export interface ActGuyApi {
  /** Version, sample path, start-up file and transport facts. */
  getAppInfo(): Promise<AppInfo>;

  /** Opens a motion file by path (.mtn, .mt3, .mar). See OpenMotionOutcome for the follow-up steps. */
  openMotion(req: OpenMotionRequest): Promise<OpenMotionOutcome>;
  /** Shows an open dialog (.mtn/.mt3/.mar), then behaves as openMotion on the chosen file. */
  openMotionDialog(): Promise<OpenMotionOutcome>;
  /**
   * Stops every open in progress (File > Open's Cancel): each one's openMotion (or openMotionDialog) resolves
   * `cancelled` and no document is opened; the read of a large file stops at its next read. Resolves with how many
   * were stopped.
   */
  cancelOpenMotion(): Promise<{ cancelled: number }>;
  /** Asks the user for a skeleton .mtn for a .mt3/.mar (the chosen file becomes allowed). */
  chooseSkeletonDialog(): Promise<DialogPathOutcome>;
  /** Drops the main-side cache of a document (call when it is replaced or closed). */
  closeDocument(req: { documentId: DocumentId }): Promise<void>;

  /** Writes the motion atomically; on failure rejects with why, and the file on disk is untouched. */
  saveMotion(req: SaveMotionRequest): Promise<SaveOutcome>;
  /** Shows a save dialog (.mtn), then saves there. */
  saveMotionAsDialog(req: SaveMotionAsRequest): Promise<SaveOutcome>;
  /**
   * Writes the page's edits of a motion as a new .mtn (and tuning file) beside its own, never over a file: what a
   * Reload from disk would drop is kept there first.
   */
  keepMotionCopy(req: KeepMotionCopyRequest): Promise<KeptMotionCopy>;

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
  /** Makes one new folder in a workspace folder (loopback: the save picker's New Folder); refused outside it. */
  makeWorkspaceFolder(req: MakeWorkspaceFolderRequest): Promise<MadeWorkspaceFolder>;

  /** Asks whether to throw away unsaved edits; resolves true to discard. */
  confirmDiscardChanges(req: ConfirmDiscardRequest): Promise<boolean>;
  /** Tells main whether there are unsaved edits, so closing the window asks first. */
  reportDocumentState(req: DocumentStateReport): Promise<void>;

  /** Opens a project file; its listed files become allowed. */
  openProject(req: { path: string }): Promise<OpenProjectOutcome>;
  /** Shows an open dialog (*.actguy.json), then behaves as openProject. */
  openProjectDialog(): Promise<OpenProjectOutcome>;
  /**
   * Opens a project of Open Recent as if picked in the dialog again: main grants it only when `path` is, exactly, a
   * project in its own recent list (a path the page made up is refused).
   */
  openRecentProject(req: { path: string }): Promise<OpenProjectOutcome>;
  /** Validates and writes the project file atomically. */
  saveProject(req: SaveProjectRequest): Promise<SavedFile>;
  /** Picks a file for the project (a motion, a SEV, a sound whose folder becomes the audition folder); it becomes allowed. */
  chooseProjectFileDialog(req: { purpose: ProjectFilePurpose }): Promise<DialogPathOutcome>;
  /**
   * Reads a .sev / .sls / .h the project holds (text null when a .sev does not exist yet). With `project` (the project
   * file that names it), says whether the file lies outside that project's folder (ProjectTextFile.outsideProject).
   */
  readProjectText(req: { path: string; project?: string }): Promise<ProjectTextFile>;
  /** Writes a .sev atomically. */
  saveSev(req: SaveSevRequest): Promise<SavedFile>;
  /** Starts an archive build (or dry run) in a worker; poll getBuildStatus. */
  startBuild(req: StartBuildRequest): Promise<BuildStatus>;
  getBuildStatus(req: { buildId: string }): Promise<BuildStatus>;
  /** Stops a build; nothing is written once this resolves with state 'cancelled'. */
  cancelBuild(req: { buildId: string }): Promise<BuildStatus>;
  /** Exports every motion and alias of the project into the folder of `path`, as one unit; poll getProjectExportStatus. */
  startProjectExport(req: StartProjectExportRequest): Promise<ProjectExportStatus>;
  /**
   * Shows a dialog for the folder to export into (the desktop app's waits in state 'confirm' for confirmProjectExport),
   * then behaves as startProjectExport.
   */
  startProjectExportDialog(req: StartProjectExportDialogRequest): Promise<ProjectExportStatus | Cancelled>;
  getProjectExportStatus(req: { exportId: string }): Promise<ProjectExportStatus>;
  /** Stops an export before its commit; nothing is written once this resolves with state 'cancelled'. */
  cancelProjectExport(req: { exportId: string }): Promise<ProjectExportStatus>;
  /** Lets an export waiting in state 'confirm' (the files it writes said in the page) go on. */
  confirmProjectExport(req: { exportId: string }): Promise<ProjectExportStatus>;
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

  /**
   * A file dropped onto the window (a `File` from the drop's DataTransfer, never a path). Under Electron the
   * preload finds where it lies and main grants it as a pick; a File the page made itself has no place on disk and
   * is refused. Over loopback the browser hides where a dropped file is: the answer is `unavailable`, with why.
   */
  openDroppedFile(file: DroppedFileHandle): Promise<DroppedFileOutcome>;
}

/** Members that are a request with one response. */
export const ACTGUY_INVOKE_MEMBERS = [
  'getAppInfo',
  'openMotion',
  'cancelOpenMotion',
  'openMotionDialog',
  'chooseSkeletonDialog',
  'closeDocument',
  'saveMotion',
  'saveMotionAsDialog',
  'keepMotionCopy',
  'compressMotion',
  'exportMt3',
  'exportMt3Dialog',
  'getRecentFiles',
  'clearRecentFiles',
  'listWorkspace',
  'makeWorkspaceFolder',
  'confirmDiscardChanges',
  'reportDocumentState',
  'openProject',
  'openProjectDialog',
  'openRecentProject',
  'saveProject',
  'chooseProjectFileDialog',
  'readProjectText',
  'saveSev',
  'startBuild',
  'getBuildStatus',
  'cancelBuild',
  'startProjectExport',
  'startProjectExportDialog',
  'getProjectExportStatus',
  'cancelProjectExport',
  'confirmProjectExport',
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

/**
 * Members each transport serves itself, never as an invoke of main's handlers: the preload (which alone can ask
 * Electron where a dropped File lies) and the loopback client (which answers that it cannot).
 */
export const ACTGUY_LOCAL_MEMBERS = ['openDroppedFile'] as const;

export type ActGuyInvokeMember = (typeof ACTGUY_INVOKE_MEMBERS)[number];
export type ActGuyEventMember = (typeof ACTGUY_EVENT_MEMBERS)[number];
export type ActGuyLocalMember = (typeof ACTGUY_LOCAL_MEMBERS)[number];

/** Every member of ActGuyApi. */
export const ACTGUY_API_MEMBERS: readonly (keyof ActGuyApi)[] = [
  ...ACTGUY_INVOKE_MEMBERS,
  ...ACTGUY_EVENT_MEMBERS,
  ...ACTGUY_LOCAL_MEMBERS,
];

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
const membersMatchInterface: Exact<ActGuyInvokeMember | ActGuyEventMember | ActGuyLocalMember, keyof ActGuyApi> = true;
void membersMatchInterface;
