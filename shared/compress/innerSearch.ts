import { decodeS12, encodeS12 } from '../math/s12';
import { normalize4, SMALLEST_LENGTH } from '../math/quat';
import { ScalarSquad } from '../math/squad';
import type { RotationFit } from './rotationFit';

/** Most keys whose inner quaternion one search varies at once (a removal refits the two neighbours). */
const MAX_VARIABLE_KEYS = 4;
/** Most keys in a chain: the variable keys and one fixed key on each side. */
const MAX_CHAIN = MAX_VARIABLE_KEYS + 2;
/** Linearisations per search: each is one evaluation of the Squad residuals at the rounded point it found. */
const LINEARISATIONS = 2;
/** Reweighted least-squares steps on one linearisation at most (they cost no Squad sample). */
const MINIMAX_STEPS = 3;
/** A search whose linear model cannot get below this many times the bound stops there (a failed removal, usually). */
const GIVE_UP_PREDICTED = 2;
/** Worst error over the bound beyond which a search stops before linearisation i. */
const GIVE_UP_RATIO = [Infinity, 3];
/**
 * GIVE_UP_RATIO of a window search (more than two variables: a retry that starts from a two-key search's nearest
 * miss): its second linearisation succeeded for 10 % of the first rounded points within 1.1 times the bound and
 * for 1 % of those past it (docs/compression.md#refinement-speed).
 */
const GIVE_UP_RATIO_WINDOW = [Infinity, 1.1];
/**
 * A rounded point whose linear model predicts its worst error over this many times the bound is not checked when
 * no later linearisation would start from it (the last one, or a window search's first past
 * GIVE_UP_RATIO_WINDOW): the search fails there without its Squad samples. At the last linearisation of the
 * two-key searches on the bundled captures, 248 of 16 273 successes had predicted 1.0-1.1 times the bound and none
 * more, while 58 000 checks that failed had predicted 1.0-2.0 (docs/compression.md#refinement-speed).
 */
const CHECK_PREDICTED_WITHIN = 1;
/** The linear model's steps stop once its worst residual is within this fraction of the bound (room for rounding to s12 and for the model's error). */
const GOAL = 0.92;
const RAD_TO_DEG = 180 / Math.PI;
/**
 * Half-width, in sine of half the angle, of the band around the bound where a frame's residual length does not
 * decide which side of the bound the reference decoder puts it (residuals): the two measures differ by about
 * 1e-16 / sin(angle / 2) (the acos of a dot product near 1), under 1e-11 down to 0.001 deg, plus the series
 * Squad sample's 1e-14.
 */
export const REFERENCE_BAND = 1e-9;

/** Squared sine of half an angle in degrees: how the search compares a residual's length with an error. */
export function halfSineSq(deg: number): number {
  const s = Math.sin(deg / RAD_TO_DEG / 2);
  return s * s;
}

/** The angle in degrees whose halfSineSq is m. */
export function halfAngleDeg(m: number): number {
  return 2 * Math.asin(Math.min(1, Math.sqrt(m))) * RAD_TO_DEG;
}

/**
 * Searches the inner (Squad control) quaternions of two to four consecutive keys
 * against the source frames of the segments they touch, minimising the worst
 * error there (docs/compression.md: "inner quaternions optimised against the source
 * frames"). Each inner quaternion is a = q exp(t) with t in R^3. The Squad
 * residuals are linearised in t (Jacobian in `solve`), the worst residual of that
 * linear model is minimised by reweighted least squares (an approximate minimax;
 * no Squad sample), and where that lands, rounded to the s12 grid, the Squad is
 * sampled again, up to LINEARISATIONS times: those samples are at once the
 * reference check of what would be written (the search ends at the first
 * rounded point within the bound) and the residuals of the next linearisation.
 *
 * The answer that counts is always the reference decode of the stored integers
 * (`RotationFit.segmentError`'s operations): the continuous model only proposes.
 */
/**
 * InnerSearch's key slerps by frame, the segment (a, b) each was computed for, and their Jacobian weights
 * (cacheKeySlerps). Each is what a search would compute again, to the same doubles, from its fit's key rotations,
 * so the searches of several fits of one motion can share one cache (the skeleton-aware mode's channels that take
 * keys in place, LocalKeys: one cache for the motion rather than 56 bytes a frame for each channel, 3.7 MB at
 * 65,536 frames; docs/compression.md, round 7). It holds one fit's values at a time: a search of another fit
 * forgets them first (claim).
 */
