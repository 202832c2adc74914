import { encodeS12 } from '../math/s12';
import { expQuat, logQuat, mulQuat, normalize4 } from '../math/quat';
import { ScalarSquad } from '../math/squad';
import type { RotationFit } from './rotationFit';

/** Most keys whose inner quaternion one search varies at once (a removal refits the two neighbours). */
const MAX_VARIABLE_KEYS = 4;
/** Most keys in a chain: the variable keys and one fixed key on each side. */
const MAX_CHAIN = MAX_VARIABLE_KEYS + 2;
/** Linearisations per search: each is one evaluation of the Squad residuals at the point it found. */
const LINEARISATIONS = 2;
/** Reweighted least-squares steps on one linearisation (they cost no Squad sample). */
const MINIMAX_STEPS = 3;
/** A search whose linear model cannot get below this many times the bound stops there (a failed removal, usually). */
const GIVE_UP_PREDICTED = 2;
/** Worst error over the bound beyond which a search stops before linearisation i. */
const GIVE_UP_RATIO = [Infinity, 3];
/** What the continuous search aims at, as a fraction of the bound: room for rounding to s12. */
const GOAL = 0.92;
const RAD_TO_DEG = 180 / Math.PI;

const d = new Float64Array(4);
const tmp = new Float64Array(4);
const tmp2 = new Float64Array(4);

/**
 * Searches the inner (Squad control) quaternions of two to four consecutive keys
 * against the source frames of the segments they touch, minimising the worst
 * error there (docs/compression.md: "inner quaternions optimised against the source
 * frames"). Each inner quaternion is a = q exp(t) with t in R^3. The Squad
 * residuals are linearised in t (Jacobian in `solve`), the worst residual of that
 * linear model is minimised by reweighted least squares (an approximate minimax;
 * no Squad sample), and the Squad residuals are evaluated again only where that
 * lands, up to LINEARISATIONS times. The result is rounded to the s12 grid.
 *
 * The answer that counts is always the reference decode of the stored integers
 * (`RotationFit.segmentError`): the continuous model only proposes.
 */
export class InnerSearch {
  /** Residual vectors (vector part of src^-1 * decoded, half-angle sines), 3 per frame of the chain. */
  private r: Float64Array;
  /** The Squad residuals at a linearisation's result: swapped with r when it is taken (only the chain's rows are in use). */
  private rTrial: Float64Array;
  /** The linear model's residuals, and its trial's (swapped when a step is taken). */
  private rLin: Float64Array;
  private rLinTrial: Float64Array;
  /** Sum of the steps taken on the current linearisation. */
  private readonly dSum = new Float64Array(3 * MAX_VARIABLE_KEYS);
  /** The Jacobian's coefficients at every frame of the chain (solve): of the segment's start key and of its end key, 0 for a fixed key. */
  private readonly jStart: Float64Array;
  private readonly jEnd: Float64Array;
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
  /** The normal equations (the same matrix for the three tangent components): diagonal and coupling to the previous variable, by v. */
  private readonly diag = new Float64Array(MAX_VARIABLE_KEYS);
  private readonly off = new Float64Array(MAX_VARIABLE_KEYS);
  /** Right-hand sides and the step, by v * 3 + e. */
  private readonly atb = new Float64Array(3 * MAX_VARIABLE_KEYS);
  private readonly delta = new Float64Array(3 * MAX_VARIABLE_KEYS);
  /** Variable index of each chain position, -1 for a fixed key. */
  private readonly varAt = new Int32Array(MAX_CHAIN);
  /** The worst reference error of the last residuals(..., reference = true). */
  private referenceMax = 0;
  /** Reference evaluations made (for the bench). */
  evaluations = 0;

  constructor(private readonly fit: RotationFit) {
    const rows = 3 * (MAX_CHAIN - 1) * 256;
    this.r = new Float64Array(rows);
    this.rTrial = new Float64Array(rows);
    this.rLin = new Float64Array(rows);
    this.rLinTrial = new Float64Array(rows);
    this.keySlerp = new Float64Array((rows / 3) * 4);
    this.jStart = new Float64Array(rows / 3);
    this.jEnd = new Float64Array(rows / 3);
  }

