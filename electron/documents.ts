/**
 * The documents the renderer has open, as the handlers keep them: bounded in
 * number so a page that opens motions without closing them (a reloaded page
 * never closes its last one) cannot grow the main process and the compress
 * worker without end. Past the cap the least recently used document is
 * closed (its compress-worker copy freed); using a document refreshes it.
 */
import type { DocumentId } from '../shared/ipc/documents';
import { PAGE_ID_MAX, shownPageId } from './ipcArgs';

/** Open documents kept at most (the app shows one at a time; the rest are pages gone without closing theirs). */
export const MAX_OPEN_DOCUMENTS = 16;

/** A document as electron/handlers.ts keeps it. */
export interface HandlerDocument {
  /**
   * Its file. An imported motion has none yet: this is then the path Save As
   * proposes (`<source folder>/<suggested name>.mtn`); nothing reads it.
   */
  path: string;
  name: string;
  /**
   * Files it was read from that are not its own editable .mtn (an .mt3 or
   * .mar and the skeleton it was decoded with, an imported .bvh/.glb/.gltf):
   * a save or an export onto one of them would destroy an input, so it is refused.
   */
  inputs?: string[];
}

/** A Map of the open documents that closes the least recently used one past `cap` (`onEvict` frees it elsewhere). */
export class DocumentTable extends Map<DocumentId, HandlerDocument> {
  constructor(
    private readonly onEvict: (id: DocumentId) => void,
    private readonly cap = MAX_OPEN_DOCUMENTS,
  ) {
    super();
  }

  /** Adds or replaces a document as the most recently used one, evicting the least recently used past the cap. */
  override set(id: DocumentId, doc: HandlerDocument): this {
    super.delete(id);
    super.set(id, doc);
    // Guard: Map's constructor may call set before the fields exist.
    if (this.cap === undefined) return this;
    for (const oldest of this.keys()) {
      if (this.size <= this.cap) break;
      super.delete(oldest);
      this.onEvict(oldest);
    }
    return this;
  }

  /**
   * The document the page names by `id`, marked as the most recently used, else an Error saying it is not open. The
   * id is quoted as a page's words are: at most PAGE_ID_MAX characters (ipcArgs.ts shownPageId), hidden characters escaped (a page's 16 MB
   * id came back as 16 KiB of message, after 0.09-0.19 s of the main process: docs/architecture.md, round 5); anything
   * but a string by its type.
   */
  require(id: unknown): HandlerDocument {
    const doc = typeof id === 'string' && id.length <= PAGE_ID_MAX ? this.get(id) : undefined;
    if (doc) return doc;
    throw new Error(`document ${shownPageId(id)} is not open (open or import a motion first)`);
  }

  /** The document, marked as the most recently used. */
  override get(id: DocumentId): HandlerDocument | undefined {
    const doc = super.get(id);
    if (doc !== undefined) {
      super.delete(id);
      super.set(id, doc);
    }
    return doc;
  }
}
