import { afterEach, describe, expect, it } from 'vitest';
import { TimelinePainter, JOINT_ROW_H } from './timelinePainter';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { compressionStore } from '../state/compressionStore';
import { emptyMotion, KeyFlag, type Motion } from '../../shared/motion/types';
import type { ChannelReport } from '../../shared/compress/types';
import type { CompressResponse } from '../../shared/ipc/compress';
import { FAKE_JOINTS } from '../testing/fakeMotions';
import { preferencesStore } from '../state/preferencesStore';

/**
 * The timeline's rows cost the keys in view at a repaint (docs/architecture.md, "Renderer review, round 5"): each row
 * in view read every frame of the motion for its user keys and walked every automatic key, at every frame of
 * playback. A repaint of a 65,535-frame motion zoomed to 600 frames is counted here (node, a context that counts).
 */

interface Reads {
  words: number;
  keys: number;
  errors: number;
}

/** The typed array or key list, with each indexed read counted in `reads[field]`. */
function counted<T extends object>(a: T, reads: Reads, field: keyof Reads): T {
  return new Proxy(a, {
    get: (t, k) => {
      if (typeof k === 'string' && /^\d+$/.test(k)) reads[field]++;
      const v = Reflect.get(t, k, t) as unknown;
      // A typed array's methods need the array itself; a list's run through the proxy, so that for..of counts too.
      return typeof v === 'function' && ArrayBuffer.isView(t) ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
}

/** A 2D context whose `fillRect` calls are kept (its other methods do nothing). */
function rectContext(): { ctx: CanvasRenderingContext2D; rects: { w: number; h: number; style: unknown }[] } {
  const rects: { w: number; h: number; style: unknown }[] = [];
  const props: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(props, {
    get: (t, k) =>
      k in t
        ? t[k]
        : k === 'fillRect'
          ? (_x: number, _y: number, w: number, h: number) => rects.push({ w, h, style: t.fillStyle })
          : k === 'measureText'
            ? (s: string) => ({ width: s.length * 6 })
            : () => {},
    set: (t, k, v) => {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, rects };
}

/** The painter's paint, on a canvas of data attributes only (a real one needs a window). */
function timelineParts(): { paint(ctx: CanvasRenderingContext2D, w: number, h: number): void } {
  return Object.assign(Object.create(TimelinePainter.prototype) as object, {
    surface: { canvas: { dataset: {} }, hostHeight: 400 },
    scrollTop: 0,
    revealPending: false,
    hoverPoint: null,
    lockDrag: null,
    shownKey: { m: null, f: null, grouped: false, folded: null, rows: [] },
    updateSnapPoints: () => {},
  }) as unknown as { paint(ctx: CanvasRenderingContext2D, w: number, h: number): void };
}

describe("the timeline's key rows", () => {
  afterEach(() => {
    documentStore.setState({ motion: null });
    compressionStore.setState({ result: null });
    preferencesStore.getState().set({ timelineGrouped: false });
  });

  it('read the keys in view at a repaint, not every key or every frame', () => {
    const N = 65_535;
    const reads: Reads = { words: 0, keys: 0, errors: 0 };
    const base = emptyMotion(N, FAKE_JOINTS);
    const J = base.joints.length;
    // User keys every 500 frames on the foot (joint 1) and the root.
    const user = Array.from({ length: Math.floor(N / 500) + 1 }, (_, i) => i * 500);
    const jointWords = base.jointKeyInfo.slice();
    const rootWords = base.translationKeyInfo.slice();
    for (const f of user) {
      jointWords[(f * J + 1) * 4] |= KeyFlag.KEY;
      rootWords[f * 4] |= KeyFlag.KEY;
    }
    const m: Motion = {
      ...base,
      jointKeyInfo: counted(jointWords, reads, 'words'),
      translationKeyInfo: counted(rootWords, reads, 'words'),
    };
    const auto = Array.from({ length: N / 4 + 1 }, (_, i) => i * 4);
    const report = (kind: ChannelReport['kind'], joint: number): ChannelReport => ({
      kind,
      joint,
      keyFrames: counted(auto.slice(), reads, 'keys'),
      userKeyFrames: [],
      tolerance: 1,
      maxError: 0.1,
      maxErrorFrame: 0,
      errors: new Float64Array(N + 1),
      met: true,
    });
    documentStore.setState({ motion: m });
    compressionStore.setState({
      result: {
        channels: [report('translation', -1), report('rotation', 0), report('rotation', 1)],
      } as CompressResponse,
    });
    sessionStore.setState({ viewStart: 30_000, viewEnd: 30_600, playhead: 30_100, hoverFrame: null });
    const painter = timelineParts();
    const first = rectContext();
    painter.paint(first.ctx, 1920, 400);
    // The lock and trace rows read the key words of the frames in view (29,999..30,601) at each paint: 603 frames,
    // a word a joint and the root's, and the root's at frames 0 and N (the trace row's ends).
    const inView = 603 * (J + 1) + 2;
    // The first paint reads the user keys of the three rows once.
    expect(reads.words).toBeLessThanOrEqual(3 * (N + 1) + inView);
    reads.words = 0;
    reads.keys = 0;
    const again = rectContext();
    sessionStore.setState({ playhead: 30_101 });
    painter.paint(again.ctx, 1920, 400);
    // Keys in view: frames 29,999..30,601, 151 automatic keys a row; user keys at 30,000 and 30,500 (root, foot).
    const userRects = again.rects.filter((r) => r.w === 4 && r.h === JOINT_ROW_H - 4);
    const autoRects = again.rects.filter((r) => r.w === 2 && r.h === JOINT_ROW_H - 8);
    expect(userRects.length).toBe(4);
    expect(autoRects.length).toBe(3 * 151);
    expect(reads.words).toBeLessThanOrEqual(inView);
    // The automatic keys in view and two binary searches a row (log2 16,384 = 14 reads each).
    expect(reads.keys).toBeLessThanOrEqual(3 * (151 + 2 * 15));
  });
});

describe("the timeline's chain headers", () => {
  afterEach(() => {
    documentStore.setState({ motion: null });
    compressionStore.setState({ result: null });
    preferencesStore.getState().set({ timelineGrouped: false });
  });

  it("read the errors and keys in view at a repaint, not the whole motion's", () => {
    const N = 65_535;
    const reads: Reads = { words: 0, keys: 0, errors: 0 };
    const m = emptyMotion(N, FAKE_JOINTS);
    const auto = Array.from({ length: N / 4 + 1 }, (_, i) => i * 4);
    const errors = new Float64Array(N + 1).map((_, f) => (f === 30_300 ? 2 : 0.1));
    const report = (joint: number): ChannelReport => ({
      kind: 'rotation',
      joint,
      keyFrames: counted(auto.slice(), reads, 'keys'),
      userKeyFrames: [],
      tolerance: 1,
      maxError: 2,
      maxErrorFrame: 30_300,
      errors: counted(errors.slice(), reads, 'errors'),
      met: false,
    });
    documentStore.setState({ motion: m });
    compressionStore.setState({ result: { channels: [report(0), report(1)] } as CompressResponse });
    preferencesStore.getState().set({ timelineGrouped: true });
    sessionStore.setState({ viewStart: 30_000, viewEnd: 30_600, playhead: 30_100, hoverFrame: null });
    const painter = timelineParts();
    const { ctx, rects } = rectContext();
    painter.paint(ctx, 1920, 400);
    // A header for each chain (hips and foot are in two), each with its keys in view.
    const headerKeys = rects.filter((r) => r.w === 2 && r.h === JOINT_ROW_H - 10);
    expect(headerKeys.length).toBe(2 * 151);
    // Each report's errors in view, read by its row and by its chain's header (and the error heat of the frames in
    // view a few times over); never the 65,536 frames of each.
    expect(reads.errors).toBeLessThanOrEqual(2 * 4 * 603);
    expect(reads.keys).toBeLessThanOrEqual(4 * (151 + 2 * 15));
  });
});
