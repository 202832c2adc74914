/**
 * The compression result for the document: derived state, neither undoable
 * nor saved. A controller watches the document store and asks for a new
 * compression whenever something it depends on changed; a reply is applied
 * only when it answers the latest edit, and at most one request is in flight
 * (edits arriving meanwhile are coalesced into one follow-up request), so a
 * fast drag never queues a backlog.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Motion } from '../../shared/motion/types';
import type { Mt3Motion } from '../../shared/mt3/types';
import type { CompressOptions, CompressResult } from '../../shared/compress/types';
import type { DocumentState } from './documentStore';

export interface CompressionState {
  /** Latest applied result for an editable document; null before the first or for read-only docs. */
  result: CompressResult | null;
  /** The MT3 the viewport and curves decode: the result's, or the file's for read-only docs. */
  mt3: Mt3Motion | null;
  /** editId of the document the result belongs to. */
  editId: number;
  /** A request for a newer edit is running. */
  pending: boolean;
  /** Why the latest compression failed, or null. */
  error: string | null;
  /** Milliseconds from edit to applied result (includes transport). */
  roundTripMs: number;
  set(patch: Partial<Omit<CompressionState, 'set'>>): void;
}

export function createCompressionStore(): StoreApi<CompressionState> {
  return createStore<CompressionState>()((set) => ({
    result: null,
    mt3: null,
    editId: -1,
    pending: false,
    error: null,
    roundTripMs: 0,
    set(patch) {
      set(patch);
    },
  }));
}

export const compressionStore = createCompressionStore();

/** Name the compressor hashes into the MT3 header: the file's base name. */
export function motionNameOf(path: string | null): string {
  if (!path) return 'motion';
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.[^.]*$/, '') || 'motion';
}

/** The options the document asks for. */
export function compressOptionsOf(doc: DocumentState): CompressOptions {
  return {
    positionTolerance: doc.tolerances.positionTolerance,
    rotationToleranceDeg: doc.tolerances.rotationToleranceDeg,
    offsetTolerance: doc.tolerances.offsetTolerance,
    rotationToleranceOverridesDeg: { ...doc.rotationOverridesDeg },
    name: motionNameOf(doc.path),
  };
}

export type CompressFn = (motion: Motion, options: CompressOptions) => Promise<CompressResult>;

/**
 * Connects a document store to a compression store. Returns the unsubscribe
 * function. `now` is injectable for tests.
 */
export function connectCompression(
  docStore: StoreApi<DocumentState>,
  out: StoreApi<CompressionState>,
  compress: CompressFn,
  now: () => number = () => performance.now(),
): () => void {
  let inFlight = false;
  let lastRequested = -1;

  async function run(): Promise<void> {
    if (inFlight) return;
    const doc = docStore.getState();
    if (!doc.motion || doc.editId === lastRequested) return;
    if (doc.readOnly) {
      lastRequested = doc.editId;
      return;
    }
    inFlight = true;
    lastRequested = doc.editId;
    const editId = doc.editId;
    const started = now();
    out.getState().set({ pending: true });
    try {
      const result = await compress(doc.motion, compressOptionsOf(doc));
      // Apply only if no newer edit has arrived; a newer one triggers its own request below.
      if (docStore.getState().editId === editId) {
        out.getState().set({ result, mt3: result.mt3, editId, error: null, roundTripMs: now() - started });
      }
    } catch (err) {
      if (docStore.getState().editId === editId) {
        out.getState().set({ error: err instanceof Error ? err.message : String(err), editId });
      }
    } finally {
      inFlight = false;
      const latest = docStore.getState();
      if (latest.editId !== lastRequested && latest.motion) {
        void run();
      } else {
        out.getState().set({ pending: false });
      }
    }
  }

  const unsubscribe = docStore.subscribe((s, prev) => {
    if (s.editId === prev.editId) return;
    if (!s.motion) {
      out.getState().set({ result: null, mt3: null, editId: s.editId, pending: false, error: null });
      return;
    }
    if (s.readOnly) {
      const entry = s.mt3Entries?.[s.activeEntry];
      out.getState().set({ result: null, mt3: entry?.mt3 ?? null, editId: s.editId, pending: false, error: null });
      lastRequested = s.editId;
      return;
    }
    void run();
  });
  void run();
  return unsubscribe;
}