export class KeySlerpCache {
  readonly slerp: Float64Array;
  /** (a, b) of each frame's slerp, 2 each; b = 0: none (a segment's end is after its interior frames, so >= 2). */
  readonly of: Int32Array;
  readonly weight: Float64Array;
  private owner: RotationFit | null = null;

  /** For fits of `frames` frames (N + 1). */
  constructor(readonly frames: number) {
    this.slerp = new Float64Array(frames * 4);
    this.of = new Int32Array(frames * 2);
    this.weight = new Float64Array(frames * 2);
  }

  /** Makes the cache `fit`'s: another fit's entries are forgotten (their key rotations are not this fit's). */
  claim(fit: RotationFit): void {
    if (this.owner === fit) return;
    this.of.fill(0);
    this.owner = fit;
  }
}

export class InnerSearch {
  /** Residual vectors (vector part of src^-1 * decoded, half-angle sines), 3 per frame of the chain. */
  private r: Float64Array;
  /** The Squad residuals at a linearisation's result: swapped with r when it is taken (only the chain's rows are in use). */
  private rTrial: Float64Array;
  /** The two buffers of the linear model's residuals after a step and of its trial (linearMinimax). */
  private readonly rLin: Float64Array;
  private readonly rLinTrial: Float64Array;
  /** Sum of the steps taken on the current linearisation. */
  private readonly dSum = new Float64Array(3 * MAX_VARIABLE_KEYS);
  /** The Jacobian's coefficients at every frame of the chain (solve): of the segment's start key and of its end key, 0 for a fixed key. */
  private readonly jStart: Float64Array;
  private readonly jEnd: Float64Array;
  /**
   * The key slerp by frame (ScalarSquad.keySlerpAtNear: a series, within about 1e-14 of the reference's, for
   * atWithKeySlerpNear; a frame in the reference band of residuals() takes the reference's own), 4 each, and the
   * segment (a, b) each was computed for, 2 each (b = 0: none yet): it depends only on the segment's two key
   * rotations, so it is fixed during a search and reused by the next searches whose chains share the segment
   * (cacheKeySlerps). With each, the Jacobian's coefficients of its frame for a variable start and end key (2 each).
   */
  private readonly slerps: KeySlerpCache;
  /** The reference decoder's own key slerp of a frame in the band of residuals(). */
  private readonly exactKeySlerp = new Float64Array(4);
  private readonly t = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly tTrial = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly contA = new Float64Array(4 * MAX_CHAIN);
  /** First residual row of each segment of the chain. */
  private readonly segRow = new Int32Array(MAX_CHAIN + 1);
  private readonly chain = new Int32Array(MAX_CHAIN);
  /**
   * One Squad per segment of the chain, its keys loaded once per search (cacheKeySlerps): the model and the
   * reference checks reload only the inner quaternions (ScalarSquad.setInner).
   */
  private readonly segs = Array.from({ length: MAX_CHAIN - 1 }, () => new ScalarSquad());
  /** The sign of each segment's far key (RotationFit.segmentSign): fixed during a search. */
  private readonly segSign = new Float64Array(MAX_CHAIN - 1);
  /** The order residuals() visits the chain's segments in (worst first), and each one's worst squared residual in its last pass. */
  private readonly segOrder = new Int32Array(MAX_CHAIN - 1);
  private readonly segWorst = new Float64Array(MAX_CHAIN - 1);
  private n = 0;
  /** Chain positions of the variable keys. */
  private readonly vars = new Int32Array(MAX_VARIABLE_KEYS);
  private nv = 0;
  /** The s12 integers of the variables' inner quaternions at the last rounded point (setRounded). */
  private readonly trialInt = new Int16Array(4 * MAX_VARIABLE_KEYS);
  /** Those of the best rounded point of a failed search, for its nearest miss (storeNearestMiss). */
  private readonly bestInt = new Int16Array(4 * MAX_VARIABLE_KEYS);
  /** How many variables bestInt holds: 0 when no rounded point of the last search beat its entry. */
  private bestFrom = 0;
  /** The normal equations (the same matrix for the three tangent components): diagonal and coupling to the previous variable, by v. */
  private readonly diag = new Float64Array(MAX_VARIABLE_KEYS);
  private readonly off = new Float64Array(MAX_VARIABLE_KEYS);
  /** Right-hand sides and the step, by v * 3 + e. */
  private readonly atb = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly delta = new Float64Array(3 * MAX_VARIABLE_KEYS);
  /** Variable index of each chain position, -1 for a fixed key. */
  private readonly varAt = new Int32Array(MAX_CHAIN);
  /** The worst reference error of the last residuals(), in degrees. */
  private referenceMax = 0;
  /** The band of residuals() around the bound (squared residual lengths), and the other limits of setLimits. */
  private bandLo = 0;
  private bandHi = 0;
  private exactLimitSq = 0;
  /** By linearisation: a worst squared residual over this before it stops the search (GIVE_UP_RATIO). */
  private readonly giveUpSq = new Float64Array(LINEARISATIONS);
  /** The same for a window search (GIVE_UP_RATIO_WINDOW). */
  private readonly giveUpWindowSq = new Float64Array(LINEARISATIONS);
  private goalSq = 0;
  private checkPredictedSq = 0;
  private giveUpPredictedSq = 0;
  private limitsBound = NaN;
  private limitsExactUpTo = NaN;
  /** Reference evaluations made (for the bench). */
  evaluations = 0;

