/**
 * The compression result for the document: derived state, neither undoable
 * nor saved. A controller watches the document store and asks the main
 * process (its compression worker) for a new compression whenever something
 * compression depends on changed. The request's revision is the document's
 * editId. At most one request is in flight: edits arriving meanwhile are
 * coalesced into one follow-up request for the latest state, so a fast drag
 * never queues a backlog. A reply for an older edit of the same document is
 * still shown (an intermediate result while a tolerance slider moves; `editId`
 * says which edit it answers and `pending` stays on until the latest is in).
 *
 * Two stages per edit: the greedy (classic) compression answers first, in
 * milliseconds, and is shown at once; when the settings ask for the refined
 * compressor (the default), a second request refines in the background and
 * its result replaces the greedy one, unless a newer edit arrived meanwhile.
 * `stage` says which of the two is on screen. The refinement is not awaited
 * before the next edit's request: a key toggle answers from the greedy pass
 * even while the previous edit is still being refined.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { compressRequestForMotion } from '../../shared/compress/request';
import type { CompressOutcome, CompressRequest, CompressResponse } from '../../shared/ipc/compress';
import type { DocumentState } from './documentStore';
import { plainCompressionProblem, type PlainCompressionProblem } from '../../shared/fileProblem';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { FormatError } from '../../shared/errors';

/** A failed compression as the store keeps it: the message (Details) and its plain words. */
function failureOf(err: unknown): Pick<CompressionState, 'error' | 'errorPlain'> {
  const message = err instanceof Error ? err.message : String(err);
  const refused = err instanceof FormatError || (err instanceof ActGuyApiError && err.formatKind !== undefined);
  return { error: message, errorPlain: plainCompressionProblem(message, refused) };
}

export interface CompressionState {
  /** Latest applied result; null before the first, and for read-only documents. */
  result: CompressResponse | null;
  /** editId of the document the result belongs to. */
  editId: number;
  /** A request for a newer edit is running. */
  pending: boolean;
  /** Why the latest compression failed (the compressor's own message, the Details), or null. */
  error: string | null;
  /** The same failure in plain words (shared/fileProblem.ts), or null. */
  errorPlain: PlainCompressionProblem | null;
  /** Milliseconds from request to applied result (worker + transport). */
  roundTripMs: number;
  /**
   * What `result` is: 'greedy' while the refined compression of the same edit
   * is still running, 'final' when it is what Export writes (the refined
   * result, or the classic one when the settings ask for classic).
   */
  stage: 'greedy' | 'final';
  /** MT3 bytes of the greedy compression of the edit on screen (to show what refining saved), or null. */
  greedyMt3Bytes: number | null;
  /**
   * When (performance.now()) the document got ahead of the result on screen, or null when the result shown
   * answers the latest edit. The curve and timeline canvases hold their repaint for up to EDIT_SETTLE_MS after
   * it (settleHoldMs), so that an edit and its compression reach the screen in one frame instead of two.
   */
  awaitingSince: number | null;
  set(patch: Partial<Omit<CompressionState, 'set'>>): void;
}

export function createCompressionStore(): StoreApi<CompressionState> {
  return createStore<CompressionState>()((set) => ({
    result: null,
    editId: -1,
    pending: false,
    error: null,
    errorPlain: null,
    roundTripMs: 0,
    stage: 'final',
    greedyMt3Bytes: null,
    awaitingSince: null,
    set(patch) {
      set(patch);
    },
  }));
}

export const compressionStore = createCompressionStore();

/**
 * How long an edit's canvases wait for its compression before they show the edit alone: the greedy answer
 * usually arrives well within it, and painting the edit and then its result costs the window two frames (on a
 * software-composited machine the first one delays the result's by tens of ms).
 */
export const EDIT_SETTLE_MS = 50;

/** Milliseconds a canvas should still hold its repaint for the edit's result (0: paint now). */
export function settleHoldMs(state: Pick<CompressionState, 'awaitingSince'>, now: number): number {
  if (state.awaitingSince === null) return 0;
  return Math.max(0, EDIT_SETTLE_MS - (now - state.awaitingSince));
}

/** The compress request for the document's current state. */
export function compressRequestOf(doc: DocumentState, revision: number, includeBytes = false): CompressRequest {
  return {
    ...compressRequestForMotion(doc.motion!, doc.documentId!, revision, doc.tolerances),
    rotationToleranceOverridesDeg: { ...doc.rotationOverridesDeg },
    name: doc.name || undefined,
    includeBytes,
  };
}

