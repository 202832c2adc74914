/**
 * The API family of motion interchange (shared/ipc/api.ts): File > Import (BVH, glTF/GLB, FBX), File > Export
 * glTF and File > Export MSH.
 */
import type { PlainFileProblem } from '../fileProblem';
import type { BvhPositionReading, InterchangeWarning } from '../interchange/types';
import type { MshExportFiles } from '../msh/files';
import type { CompressRequest } from './compress';
import type { DocumentId, SavedFile } from './documents';

/**
 * The highest frame rate an import takes (more only makes huge motions; MGS2 plays at 30): main refuses more, and the
 * import dialog and the kept preferences hold to it.
 */
export const IMPORT_FPS_MAX = 1000;

/** Options of an import (both default to the importer's defaults). */
export interface ImportMotionOptions {
  /** Target frames per second, > 0 and <= IMPORT_FPS_MAX. Default 30 (the rate MGS2 motions play at). */
  fps?: number;
  /** Multiplies every position and offset (unit conversion), > 0. Default 1. */
  scale?: number;
  /** How a BVH's position channels are read: 'auto' (default) judges each joint; 'added' or 'local' for the whole file. */
  bvhPositions?: BvhPositionReading;
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
  /** Its problem in plain words, read before `error` (shared/fileProblem.ts): a bad file, or a read or importer failure. */
  plain?: PlainFileProblem | null;
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
export interface ExportedMsh extends Pick<
  MshExportFiles,
  'totalKeys' | 'mapWords' | 'frameCount' | 'nodeCount' | 'animatedNodes' | 'warnings'
> {
  /** The three files written, absolute paths. */
  files: { res8: string; res19: string; nodes: string };
  /** Bytes of each file. */
  byteLengths: { res8: number; res19: number; nodes: number };
}

export type ExportMshOutcome = { status: 'exported'; export: ExportedMsh } | { status: 'cancelled' };
