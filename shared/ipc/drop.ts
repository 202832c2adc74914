/**
 * Files dropped onto the window (docs/tuner.md#drag-and-drop). The page never names a path: under Electron it
 * hands the dropped `File` to the preload, which asks Electron where it lies (`webUtils.getPathForFile`) and sends
 * that path to main on its own channel (DROPPED_FILE_CHANNEL in ./transport); main grants it as a pick. Over loopback the
 * browser tells nobody where a dropped file is, so the client answers `unavailable`.
 */
import type { DropKind } from '../dropFiles';

/**
 * What the page passes: a `File` from a drop's DataTransfer. Typed by the one field shared code reads (shared/ has
 * no DOM types); the preload refuses anything that is not a real `File` with a place on disk.
 */
export interface DroppedFileHandle {
  readonly name: string;
}

/** A dropped file main has granted like a pick: the renderer opens it where its kind belongs. */
export interface DroppedFileGranted {
  status: 'granted';
  path: string;
  kind: DropKind;
  /** For a .sev: the project beside it that lists it (as for a .sev the OS hands over), when main found one. */
  projectPath?: string;
}

/** The transport cannot open a dropped file (the browser build): `message` says why and what to do instead. */
export interface DroppedFileUnavailable {
  status: 'unavailable';
  message: string;
}

export type DroppedFileOutcome = DroppedFileGranted | DroppedFileUnavailable;
