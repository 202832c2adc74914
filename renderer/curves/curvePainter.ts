/**
 * The curve view's canvas: source and decoded curves per component, key
 * markers (user keys distinct from automatic keys), the error curve with the
 * tolerance line, and the playhead. Mouse: a plain click selects the frame
 * under it (moves the playhead there) and never edits; Ctrl+click (Cmd+click)
 * adds or removes a user key, the one explicit edit; drag to pan in time, wheel
 * to zoom in time, drag the ruler to scrub, double-click to show all frames.
 */
import { createStore } from 'zustand/vanilla';
import { isTypingTarget } from '../app/commands';
import { applyFocusedField } from '../app/fieldUndo';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { compressionStore, settleHoldMs } from '../state/compressionStore';
import { HiDpiCanvas } from '../canvas/hidpiCanvas';
import {
  GUTTER,
  RIGHT_PAD,
  RULER_H,
  clampView,
  drawHoverLine,
  drawPlayhead,
  drawRuler,
  drawTimeGrid,
  frameToX,
  xToFrame,
  type TimeAxis,
} from '../canvas/timeAxis';
import { dragPanView, frameUnder, wheelPanView, wheelZoomView } from '../canvas/timeGestures';
import { diamondPath } from '../canvas/shapes';
import { buildSeries, formatTolerance, type CurveSeries } from './series';
import { planGutter, thinTickLabels, type ErrorLine } from './gutterLabels';
import { COLORS } from '../theme';
import { overlayDash } from './overlay';
import { tracePolyline } from './polyline';
import { minMaxOf } from './minMax';
import { firstKeyFrom, hasKey, keysInView } from './keyIndex';
import type { CurveChannel } from '../state/sessionStore';
import { openTuningMenu } from '../app/tuningMenu';
import type { CompressResponse } from '../../shared/ipc/compress';
import type { EulerOrder } from '../math/euler';

const KEY_BAND_H = 16;

interface Layout {
  axis: TimeAxis;
  plotTop: number;
  plotBottom: number;
  keyTop: number;
  errTop: number;
  errBottom: number;
}

/** Buttons outside the canvas ask the curve view to frame all or the selected keys (counters: each change asks once). */
export const curveViewRequests = createStore<{ frameAll: number; frameSelected: number }>()(() => ({
  frameAll: 0,
  frameSelected: 0,
}));

export class CurvePainter {
  private readonly surface: HiDpiCanvas;
  private series: CurveSeries | null = null;
  private seriesKey: unknown[] = [];
  /** Curves of the overlaid joints (same channel as the selected joint's), and what they were built from. */
  private overlays: CurveSeries[] = [];
  private overlayKey: unknown[] = [];
  /** Gutter rows of the component labels (y, canvas px) of the last paint: a click there solos the component. */
  private componentLabelYs: number[] = [];
  /** The document edit whose new compression result the next paint shows first (for `npm run bench`); else null. */
  /** The new result the next paint shows (for the bench's mark), or null. */
  private seriesResultEdit: { editId: number; stage: string; compressMs: number } | null = null;
  private layout: Layout | null = null;
  private readonly unsubscribers: (() => void)[] = [];
  /** Value-axis labels of the last paint, drawn in the gutter after the clipped plot. */
  private valueTicks: { label: string; y: number }[] = [];
  /** The value range the user zoomed or panned to, for one joint and channel; null: fitted to the curves in view. */
  private valueView: { lo: number; hi: number; key: string } | null = null;
  /** The value range of the last paint (fitted or the user's). */
  private valueRange: { lo: number; hi: number; key: string } | null = null;
  /** The pointer is over the curves: Home and F frame them (else they keep their global meaning). */
  private hovered = false;
  /** The pointer's last place over the curves (client coordinates): where the Menu key opens the menu. */
  private pointer: { x: number; y: number } | null = null;
  private drag: {
    /** pending: pressed on empty plot (click or box select); key: pressed on a user key (click or move). */
    mode: 'pending' | 'pan' | 'scrub' | 'box' | 'key' | 'move';
    x0: number;
    y0: number;
    start: number;
    end: number;
    button: number;
    shift: boolean;
    /** While moving keys: the keys and the whole-frame offset so far. */
    frames: number[];
    delta: number;
    /** The user key pressed on, for 'key'. */
    hit: number | null;
    /** While box selecting: the pointer now. */
    x: number;
    y: number;
    /** While panning: the value range at the press. */
    values: { lo: number; hi: number; key: string } | null;
  } | null = null;

