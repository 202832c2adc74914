import { encodeS12 } from '../math/s12';
import { expQuat, logQuat, mulQuat, normalize4 } from '../math/quat';
import { ScalarSquad } from '../math/squad';
import type { RotationFit } from './rotationFit';

/** Most keys whose inner quaternion one search varies at once (a removal refits the two neighbours). */
const MAX_VARIABLE_KEYS = 4;
/** Most keys in a chain: the variable keys and one fixed key on each side. */
const MAX_CHAIN = MAX_VARIABLE_KEYS + 2;
const GAUSS_NEWTON_STEPS = 4;
/**
 * Worst error over the bound beyond which a search stops before step i: on
 * CMU captures 99 % of the searches that end within the bound are below these
 * ratios after one and two steps.
 */
const GIVE_UP_RATIO = [Infinity, 5, 2.5, 1.8];
const RAD_TO_DEG = 180 / Math.PI;
/** The integer search runs when rounding to s12 left the worst error over the bound by less than this factor. */
const INTEGER_SEARCH_WINDOW = 1.1;

const d = new Float64Array(4);
const tmp = new Float64Array(4);
const tmp2 = new Float64Array(4);

/**
 * Searches the inner (Squad control) quaternions of one or two consecutive keys
 * against the source frames of the segments they touch, minimising the worst
 * error there (docs/compression.md: "inner quaternions optimised against the source
 * frames"). Each inner quaternion is a = q exp(t) with t in R^3; a damped
 * Gauss-Newton step on residuals weighted towards the worst frames (an
 * approximate minimax) moves t, the result is rounded to the s12 grid, and a
 * +-1 search on the stored integers finishes it when rounding pushed it over.
 *
 * The answer that counts is always the reference decode of the stored integers
 * (`RotationFit.segmentError`): the continuous model only proposes.
 */
export class InnerSearch {
  /** Residual vectors (vector part of src^-1 * decoded, half-angle sines), 3 per frame of the chain. */
  private r: Float64Array;
  /** The line search's trial residuals: swapped with r when a trial is taken (only the chain's rows are in use). */
  private rTrial: Float64Array;
  /** The key slerp (ScalarSquad.keySlerpAt) at every frame of the chain, 4 per residual row triple: fixed during a search. */
  private readonly keySlerp: Float64Array;
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
  private n = 0;
  /** Chain positions of the variable keys. */
  private readonly vars = new Int32Array(MAX_VARIABLE_KEYS);
  private nv = 0;
  private readonly saved = new Int16Array(4 * MAX_VARIABLE_KEYS);
  /** The normal equations per tangent component: diagonal and coupling to the previous variable, by v * 3 + e. */
  private readonly diag = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly off = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly atb = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly delta = new Float64Array(3 * MAX_VARIABLE_KEYS);
  /** Variable index of each chain position, -1 for a fixed key. */
  private readonly varAt = new Int32Array(MAX_CHAIN);
  /** Worst reference error of each segment of the chain, valid after a chain evaluation that stayed within its limit. */
  private readonly segMax = new Float64Array(MAX_CHAIN);
  private readonly segTrial = new Float64Array(MAX_CHAIN);
  /** Reference evaluations made (for the bench). */
  evaluations = 0;

  constructor(private readonly fit: RotationFit) {
    const rows = 3 * (MAX_CHAIN - 1) * 256;
    this.r = new Float64Array(rows);
    this.rTrial = new Float64Array(rows);
    this.keySlerp = new Float64Array((rows / 3) * 4);
  }

  /**
   * Worst error of the stored track over the chain's segments (the reference decoder) when it is <= `limit`,
   * with each segment's worst in segMax; otherwise some error over `limit` (it stops there: a failed removal
   * or a rejected trial needs no more).
   */
  private chainErrorUpTo(limit: number): number {
    let max = 0;
    this.evaluations++;
    for (let i = 0; i + 1 < this.n; i++) {
      const e = this.segmentErrorUpTo(i, limit);
      this.segMax[i] = e;
      if (e > max) max = e;
      if (max > limit) break;
    }
    return max;
  }

