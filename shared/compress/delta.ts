/**
 * Compression answers as changes (CompressDelta, shared/compress/request.ts): after an edit
 * the compressor reuses every channel the edit did not touch (CompressCache),
 * so its answer differs from the previous one in a channel or two. The worker
 * sends those alone; the renderer rebuilds the whole answer from the one it
 * holds. A part is sent as "unchanged" only when the worker's own objects show
 * it is the very same result (the cache hands back the same arrays), never by
 * comparing numbers.
 */
import type { CompressDelta, CompressResponse } from './request';
import type { ChannelReport } from './types';

/** Whether two reports of one channel are the same result: the cache's arrays, the same tolerance and user keys. */
function sameChannel(a: ChannelReport, b: ChannelReport): boolean {
  return (
    a.kind === b.kind &&
    a.joint === b.joint &&
    a.keyFrames === b.keyFrames &&
    a.errors === b.errors &&
    a.tolerance === b.tolerance &&
    a.maxError === b.maxError &&
    a.maxErrorFrame === b.maxErrorFrame &&
    a.met === b.met &&
    a.userKeyFrames.length === b.userKeyFrames.length &&
    a.userKeyFrames.every((f, i) => f === b.userKeyFrames[i])
  );
}

/** Whether `next` can go as changes from `base`: same document and method, the same channels and tracks. */
export function deltaPossible(base: CompressResponse, next: CompressResponse): boolean {
  return (
    base.documentId === next.documentId &&
    base.method === next.method &&
    base.channels.length === next.channels.length &&
    base.mt3.rotations.length === next.mt3.rotations.length &&
    !base.mt3.offsets === !next.mt3.offsets &&
    base.channels.every((c, i) => c.kind === next.channels[i].kind && c.joint === next.channels[i].joint)
  );
}

/**
 * `next` as changes from `base` (two answers of the same document and method,
 * made in this process): channel reports and stored tracks that are the very
 * same objects (or, for reports, the same cached arrays) become null. Throws
 * when the two do not have the same channels and tracks (deltaPossible: the
 * offsets flag was switched, or another motion).
 */
export function diffCompressResponse(base: CompressResponse, next: CompressResponse): CompressDelta {
  if (base.documentId !== next.documentId || base.method !== next.method)
    throw new Error(
      `compress delta: answers of ${base.documentId}/${base.method} and ${next.documentId}/${next.method} cannot be compared`,
    );
  if (!deltaPossible(base, next))
    throw new Error('compress delta: the two answers do not have the same channels (see deltaPossible)');
  const { status: _status, channels, mt3, ...rest } = next;
  return {
    ...rest,
    status: 'delta',
    baseRevision: base.revision,
    channels: channels.map((c, i) => (sameChannel(c, base.channels[i]) ? null : c)),
    mt3: {
      ...mt3,
      root: mt3.root === base.mt3.root ? null : mt3.root,
      rotations: mt3.rotations.map((t, i) => (t === base.mt3.rotations[i] ? null : t)),
      offsets: mt3.offsets ? mt3.offsets.map((t, i) => (t === base.mt3.offsets![i] ? null : t)) : null,
    },
  };
}

/** The whole answer a delta stands for, given the answer it was made against (throws for another base). */
export function applyCompressDelta(base: CompressResponse, delta: CompressDelta): CompressResponse {
  if (base.revision !== delta.baseRevision || base.documentId !== delta.documentId || base.method !== delta.method)
    throw new Error(
      `compress delta: made against ${delta.documentId}/${delta.method} revision ${delta.baseRevision}, applied to ${base.documentId}/${base.method} revision ${base.revision}`,
    );
  if (
    base.channels.length !== delta.channels.length ||
    base.mt3.rotations.length !== delta.mt3.rotations.length ||
    !base.mt3.offsets !== !delta.mt3.offsets
  )
    throw new Error('compress delta: the base answer does not have the same channels');
  const { status: _status, baseRevision: _base, channels, mt3, ...rest } = delta;
  return {
    ...rest,
    status: 'done',
    channels: channels.map((c, i) => c ?? base.channels[i]),
    mt3: {
      ...mt3,
      root: mt3.root ?? base.mt3.root,
      rotations: mt3.rotations.map((t, i) => t ?? base.mt3.rotations[i]),
      offsets: mt3.offsets ? mt3.offsets.map((t, i) => t ?? base.mt3.offsets![i]) : null,
    },
  };
}
