/**
 * A min/max pyramid over a curve's values, so that the curve view's paint costs its pixels, not the motion's frames
 * (docs/architecture.md, "Renderer review, round 4"). The view repaints at every change of the stores, each frame of
 * playback included, and found the value range of the frames in view (and with Normalize each curve's range over the
 * whole motion, and the error curve's highest error) by reading every frame: a 65,535-frame motion seen whole read
 * some 790,000 values a paint. The pyramid answers "which frame in from..to has the lowest (highest) value" in
 * O(log frames), so the range costs a few look-ups a curve and a decimated polyline a few a pixel column.
 *
 * Cached per array, by identity (a WeakMap: gone with the array). The curves' arrays are never written once made:
 * buildSeries makes new ones for a new motion, joint, channel, rotate order or compression result, and an edit (a key
 * toggled, a tolerance) reaches the curves as a new compression result, whose decoded values and errors are new
 * arrays. An array written in place would keep a stale pyramid: do not.
 */
export interface MinMax {
  /** The frame of the lowest value in `from`..`to` (whole frames, inclusive, within the array). */
  argMin(from: number, to: number): number;
  /** The frame of the highest value in `from`..`to`. */
  argMax(from: number, to: number): number;
}

const pyramids = new WeakMap<Float64Array, MinMax>();

let built = 0;

/** How many pyramids were built so far (a test's count of cache misses). */
export function pyramidsBuilt(): number {
  return built;
}

/** The pyramid of `values`, built at the first call for that array. */
export function minMaxOf(values: Float64Array): MinMax {
  let p = pyramids.get(values);
  if (!p) {
    p = buildPyramid(values);
    pyramids.set(values, p);
    built++;
  }
  return p;
}

/**
 * A binary tree over the frames, stored as arrays (node i's children are 2i and 2i+1, frame f's leaf is size + f):
 * each node holds the lowest and the highest value under it and their frames (-1: no frame, past the end). A query
 * compares the tree's copies: it reads none of the curve's values.
 */
function buildPyramid(v: Float64Array): MinMax {
  const n = v.length;
  let size = 1;
  while (size < n) size *= 2;
  const loF = new Int32Array(2 * size).fill(-1);
  const hiF = new Int32Array(2 * size).fill(-1);
  const loV = new Float64Array(2 * size).fill(Infinity);
  const hiV = new Float64Array(2 * size).fill(-Infinity);
  for (let f = 0; f < n; f++) {
    const x = v[f];
    loF[size + f] = hiF[size + f] = f;
    loV[size + f] = hiV[size + f] = x;
  }
  for (let i = size - 1; i >= 1; i--) {
    const l = 2 * i;
    const r = l + 1;
    const lr = loF[r] >= 0 && loV[r] < loV[l] ? r : l;
    loF[i] = loF[lr];
    loV[i] = loV[lr];
    const hr = hiF[r] >= 0 && hiV[r] > hiV[l] ? r : l;
    hiF[i] = hiF[hr];
    hiV[i] = hiV[hr];
  }
  return {
    argMin(from, to) {
      let best = -1;
      let bestV = Infinity;
      const take = (i: number) => {
        if (loF[i] >= 0 && (best < 0 || loV[i] < bestV)) {
          best = loF[i];
          bestV = loV[i];
        }
      };
      for (let l = from + size, h = to + size + 1; l < h; l >>= 1, h >>= 1) {
        if (l & 1) take(l++);
        if (h & 1) take(--h);
      }
      return best;
    },
    argMax(from, to) {
      let best = -1;
      let bestV = -Infinity;
      const take = (i: number) => {
        if (hiF[i] >= 0 && (best < 0 || hiV[i] > bestV)) {
          best = hiF[i];
          bestV = hiV[i];
        }
      };
      for (let l = from + size, h = to + size + 1; l < h; l >>= 1, h >>= 1) {
        if (l & 1) take(l++);
        if (h & 1) take(--h);
      }
      return best;
    },
  };
}