  /**
   * RotationFit.segmentErrorUpTo of chain segment s with the stored inner quaternions (the same bits: ScalarSquad.at
   * is keySlerpAt then atWithKeySlerp), from the key slerps of cacheKeySlerps.
   */
  private segmentErrorUpTo(s: number, limit: number): number {
    const fit = this.fit;
    const ka = this.chain[s], kb = this.chain[s + 1];
    const seg = this.segs[s];
    seg.setInner(fit.a, ka * 4, kb * 4, this.segSign[s]);
    const o = seg.out, src = fit.source, ks = this.keySlerp;
    const span = kb - ka;
    let max = -1;
    for (let t = ka + 1, j = (this.segRow[s] / 3) * 4; t < kb; t++, j += 4) {
      seg.atWithKeySlerp(t, ka, span, ks, j);
      const it = t * 4;
      const e = (2 * Math.acos(Math.min(1, Math.abs(o[0] * src[it] + o[1] * src[it + 1] + o[2] * src[it + 2] + o[3] * src[it + 3]))) * 180) / Math.PI;
      if (e > limit) return e;
      if (e > max) max = e;
    }
    return max;
  }

  /**
   * Optimises the inner quaternions of `variable` (one or two consecutive key
   * frames of `keys`, a run of consecutive keys whose first and last entries
   * bound the segments considered) until the worst error there is within
   * `bound`. Returns that worst error under the reference decoder, with the
   * found inner quaternions stored in the fit, when it is within `bound`;
   * otherwise it restores the entry values and returns some error over
   * `bound`: the worst error itself when it is within `exactUpTo` times the
   * bound (a caller may retry a near miss), else only some error past that
   * (checks stop at the first frame over: the search has failed).
   */
  optimise(keys: ArrayLike<number>, variable: ArrayLike<number>, bound: number, exactUpTo = INTEGER_SEARCH_WINDOW): number {
    const fit = this.fit;
    this.n = keys.length;
    for (let i = 0; i < this.n; i++) this.chain[i] = keys[i];
    this.nv = variable.length;
    for (let v = 0; v < this.nv; v++) {
      let pos = -1;
      for (let i = 0; i < this.n; i++) if (keys[i] === variable[v]) pos = i;
      this.vars[v] = pos;
    }
    // Entry state: the stored integers, their reference error.
    const saved = this.saved;
    for (let v = 0; v < this.nv; v++) for (let c = 0; c < 4; c++) saved[v * 4 + c] = fit.aInt[this.chain[this.vars[v]] * 4 + c];
    let rows = 0;
    for (let i = 0; i + 1 < this.n; i++) {
      this.segRow[i] = rows;
      rows += 3 * Math.max(0, this.chain[i + 1] - this.chain[i] - 1);
    }
    this.segRow[this.n - 1] = rows;
    this.cacheKeySlerps();
    const entryError = this.chainErrorUpTo(bound);
    if (entryError <= bound) return entryError;

    // Continuous start: the stored inner quaternions, t = log(q^-1 a).
    for (let i = 0; i < this.n; i++) for (let c = 0; c < 4; c++) this.contA[i * 4 + c] = fit.a[this.chain[i] * 4 + c];
    for (let v = 0; v < this.nv; v++) this.tangentOf(this.chain[this.vars[v]], this.t, v * 3);
    let emax = this.residuals(this.r, 0, this.n - 2);
    const P = 3 * this.nv;
    const goal = bound * 0.92;
    for (let step = 0; step < GAUSS_NEWTON_STEPS && emax > goal; step++) {
      // Give up on a search that is far from the bound after a step or two (a failed removal, usually).
      if (step > 0 && emax > bound * GIVE_UP_RATIO[step]) break;
      if (!this.solve(emax)) break;
      let accepted = false;
      for (let s = 1; s >= 0.25; s /= 2) {
        for (let p = 0; p < P; p++) this.tTrial[p] = this.t[p] + s * this.delta[p];
        for (let v = 0; v < this.nv; v++) this.setContinuous(v, this.tTrial, v * 3);
        const e = this.residuals(this.rTrial, 0, this.n - 2, emax);
        if (e < emax) {
          emax = e;
          this.t.set(this.tTrial);
          const taken = this.rTrial;
          this.rTrial = this.r;
          this.r = taken;
          accepted = true;
          break;
        }
      }
      // contA holds the taken trial's (t's) inner quaternions; after no trial was taken, t's again.
      if (!accepted) {
        for (let v = 0; v < this.nv; v++) this.setContinuous(v, this.t, v * 3);
        break;
      }
    }

    // Round to the s12 grid and measure what would be written.
    for (let v = 0; v < this.nv; v++) {
      const i = this.vars[v] * 4;
      const a = this.contA;
      fit.setInner(this.chain[this.vars[v]], encodeS12(a[i]), encodeS12(a[i + 1]), encodeS12(a[i + 2]), encodeS12(a[i + 3]));
    }
    // Exact up to the integer search's window; beyond it the removal has failed.
    let best = this.chainErrorUpTo(bound * Math.max(exactUpTo, INTEGER_SEARCH_WINDOW));
    // Only when rounding pushed it just over: on CMU captures a wider window costs a third more evaluations for 0.3 % of keys.
    if (best > bound && best < bound * INTEGER_SEARCH_WINDOW) best = this.integerSearch(best, bound);
    if (best > bound) {
      for (let v = 0; v < this.nv; v++) {
        const o = v * 4;
        fit.setInner(this.chain[this.vars[v]], saved[o], saved[o + 1], saved[o + 2], saved[o + 3]);
      }
    }
    return best;
  }