  constructor(host: HTMLElement) {
    this.surface = new HiDpiCanvas(
      host,
      (ctx, w, h) => this.paint(ctx, w, h),
      undefined,
      () => settleHoldMs(compressionStore.getState(), performance.now()),
    );
    const c = this.surface.canvas;
    c.dataset.testid = 'curve-canvas';
    c.setAttribute('role', 'img');
    c.setAttribute('aria-label', 'Curve view: click selects a frame, Ctrl+click adds or removes a user key');
    c.tabIndex = -1;
    const inv = () => this.surface.invalidate();
    this.unsubscribers.push(
      documentStore.subscribe(inv),
      compressionStore.subscribe(inv),
      preferencesStore.subscribe(inv),
      sessionStore.subscribe(inv),
    );
    c.addEventListener('pointerdown', this.onPointerDown);
    c.addEventListener('pointermove', this.onPointerMove);
    c.addEventListener('pointerup', this.onPointerUp);
    c.addEventListener('pointercancel', () => {
      this.drag = null;
      this.surface.invalidate();
    });
    c.addEventListener('pointerleave', () => {
      this.hovered = false;
      sessionStore.getState().setHover(null);
    });
    c.addEventListener('pointerenter', () => (this.hovered = true));
    c.addEventListener('wheel', this.onWheel, { passive: false });
    c.addEventListener('dblclick', () => this.frameAll());
    // Over the curves, Home frames all, F frames the selected keys and N toggles Normalize (Blender's Graph
    // Editor); captured before the global shortcuts (first frame, frame the viewport).
    const onKey = (e: KeyboardEvent) => {
      // Not in an open menu (its Home goes to its first command), even with the pointer still over the curves.
      const inMenu = e.target instanceof Element && e.target.closest('[role="menu"]');
      if (!this.hovered || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target) || inMenu) return;
      if (e.key === 'Home') this.frameAll();
      else if (e.key === 'f' || e.key === 'F') this.frameSelected();
      else if (e.key === 'n' || e.key === 'N')
        preferencesStore.getState().set({ curveNormalize: !preferencesStore.getState().curveNormalize });
      else if ((e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) && this.pointer)
        this.openMenu(this.pointer);
      else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    this.unsubscribers.push(() => window.removeEventListener('keydown', onKey, true));
    this.unsubscribers.push(
      curveViewRequests.subscribe((r, p) => {
        if (r.frameAll !== p.frameAll) this.frameAll();
        if (r.frameSelected !== p.frameSelected) this.frameSelected();
      }),
    );
    c.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  private currentSeries(): CurveSeries | null {
    const doc = documentStore.getState();
    const m = doc.motion;
    if (!m) return null;
    const s = sessionStore.getState();
    const comp = compressionStore.getState();
    const result = comp.editId === doc.editId || comp.result ? comp.result : null;
    const joint = Math.min(s.selectedJoint, m.joints.length - 1);
    const channel = joint < 0 ? 'euler' : s.curveChannel;
    const order = preferencesStore.getState().eulerOrder;
    const key = [m, joint, channel, result, order];
    if (!this.series || key.some((k, i) => k !== this.seriesKey[i])) {
      this.seriesResultEdit =
        result && result !== this.seriesKey[3]
          ? { editId: comp.editId, stage: comp.stage, compressMs: result.compressMs }
          : null;
      this.series = buildSeries(m, joint, channel, result?.mt3 ?? null, result?.channels, order);
      if (doc.readOnly) this.series.note = 'Read-only: these curves are the motion decoded from the compressed file.';
      this.seriesKey = key;
    }
    return this.series;
  }

  /** The overlaid joints' series; none while the root translation (another unit) is selected. */
  private currentOverlays(series: CurveSeries): CurveSeries[] {
    const m = documentStore.getState().motion!;
    const s = sessionStore.getState();
    const joints =
      series.joint < 0 ? [] : s.overlayJoints.filter((j) => j >= 0 && j < m.joints.length && j !== series.joint);
    const [, , channel, result, order] = this.seriesKey as [
      unknown,
      number,
      CurveChannel,
      CompressResponse | null,
      EulerOrder | 'auto',
    ];
    const key = [m, joints.join(','), channel, result, order];
    if (key.some((k, i) => k !== this.overlayKey[i])) {
      this.overlays = joints.map((j) => buildSeries(m, j, channel, result?.mt3 ?? null, result?.channels, order));
      this.overlayKey = key;
    }
    return this.overlays;
  }

  private paint(ctx: CanvasRenderingContext2D, w: number, h: number): void {
    const m = documentStore.getState().motion;
    ctx.fillStyle = COLORS.canvasBg;
    ctx.fillRect(0, 0, w, h);
    const c = this.surface.canvas;
    if (!m) {
      ctx.fillStyle = COLORS.textDim;
      ctx.font = '12px system-ui, sans-serif';
      ctx.fillText('No motion open: its curves show here. File › Open… (Ctrl+O)', 16, 28);
      this.layout = null;
      return;
    }
    const s = sessionStore.getState();
    const prefs = preferencesStore.getState();
    const series = this.currentSeries()!;
    const overlays = this.currentOverlays(series);
    const solo = s.soloComponent !== null && s.soloComponent < series.components.length ? s.soloComponent : null;
    const axis: TimeAxis = { viewStart: s.viewStart, viewEnd: s.viewEnd, left: GUTTER, right: w - RIGHT_PAD };
    const errH = prefs.showError ? Math.max(30, Math.round(h * 0.14)) : 0;
    const errBottom = h - 4;
    const errTop = errBottom - errH;
    const keyTop = (prefs.showError ? errTop - 6 : h - 2) - KEY_BAND_H;
    const plotTop = RULER_H + 5;
    const plotBottom = keyTop - 4;
    this.layout = { axis, plotTop, plotBottom, keyTop, errTop, errBottom };
    c.dataset.plotLeft = String(axis.left);
    c.dataset.plotRight = String(axis.right);
    c.dataset.viewStart = String(axis.viewStart);
    c.dataset.viewEnd = String(axis.viewEnd);
    c.dataset.plotTop = String(plotTop);
    c.dataset.plotBottom = String(plotBottom);
    c.dataset.keyFrames = series.keyFrames.join(',');
    c.dataset.userKeyFrames = series.userKeyFrames.join(',');
    c.dataset.eulerOrder = series.eulerOrder ?? '';
    c.dataset.keyBandY = String(keyTop + KEY_BAND_H / 2);
    c.dataset.selectedKeys = s.selectedKeys.filter((f) => series.userKeyFrames.includes(f)).join(',');
    c.dataset.overlayJoints = overlays.map((o) => o.joint).join(',');
    c.dataset.drawnComponents = series.components
      .filter((_, i) => solo === null || i === solo)
      .map((k) => k.label)
      .join(',');

    // Gutter.
    ctx.fillStyle = COLORS.gutterBg;
    ctx.fillRect(0, 0, GUTTER - 1, h);
    drawRuler(ctx, axis, m.frameCount, w);
    drawTimeGrid(ctx, axis, m.frameCount, RULER_H, h);

    // Outside-the-motion shading.
    ctx.fillStyle = 'rgba(0,0,0,0.25)';
    const x0 = frameToX(axis, 0);
    const xN = frameToX(axis, m.frameCount);
    if (x0 > axis.left) ctx.fillRect(axis.left, RULER_H, x0 - axis.left, h - RULER_H);
    if (xN < axis.right) ctx.fillRect(xN, RULER_H, axis.right + RIGHT_PAD - xN, h - RULER_H);

    ctx.save();
    ctx.beginPath();
    ctx.rect(axis.left, RULER_H, axis.right + RIGHT_PAD - axis.left, h - RULER_H);
    ctx.clip();
    this.paintValues(ctx, series, overlays, solo, axis, plotTop, plotBottom, prefs.showSource, prefs.showDecoded);
    this.paintKeys(ctx, series, axis, keyTop, plotTop);
    this.paintBox(ctx, keyTop + KEY_BAND_H);
    if (prefs.showError) this.paintErrors(ctx, series, axis, errTop, errBottom);
    ctx.restore();

    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    ctx.fillStyle = COLORS.textDim;
    for (const t of thinTickLabels(this.valueTicks, plotTop - 4, plotBottom + 4))
      ctx.fillText(t.label, GUTTER - 5, t.y);
    ctx.textAlign = 'left';
    this.paintGutter(
      ctx,
      series,
      s.hoverFrame ?? Math.round(s.playhead),
      h,
      plotTop,
      keyTop,
      errTop,
      errBottom,
      prefs.showError,
    );

    drawHoverLine(ctx, axis, s.hoverFrame, RULER_H, h);
    drawPlayhead(ctx, axis, s.playhead, h);
    if (this.seriesResultEdit !== null) {
      // `npm run bench` measures click -> repainted curves up to here (one mark per new result, not per frame).
      performance.mark('actguy:curves-painted', { detail: this.seriesResultEdit });
      this.seriesResultEdit = null;
    }
  }

  private paintValues(
    ctx: CanvasRenderingContext2D,
    series: CurveSeries,
    overlays: readonly CurveSeries[],
    solo: number | null,
    axis: TimeAxis,
    top: number,
    bottom: number,
    showSource: boolean,
    showDecoded: boolean,
  ): void {
    const m = documentStore.getState().motion!;
    const f0 = Math.max(0, Math.floor(axis.viewStart));
    const f1 = Math.min(m.frameCount, Math.ceil(axis.viewEnd));
    const shown = (i: number) => solo === null || i === solo;
    const normalize = preferencesStore.getState().curveNormalize;
    // Normalize maps each curve's range over the whole motion (source and decoded) to -1..1. Ranges come from the
    // values' min/max pyramids (./minMax.ts): a paint, the playhead's at each frame of playback, reads no frame for
    // them; the pyramid of an array is built at its first paint.
    const norm = new Map<Float64Array, (v: number) => number>();
    for (const c of [series, ...overlays].flatMap((x) => x.components)) {
      let a = Infinity;
      let b = -Infinity;
      if (normalize)
        for (const arr of c.decoded ? [c.source, c.decoded] : [c.source]) {
          if (arr.length === 0) continue;
          const mm = minMaxOf(arr);
          a = Math.min(a, arr[mm.argMin(0, arr.length - 1)]);
          b = Math.max(b, arr[mm.argMax(0, arr.length - 1)]);
        }
      const map = !normalize ? (v: number) => v : b - a < 1e-9 ? () => 0 : (v: number) => (2 * (v - a)) / (b - a) - 1;
      norm.set(c.source, map);
      if (c.decoded) norm.set(c.decoded, map);
    }
    const at = (vals: Float64Array, f: number) => norm.get(vals)!(vals[f]);
    let lo = Infinity;
    let hi = -Infinity;
    // The value range covers every curve drawn: the soloed component alone, the overlaid joints' too. Normalize's
    // map keeps the order of values, so the frames of the lowest and highest value are the pyramid's.
    if (f0 <= f1)
      for (const c of [series, ...overlays].flatMap((x) => x.components.filter((_, i) => shown(i)))) {
        for (const arr of c.decoded ? [c.source, c.decoded] : [c.source]) {
          const mm = minMaxOf(arr);
          lo = Math.min(lo, at(arr, mm.argMin(f0, f1)));
          hi = Math.max(hi, at(arr, mm.argMax(f0, f1)));
        }
      }
    if (!Number.isFinite(lo)) {
      lo = -1;
      hi = 1;
    }
    const pad = Math.max((hi - lo) * 0.08, normalize ? 0.02 : series.kind === 'rotation' ? 0.5 : 1e-3);
    lo -= pad;
    hi += pad;
    // A value range the user zoomed or panned to (vertical zoom, pan) replaces the automatic one until Home / F.
    const viewKey = `${series.joint}:${series.kind}:${preferencesStore.getState().eulerOrder}:${normalize}`;
    if (this.valueView && this.valueView.key !== viewKey) this.valueView = null;
    if (this.valueView) ({ lo, hi } = this.valueView);
    this.valueRange = { lo, hi, key: viewKey };
    const cd = this.surface.canvas.dataset;
    cd.valueLo = String(lo);
    cd.valueHi = String(hi);
    cd.valueView = this.valueView ? 'manual' : 'auto';
    cd.normalized = String(normalize);
    const y = (v: number) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);

    // Value grid lines and labels in the gutter's right edge.
    const span = hi - lo;
    const pow = Math.pow(10, Math.floor(Math.log10(span / 4)));
    const step = [1, 2, 5, 10].map((k) => k * pow).find((s) => span / s <= 6) ?? pow * 10;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      const yy = Math.round(y(v)) + 0.5;
      ctx.strokeStyle = Math.abs(v) < step / 2 ? COLORS.gridMajor : COLORS.gridLine;
      ctx.beginPath();
      ctx.moveTo(axis.left, yy);
      ctx.lineTo(axis.right + RIGHT_PAD, yy);
      ctx.stroke();
    }
    this.valueTicks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      this.valueTicks.push({ label: Math.abs(v) < 1e-9 ? '0' : Number(v.toPrecision(4)).toString(), y: y(v) });
    }

    // At most four points a pixel column (./polyline.ts): a long motion seen whole costs its pixels, not its frames.
    const xOf = (f: number) => frameToX(axis, f);
    const path = (vals: Float64Array) => {
      ctx.beginPath();
      const from = Math.max(0, f0 - 1);
      const to = Math.min(m.frameCount, f1 + 1);
      tracePolyline(ctx, from, to, xOf, (f) => y(at(vals, f)), false, minMaxOf(vals));
      ctx.stroke();
    };
    // Overlaid joints: the decoded curve (the source before the first compression), in their dash pattern.
    overlays.forEach((o, k) => {
      ctx.setLineDash(overlayDash(k) as number[]);
      ctx.lineWidth = 1.3;
      ctx.globalAlpha = 0.9;
      o.components.forEach((c, i) => {
        if (!shown(i)) return;
        ctx.strokeStyle = c.color;
        path(c.decoded ?? c.source);
      });
    });
    ctx.setLineDash([]);
    series.components.forEach((c, i) => {
      if (!shown(i)) return;
      if (showSource) {
        ctx.strokeStyle = c.color;
        ctx.globalAlpha = 0.35;
        ctx.lineWidth = 3.5;
        path(c.source);
      }
      if (showDecoded && c.decoded) {
        ctx.globalAlpha = 1;
        ctx.lineWidth = 1.4;
        ctx.strokeStyle = c.color;
        path(c.decoded);
        // Key dots on the decoded curve.
        ctx.fillStyle = c.color;
        // One a pixel column: a long motion seen whole has thousands of keys, each drawn over the last.
        let lastColumn = -Infinity;
        for (const k of series.keyFrames) {
          if (k < f0 - 1 || k > f1 + 1) continue;
          const x = frameToX(axis, k);
          if (Math.floor(x) === lastColumn) continue;
          lastColumn = Math.floor(x);
          ctx.fillRect(x - 2, y(at(c.decoded, k)) - 2, 4, 4);
        }
      }
    });
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
  }

  private paintKeys(
    ctx: CanvasRenderingContext2D,
    series: CurveSeries,
    axis: TimeAxis,
    top: number,
    plotTop: number,
  ): void {
    ctx.fillStyle = 'rgba(255,255,255,0.03)';
    ctx.fillRect(axis.left, top, axis.right + RIGHT_PAD - axis.left, KEY_BAND_H);
    const cy = top + KEY_BAND_H / 2;
    const user = series.userKeyFrames;
    const selected = new Set(sessionStore.getState().selectedKeys.filter((f) => hasKey(user, f)));
    const d = this.drag;
    const moving = d?.mode === 'move' ? d.delta : 0;
    // The frames whose keys can show in the clipped plot (a user key's diamond is 7 px wide each side): those are found
    // by binary search, so a paint costs the keys in view, not all of them (docs/architecture.md, "Renderer review,
    // round 5").
    const lo = Math.floor(xToFrame(axis, axis.left - 8));
    const hi = Math.ceil(xToFrame(axis, axis.right + RIGHT_PAD + 8));
    // Automatic keys: small and low in the band, so user keys stay visible among them at full view.
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLORS.autoKey;
    ctx.fillStyle = COLORS.canvasBg;
    // Only those in view, and one a pixel: a long motion seen whole has thousands of keys a few pixels wide.
    let lastX = -Infinity;
    const [a0, a1] = keysInView(series.keyFrames, lo, hi);
    // The user keys walked beside them (both ascending), to leave those out.
    let u = firstKeyFrom(user, lo);
    let nextUser = u < user.length ? user[u] : Infinity;
    for (let i = a0; i < a1; i++) {
      const k = series.keyFrames[i];
      while (nextUser < k) nextUser = ++u < user.length ? user[u] : Infinity;
      if (nextUser === k) continue;
      const x = frameToX(axis, k);
      if (x < axis.left - 4 || x > axis.right + RIGHT_PAD + 4 || Math.abs(x - lastX) < 1) continue;
      lastX = x;
      diamondPath(ctx, x, cy + 3, 3);
      ctx.fill();
      ctx.stroke();
    }
    // User keys: a faint line through the plot, and a large diamond; selected ones white. Those in view, and the
    // selected ones a move brings into it.
    const [u0, u1] = keysInView(user, Math.min(lo, lo - moving), Math.max(hi, hi - moving));
    for (let i = u0; i < u1; i++) {
      const k = user[i];
      const sel = selected.has(k);
      const x = Math.round(frameToX(axis, k + (sel ? moving : 0))) + 0.5;
      ctx.strokeStyle = sel ? 'rgba(255,255,255,0.45)' : 'rgba(255,210,63,0.3)';
      ctx.beginPath();
      ctx.moveTo(x, plotTop);
      ctx.lineTo(x, top);
      ctx.stroke();
      if (sel && moving) {
        // Where the key was: a hollow outline.
        ctx.strokeStyle = COLORS.userKey;
        diamondPath(ctx, frameToX(axis, k), cy, 5.5);
        ctx.stroke();
      }
      ctx.fillStyle = sel ? '#ffffff' : COLORS.userKey;
      ctx.strokeStyle = sel ? COLORS.userKey : '#000';
      diamondPath(ctx, x, cy, sel ? 6.5 : 5.5);
      ctx.fill();
      ctx.stroke();
    }
  }

  /** The box-select rectangle while dragging on empty plot. */
  private paintBox(ctx: CanvasRenderingContext2D, bottom: number): void {
    const d = this.drag;
    if (d?.mode !== 'box') return;
    const x = Math.min(d.x0, d.x);
    const w = Math.abs(d.x - d.x0);
    ctx.fillStyle = 'rgba(120,170,255,0.12)';
    ctx.fillRect(x, RULER_H, w, bottom - RULER_H);
    ctx.strokeStyle = 'rgba(120,170,255,0.7)';
    ctx.strokeRect(Math.round(x) + 0.5, RULER_H + 0.5, Math.round(w), bottom - RULER_H - 1);
  }

  private paintErrors(
    ctx: CanvasRenderingContext2D,
    series: CurveSeries,
    axis: TimeAxis,
    top: number,
    bottom: number,
  ): void {
    const m = documentStore.getState().motion!;
    ctx.fillStyle = 'rgba(0,0,0,0.2)';
    ctx.fillRect(axis.left, top, axis.right + RIGHT_PAD - axis.left, bottom - top);
    if (!series.errors || series.tolerance === null) return;
    const tol = series.tolerance;
    const errorsMm = minMaxOf(series.errors);
    const max = Math.max(
      tol * 1.4,
      series.errors[errorsMm.argMax(0, Math.min(m.frameCount, series.errors.length - 1))],
    );
    const y = (v: number) => bottom - (v / max) * (bottom - top - 4);
    // The frames in view (and one either side), at most four points a pixel column (./polyline.ts).
    const errors = series.errors;
    const a = Math.max(0, Math.floor(axis.viewStart) - 1);
    const b = Math.min(m.frameCount, Math.ceil(axis.viewEnd) + 1);
    const xOf = (f: number) => frameToX(axis, f);
    const yOf = (f: number) => y(errors[f]);
    ctx.beginPath();
    ctx.moveTo(xOf(a), bottom);
    tracePolyline(ctx, a, b, xOf, yOf, true, errorsMm);
    ctx.lineTo(xOf(b), bottom);
    ctx.closePath();
    ctx.fillStyle = 'rgba(255,107,107,0.25)';
    ctx.fill();
    ctx.strokeStyle = COLORS.error;
    ctx.beginPath();
    tracePolyline(ctx, a, b, xOf, yOf, false, errorsMm);
    ctx.stroke();
    // Tolerance line.
    const ty = Math.round(y(tol)) + 0.5;
    ctx.setLineDash([5, 4]);
    ctx.strokeStyle = COLORS.tolerance;
    ctx.beginPath();
    ctx.moveTo(axis.left, ty);
    ctx.lineTo(axis.right + RIGHT_PAD, ty);
    ctx.stroke();
    ctx.setLineDash([]);
    // Worst frame.
    if (series.maxErrorFrame !== null) {
      const xx = frameToX(axis, series.maxErrorFrame);
      ctx.fillStyle = series.maxError! > tol ? COLORS.tolerance : COLORS.error;
      ctx.beginPath();
      ctx.arc(xx, y(series.maxError!), 3, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  private paintGutter(
    ctx: CanvasRenderingContext2D,
    series: CurveSeries,
    frame: number,
    h: number,
    plotTop: number,
    keyTop: number,
    errTop: number,
    errBottom: number,
    showError: boolean,
  ): void {
    const m = documentStore.getState().motion!;
    const f = Math.max(0, Math.min(m.frameCount, frame));
    const hasErrors = !!series.errors && series.tolerance !== null;
    // Label places come from planGutter: on a short canvas secondary labels are dropped instead of overlapping.
    const plan = planGutter(
      { height: h, rulerH: RULER_H, plotTop, keyTop, keyH: KEY_BAND_H, errTop, errBottom, showError },
      series.components.length,
      hasErrors,
    );
    this.surface.canvas.dataset.gutterLabels = [
      `frame:${plan.frameY}`,
      ...plan.componentYs.map((y, i) => `${series.components[i].label}:${y}`),
      ...(plan.hintY === null ? [] : [`hint:${plan.hintY}`]),
      ...(plan.keysY === null ? [] : [`keys:${plan.keysY}`]),
      ...plan.errorLines.map((l) => `${l.line}:${l.y}`),
    ].join(',');
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillStyle = COLORS.text;
    ctx.fillText(`frame ${f}`, 8, plan.frameY);
    const fmt = (v: number) => (series.kind === 'rotation' && series.unit === '' ? v.toFixed(4) : v.toFixed(2));
    this.componentLabelYs = plan.componentYs;
    const solo = sessionStore.getState().soloComponent;
    plan.componentYs.forEach((yy, i) => {
      const c = series.components[i];
      // Hidden by a solo: the label stays (click it to solo it instead), dimmed.
      ctx.globalAlpha = solo === null || solo === i || solo >= series.components.length ? 1 : 0.35;
      ctx.fillStyle = c.color;
      ctx.fillRect(8, yy - 4, 8, 8);
      ctx.fillStyle = COLORS.text;
      ctx.fillText(c.label, 20, yy);
      ctx.fillStyle = COLORS.textDim;
      const dec = c.decoded ? fmt(c.decoded[f]) : '—';
      ctx.fillText(`${fmt(c.source[f])} / ${dec}`, 44, yy);
      ctx.globalAlpha = 1;
    });
    ctx.fillStyle = COLORS.textDim;
    ctx.font = '10px system-ui, sans-serif';
    if (plan.hintY !== null) ctx.fillText('source / decoded', 20, plan.hintY);
    if (plan.keysY !== null) ctx.fillText('keys', 8, plan.keysY);
    const unit = series.kind === 'rotation' ? '°' : ' u';
    const value = hasErrors ? `${series.errors![f].toFixed(3)}${unit} @${f}` : '';
    const text: Record<ErrorLine, () => [string, string]> = {
      header: () => [COLORS.error, 'error'],
      headerValue: () => [COLORS.text, `error ${value}`],
      value: () => [COLORS.text, value],
      tol: () => [COLORS.tolerance, `tol ${formatTolerance(series.tolerance!)}${unit}`],
      max: () => [
        series.maxError! > series.tolerance! ? COLORS.tolerance : COLORS.textDim,
        `max ${series.maxError!.toFixed(3)} @${series.maxErrorFrame}`,
      ],
    };
    for (const l of plan.errorLines) {
      const [color, label] = text[l.line]();
      ctx.fillStyle = color;
      ctx.fillText(label, 8, l.y);
    }
    if (series.note) {
      ctx.fillStyle = COLORS.textDim;
      ctx.font = 'italic 11px system-ui, sans-serif';
      ctx.fillText(series.note, GUTTER + 8, plotTop + 4);
    }
  }

  // -------------------------------------------------------------------------
  // Interaction

  private frameAt(x: number): number | null {
    const l = this.layout;
    const m = documentStore.getState().motion;
    if (!l || !m) return null;
    return frameUnder(l.axis, x, m.frameCount);
  }

  private local(e: PointerEvent | WheelEvent): { x: number; y: number } {
    const r = this.surface.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  /** The user key drawn nearest x (within 6 px) when y is over the plot or the key band; null otherwise. */
  private userKeyAt(x: number, y: number): number | null {
    const l = this.layout;
    const series = this.series;
    if (!l || !series || y < l.plotTop - 6 || y > l.keyTop + KEY_BAND_H) return null;
    let best: number | null = null;
    let bestDx = 6;
    for (const k of series.userKeyFrames) {
      const dx = Math.abs(frameToX(l.axis, k) - x);
      if (dx <= bestDx) {
        best = k;
        bestDx = dx;
      }
    }
    return best;
  }

  /** The selected keys that are still user keys of the shown channel (an undo may have removed some). */
  private liveSelection(): number[] {
    const user = new Set(this.series?.userKeyFrames ?? []);
    return sessionStore.getState().selectedKeys.filter((f) => user.has(f));
  }

  private onPointerDown = (e: PointerEvent): void => {
    // The field being typed in applies first: its undo step comes before this press's (renderer/app/fieldUndo.ts).
    applyFocusedField(e.target);
    const l = this.layout;
    if (!l) return;
    const { x, y } = this.local(e);
    if (x < l.axis.left - 4) {
      // A click on a component's label (its swatch and name) solos it; on the soloed one shows all again.
      const i = x < 44 && e.button === 0 ? this.componentLabelYs.findIndex((yy) => Math.abs(yy - y) <= 7) : -1;
      if (i >= 0) sessionStore.getState().toggleSolo(i);
      return;
    }
    this.surface.canvas.setPointerCapture(e.pointerId);
    const s = sessionStore.getState();
    const base = {
      x0: x,
      y0: y,
      x,
      y,
      start: s.viewStart,
      end: s.viewEnd,
      button: e.button,
      shift: e.shiftKey,
      frames: [] as number[],
      delta: 0,
      hit: null as number | null,
      values: this.valueRange,
    };
    if (e.button === 2 || e.button === 1) {
      this.drag = { ...base, mode: 'pan' };
      return;
    }
    if (y < RULER_H) {
      this.drag = { ...base, mode: 'scrub' };
      s.setPlaying(false);
      const f = this.frameAt(x);
      if (f !== null) s.setPlayhead(f);
      return;
    }
    const key = e.ctrlKey || e.metaKey ? null : this.userKeyAt(x, y);
    if (key === null) {
      this.drag = { ...base, mode: 'pending' };
      return;
    }
    // Pressed on a user key: Shift adds it to (or takes it from) the selection, a plain press selects it
    // unless it is selected already (so a drag moves the whole selection).
    let sel = this.liveSelection();
    if (e.shiftKey) sel = sel.includes(key) ? sel.filter((f) => f !== key) : [...sel, key];
    else if (!sel.includes(key)) sel = [key];
    s.selectKeys(sel);
    this.drag = { ...base, mode: 'key', hit: key, frames: sel.includes(key) ? [...sel] : [] };
  };

  private onPointerMove = (e: PointerEvent): void => {
    const l = this.layout;
    if (!l) return;
    const { x, y } = this.local(e);
    this.pointer = { x: e.clientX, y: e.clientY };
    const s = sessionStore.getState();
    if (x >= l.axis.left - 4) s.setHover(this.frameAt(x));
    else s.setHover(null);
    const d = this.drag;
    if (!d) return;
    d.x = x;
    d.y = y;
    if (d.mode === 'scrub') {
      const f = this.frameAt(x);
      if (f !== null) s.setPlayhead(f);
      return;
    }
    if (d.mode === 'pending' && Math.abs(x - d.x0) > 4) d.mode = 'box';
    if (d.mode === 'key' && Math.abs(x - d.x0) > 4 && d.frames.length > 0 && !documentStore.getState().readOnly)
      d.mode = 'move';
    if (d.mode === 'move') {
      // Whole frames, clamped so every moved key stays inside the motion.
      const m = documentStore.getState().motion!;
      const raw = Math.round(xToFrame(l.axis, x) - xToFrame(l.axis, d.x0));
      d.delta = Math.max(-Math.min(...d.frames), Math.min(m.frameCount - Math.max(...d.frames), raw));
      this.surface.canvas.dataset.moveDelta = String(d.delta);
      this.surface.invalidate();
      return;
    }
    if (d.mode === 'box') {
      this.surface.invalidate();
      return;
    }
    if (d.mode === 'pan') {
      const m = documentStore.getState().motion!;
      const [a, b] = dragPanView({ start: d.start, end: d.end }, x - d.x0, l.axis.right - l.axis.left, m.frameCount);
      s.setView(a, b);
      // Up and down pan the values (the range becomes the user's until Home / F).
      const v = d.values;
      if (v && Math.abs(y - d.y0) >= 2) {
        const dv = ((y - d.y0) * (v.hi - v.lo)) / Math.max(1, l.plotBottom - l.plotTop);
        this.valueView = { lo: v.lo + dv, hi: v.hi + dv, key: v.key };
        this.surface.invalidate();
      }
    }
  };

  private onPointerUp = (e: PointerEvent): void => {
    const d = this.drag;
    this.drag = null;
    delete this.surface.canvas.dataset.moveDelta;
    // A right-click (released where it was pressed; a right-drag pans): the commands at the frame under it.
    if (d?.button === 2 && Math.abs(d.x - d.x0) <= 4 && Math.abs(d.y - d.y0) <= 4) {
      this.openMenu({ x: e.clientX, y: e.clientY });
      return;
    }
    if (!d || d.button !== 0) return;
    const l = this.layout!;
    const s = sessionStore.getState();
    const joint = s.selectedJoint;
    if (d.mode === 'move') {
      this.surface.invalidate();
      if (d.delta === 0) return;
      const moved = documentStore.getState().keys.move(joint, d.frames, d.delta);
      if (moved.length) s.selectKeys(moved);
      return;
    }
    if (d.mode === 'box') {
      this.surface.invalidate();
      const a = xToFrame(l.axis, Math.min(d.x0, d.x));
      const b = xToFrame(l.axis, Math.max(d.x0, d.x));
      const inside = (this.series?.userKeyFrames ?? []).filter((f) => f >= a && f <= b);
      s.selectKeys(d.shift ? [...this.liveSelection(), ...inside] : inside);
      return;
    }
    if (d.mode === 'key') {
      // A plain click (no drag) on a key of a larger selection selects that key alone.
      if (!d.shift && d.hit !== null) s.selectKeys([d.hit]);
      return;
    }
    if (d.mode !== 'pending') return;
    const { x, y } = this.local(e);
    if (y < RULER_H || y > l.errBottom) return;
    const f = this.frameAt(x);
    if (f === null) return;
    // A stray click must not dirty the document: only Ctrl/Cmd+click edits keys.
    if (!(e.ctrlKey || e.metaKey)) {
      if (!e.shiftKey) s.selectKeys([]);
      s.setPlaying(false);
      s.setPlayhead(f);
      return;
    }
    const doc = documentStore.getState();
    if (doc.readOnly) return;
    doc.keys.toggle(joint, f);
  };

  /**
   * The right-click menu at `at` (client coordinates), for the frame under it or the user key there
   * (renderer/app/tuningMenu.ts).
   */
  private openMenu(at: { x: number; y: number }): void {
    const r = this.surface.canvas.getBoundingClientRect();
    // On a user key: that key, selected (or the selection it is part of, kept), so Delete in the menu takes it.
    const key = this.userKeyAt(at.x - r.left, at.y - r.top);
    if (key !== null && !this.liveSelection().includes(key)) sessionStore.getState().selectKeys([key]);
    const f = key ?? this.frameAt(at.x - r.left);
    if (f !== null) openTuningMenu('curves', at, f, undefined, this.surface.canvas);
  }

  private onWheel = (e: WheelEvent): void => {
    const l = this.layout;
    const m = documentStore.getState().motion;
    if (!l || !m) return;
    e.preventDefault();
    const s = sessionStore.getState();
    const { x, y } = this.local(e);
    const v = this.valueRange;
    if (e.altKey && v) {
      // Alt+wheel zooms the values around the pointer.
      const at = v.hi - ((y - l.plotTop) / Math.max(1, l.plotBottom - l.plotTop)) * (v.hi - v.lo);
      const k = Math.pow(1.0015, e.deltaY);
      this.valueView = { lo: at - (at - v.lo) * k, hi: at + (v.hi - at) * k, key: v.key };
      this.surface.invalidate();
      return;
    }
    // Shift+wheel pans in time, the plain wheel zooms time.
    const view = { start: s.viewStart, end: s.viewEnd };
    const [a, b] = e.shiftKey
      ? wheelPanView(view, e, m.frameCount)
      : wheelZoomView(view, l.axis, x, e.deltaY, m.frameCount);
    s.setView(a, b);
  };

  /** Home: every frame, and values fitted to the curves. */
  private frameAll(): void {
    const m = documentStore.getState().motion;
    if (!m) return;
    this.valueView = null;
    sessionStore.getState().setView(0, m.frameCount);
    this.surface.invalidate();
  }

  /** F: the selected keys (a little around them), values fitted to the curves there; with none selected, all. */
  private frameSelected(): void {
    const m = documentStore.getState().motion;
    const keys = this.liveSelection();
    if (!m || keys.length === 0) return this.frameAll();
    const a = Math.min(...keys);
    const b = Math.max(...keys);
    const margin = Math.max(5, (b - a) * 0.15);
    const [v0, v1] = clampView(a - margin, b + margin, m.frameCount);
    this.valueView = null;
    sessionStore.getState().setView(v0, v1);
    this.surface.invalidate();
  }

  dispose(): void {
    for (const u of this.unsubscribers) u();
    this.surface.dispose();
  }
}