  /** `slerps`: a cache of key slerps shared with the searches of other fits of the motion (KeySlerpCache). */
  constructor(
    private readonly fit: RotationFit,
    slerps?: KeySlerpCache,
  ) {
    // A chain's interior frames: at most 256 per segment, and at most the motion's frames (a 60-frame clip's
    // search needs a few hundred rows, not the 3 840 of the longest chain, and it is made once per channel).
    const rows = 3 * Math.min((MAX_CHAIN - 1) * 256, fit.N + 1);
    this.r = new Float64Array(rows);
    this.rTrial = new Float64Array(rows);
    this.rLin = new Float64Array(rows);
    this.rLinTrial = new Float64Array(rows);
    if (slerps && slerps.frames !== fit.N + 1)
      throw new Error(`a key slerp cache of ${slerps.frames} frames for a fit of ${fit.N + 1}`);
    this.slerps = slerps ?? new KeySlerpCache(fit.N + 1);
    this.jStart = new Float64Array(rows / 3);
    this.jEnd = new Float64Array(rows / 3);
  }

  /**
   * Optimises the inner quaternions of `variable` (two to four consecutive key
   * frames of `keys`, a run of consecutive keys whose first and last entries
   * bound the segments considered) until the worst error there is within
   * `bound`. Returns that worst error under the reference decoder, with the
   * found inner quaternions stored in the fit, when it is within `bound`;
   * otherwise it leaves the fit as it was and returns some error over `bound`:
   * the smallest worst error of the points it tried when that is within
   * `exactUpTo` times the bound (a caller may retry a near miss, from that
   * point: storeNearestMiss), else only some error past that (checks stop
   * early: the search has failed). A point that the linear model puts over the
   * bound at the last linearisation is not sampled (CHECK_PREDICTED_WITHIN): its
   * predicted error stands for its reference error there.
   */
  optimise(keys: ArrayLike<number>, variable: ArrayLike<number>, bound: number, exactUpTo = 1): number {
    const fit = this.fit;
    this.n = keys.length;
    for (let i = 0; i < this.n; i++) this.chain[i] = keys[i];
    this.nv = variable.length;
    for (let v = 0; v < this.nv; v++) {
      let pos = -1;
      for (let i = 0; i < this.n; i++) if (keys[i] === variable[v]) pos = i;
      this.vars[v] = pos;
    }
    for (let i = 0; i < this.n; i++) this.varAt[i] = -1;
    for (let v = 0; v < this.nv; v++) this.varAt[this.vars[v]] = v;
    let rows = 0;
    for (let i = 0; i + 1 < this.n; i++) {
      this.segRow[i] = rows;
      rows += 3 * Math.max(0, this.chain[i + 1] - this.chain[i] - 1);
    }
    this.segRow[this.n - 1] = rows;
    for (let i = 0; i + 1 < this.n; i++) this.segOrder[i] = i;
    this.cacheKeySlerps();

    // The stored inner quaternions as the continuous start, t = log(q^-1 a): their Squad samples give the
    // entry's reference error and the model's residuals in one pass.
    for (let i = 0; i < this.n; i++) for (let c = 0; c < 4; c++) this.contA[i * 4 + c] = fit.a[this.chain[i] * 4 + c];
    this.evaluations++;
    this.setLimits(bound, exactUpTo);
    const exactLimitSq = this.exactLimitSq;
    let emax = this.residuals(this.r, Infinity, Infinity);
    this.bestFrom = 0;
    if (this.referenceMax <= bound) return this.referenceMax;
    let best = this.referenceMax;
    for (let v = 0; v < this.nv; v++)
      this.tangentOf(this.contA, this.vars[v] * 4, this.chain[this.vars[v]], this.t, v * 3);
    const P = 3 * this.nv;
    for (let lin = 0; lin < LINEARISATIONS; lin++) {
      if (emax > (this.nv > 2 ? this.giveUpWindowSq[lin] : this.giveUpSq[lin])) break;
      const model = this.linearMinimax(emax, this.goalSq);
      if (model > this.giveUpPredictedSq) break;
      // Where the linear model lands, rounded to the s12 grid: its Squad samples are the reference check of what
      // would be written and the residuals of the next linearisation.
      for (let p = 0; p < P; p++) this.tTrial[p] = this.t[p] + this.dSum[p];
      for (let v = 0; v < this.nv; v++) this.setRounded(v, this.tTrial, v * 3);
      // A point the model puts over the bound, which no later linearisation would start from, is not checked: the
      // search fails, and its prediction stands for the point's error (a near miss within exactUpTo times the
      // bound, whose Squad samples the wider search's entry computes anyway).
      const last = lin === LINEARISATIONS - 1;
      const nextGiveUp = last ? 0 : this.nv > 2 ? this.giveUpWindowSq[lin + 1] : this.giveUpSq[lin + 1];
      if (model > this.checkPredictedSq && model > nextGiveUp) {
        const predicted = halfAngleDeg(model);
        if (predicted >= best) return best;
        if (predicted <= bound * exactUpTo) {
          this.bestInt.set(this.trialInt);
          this.bestFrom = this.nv;
        }
        return predicted;
      }
      this.evaluations++;
      // The last linearisation's residuals serve only its check: a frame over the limit ends that pass.
      const e = this.residuals(this.rTrial, lin === LINEARISATIONS - 1 ? 0 : emax, exactLimitSq);
      const ref = this.referenceMax;
      if (ref <= bound) {
        for (let v = 0; v < this.nv; v++) {
          const o = v * 4;
          const ints = this.trialInt;
          fit.setInner(this.chain[this.vars[v]], ints[o], ints[o + 1], ints[o + 2], ints[o + 3]);
        }
        return ref;
      }
      if (ref < best) {
        best = ref;
        this.bestInt.set(this.trialInt);
        this.bestFrom = this.nv;
      }
      // After the last linearisation only its check counts.
      if (lin === LINEARISATIONS - 1 || !(e < emax)) break;
      emax = e;
      for (let v = 0; v < this.nv; v++)
        this.tangentOf(this.contA, this.vars[v] * 4, this.chain[this.vars[v]], this.t, v * 3);
      const taken = this.rTrial;
      this.rTrial = this.r;
      this.r = taken;
    }
    return best;
  }

