/**
 * The motion an import in progress will replace. The user chose Discard (or had nothing unsaved) before the import
 * began; once it lands, the page shows the imported motion and main closes this one. A Save of it meanwhile raced
 * that close and failed with "document … is not open" (tried by testers): save and Save As refuse it up front and
 * say why, while the Cancel of the import still keeps it, with its edits, open and savable.
 */
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
