import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/random';
import { ScalarSquad } from './squad';

describe('ScalarSquad.atWithKeySlerpNear, keySlerpAtNear and setInnerNear', () => {
  it('gives the Squad sample of atWithKeySlerp to within 1e-13 (atReference: exactly), from nearly equal keys to angles past its series', () => {
    const random = seededRandom(21);
    const unit = (q: number[]) => {
      const l = Math.hypot(...q);
      return q.map((c) => c / l);
    };
    const near = (q: number[], spread: number) => unit(q.map((c) => c + (random() - 0.5) * spread));
    const squad = new ScalarSquad();
    const keySlerp = new Float64Array(4);
    const exact = new Float64Array(4);
    let worst = 0;
    for (let i = 0; i < 20000; i++) {
      // Spreads from identical keys to inner and outer angles beyond the series' range (its fallback).
      const spread = [0, 1e-9, 1e-4, 0.01, 0.1, 0.3, 0.6, 1.2][i % 8];
      const qa = unit([random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5]);
      const qb = near(qa, spread);
      const q = Float64Array.from([...qa, ...qb]);
      const inner = Float64Array.from([...near(qa, spread), ...near(qb, spread)]);
      squad.set(q, 0, 4, inner, 0, 4, 1);
      const span = 2 + (i % 9);
      const t = 1 + (i % (span - 1));
      squad.keySlerpAt(t, 0, span, keySlerp, 0);
      squad.atWithKeySlerp(t, 0, span, keySlerp, 0);
      exact.set(squad.out);
      // With the inner quaternions loaded for it (setInnerNear: their angle from the chord).
      squad.setInnerNear(inner, 0, 4, 1);
      squad.atWithKeySlerpNear(t, 0, span, keySlerp, 0);
      for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(squad.out[c] - exact[c]));
      // With the key slerp as a series too (keySlerpAtNear).
      const nearKeySlerp = new Float64Array(4);
      squad.keySlerpAtNear(t, 0, span, nearKeySlerp, 0);
      squad.atWithKeySlerpNear(t, 0, span, nearKeySlerp, 0);
      for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(squad.out[c] - exact[c]));
      // atReference after setInnerNear is the reference decoder's sample, bit for bit (other inner quaternions
      // loaded before, so nothing of theirs may be left over).
      squad.set(q, 0, 4, Float64Array.from([...near(qb, 0.5), ...near(qa, 0.5)]), 0, 4, 1);
      squad.setInnerNear(inner, 0, 4, 1);
      squad.atReference(t, 0, span, keySlerp, 0);
      expect(Array.from(squad.out)).toEqual(Array.from(exact));
    }
    expect(worst).toBeLessThan(1e-13);
  });
});