  /**
   * The squared half-angle sines that a search with this bound and exactUpTo compares residuals with (bandLo,
   * bandHi, exactLimitSq, giveUpSq, giveUpWindowSq, goalSq, giveUpPredictedSq), computed when either changes (a channel's searches
   * share its bound).
   */
  private setLimits(bound: number, exactUpTo: number): void {
    if (bound === this.limitsBound && exactUpTo === this.limitsExactUpTo) return;
    // Errors in degrees d are compared as squared sines of half the angle (the residuals' squared lengths).
    const hb = Math.sin(bound / RAD_TO_DEG / 2);
    this.bandLo = Math.max(0, hb - REFERENCE_BAND) ** 2;
    this.bandHi = (hb + REFERENCE_BAND) ** 2;
    this.exactLimitSq = Math.max(this.bandHi, halfSineSq(bound * Math.max(1, exactUpTo)));
    for (let lin = 0; lin < LINEARISATIONS; lin++) {
      this.giveUpSq[lin] = lin > 0 ? halfSineSq(bound * GIVE_UP_RATIO[lin]) : Infinity;
      this.giveUpWindowSq[lin] = lin > 0 ? halfSineSq(bound * GIVE_UP_RATIO_WINDOW[lin]) : Infinity;
    }
    this.goalSq = halfSineSq(bound * GOAL);
    this.checkPredictedSq = halfSineSq(bound * CHECK_PREDICTED_WITHIN);
    this.giveUpPredictedSq = halfSineSq(bound * GIVE_UP_PREDICTED);
    this.limitsBound = bound;
    this.limitsExactUpTo = exactUpTo;
  }