  /**
   * +-1 coordinate search on the stored integers of the variable keys while it lowers the worst error
   * (`current`, with segMax holding each segment's worst). A key's inner quaternion shapes only the two
   * segments beside it, so a trial re-evaluates those, stops as soon as one frame reaches `current`, and a key
   * is not tried at all while the worst frame lies in a segment it does not shape.
   */
  private integerSearch(current: number, bound: number): number {
    const fit = this.fit;
    const segments = this.n - 1;
    for (let sweep = 0; sweep < 2 && current > bound; sweep++) {
      let improved = false;
      for (let v = 0; v < this.nv && current > bound; v++) {
        const pos = this.vars[v];
        const f = this.chain[pos];
        const s0 = Math.max(0, pos - 1), s1 = Math.min(segments - 1, pos);
        let others = 0;
        for (let s = 0; s < segments; s++) if ((s < s0 || s > s1) && this.segMax[s] > others) others = this.segMax[s];
        if (!(others < current)) continue;
        const i = f * 4;
        for (let c = 0; c < 4 && current > bound; c++) {
          for (let delta = 1; delta >= -1; delta -= 2) {
            const old = fit.aInt[i + c];
            const x = old + delta;
            if (x > 2047 || x < -2047) continue;
            this.setInnerComponent(f, c, x);
            this.evaluations++;
            let e = others;
            for (let s = s0; s <= s1 && !(e >= current); s++) {
              const es = this.segmentErrorUpTo(s, current);
              this.segTrial[s] = es;
              if (es > e) e = es;
            }
            if (e < current) {
              current = e;
              for (let s = s0; s <= s1; s++) this.segMax[s] = this.segTrial[s];
              improved = true;
              break;
            }
            this.setInnerComponent(f, c, old);
          }
        }
      }
      if (!improved) break;
    }
    return current;
  }

  private setInnerComponent(f: number, c: number, value: number): void {
    const a = this.fit.aInt, i = f * 4;
    const x = c === 0 ? value : a[i], y = c === 1 ? value : a[i + 1], z = c === 2 ? value : a[i + 2], w = c === 3 ? value : a[i + 3];
    this.fit.setInner(f, x, y, z, w);
  }

