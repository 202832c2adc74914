import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimelinePainter, JOINT_ROW_H } from './timelinePainter';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { compressionStore } from '../state/compressionStore';
import { emptyMotion, KeyFlag, type Motion } from '../../shared/motion/types';
import type { ChannelReport } from '../../shared/compress/types';
import type { CompressResponse } from '../../shared/ipc/compress';
import { FAKE_JOINTS } from '../testing/fakeMotions';
import { preferencesStore } from '../state/preferencesStore';
import { keyInfoWalks } from '../state/keyInfo';
import { COLORS } from '../theme';
import { GUTTER, RIGHT_PAD, frameToX } from '../canvas/timeAxis';

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

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  style: unknown;
}

/** A 2D context whose `fillRect` calls and `fill`s in the trace row's colour are kept (its other methods do nothing). */
function rectContext(): { ctx: CanvasRenderingContext2D; rects: Rect[]; fills: unknown[] } {
  const rects: Rect[] = [];
  const fills: unknown[] = [];
  const props: Record<string | symbol, unknown> = {};
  const ctx = new Proxy(props, {
    get: (t, k) =>
      k in t
        ? t[k]
        : k === 'fillRect'
          ? (x: number, y: number, w: number, h: number) => rects.push({ x, y, w, h, style: t.fillStyle })
          : k === 'fill'
            ? () => (t.fillStyle === COLORS.trace ? fills.push(t.fillStyle) : 0)
            : k === 'measureText'
              ? (s: string) => ({ width: s.length * 6 })
              : () => {},
    set: (t, k, v) => {
      t[k] = v;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
  return { ctx, rects, fills };
}

/** The painter's paint, on a canvas of data and plain attributes only (a real one needs a window). */
function timelineParts(): { paint(ctx: CanvasRenderingContext2D, w: number, h: number): void } {
  const attributes = new Map<string, string>();
  const canvas = {
    dataset: {},
    getAttribute: (name: string) => attributes.get(name) ?? null,
    setAttribute: (name: string, value: string) => void attributes.set(name, value),
  };
  return Object.assign(Object.create(TimelinePainter.prototype) as object, {
    surface: { canvas, hostHeight: 400 },
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
    // The first paint reads the user keys of the three rows once, and the motion's locks (a word a joint a frame)
    // and trace keys (the root's word a frame) once.
    expect(reads.words).toBeLessThanOrEqual(3 * (N + 1) + (N + 1) * (J + 1));
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
    // No key word: the user keys, locks and trace keys of these words were read at the first paint (round 6; round 5
    // read every frame in view for the lock and trace rows, 1,811 words).
    expect(reads.words).toBe(0);
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

/** Lock bars in the lock row (its pinned band is at y 20..40; a bar 3 px under its top, 6 px shorter than it). */
function lockBars(rects: Rect[]): Rect[] {
  return rects.filter((r) => r.h === 14 && r.y === 23 && r.x > 0);
}

describe("the timeline's lock and trace rows", () => {
  afterEach(() => {
    documentStore.getState().close();
    documentStore.setState({ motion: null });
    compressionStore.setState({ result: null });
  });

  it('read the locks and trace keys in view at a repaint, not every frame in view', () => {
    const N = 65_535;
    const reads: Reads = { words: 0, keys: 0, errors: 0 };
    const base = emptyMotion(N, FAKE_JOINTS);
    const J = base.joints.length;
    const jointWords = base.jointKeyInfo.slice();
    const rootWords = base.translationKeyInfo.slice();
    // The foot (joint 1) locked over frames 1000k..1000k+99, a TRACE key every 250 frames.
    for (let k = 0; k * 1000 + 99 <= N; k++)
      for (let f = k * 1000; f < k * 1000 + 100; f++) jointWords[(f * J + 1) * 4] |= KeyFlag.LOCK;
    for (let f = 250; f < N; f += 250) rootWords[f * 4] |= KeyFlag.TRACE;
    const m: Motion = {
      ...base,
      jointKeyInfo: counted(jointWords, reads, 'words'),
      translationKeyInfo: counted(rootWords, reads, 'words'),
    };
    documentStore.setState({ motion: m });
    // The whole motion in view first (every lock and trace key drawn), then 600 frames of it.
    sessionStore.setState({ viewStart: 0, viewEnd: N, playhead: 0, hoverFrame: null });
    const painter = timelineParts();
    const walks = keyInfoWalks();
    const whole = rectContext();
    painter.paint(whole.ctx, 1920, 400);
    expect(keyInfoWalks() - walks).toBe(2);
    expect(lockBars(whole.rects).length).toBe(66);
    expect(whole.fills.length).toBe(Math.floor(N / 250));
    sessionStore.setState({ viewStart: 30_000, viewEnd: 30_600, playhead: 30_100 });
    reads.words = 0;
    const again = rectContext();
    painter.paint(again.ctx, 1920, 400);
    // Frames 29,999..30,601: the lock at 30,000..30,099 and the trace keys at 30,000, 30,250 and 30,500.
    const bars = lockBars(again.rects);
    expect(bars.length).toBe(1);
    expect(again.fills.length).toBe(3);
    expect(keyInfoWalks() - walks).toBe(2);
    // Each paint read the 603 frames in view, a word a joint and the root's (1,811 words); none now.
    expect(reads.words).toBe(0);
  });

  it('show an edit, an undo and a redo at the next paint', () => {
    const s = documentStore.getState();
    s.load({
      documentId: 'd',
      kind: 'mtn',
      readOnly: false,
      name: 'm',
      path: 'm.mtn',
      motion: emptyMotion(100, FAKE_JOINTS),
    });
    sessionStore.setState({ viewStart: 0, viewEnd: 100, playhead: 0, hoverFrame: null });
    const painter = timelineParts();
    const paint = () => {
      const c = rectContext();
      painter.paint(c.ctx, 1000, 400);
      return { bars: lockBars(c.rects), fills: c.fills.length };
    };
    expect(paint()).toEqual({ bars: [], fills: 0 });
    expect(documentStore.getState().locks.setRange(1, 40, 49).ok).toBe(true);
    const locked = paint();
    expect(locked.bars.length).toBe(1);
    // Frames 40..49: the bar starts half a frame before 40.
    const axis = { viewStart: 0, viewEnd: 100, left: GUTTER, right: 1000 - RIGHT_PAD };
    expect(locked.bars[0].x).toBeCloseTo(frameToX(axis, 39.5), 6);
    documentStore.getState().trace.toggle(60);
    expect(paint()).toMatchObject({ bars: [{ x: locked.bars[0].x }], fills: 1 });
    documentStore.getState().history.undo();
    expect(paint()).toMatchObject({ bars: [{ x: locked.bars[0].x }], fills: 0 });
    documentStore.getState().history.undo();
    expect(paint()).toEqual({ bars: [], fills: 0 });
    documentStore.getState().history.redo();
    expect(paint().bars.length).toBe(1);
  });
});

describe("a chain header's paint", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    documentStore.setState({ motion: null });
    compressionStore.setState({ result: null });
    preferencesStore.getState().set({ timelineGrouped: false });
  });

  it("allocates no array of the motion's length", () => {
    const N = 65_535;
    const m = emptyMotion(N, FAKE_JOINTS);
    const errors = new Float64Array(N + 1).map((_, f) => (f === 30_300 ? 2 : 0.1));
    const report = (joint: number): ChannelReport => ({
      kind: 'rotation',
      joint,
      keyFrames: [0, N],
      userKeyFrames: [],
      tolerance: 1,
      maxError: 2,
      maxErrorFrame: 30_300,
      errors,
      met: false,
    });
    documentStore.setState({ motion: m });
    compressionStore.setState({ result: { channels: [report(0), report(1)] } as CompressResponse });
    preferencesStore.getState().set({ timelineGrouped: true });
    sessionStore.setState({ viewStart: 30_000, viewEnd: 30_600, playhead: 30_100, hoverFrame: null });
    const painter = timelineParts();
    const sizes: number[] = [];
    vi.stubGlobal(
      'Float64Array',
      new Proxy(Float64Array, {
        construct: (t, args: unknown[]) => {
          sizes.push(typeof args[0] === 'number' ? args[0] : -1);
          return Reflect.construct(t, args) as object;
        },
      }),
    );
    const { ctx, rects } = rectContext();
    painter.paint(ctx, 1920, 400);
    vi.unstubAllGlobals();
    expect(sizes.filter((n) => n < 0 || n > 603)).toEqual([]);
    // The heat of the frame over the tolerance (30,300), in each header and each joint's row: the headers still
    // take the worst of their joints.
    const over = rects.filter((r) => r.style === 'rgba(255,59,59,0.85)');
    expect(over.length).toBe(2 + 2);
  });
});
