/**
 * The API family of hot exit (shared/ipc/api.ts): copies of unsaved work held by main
 * (docs/install.md#unsaved-work-after-a-crash).
 */
import type { CompressTolerances } from './compress';
import type { DocumentId } from './documents';

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