  /**
   * Stores the inner quaternions of the last optimise's best rounded point, when it failed and a point beat its
   * entry state (a wider search then starts from its nearest miss); returns whether it stored anything.
   */
  storeNearestMiss(): boolean {
    if (this.bestFrom === 0) return false;
    const ints = this.bestInt;
    for (let v = 0; v < this.bestFrom; v++)
      this.fit.setInner(this.chain[this.vars[v]], ints[v * 4], ints[v * 4 + 1], ints[v * 4 + 2], ints[v * 4 + 3]);
    return true;
  }

  /**
   * Reweighted least-squares steps on the linear model r + J d from residuals r whose worst squared length is
   * `emax` (each step taken only when it lowers the model's worst residual): their sum into dSum. Returns the
   * model's worst squared residual there.
   */
  private linearMinimax(emax: number, goal: number): number {
    const P = 3 * this.nv;
    for (let p = 0; p < P; p++) this.dSum[p] = 0;
    // The model's residuals start as r itself (only read here) and then live in rLin and rLinTrial.
    let current = this.r,
      trial = this.rLin;
    let model = emax;
    for (let step = 0; step < MINIMAX_STEPS && model > goal; step++) {
      if (!this.solve(current, model)) break;
      let improved = false;
      for (let s = 1; s >= 0.25; s /= 2) {
        const e = this.linearModel(current, trial, s, model);
        if (e < model) {
          for (let p = 0; p < P; p++) this.dSum[p] += s * this.delta[p];
          const taken = trial;
          trial = current === this.r ? this.rLinTrial : current;
          current = taken;
          // Steps that gain less than this no longer pay for themselves.
          improved = model - e > 0.004 * model;
          model = e;
          break;
        }
      }
      if (!improved) break;
    }
    return model;
  }

  /**
   * out = rl + s J delta, the linear model after a step s * delta (J as in `solve`); returns its worst
   * squared residual, or, once that has reached `stopAt` (a step that would not be taken), that far and no
   * further.
   */
  private linearModel(rl: Float64Array, out: Float64Array, s: number, stopAt: number): number {
    const { delta, varAt, jStart, jEnd } = this;
    let worst = 0;
    for (let g = 0; g + 1 < this.n; g++) {
      const vs = varAt[g],
        ve = varAt[g + 1];
      // A fixed key's coefficients are 0: any variable's step stands in for it.
      const ds = vs >= 0 ? vs * 3 : 0,
        de = ve >= 0 ? ve * 3 : 0;
      const sx = s * delta[ds],
        sy = s * delta[ds + 1],
        sz = s * delta[ds + 2];
      const ex = s * delta[de],
        ey = s * delta[de + 1],
        ez = s * delta[de + 2];
      for (let k = this.segRow[g], end = this.segRow[g + 1], f = k / 3; k < end; k += 3, f++) {
        const js = jStart[f],
          je = jEnd[f];
        const x = rl[k] + js * sx + je * ex;
        const y = rl[k + 1] + js * sy + je * ey;
        const z = rl[k + 2] + js * sz + je * ez;
        out[k] = x;
        out[k + 1] = y;
        out[k + 2] = z;
        const m = x * x + y * y + z * z;
        if (m > worst) {
          worst = m;
          if (worst >= stopAt) return worst;
        }
      }
    }
    return worst;
  }

  /** t = log(q_f^-1 a) of key f with inner quaternion a = A[ia..ia+3] (taken in q's hemisphere) into out[o..o+2]. */
  private tangentOf(A: Float64Array, ia: number, f: number, out: Float64Array, o: number): void {
    // On scalars, with the operations of mulQuat and logQuat in their order (so the same bits).
    const q = this.fit.q,
      i = f * 4;
    const sgn = q[i] * A[ia] + q[i + 1] * A[ia + 1] + q[i + 2] * A[ia + 2] + q[i + 3] * A[ia + 3] < 0 ? -1 : 1;
    // (q_f^-1) (sgn A)
    const ax = -q[i],
      ay = -q[i + 1],
      az = -q[i + 2],
      aw = q[i + 3];
    const bx = sgn * A[ia],
      by = sgn * A[ia + 1],
      bz = sgn * A[ia + 2],
      bw = sgn * A[ia + 3];
    const dx = aw * bx + ax * bw + ay * bz - az * by;
    const dy = aw * by - ax * bz + ay * bw + az * bx;
    const dz = aw * bz + ax * by - ay * bx + az * bw;
    const dw = aw * bw - ax * bx - ay * by - az * bz;
    // its log
    const vl = Math.sqrt(dx * dx + dy * dy + dz * dz);
    const w = Math.max(-1, Math.min(1, dw));
    const theta = Math.atan2(vl, w);
    const k = vl < 1e-12 ? 1 : theta / vl;
    out[o] = dx * k;
    out[o + 1] = dy * k;
    out[o + 2] = dz * k;
  }

