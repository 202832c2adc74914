import { FormatError } from '../errors';
import { MSH_NO_MAP } from './constants';
import type { MshAnimation } from './types';

/**
 * The validation rules of docs/formats.md 7, for the reader and the writer: every
 * fallback_key < key count; a node with a map has anim_map_start +
 * frame_count <= word count; within a track key times strictly increase (for
 * every frame a map word points at a key k below the fallback key, key k+1
 * exists and is later). Key times must be finite, and map words of an
 * animated node lie inside the key pool. Throws a FormatError (kind MSH)
 * naming the node, frame or key.
 */
export function validateMshAnimation(a: MshAnimation): void {
  const K = a.keys.length;
  const W = a.mapWords.length;
  if (!Number.isInteger(a.frameCount) || a.frameCount < 0 || a.frameCount > 0xffffffff)
    throw new FormatError('MSH', `frame count must be a u32, found ${a.frameCount}`, { where: 'res19 attr2' });
  a.keys.forEach((k, i) => {
    if (!Number.isFinite(k.time) || k.position.some((v) => !Number.isFinite(v)))
      throw new FormatError('MSH', `key ${i} has a time or position that is not a finite number`, {
        where: `res8 key ${i}`,
        offset: i * 24,
      });
  });
  a.nodes.forEach((n, j) => {
    const where = `node ${j} (${n.name})`;
    if (!(Number.isInteger(n.fallbackKey) && n.fallbackKey >= 0 && n.fallbackKey < K))
      throw new FormatError('MSH', `fallback_key ${n.fallbackKey} is not below the key count ${K}`, { where });
    if (n.animMapStart === MSH_NO_MAP) return;
    if (!(Number.isInteger(n.animMapStart) && n.animMapStart >= 0 && n.animMapStart + a.frameCount <= W))
      throw new FormatError(
        'MSH',
        `anim_map_start ${n.animMapStart} + frame count ${a.frameCount} is past the ${W} map words`,
        { where },
      );
    for (let f = 0; f < a.frameCount; f++) {
      const k = a.mapWords[n.animMapStart + f];
      if (k >= n.fallbackKey) continue;
      if (k + 1 >= K)
        throw new FormatError('MSH', `frame ${f} maps to key ${k}, which has no next key (${K} keys)`, { where });
      if (!(a.keys[k].time < a.keys[k + 1].time))
        throw new FormatError(
          'MSH',
          `key times must strictly increase within a track: key ${k} (time ${a.keys[k].time}) then key ${k + 1} (time ${a.keys[k + 1].time}), used at frame ${f}`,
          { where },
        );
    }
  });
}
