import { describe, it, expect } from 'vitest';
import { createDocumentStore } from './documentStore';
import {
  createCompressionStore,
  connectCompression,
  EDIT_SETTLE_MS,
  settleHoldMs,
  type CompressFn,
} from './compressionStore';
import { emptyMotion, KeyFlag } from '../../shared/motion/types';
import type { CompressOutcome } from '../../shared/ipc/compress';

function fakeResult(tag: number): CompressOutcome {
  return {
    status: 'done',
    documentId: 'd',
    revision: 0,
    mt3: { name: tag } as never,
    channels: [],
    warnings: [],
    totalKeys: tag,
    mt3Bytes: 0,
    mtnBytes: 0,
    ratio: 0,
    compressMs: 0,
    method: 'classic',
    objectError: null,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('compression controller', () => {
  it('coalesces edits made while a request runs into one request for the latest state, showing the older reply meanwhile', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    const pending: { resolve: (r: CompressOutcome) => void; userKeys: number; revision: number }[] = [];
    const compress: CompressFn = (req) =>
      new Promise((resolve) => {
        let userKeys = 0;
        for (const w of req.jointKeyFlags) if (w & KeyFlag.KEY) userKeys++;
        pending.push({ resolve, userKeys, revision: req.revision });
      });
    connectCompression(doc, out, compress, () => 0);
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }]),
    });
    doc.getState().tolerancesActions.setMethod('classic'); // one stage per edit here; the two stages have their own test
    expect(pending).toHaveLength(1);
    // Three edits while the first request runs: only one follow-up request, for the latest state.
    doc.getState().keys.toggle(0, 1);
    doc.getState().keys.toggle(0, 2);
    doc.getState().keys.toggle(0, 3);
    expect(pending).toHaveLength(1);
    pending[0].resolve(fakeResult(1));
    await flush();
    // The reply for the load is shown as an intermediate result, marked as answering an older edit.
    expect(out.getState().result?.totalKeys).toBe(1);
    expect(out.getState().editId).toBeLessThan(doc.getState().editId);
    expect(out.getState().pending).toBe(true);
    expect(pending).toHaveLength(2);
    expect(pending[1].userKeys).toBe(3);
    expect(pending[1].revision).toBe(doc.getState().editId);
    pending[1].resolve(fakeResult(2));
    await flush();
    expect(out.getState().result?.totalKeys).toBe(2);
    expect(out.getState().editId).toBe(doc.getState().editId);
    expect(out.getState().pending).toBe(false);
  });

  it('never shows a reply over another document', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    const pending: ((r: CompressOutcome) => void)[] = [];
    connectCompression(
      doc,
      out,
      () => new Promise((resolve) => pending.push(resolve)),
      () => 0,
    );
    const joints = [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }];
    doc.getState().load({
      documentId: 'a',
      kind: 'mtn',
      readOnly: false,
      name: 'a',
      path: 'a.mtn',
      motion: emptyMotion(10, joints),
    });
    doc.getState().load({
      documentId: 'b',
      kind: 'mtn',
      readOnly: false,
      name: 'b',
      path: 'b.mtn',
      motion: emptyMotion(10, joints),
    });
    pending[0](fakeResult(1));
    await flush();
    expect(out.getState().result).toBeNull();
    pending[1](fakeResult(2));
    await flush();
    expect(out.getState().result?.totalKeys).toBe(2);
  });

  it('shows the greedy result at once, then swaps in the refined one; a newer edit drops a stale refinement', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    const calls: { method: string | undefined; revision: number; resolve: (r: CompressOutcome) => void }[] = [];
    connectCompression(
      doc,
      out,
      (req) => new Promise((resolve) => calls.push({ method: req.tolerances.method, revision: req.revision, resolve })),
      () => 0,
    );
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }]),
    });
    expect(calls.map((c) => c.method)).toEqual(['classic']);
    calls[0].resolve({ ...fakeResult(10), mt3Bytes: 500 } as CompressOutcome);
    await flush();
    expect(out.getState().result?.totalKeys).toBe(10);
    expect(out.getState().stage).toBe('greedy');
    expect(calls.map((c) => c.method)).toEqual(['classic', 'refined']);
    expect(calls[1].revision).toBe(calls[0].revision);
    calls[1].resolve({ ...fakeResult(6), mt3Bytes: 300, method: 'refined' } as CompressOutcome);
    await flush();
    expect(out.getState().result?.totalKeys).toBe(6);
    expect(out.getState()).toMatchObject({ stage: 'final', greedyMt3Bytes: 500, pending: false });

    // An edit while the refinement runs: the refined answer for the old edit is never shown.
    doc.getState().keys.toggle(0, 4);
    await flush();
    calls[2].resolve(fakeResult(11));
    await flush();
    expect(calls[3].method).toBe('refined');
    doc.getState().keys.toggle(0, 5);
    calls[3].resolve(fakeResult(99));
    await flush();
    expect(out.getState().result?.totalKeys).toBe(11);
    expect(calls[4].method).toBe('classic');
    expect(calls[4].revision).toBe(doc.getState().editId);
  });

  it('asks for the greedy answer of a new edit at once, while the previous edit is still being refined', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    const calls: { method: string | undefined; revision: number; resolve: (r: CompressOutcome) => void }[] = [];
    connectCompression(
      doc,
      out,
      (req) => new Promise((resolve) => calls.push({ method: req.tolerances.method, revision: req.revision, resolve })),
      () => 0,
    );
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }]),
    });
    calls[0].resolve(fakeResult(10));
    await flush();
    expect(calls.map((c) => c.method)).toEqual(['classic', 'refined']);
    expect(out.getState()).toMatchObject({ stage: 'greedy', pending: false });
    // The refinement of the load has not answered; a key toggle still gets its greedy request now.
    doc.getState().keys.toggle(0, 4);
    await flush();
    expect(calls.map((c) => c.method)).toEqual(['classic', 'refined', 'classic']);
    expect(calls[2].revision).toBe(doc.getState().editId);
    calls[2].resolve(fakeResult(12));
    await flush();
    expect(out.getState().result?.totalKeys).toBe(12);
    expect(calls[3]).toMatchObject({ method: 'refined', revision: doc.getState().editId });
    // The stale refinement answering late is never shown; the current one is.
    calls[1].resolve({ ...fakeResult(3), method: 'refined' } as CompressOutcome);
    await flush();
    expect(out.getState().result?.totalKeys).toBe(12);
    calls[3].resolve({ ...fakeResult(8), method: 'refined' } as CompressOutcome);
    await flush();
    expect(out.getState()).toMatchObject({ stage: 'final', pending: false });
    expect(out.getState().result?.totalKeys).toBe(8);
  });

  it('keeps the previous result and reports the error when compression fails', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    let fail = false;
    connectCompression(doc, out, async () => {
      if (fail) throw new Error('worker crashed');
      return fakeResult(7);
    });
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(4, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }]),
    });
    await flush();
    expect(out.getState().result?.totalKeys).toBe(7);
    fail = true;
    doc.getState().keys.toggle(0, 2);
    await flush();
    expect(out.getState().error).toBe('worker crashed');
    expect(out.getState().result?.totalKeys).toBe(7);
  });

  it("holds an edit's canvases until its result arrives, at most EDIT_SETTLE_MS; a failure or another document stops the wait", async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    let clock = 1000;
    const calls: { revision: number; resolve: (r: CompressOutcome) => void; reject: (e: Error) => void }[] = [];
    connectCompression(
      doc,
      out,
      (req) => new Promise((resolve, reject) => calls.push({ revision: req.revision, resolve, reject })),
      () => clock,
    );
    const joints = [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }];
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(10, joints),
    });
    doc.getState().tolerancesActions.setMethod('classic');
    // Opening a motion waits for nothing: there is no result to keep on screen yet.
    expect(out.getState().awaitingSince).toBeNull();
    calls[0].resolve(fakeResult(1));
    await flush();
    calls[1]?.resolve(fakeResult(1));
    await flush();
    expect(out.getState().awaitingSince).toBeNull();

    // A key toggle: the canvases hold from the edit's time...
    clock = 2000;
    doc.getState().keys.toggle(0, 3);
    expect(out.getState().awaitingSince).toBe(2000);
    expect(settleHoldMs(out.getState(), 2000)).toBe(EDIT_SETTLE_MS);
    expect(settleHoldMs(out.getState(), 2000 + EDIT_SETTLE_MS - 10)).toBe(10);
    expect(settleHoldMs(out.getState(), 2000 + EDIT_SETTLE_MS + 5)).toBe(0);
    // ...and a second edit before the answer does not push the deadline back.
    clock = 2020;
    doc.getState().keys.toggle(0, 4);
    expect(out.getState().awaitingSince).toBe(2000);
    // The answer (even for the older edit) is painted at once.
    calls[calls.length - 1].resolve(fakeResult(2));
    await flush();
    expect(out.getState().awaitingSince).toBeNull();
    expect(settleHoldMs(out.getState(), 2021)).toBe(0);
    calls[calls.length - 1].resolve(fakeResult(3));
    await flush();

    // A failed compression does not leave the canvases waiting.
    clock = 3000;
    doc.getState().keys.toggle(0, 5);
    expect(out.getState().awaitingSince).toBe(3000);
    calls[calls.length - 1].reject(new Error('worker crashed'));
    await flush();
    expect(out.getState().awaitingSince).toBeNull();

    // Nor does switching to another document.
    doc.getState().keys.toggle(0, 6);
    expect(out.getState().awaitingSince).not.toBeNull();
    doc.getState().load({
      documentId: 'e',
      kind: 'mtn',
      readOnly: false,
      name: 'x',
      path: 'x.mtn',
      motion: emptyMotion(10, joints),
    });
    expect(out.getState().awaitingSince).toBeNull();
  });

  it('starts the refinement only after the greedy result was painted, and not at all for an edit already replaced', async () => {
    const doc = createDocumentStore();
    const out = createCompressionStore();
    const calls: { method: string | undefined; revision: number; resolve: (r: CompressOutcome) => void }[] = [];
    const painted: (() => void)[] = [];
    connectCompression(
      doc,
      out,
      (req) => new Promise((resolve) => calls.push({ method: req.tolerances.method, revision: req.revision, resolve })),
      () => 0,
      (run) => painted.push(run),
    );
    doc.getState().load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'w',
      path: 'w.mtn',
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'r' }]),
    });
    calls[0].resolve(fakeResult(10));
    await flush();
    expect(out.getState().result?.totalKeys).toBe(10);
    // Not before the paint...
    expect(calls.map((c) => c.method)).toEqual(['classic']);
    painted.shift()!();
    // ...then for that very edit.
    expect(calls.map((c) => c.method)).toEqual(['classic', 'refined']);
    expect(calls[1].revision).toBe(calls[0].revision);
    calls[1].resolve({ ...fakeResult(6), method: 'refined' } as CompressOutcome);
    await flush();

    // An edit whose greedy answer arrives, then a newer edit before the paint: the old refinement is never asked for.
    doc.getState().keys.toggle(0, 4);
    calls[2].resolve(fakeResult(11));
    await flush();
    doc.getState().keys.toggle(0, 5);
    await flush();
    painted.shift()!();
    expect(calls.map((c) => c.method)).toEqual(['classic', 'refined', 'classic', 'classic']);
    calls[3].resolve(fakeResult(12));
    await flush();
    painted.shift()!();
    expect(calls[4]).toMatchObject({ method: 'refined', revision: doc.getState().editId });
  });
});
