import { afterEach, describe, expect, it } from 'vitest';
import { firstKeyFrom, hasKey, keysInView } from './keyIndex';
import { userKeysOf, userKeyWalks } from '../state/keyInfo';
import { GUTTER, RIGHT_PAD, frameToX, type TimeAxis } from '../canvas/timeAxis';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { emptyMotion } from '../../shared/motion/types';
import { FAKE_JOINTS } from '../testing/fakeMotions';
import { painterParts, waveSeries } from '../testing/curvePainterParts';

/**
 * Keys in view cost the keys in view (docs/architecture.md, "Renderer review, round 5"): the curve view's key band
 * walked every key of the channel at each paint (the playhead repaints it at every frame of playback), and the
 * timeline read every frame of the motion, a row in view, for the row's user keys.
 */

describe('keysInView', () => {
  it('finds the keys of any frame range, as a filter of every key does', () => {
    let seed = 11;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let t = 0; t < 200; t++) {
      const keys = [...new Set(Array.from({ length: rnd(40) }, () => rnd(300)))].sort((a, b) => a - b);
      const lo = rnd(320) - 10;
      const hi = lo + rnd(120) - 5;
      const [a, b] = keysInView(keys, lo, hi);
      expect(keys.slice(a, b), `${keys} ${lo}..${hi}`).toEqual(keys.filter((k) => k >= lo && k <= hi));
      const f = rnd(310);
      expect(hasKey(keys, f)).toBe(keys.includes(f));
      expect(firstKeyFrom(keys, f)).toBe(
        keys.findIndex((k) => k >= f) < 0 ? keys.length : keys.findIndex((k) => k >= f),
      );
    }
  });
});

/** The array, with each read of a key counted. */
function counted(a: number[], reads: { n: number }): number[] {
  return new Proxy(a, {
    get: (t, k) => {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads.n++;
      return Reflect.get(t, k) as unknown;
    },
  });
}

/** A 2D context counting `fill` calls (each drawn diamond is one). */
function fillCounter(): { ctx: CanvasRenderingContext2D; fills: { n: number } } {
  const fills = { n: 0 };
  const props: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(props, {
    get: (t, k) => (k in t ? t[k] : k === 'fill' ? () => fills.n++ : () => {}),
    set: (t, k, v) => {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, fills };
}

describe("the curve view's key band", () => {
  afterEach(() => sessionStore.setState({ selectedKeys: [] }));

  it('reads the keys in view at a paint, and draws each of them', () => {
    const frames = 65_535;
    const series = waveSeries(frames);
    // Automatic keys every four frames (16,384); user keys every hundredth frame, among them.
    const auto = series.keyFrames;
    const user = auto.filter((k) => k % 100 === 0);
    const reads = { n: 0 };
    const painted = { ...series, keyFrames: counted(auto, reads), userKeyFrames: counted(user, reads) };
    sessionStore.setState({ selectedKeys: [user[300]] });
    const axis: TimeAxis = { viewStart: 30_000, viewEnd: 30_600, left: GUTTER, right: 1920 - RIGHT_PAD };
    const { ctx, fills } = fillCounter();
    painterParts().paintKeys(ctx, painted, axis, 300, 40);
    const x = (k: number) => frameToX(axis, k);
    const autoShown = auto.filter((k) => k % 100 !== 0 && x(k) >= axis.left - 4 && x(k) <= axis.right + RIGHT_PAD + 4);
    const userShown = user.filter((k) => x(k) >= axis.left - 8 && x(k) <= axis.right + RIGHT_PAD + 8);
    expect(autoShown.length).toBe(145);
    expect(userShown.length).toBe(7);
    // Each key in view is drawn once (a diamond is one fill).
    expect(fills.n).toBe(autoShown.length + userShown.length);
    // Reads: the keys in view, a walk of the user keys beside them, and the binary searches (log2 16,384 = 14).
    expect(reads.n).toBeLessThanOrEqual(2 * (autoShown.length + userShown.length) + 6 * 15);
  });
});

describe('userKeysOf', () => {
  afterEach(() => documentStore.getState().close());

  it("reads a motion's key words once, and an edit's new words anew", () => {
    documentStore.getState().load({
      documentId: 'k',
      path: '/ws/k.mtn',
      name: 'k',
      kind: 'mtn',
      readOnly: false,
      motion: emptyMotion(2000, FAKE_JOINTS),
    });
    const doc = () => documentStore.getState();
    doc().keys.toggle(1, 700);
    const before = doc().motion!;
    const walks = userKeyWalks();
    expect(userKeysOf(before, 1)).toEqual([700]);
    expect(userKeysOf(before, 1)).toBe(userKeysOf(before, 1));
    expect(userKeysOf(before, 0)).toEqual([]);
    expect(userKeyWalks()).toBe(walks + 2);
    // A repaint reads none.
    userKeysOf(before, 1);
    expect(userKeyWalks()).toBe(walks + 2);
    // An edit: the new motion's keys, read anew (the joint's and the root's).
    doc().keys.toggle(1, 500);
    doc().keys.toggle(-1, 30);
    const after = doc().motion!;
    expect(userKeysOf(after, 1)).toEqual([500, 700]);
    expect(userKeysOf(after, -1)).toEqual([30]);
    // The old motion's keys are still its own (an undo shows them).
    expect(userKeysOf(before, 1)).toEqual([700]);
    doc().history.undo();
    doc().history.undo();
    expect(userKeysOf(doc().motion!, 1)).toEqual([700]);
    // The list handed out cannot be written over.
    expect(Object.isFrozen(userKeysOf(after, 1))).toBe(true);
  });
});