  /**
   * Inner quaternion of variable v at q exp(t) (t = t[o..o+2]), rounded to the s12 grid: the integers into
   * trialInt, and into contA decoded and normalised as RotationFit.setInner stores them. On scalars, with the
   * operations of expQuat, mulQuat and normalize4 in their order (so the same bits).
   */
  private setRounded(v: number, t: Float64Array, o: number): void {
    const pos = this.vars[v];
    const i = this.chain[pos] * 4;
    // exp(t)
    const tx = t[o],
      ty = t[o + 1],
      tz = t[o + 2];
    const th = Math.sqrt(tx * tx + ty * ty + tz * tz);
    const k = th < 1e-12 ? 1 : Math.sin(th) / th;
    const bx = tx * k,
      by = ty * k,
      bz = tz * k,
      bw = Math.cos(th);
    // q exp(t), normalised
    const q = this.fit.q;
    const ax = q[i],
      ay = q[i + 1],
      az = q[i + 2],
      aw = q[i + 3];
    let x = aw * bx + ax * bw + ay * bz - az * by;
    let y = aw * by - ax * bz + ay * bw + az * bx;
    let z = aw * bz + ax * by - ay * bx + az * bw;
    let w = aw * bw - ax * bx - ay * by - az * bz;
    const l = Math.sqrt(x * x + y * y + z * z + w * w);
    if (l < SMALLEST_LENGTH) {
      x = 0;
      y = 0;
      z = 0;
      w = 1;
    } else {
      x /= l;
      y /= l;
      z /= l;
      w /= l;
    }
    const a = this.contA,
      ints = this.trialInt,
      j = pos * 4,
      n = v * 4;
    ints[n] = encodeS12(x);
    ints[n + 1] = encodeS12(y);
    ints[n + 2] = encodeS12(z);
    ints[n + 3] = encodeS12(w);
    for (let c = 0; c < 4; c++) a[j + c] = decodeS12(ints[n + c]);
    normalize4(a, j);
  }

  /**
   * Fills the key slerps (slerps) for the chain's frames (the half of every Squad sample that the inner quaternions do not
   * change) where it does not hold them yet, and the Jacobian's coefficients jStart and jEnd (solve).
   */
  private cacheKeySlerps(): void {
    const fit = this.fit;
    this.slerps.claim(fit);
    const { of, weight, slerp } = this.slerps;
    for (let s = 0; s + 1 < this.n; s++) {
      const ka = this.chain[s],
        kb = this.chain[s + 1];
      const seg = this.segs[s];
      this.segSign[s] = fit.segmentSign(ka, kb);
      // The inner quaternions are loaded by each residuals() pass; the keys only to compute a key slerp (nothing
      // else of a search reads them).
      let keysLoaded = false;
      const span = kb - ka;
      const startVar = this.varAt[s] >= 0,
        endVar = this.varAt[s + 1] >= 0;
      for (let t = ka + 1, f = this.segRow[s] / 3; t < kb; t++, f++) {
        if (of[t * 2] !== ka || of[t * 2 + 1] !== kb) {
          if (!keysLoaded) seg.setKeys(fit.q, ka * 4, kb * 4, this.segSign[s]);
          keysLoaded = true;
          seg.keySlerpAtNear(t, ka, span, slerp, t * 4);
          const u = (t - ka) / span;
          weight[t * 2] = 2 * u * (1 - u) * (1 - u);
          weight[t * 2 + 1] = 2 * u * (1 - u) * u;
          of[t * 2] = ka;
          of[t * 2 + 1] = kb;
        }
        this.jStart[f] = startVar ? weight[t * 2] : 0;
        this.jEnd[f] = endVar ? weight[t * 2 + 1] : 0;
      }
    }
  }