  /** t = log(q_f^-1 a_f) of the stored key f (a taken in q's hemisphere) into out[o..o+2]. */
  private tangentOf(f: number, out: Float64Array, o: number): void {
    const q = this.fit.q, a = this.fit.a, i = f * 4;
    const sgn = q[i] * a[i] + q[i + 1] * a[i + 1] + q[i + 2] * a[i + 2] + q[i + 3] * a[i + 3] < 0 ? -1 : 1;
    tmp[0] = -q[i]; tmp[1] = -q[i + 1]; tmp[2] = -q[i + 2]; tmp[3] = q[i + 3];
    tmp2[0] = sgn * a[i]; tmp2[1] = sgn * a[i + 1]; tmp2[2] = sgn * a[i + 2]; tmp2[3] = sgn * a[i + 3];
    mulQuat(d, tmp, tmp2);
    logQuat(tmp, d);
    out[o] = tmp[0]; out[o + 1] = tmp[1]; out[o + 2] = tmp[2];
  }

  /** Continuous inner quaternion of variable v: q exp(t). */
  private setContinuous(v: number, t: Float64Array, o: number): void {
    const pos = this.vars[v];
    const i = this.chain[pos] * 4;
    tmp[0] = t[o]; tmp[1] = t[o + 1]; tmp[2] = t[o + 2]; tmp[3] = 0;
    expQuat(tmp2, tmp);
    const q = this.fit.q;
    tmp[0] = q[i]; tmp[1] = q[i + 1]; tmp[2] = q[i + 2]; tmp[3] = q[i + 3];
    mulQuat(d, tmp, tmp2);
    normalize4(d);
    this.contA.set(d, pos * 4);
  }

  /** Fills keySlerp for the chain: the half of every Squad sample that the inner quaternions do not change. */
  private cacheKeySlerps(): void {
    const fit = this.fit;
    for (let s = 0; s + 1 < this.n; s++) {
      const ka = this.chain[s], kb = this.chain[s + 1];
      const seg = this.segs[s];
      this.segSign[s] = fit.segmentSign(ka, kb);
      seg.set(fit.q, ka * 4, kb * 4, fit.a, ka * 4, kb * 4, this.segSign[s]);
      const span = kb - ka;
      for (let t = ka + 1, o = (this.segRow[s] / 3) * 4; t < kb; t++, o += 4) seg.keySlerpAt(t, ka, span, this.keySlerp, o);
    }
  }

  /**
   * Residuals of segments s0..s1 of the chain with the continuous inner
   * quaternions into out (rows as segRow); returns the worst error in degrees.
   * Once that reaches `stopAt` it returns it without the remaining rows (a
   * line-search trial that is no better is thrown away whole).
   */
  private residuals(out: Float64Array, s0: number, s1: number, stopAt = Infinity): number {
    const fit = this.fit;
    const src = fit.source;
    const A = this.contA;
    let worst = 0;
    for (let s = s0; s <= s1; s++) {
      const ka = this.chain[s], kb = this.chain[s + 1];
      // Squad on scalars (ScalarSquad): the same bits as SquadSegment, without a boxed double per frame (this
      // loop is most of a refinement). The keys and their slerps were loaded by cacheKeySlerps.
      const seg = this.segs[s];
      seg.setInner(A, s * 4, (s + 1) * 4, this.segSign[s]);
      const o = seg.out;
      const span = kb - ka;
      let row = this.segRow[s];
      for (let t = ka + 1; t < kb; t++, row += 3) {
        seg.atWithKeySlerp(t, ka, span, this.keySlerp, (row / 3) * 4);
        const dx = o[0], dy = o[1], dz = o[2], dw = o[3];
        const j = t * 4;
        const sx = src[j], sy = src[j + 1], sz = src[j + 2], sw = src[j + 3];
        let x = sw * dx - sx * dw - sy * dz + sz * dy;
        let y = sw * dy + sx * dz - sy * dw - sz * dx;
        let z = sw * dz - sx * dy + sy * dx - sz * dw;
        if (sw * dw + sx * dx + sy * dy + sz * dz < 0) {
          x = -x; y = -y; z = -z;
        }
        out[row] = x; out[row + 1] = y; out[row + 2] = z;
        const m = Math.sqrt(x * x + y * y + z * z);
        if (m > worst) {
          worst = m;
          if (stopAt !== Infinity) {
            const e = 2 * Math.asin(Math.min(1, worst)) * RAD_TO_DEG;
            if (e >= stopAt) return e;
          }
        }
      }
    }
    return 2 * Math.asin(Math.min(1, worst)) * RAD_TO_DEG;
  }

