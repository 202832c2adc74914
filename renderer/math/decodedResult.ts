/**
 * A compression result decoded for drawing. Results after the first share
 * every track an edit did not change with the answer before them
 * (renderer/state/compressDeltas.ts), and tracks are never changed once made,
 * so each track is decoded once, by object, instead of the whole motion on
 * every result (shared/mt3/decode.ts's decodeMt3 caches per motion object:
 * a new result decodes all of it).
 */
import {
  decodePositionTrack,
  decodeRotationTrack,
  decodeTracks,
  type DecodedMt3,
  type DecodedPositionTrack,
  type DecodedRotationTrack,
} from '../../shared/mt3/decode';
import type { Mt3Motion, PositionTrack, RotationTrack } from '../../shared/mt3/types';

const positions = new WeakMap<PositionTrack, DecodedPositionTrack>();
const rotations = new WeakMap<RotationTrack, DecodedRotationTrack>();
const results = new WeakMap<Mt3Motion, DecodedMt3>();

function position(t: PositionTrack): DecodedPositionTrack {
  let d = positions.get(t);
  if (!d) positions.set(t, (d = decodePositionTrack(t)));
  return d;
}

function rotation(t: RotationTrack): DecodedRotationTrack {
  let d = rotations.get(t);
  if (!d) rotations.set(t, (d = decodeRotationTrack(t)));
  return d;
}

/** The decoded result (the same numbers as decodeMt3), reusing the decode of every track seen before. */
export function decodeResult(m: Mt3Motion): DecodedMt3 {
  let d = results.get(m);
  if (!d) results.set(m, (d = decodeTracks(m, position, rotation)));
  return d;
}