  /**
   * Residuals of the chain's segments with the inner quaternions of contA into out (rows as segRow); returns the
   * worst squared residual, and sets referenceMax to the reference decoder's worst error in degrees from the same
   * samples (with contA holding decoded s12 values, the error of what would be written). The samples are
   * ScalarSquad.atWithKeySlerpNear's (within about 1e-14 of the reference's), and a residual's length is the sine
   * of half the angle that the reference decoder measures as 2 acos(|dot|): the two agree to far below
   * REFERENCE_BAND, so only a frame whose residual lies within that band of the bound takes the reference's own
   * operations (RotationFit.segmentError's), and a frame outside it is on the same side of the bound under both.
   * It stops early once both are settled for a caller: the worst residual has reached `stopAt` (a linearisation
   * no better than the current one is thrown away) and is over `refLimit` (then referenceMax is some error over
   * the limit).
   */
  private residuals(out: Float64Array, stopAt: number, refLimit: number): number {
    const fit = this.fit;
    const src = fit.source;
    const A = this.contA;
    const lo = this.bandLo,
      hi = this.bandHi;
    let worst = 0;
    let bandMax = -1;
    const order = this.segOrder,
      segWorst = this.segWorst;
    // A pass that stops early leaves by the same code as a complete one (a return of its own that had not run
    // before V8 compiled this loop was compiled without feedback, and threw the compiled loop away when reached).
    let stopped = false;
    const slerp = this.slerps.slerp;
    segments: for (let i = 0; i + 1 < this.n; i++) {
      const s = order[i];
      let segMax = 0;
      const ka = this.chain[s],
        kb = this.chain[s + 1];
      // Squad on scalars (ScalarSquad): the same bits as SquadSegment, without a boxed double per frame (this
      // loop is most of a refinement). The keys and their slerps were loaded by cacheKeySlerps.
      const seg = this.segs[s];
      seg.setInnerNear(A, s * 4, (s + 1) * 4, this.segSign[s]);
      const o = seg.out;
      const span = kb - ka;
      let row = this.segRow[s];
      for (let t = ka + 1; t < kb; t++, row += 3) {
        seg.atWithKeySlerpNear(t, ka, span, slerp, t * 4);
        const dx = o[0],
          dy = o[1],
          dz = o[2],
          dw = o[3];
        const j = t * 4;
        const sx = src[j],
          sy = src[j + 1],
          sz = src[j + 2],
          sw = src[j + 3];
        let x = sw * dx - sx * dw - sy * dz + sz * dy;
        let y = sw * dy + sx * dz - sy * dw - sz * dx;
        let z = sw * dz - sx * dy + sy * dx - sz * dw;
        if (sw * dw + sx * dx + sy * dy + sz * dz < 0) {
          x = -x;
          y = -y;
          z = -z;
        }
        out[row] = x;
        out[row + 1] = y;
        out[row + 2] = z;
        const m = x * x + y * y + z * z;
        if (m >= lo && m <= hi) {
          // The reference decoder's own operations: its key slerp (the cached one is a series), its Squad sample
          // and its error.
          seg.setKeys(fit.q, ka * 4, kb * 4, this.segSign[s]);
          seg.keySlerpAt(t, ka, span, this.exactKeySlerp, 0);
          seg.atReference(t, ka, span, this.exactKeySlerp, 0);
          const e =
            (2 * Math.acos(Math.min(1, Math.abs(o[0] * sx + o[1] * sy + o[2] * sz + o[3] * sw))) * 180) / Math.PI;
          if (e > bandMax) bandMax = e;
        }
        if (m > segMax) segMax = m;
        if (m > worst) {
          worst = m;
          if (worst >= stopAt && worst > refLimit) {
            stopped = true;
            break segments;
          }
        }
      }
      segWorst[s] = segMax;
    }
    // The next pass visits the segments worst first: a check that fails finds its first frame over the limit
    // sooner (the order changes no result: a complete pass's maxima do not depend on it, and a pass that stops
    // early is thrown away, and leaves the order as it was).
    if (!stopped)
      for (let i = 1; i + 1 < this.n; i++) {
        const s = order[i];
        let j = i;
        for (; j > 0 && segWorst[order[j - 1]] < segWorst[s]; j--) order[j] = order[j - 1];
        order[j] = s;
      }
    // Stopped early, some error over the limit: the band's reference errors may not all have been measured.
    this.referenceMax = !stopped && worst >= lo && worst <= hi ? bandMax : halfAngleDeg(worst);
    return worst;
  }