  /**
   * Worst error of the stored track over the chain's segments (the reference decoder) when it is <= `limit`;
   * otherwise some error over `limit` (it stops there: a failed removal needs no more).
   */
  private chainErrorUpTo(limit: number): number {
    let max = 0;
    this.evaluations++;
    for (let i = 0; i + 1 < this.n; i++) {
      const e = this.segmentErrorUpTo(i, limit);
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
    const ka = this.chain[s],
      kb = this.chain[s + 1];
    const seg = this.segs[s];
    seg.setInner(fit.a, ka * 4, kb * 4, this.segSign[s]);
    const o = seg.out,
      src = fit.source,
      ks = this.keySlerp;
    const span = kb - ka;
    let max = -1;
    for (let t = ka + 1, j = (this.segRow[s] / 3) * 4; t < kb; t++, j += 4) {
      seg.atWithKeySlerp(t, ka, span, ks, j);
      const it = t * 4;
      const e =
        (2 *
          Math.acos(
            Math.min(1, Math.abs(o[0] * src[it] + o[1] * src[it + 1] + o[2] * src[it + 2] + o[3] * src[it + 3])),
          ) *
          180) /
        Math.PI;
      if (e > limit) return e;
      if (e > max) max = e;
    }
    return max;
  }

  /**
   * Optimises the inner quaternions of `variable` (two to four consecutive key
   * frames of `keys`, a run of consecutive keys whose first and last entries
   * bound the segments considered) until the worst error there is within
   * `bound`. Returns that worst error under the reference decoder, with the
   * found inner quaternions stored in the fit, when it is within `bound`;
   * otherwise it restores the entry values and returns some error over
   * `bound`: the worst error itself when it is within `exactUpTo` times the
   * bound (a caller may retry a near miss), else only some error past that
   * (checks stop at the first frame over: the search has failed).
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
    this.varAt.fill(-1);
    for (let v = 0; v < this.nv; v++) this.varAt[this.vars[v]] = v;
    // Entry state: the stored integers.
    const saved = this.saved;
    for (let v = 0; v < this.nv; v++)
      for (let c = 0; c < 4; c++) saved[v * 4 + c] = fit.aInt[this.chain[this.vars[v]] * 4 + c];
    let rows = 0;
    for (let i = 0; i + 1 < this.n; i++) {
      this.segRow[i] = rows;
      rows += 3 * Math.max(0, this.chain[i + 1] - this.chain[i] - 1);
    }
    this.segRow[this.n - 1] = rows;
    this.cacheKeySlerps();

    // The stored inner quaternions as the continuous start, t = log(q^-1 a): their Squad samples give the
    // entry's reference error and the model's residuals in one pass.
    for (let i = 0; i < this.n; i++) for (let c = 0; c < 4; c++) this.contA[i * 4 + c] = fit.a[this.chain[i] * 4 + c];
    this.evaluations++;
    const emax = this.residuals(this.r, Infinity, true);
    if (this.referenceMax <= bound) return this.referenceMax;
    for (let v = 0; v < this.nv; v++) this.tangentOf(this.chain[this.vars[v]], this.t, v * 3);
    this.minimise(emax, bound);

    // Round to the s12 grid and measure what would be written.
    for (let v = 0; v < this.nv; v++) {
      const i = this.vars[v] * 4;
      const a = this.contA;
      fit.setInner(
        this.chain[this.vars[v]],
        encodeS12(a[i]),
        encodeS12(a[i + 1]),
        encodeS12(a[i + 2]),
        encodeS12(a[i + 3]),
      );
    }
    // Exact up to exactUpTo times the bound; beyond it the removal has failed.
    const best = this.chainErrorUpTo(bound * Math.max(1, exactUpTo));
    if (best > bound) {
      for (let v = 0; v < this.nv; v++) {
        const o = v * 4;
        fit.setInner(this.chain[this.vars[v]], saved[o], saved[o + 1], saved[o + 2], saved[o + 3]);
      }
    }
    return best;
  }

  /**
   * Moves t (and contA) towards the smallest worst residual, from residuals r whose worst is `emax` degrees:
   * per linearisation, reweighted least-squares steps on the linear model r + J d (each taken only when it
   * lowers the model's worst residual), then the Squad residuals where they landed, kept when they are better.
   * It stops at GOAL times the bound, or when a linearisation predicts no success or makes things worse.
   */
  private minimise(emax: number, bound: number): void {
    const P = 3 * this.nv;
    const rows = this.segRow[this.n - 1];
    const goal = bound * GOAL;
    for (let lin = 0; lin < LINEARISATIONS && emax > goal; lin++) {
      if (lin > 0 && emax > bound * GIVE_UP_RATIO[lin]) break;
      for (let i = 0; i < rows; i++) this.rLin[i] = this.r[i];
      this.dSum.fill(0);
      let model = emax;
      for (let step = 0; step < MINIMAX_STEPS; step++) {
        if (!this.solve(this.rLin, model)) break;
        let improved = false;
        for (let s = 1; s >= 0.25; s /= 2) {
          const e = this.linearModel(this.rLin, this.rLinTrial, s);
          if (e < model) {
            for (let p = 0; p < P; p++) this.dSum[p] += s * this.delta[p];
            const taken = this.rLinTrial;
            this.rLinTrial = this.rLin;
            this.rLin = taken;
            // Steps that gain less than this no longer pay for themselves.
            improved = model - e > 0.002 * model;
            model = e;
            break;
          }
        }
        if (!improved) break;
      }
      if (model > bound * GIVE_UP_PREDICTED) break;
      for (let p = 0; p < P; p++) this.tTrial[p] = this.t[p] + this.dSum[p];
      for (let v = 0; v < this.nv; v++) this.setContinuous(v, this.tTrial, v * 3);
      const e = this.residuals(this.rTrial, emax, false);
      if (!(e < emax)) {
        // contA back to t's inner quaternions.
        for (let v = 0; v < this.nv; v++) this.setContinuous(v, this.t, v * 3);
        break;
      }
      emax = e;
      this.t.set(this.tTrial);
      const taken = this.rTrial;
      this.rTrial = this.r;
      this.r = taken;
    }
  }

  /**
   * out = rl + s J delta, the linear model after a step s * delta (J as in `solve`); returns its worst
   * residual in degrees.
   */
  private linearModel(rl: Float64Array, out: Float64Array, s: number): number {
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
        if (m > worst) worst = m;
      }
    }
    return 2 * Math.asin(Math.min(1, Math.sqrt(worst))) * RAD_TO_DEG;
  }

  /** t = log(q_f^-1 a_f) of the stored key f (a taken in q's hemisphere) into out[o..o+2]. */
  private tangentOf(f: number, out: Float64Array, o: number): void {
    const q = this.fit.q,
      a = this.fit.a,
      i = f * 4;
    const sgn = q[i] * a[i] + q[i + 1] * a[i + 1] + q[i + 2] * a[i + 2] + q[i + 3] * a[i + 3] < 0 ? -1 : 1;
    tmp[0] = -q[i];
    tmp[1] = -q[i + 1];
    tmp[2] = -q[i + 2];
    tmp[3] = q[i + 3];
    tmp2[0] = sgn * a[i];
    tmp2[1] = sgn * a[i + 1];
    tmp2[2] = sgn * a[i + 2];
    tmp2[3] = sgn * a[i + 3];
    mulQuat(d, tmp, tmp2);
    logQuat(tmp, d);
    out[o] = tmp[0];
    out[o + 1] = tmp[1];
    out[o + 2] = tmp[2];
  }

  /** Continuous inner quaternion of variable v: q exp(t). */
  private setContinuous(v: number, t: Float64Array, o: number): void {
    const pos = this.vars[v];
    const i = this.chain[pos] * 4;
    tmp[0] = t[o];
    tmp[1] = t[o + 1];
    tmp[2] = t[o + 2];
    tmp[3] = 0;
    expQuat(tmp2, tmp);
    const q = this.fit.q;
    tmp[0] = q[i];
    tmp[1] = q[i + 1];
    tmp[2] = q[i + 2];
    tmp[3] = q[i + 3];
    mulQuat(d, tmp, tmp2);
    normalize4(d);
    this.contA.set(d, pos * 4);
  }

  /**
   * Fills keySlerp for the chain (the half of every Squad sample that the inner quaternions do not change) and
   * the Jacobian's coefficients jStart and jEnd (solve).
   */
  private cacheKeySlerps(): void {
    const fit = this.fit;
    for (let s = 0; s + 1 < this.n; s++) {
      const ka = this.chain[s],
        kb = this.chain[s + 1];
      const seg = this.segs[s];
      this.segSign[s] = fit.segmentSign(ka, kb);
      seg.set(fit.q, ka * 4, kb * 4, fit.a, ka * 4, kb * 4, this.segSign[s]);
      const span = kb - ka;
      const startVar = this.varAt[s] >= 0,
        endVar = this.varAt[s + 1] >= 0;
      for (let t = ka + 1, f = this.segRow[s] / 3; t < kb; t++, f++) {
        seg.keySlerpAt(t, ka, span, this.keySlerp, f * 4);
        const u = (t - ka) / span;
        this.jStart[f] = startVar ? 2 * u * (1 - u) * (1 - u) : 0;
        this.jEnd[f] = endVar ? 2 * u * (1 - u) * u : 0;
      }
    }
  }

  /**
   * Residuals of the chain's segments with the continuous inner quaternions
   * into out (rows as segRow); returns the worst error in degrees. Once that
   * reaches `stopAt` it returns it without the remaining rows (a linearisation
   * that is no better is thrown away whole). With `reference`, contA holds the
   * stored inner quaternions, and referenceMax gets the reference decoder's
   * worst error from the same samples (RotationFit.segmentError's operations).
   */
  private residuals(out: Float64Array, stopAt: number, reference: boolean): number {
    const fit = this.fit;
    const src = fit.source;
    const A = this.contA;
    let worst = 0;
    let refMax = -1;
    for (let s = 0; s + 1 < this.n; s++) {
      const ka = this.chain[s],
        kb = this.chain[s + 1];
      // Squad on scalars (ScalarSquad): the same bits as SquadSegment, without a boxed double per frame (this
      // loop is most of a refinement). The keys and their slerps were loaded by cacheKeySlerps.
      const seg = this.segs[s];
      seg.setInner(A, s * 4, (s + 1) * 4, this.segSign[s]);
      const o = seg.out;
      const span = kb - ka;
      let row = this.segRow[s];
      for (let t = ka + 1; t < kb; t++, row += 3) {
        seg.atWithKeySlerp(t, ka, span, this.keySlerp, (row / 3) * 4);
        const dx = o[0],
          dy = o[1],
          dz = o[2],
          dw = o[3];
        const j = t * 4;
        const sx = src[j],
          sy = src[j + 1],
          sz = src[j + 2],
          sw = src[j + 3];
        if (reference) {
          const e = (2 * Math.acos(Math.min(1, Math.abs(dx * sx + dy * sy + dz * sz + dw * sw))) * 180) / Math.PI;
          if (e > refMax) refMax = e;
        }
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
    this.referenceMax = refMax;
    return 2 * Math.asin(Math.min(1, worst)) * RAD_TO_DEG;
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
  private solve(r: Float64Array, emaxDeg: number): boolean {
    const { diag, off, atb, delta, varAt, jStart, jEnd } = this;
    const nv = this.nv;
    const rmax = Math.sin(emaxDeg / RAD_TO_DEG / 2) || 1;
    const inv = 1 / (rmax * rmax);
    diag.fill(0);
    off.fill(0);
    atb.fill(0);
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
    // Cholesky L of the tridiagonal matrix (diagonal in diag, sub-diagonal in off).
    for (let v = 0; v < nv; v++) {
      let c = diag[v] + damping;
      if (v > 0) {
        off[v] = off[v] / diag[v - 1];
        c = c - off[v] * off[v];
      }
      if (!(c > 0)) return false;
      diag[v] = Math.sqrt(c);
    }
    // Per tangent component e: L y = atb, then L^T delta = y.
    for (let e = 0; e < 3; e++) {
      for (let v = 0; v < nv; v++) {
        const p = v * 3 + e;
        delta[p] = (v > 0 ? atb[p] - off[v] * delta[p - 3] : atb[p]) / diag[v];
      }
      for (let v = nv - 1; v >= 0; v--) {
        const p = v * 3 + e;
        delta[p] = v < nv - 1 ? (delta[p] - off[v + 1] * delta[p + 3]) / diag[v] : delta[p] / diag[v];
      }
    }
    return true;
  }
}
