/**
 * The renderer's side of delta answers (CompressDelta, shared/ipc/compress.ts): it
 * keeps the last few complete answers per document and method, names the
 * newest in each request (knownRevision), and turns a delta back into the
 * whole answer before anything else sees it. When the answer a delta was made
 * against is no longer held (two requests crossed), it asks again without a
 * base. What it returns is exactly what the compressor would have sent whole.
 */
import { applyCompressDelta } from '../../shared/compress/delta';
import type { CompressOutcome, CompressResponse } from '../../shared/ipc/compress';
import type { CompressFn } from './compressionStore';

/** Complete answers kept per document and method (requests of one method may cross: the newest few cover it). */
const HELD_PER_KEY = 3;
/** Documents and methods remembered; the least recently used go first. */
const HELD_KEYS = 8;

export function withCompressDeltas(compress: CompressFn): CompressFn {
  const held = new Map<string, CompressResponse[]>();
  const keyOf = (documentId: string, method: string) => `${documentId}\u0000${method}`;
  const remember = (r: CompressResponse) => {
    const key = keyOf(r.documentId, r.method);
    const list = (held.get(key) ?? []).filter((x) => x.revision !== r.revision);
    list.unshift(r);
    held.delete(key);
    held.set(key, list.slice(0, HELD_PER_KEY));
    while (held.size > HELD_KEYS) held.delete(held.keys().next().value!);
  };
  return async (req) => {
    const key = keyOf(req.documentId, req.tolerances.method ?? 'refined');
    const newest = req.includeBytes ? undefined : held.get(key)?.[0];
    const { knownRevision: _ignored, ...plain } = req;
    const out: CompressOutcome = await compress(newest ? { ...plain, knownRevision: newest.revision } : plain);
    if (out.status === 'superseded') return out;
    let full: CompressResponse;
    if (out.status === 'delta') {
      const base = held.get(key)?.find((r) => r.revision === out.baseRevision);
      if (!base) {
        const again = await compress(plain);
        if (again.status === 'done') remember(again);
        return again;
      }
      full = applyCompressDelta(base, out);
    } else full = out;
    if (!req.includeBytes) remember(full);
    return full;
  };
}