  /**
   * The damped, weighted least-squares step on residuals r into `delta`. The Jacobian of the
   * residuals in the variable tangents is taken in the small-segment limit:
   * moving the inner quaternion of a segment's start key by delta (its local
   * frame) moves the decoded rotation at u by about 2u(1-u)(1-u) delta, and the
   * end key's by 2u(1-u)u delta (the Squad blend weight times the inner slerp's
   * weight: jStart and jEnd of cacheKeySlerps). It ignores the small rotation
   * between the key's frame and the frame's, so the step is approximate; the
   * Squad residuals at the result and the reference check keep it honest.
   *
   * Weights (|r|/max)^6 per frame (an L8 fit) approximate minimising the
   * largest residual. That Jacobian moves component e of a residual only by
   * component e of each tangent, with the same coefficients for the three
   * components, so the normal equations are one tridiagonal matrix over the
   * variables (variable v shapes segments v-1 and v of the run) with three
   * right-hand sides: one Cholesky, three solves. Returns false when singular.
   */
  private solve(r: Float64Array, emax: number): boolean {
    const { diag, off, atb, delta, varAt, jStart, jEnd } = this;
    const nv = this.nv;
    const inv = 1 / (emax || 1);
    for (let v = 0; v < nv; v++) {
      diag[v] = 0;
      off[v] = 0;
      atb[v * 3] = 0;
      atb[v * 3 + 1] = 0;
      atb[v * 3 + 2] = 0;
    }
    for (let s = 0; s + 1 < this.n; s++) {
      const vs = varAt[s],
        ve = varAt[s + 1];
      if (vs < 0 && ve < 0) continue;
      let ds = 0,
        de = 0,
        dse = 0,
        bsx = 0,
        bsy = 0,
        bsz = 0,
        bex = 0,
        bey = 0,
        bez = 0;
      for (let k = this.segRow[s], end = this.segRow[s + 1], f = k / 3; k < end; k += 3, f++) {
        const js = jStart[f],
          je = jEnd[f];
        const rx = r[k],
          ry = r[k + 1],
          rz = r[k + 2];
        const m2 = (rx * rx + ry * ry + rz * rz) * inv;
        const w = m2 * m2 * m2 + 1e-6; // (|r| / max)^(MINIMAX_POWER - 2)
        const ws = w * js,
          we = w * je;
        ds += ws * js;
        de += we * je;
        dse += we * js;
        bsx -= ws * rx;
        bsy -= ws * ry;
        bsz -= ws * rz;
        bex -= we * rx;
        bey -= we * ry;
        bez -= we * rz;
      }
      if (vs >= 0) {
        diag[vs] += ds;
        atb[vs * 3] += bsx;
        atb[vs * 3 + 1] += bsy;
        atb[vs * 3 + 2] += bsz;
      }
      if (ve >= 0) {
        diag[ve] += de;
        off[ve] += dse;
        atb[ve * 3] += bex;
        atb[ve * 3 + 1] += bey;
        atb[ve * 3 + 2] += bez;
      }
    }
    let trace = 0;
    for (let v = 0; v < nv; v++) trace += diag[v];
    const damping = (1e-3 * trace) / nv + 1e-18;
    // Cholesky L of the tridiagonal matrix: its sub-diagonal into off, the inverse of its diagonal into diag.
    for (let v = 0; v < nv; v++) {
      let c = diag[v] + damping;
      if (v > 0) {
        off[v] = off[v] * diag[v - 1];
        c = c - off[v] * off[v];
      }
      if (!(c > 0)) return false;
      diag[v] = 1 / Math.sqrt(c);
    }
    // The three tangent components at once: L y = atb, then L^T delta = y.
    let px = 0,
      py = 0,
      pz = 0;
    for (let v = 0, p = 0; v < nv; v++, p += 3) {
      const l = off[v],
        id = diag[v];
      px = (atb[p] - l * px) * id;
      py = (atb[p + 1] - l * py) * id;
      pz = (atb[p + 2] - l * pz) * id;
      delta[p] = px;
      delta[p + 1] = py;
      delta[p + 2] = pz;
    }
    const last = diag[nv - 1];
    px *= last;
    py *= last;
    pz *= last;
    delta[(nv - 1) * 3] = px;
    delta[(nv - 1) * 3 + 1] = py;
    delta[(nv - 1) * 3 + 2] = pz;
    for (let v = nv - 2, p = v * 3; v >= 0; v--, p -= 3) {
      const l = off[v + 1],
        id = diag[v];
      px = (delta[p] - l * px) * id;
      py = (delta[p + 1] - l * py) * id;
      pz = (delta[p + 2] - l * pz) * id;
      delta[p] = px;
      delta[p + 1] = py;
      delta[p + 2] = pz;
    }
    return true;
  }
}