  /**
   * The damped, weighted Gauss-Newton step into `delta`. The Jacobian of the
   * residuals in the variable tangents is taken in the small-segment limit:
   * moving the inner quaternion of a segment's start key by delta (its local
   * frame) moves the decoded rotation at u by about 2u(1-u)(1-u) delta, and the
   * end key's by 2u(1-u)u delta (the Squad blend weight times the inner slerp's
   * weight). It ignores the small rotation between the key's frame and the
   * frame's, so the step is approximate; the line search and the reference
   * check keep it honest, and on CMU captures it finds the same removals as a
   * finite-difference Jacobian at a third of the cost.
   *
   * Weights (|r|/max)^6 per frame (an L8 fit) approximate minimising the
   * largest residual. That Jacobian moves component e of a residual only by
   * component e of each tangent, so the 6 x 6 normal equations are three
   * independent 2 x 2 systems (tangent component e of both keys), solved here
   * as such: the same arithmetic as a Cholesky of the whole matrix, whose other
   * entries are zeros. Returns false when singular.
   */
  private solve(emaxDeg: number): boolean {
    const { r, diag, off, atb, delta, varAt } = this;
    const nv = this.nv;
    const P = 3 * nv;
    const rmax = Math.sin(emaxDeg / RAD_TO_DEG / 2) || 1;
    diag.fill(0);
    off.fill(0);
    atb.fill(0);
    varAt.fill(-1);
    for (let v = 0; v < nv; v++) varAt[this.vars[v]] = v;
    for (let s = 0; s + 1 < this.n; s++) {
      // The variables at the segment's start and end keys (consecutive variables: the start one comes first).
      const vs = varAt[s], ve = varAt[s + 1];
      if (vs < 0 && ve < 0) continue;
      const ka = this.chain[s], kb = this.chain[s + 1];
      const span = kb - ka;
      let k = this.segRow[s];
      for (let t = ka + 1; t < kb; t++, k += 3) {
        const u = (t - ka) / span;
        const js = vs >= 0 ? 2 * u * (1 - u) * (1 - u) : 0;
        const je = ve >= 0 ? 2 * u * (1 - u) * u : 0;
        const m2 = (r[k] * r[k] + r[k + 1] * r[k + 1] + r[k + 2] * r[k + 2]) / (rmax * rmax);
        const w = m2 * m2 * m2 + 1e-6; // (|r| / max)^(MINIMAX_POWER - 2)
        const jps = js * w, jpe = je * w;
        for (let e = 0; e < 3; e++) {
          const row = k + e;
          if (jps !== 0) {
            const p = vs * 3 + e;
            atb[p] -= jps * r[row];
            diag[p] += jps * js;
          }
          if (jpe !== 0) {
            const p = ve * 3 + e;
            atb[p] -= jpe * r[row];
            off[p] += jpe * js;
            diag[p] += jpe * je;
          }
        }
      }
    }
    let trace = 0;
    for (let p = 0; p < P; p++) trace += diag[p];
    const damping = 1e-3 * trace / P + 1e-18;
    for (let p = 0; p < P; p++) diag[p] += damping;
    // Per component e, a tridiagonal system over the variables (variable v shapes segments v-1 and v of the run):
    // Cholesky L (diagonal in diag, sub-diagonal in off), then L y = atb and L^T delta = y.
    for (let e = 0; e < 3; e++) {
      for (let v = 0; v < nv; v++) {
        const p = v * 3 + e;
        let c = diag[p];
        if (v > 0) {
          off[p] = off[p] / diag[p - 3];
          c = c - off[p] * off[p];
        }
        if (!(c > 0)) return false;
        diag[p] = Math.sqrt(c);
        delta[p] = (v > 0 ? atb[p] - off[p] * delta[p - 3] : atb[p]) / diag[p];
      }
      for (let v = nv - 1; v >= 0; v--) {
        const p = v * 3 + e;
        delta[p] = v < nv - 1 ? (delta[p] - off[p + 3] * delta[p + 3]) / diag[p] : delta[p] / diag[p];
      }
    }
    return true;
  }
}
