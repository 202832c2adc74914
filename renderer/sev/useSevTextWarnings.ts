import { useEffect, useState } from 'react';
import { bidiWarnings } from '../../shared/bidiText';
import { serializeSev } from '../../shared/sev/serialize';
import type { SevDocument } from '../../shared/sev/types';
import { useSev } from './hooks';
import { errorsOf, type SevTextError } from './sevStore';

/** How long the document must rest before its text is serialized and scanned again (typing stays fast). */
export const WARNINGS_DEBOUNCE_MS = 200;

const NONE: SevTextError[] = [];

/**
 * The open .sev's text warnings as the document stands now: those of the file (or of the text saved) while the
 * document is unchanged, and those of the text Save would write (serializeSev, as sevFiles.saveSev writes it) once
 * edited, recomputed when the document has rested WARNINGS_DEBOUNCE_MS (a burst of edits scans once). A bidi
 * character typed into a note shows before any save. docs/sound-events.md.
 */
export function useSevTextWarnings(): SevTextError[] {
  const doc = useSev((s) => s.file?.doc ?? null);
  const savedDoc = useSev((s) => s.file?.savedDoc ?? null);
  const path = useSev((s) => s.file?.path ?? '');
  const stored = useSev((s) => s.file?.textWarnings ?? NONE);
  const [edited, setEdited] = useState<{ path: string; doc: SevDocument; warnings: SevTextError[] } | null>(null);
  const unchanged = doc === null || doc === savedDoc;
  useEffect(() => {
    if (unchanged || !doc) return;
    const t = setTimeout(
      () => setEdited({ path, doc, warnings: errorsOf(bidiWarnings(serializeSev(doc), 'SEV', path)) }),
      WARNINGS_DEBOUNCE_MS,
    );
    return () => clearTimeout(t);
  }, [doc, unchanged, path]);
  if (unchanged) return stored;
  // Until the edited document is scanned, the last scan shown stays (an edited one, else the file's).
  return edited && edited.path === path ? edited.warnings : stored;
}
