/**
 * The motion an import in progress will replace. The user chose Discard (or had nothing unsaved) before the import
 * began; once it lands, the page shows the imported motion and main closes this one. A Save of it meanwhile raced
 * that close and failed with "document … is not open" (tried by testers), and an export of it (.mt3, glTF, MSH) wrote
 * what the user had just chosen to discard, or failed the same way halfway: save, Save As and every export refuse it
 * up front and say why, while the Cancel of the import still keeps it, with its edits, open, savable and exportable.
 */
import { sessionStore } from '../state/sessionStore';

let replacing: string | null = null;

/** Marks `documentId` (the open motion, or null for none) as the one the import now starting replaces. */
export function beginReplacingImport(documentId: string | null): void {
  replacing = documentId;
}

/** The import ended (imported, failed, cancelled) or turned out not to replace the open motion (a batch). */
export function endReplacingImport(): void {
  replacing = null;
}

/** True while an import in progress is to replace `documentId`. */
export function replacedByImport(documentId: string): boolean {
  return replacing === documentId;
}

/** What a refused action would have done with the motion: the message names it. */
export type ReplacedMotionAction = 'save' | 'export';

const DONE: Record<ReplacedMotionAction, string> = { save: 'saved', export: 'exported' };

/**
 * Refuses `action` on the motion `documentId` (shown as `name`) while an import replaces it, with one message that
 * says why and how to keep it (cancel the import, then save or export again). Returns true when refused.
 */
export function refusedWhileReplaced(action: ReplacedMotionAction, documentId: string, name: string): boolean {
  if (!replacedByImport(documentId)) return false;
  sessionStore
    .getState()
    .notify(
      'warning',
      `${name} was not ${DONE[action]}: the import in progress replaces it (its changes were discarded for the import). To keep ${name}, cancel the import in the status bar, then ${action}.`,
    );
  return true;
}