export type CompressFn = (req: CompressRequest) => Promise<CompressOutcome>;

/** Runs `run` after the next animation frame has been painted (at once where there are no frames: tests, workers). */
function afterNextPaint(run: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    run();
    return;
  }
  requestAnimationFrame(() => setTimeout(run, 0));
}

/**
 * Connects a document store to a compression store. Returns the unsubscribe
 * function. `now` is injectable for tests.
 */
export function connectCompression(
  docStore: StoreApi<DocumentState>,
  out: StoreApi<CompressionState>,
  compress: CompressFn,
  now: () => number = () => performance.now(),
  afterPaint: (run: () => void) => void = afterNextPaint,
): () => void {
  let inFlight = false;
  let lastRequested = -1;

  async function run(): Promise<void> {
    if (inFlight) return;
    const doc = docStore.getState();
    if (!doc.motion || !doc.documentId || doc.readOnly || doc.editId === lastRequested) return;
    inFlight = true;
    lastRequested = doc.editId;
    const editId = doc.editId;
    const documentId = doc.documentId;
    const started = now();
    out.getState().set({ pending: true });
    const request = compressRequestOf(doc, editId);
    const refine = (request.tolerances.method ?? 'refined') === 'refined';
    try {
      const greedy = await compress({ ...request, tolerances: { ...request.tolerances, method: 'classic' } });
      // Shown even when a newer edit has arrived meanwhile (that one gets its own request below), but never over
      // another document; only the latest edit is refined.
      if (greedy.status === 'done' && docStore.getState().documentId === documentId && docStore.getState().motion) {
        const latest = docStore.getState().editId === editId;
        out.getState().set({
          result: greedy,
          editId,
          error: null,
          errorPlain: null,
          roundTripMs: now() - started,
          stage: refine ? 'greedy' : 'final',
          greedyMt3Bytes: greedy.mt3Bytes,
          // Shown at once, even as an intermediate result while a newer edit waits for its own.
          awaitingSince: null,
        });
        // Not awaited: the next edit's greedy request must not wait for this refinement (the main process runs
        // the two in separate workers, and a newer refinement stops this one). Started once the greedy result is
        // painted, so that on a small machine the refinement does not take the CPU from that paint; skipped when a
        // newer edit arrived meanwhile (its own greedy answer asks for its refinement).
        if (refine && latest) {
          afterPaint(() => {
            if (docStore.getState().editId === editId && docStore.getState().documentId === documentId)
              void refineInBackground(request, editId);
          });
        }
      }
    } catch (err) {
      if (docStore.getState().editId === editId) {
        out.getState().set({ ...failureOf(err), editId, awaitingSince: null });
      }
    } finally {
      inFlight = false;
      const latest = docStore.getState();
      if (latest.editId !== lastRequested && latest.motion && !latest.readOnly) {
        void run();
      } else {
        out.getState().set({ pending: false, awaitingSince: null });
      }
    }
  }

  /** The refined compression of an edit; its result replaces the greedy one only while that edit is still the latest. */
  async function refineInBackground(request: CompressRequest, editId: number): Promise<void> {
    const current = () =>
      docStore.getState().editId === editId && docStore.getState().documentId === request.documentId;
    try {
      const refined = await compress({ ...request, tolerances: { ...request.tolerances, method: 'refined' } });
      if (refined.status === 'done' && current() && out.getState().editId === editId)
        out.getState().set({ result: refined, stage: 'final' });
    } catch (err) {
      if (current()) out.getState().set({ ...failureOf(err), editId });
    }
  }

  const unsubscribe = docStore.subscribe((s, prev) => {
    if (s.editId === prev.editId) return;
    if (s.documentId !== prev.documentId) {
      // A different document: its old result must never be drawn over the new motion (nor waited for).
      out.getState().set({ result: null, editId: -1, error: null, errorPlain: null, awaitingSince: null });
    } else if (out.getState().awaitingSince === null && out.getState().result && s.motion && !s.readOnly) {
      // An edit of the motion on screen: its canvases wait a moment for its compression (EDIT_SETTLE_MS).
      out.getState().set({ awaitingSince: now() });
    }
    if (!s.motion || s.readOnly) {
      out
        .getState()
        .set({ result: null, editId: s.editId, pending: false, error: null, errorPlain: null, awaitingSince: null });
      lastRequested = s.editId;
      return;
    }
    void run();
  });
  void run();
  return unsubscribe;
}
