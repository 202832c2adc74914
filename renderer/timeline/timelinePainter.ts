/**
 * The timeline canvas: a frame ruler (scrub), a lock-flag row (drag sets a
 * LOCK range for the selected joint; a range another joint holds on any frame
 * is refused with a message), a trace-key row (click toggles a TRACE key; its keys drawn over the playhead line),
 * then one row per channel (root translation, then every joint) showing key
 * density and the error against the tolerance per frame, with the worst
 * joints standing out. Click a row's label to select that joint; Ctrl/Shift+click it to overlay its curves.
 */
import { KeyFlag, type Motion } from '../../shared/motion/types';
import type { ChannelReport } from '../../shared/compress/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { compressionStore, settleHoldMs } from '../state/compressionStore';
import { HiDpiCanvas } from '../canvas/hidpiCanvas';
import {
  GUTTER,
  RIGHT_PAD,
  RULER_H,
  drawHoverLine,
  drawPlayhead,
  drawRuler,
  drawTimeGrid,
  frameToX,
  gutterName,
  lockBarLabel,
  type TimeAxis,
} from '../canvas/timeAxis';
import { dragPanView, frameUnder, wheelPanView, wheelZoomView } from '../canvas/timeGestures';
import { diamondPath } from '../canvas/shapes';
import { formatTolerance } from '../curves/series';
import { hasKey, keysInView } from '../curves/keyIndex';
import { framesSpanLabel, lockAt, lockRangesOf, locksInView, traceFramesOf, userKeysOf } from '../state/keyInfo';
import { COLORS } from '../theme';
import { preferencesStore } from '../state/preferencesStore';
import {
  chainGroupWord,
  foldedForSelection,
  rowOfJoint,
  timelineRows,
  type ChainGroup,
  type TimelineRow,
} from './jointFilter';
import { openChainMenu, openTuningMenu } from '../app/tuningMenu';
import { playheadFrame } from '../app/playhead';
import { isTypingTarget } from '../app/commands';
import { applyFocusedField } from '../app/fieldUndo';

export const LOCK_ROW_H = 20;
export const TRACE_ROW_H = 20;
/** Compact joint rows: more of a 31-joint skeleton in view (the label font is 11 px). */
export const JOINT_ROW_H = 14;
const SPECIAL_TOP = RULER_H;
const JOINTS_TOP = RULER_H + LOCK_ROW_H + TRACE_ROW_H;

/** Joint rows shown whole in a host `height` px tall (under the pinned ruler, lock and trace rows). */
function wholeRows(height: number): number {
  return Math.max(0, Math.floor((height - JOINTS_TOP) / JOINT_ROW_H));
}

/** Error heat in steps: index 0 is no colour (below 0.6 of the tolerance), the last is above the tolerance. */
const HEAT_STEPS = 6;
const HEAT_COLORS: string[] = [''];
for (let i = 1; i < HEAT_STEPS; i++) {
  const a = i / (HEAT_STEPS - 1);
  HEAT_COLORS.push(`rgba(255,${Math.round(190 - 110 * a)},60,${(0.1 + 0.4 * a * a).toFixed(3)})`);
}
HEAT_COLORS.push('rgba(255,59,59,0.85)');

/**
 * Paints a channel's error against its tolerance as runs of equal colour: frames map to pixel columns
 * (the worst frame of a column wins when frames are narrower than a pixel), neighbouring columns of the
 * same step are one rectangle. A few dozen fillRects per row instead of one per frame with its own colour.
 */
class HeatColumns {
  private readonly x0: number;
  private readonly columns: number;
  private readonly steps: Uint8Array;

  constructor(
    private readonly axis: TimeAxis,
    private readonly f0: number,
    private readonly f1: number,
  ) {
    const xa = frameToX(axis, f0 - 0.5);
    const xb = frameToX(axis, f1 + 0.5);
    this.x0 = Math.floor(xa);
    this.columns = Math.max(0, Math.ceil(xb) - this.x0);
    this.steps = new Uint8Array(this.columns);
  }

  /** Paints the frames in view by `ratioAt(frame)`: a frame's error against its tolerance. */
  paint(ctx: CanvasRenderingContext2D, ratioAt: (f: number) => number, y: number, h: number): void {
    const steps = this.steps;
    steps.fill(0);
    const stepOf = (f: number) => {
      const r = ratioAt(f);
      if (r < 0.6) return 0;
      if (r > 1.0001) return HEAT_STEPS;
      return Math.max(1, Math.min(HEAT_STEPS - 1, Math.round(((r - 0.6) / 0.4) * (HEAT_STEPS - 1))));
    };
    // Every frame marks the columns it covers with its step; the highest step of a column wins.
    for (let f = this.f0; f <= this.f1; f++) {
      const st = stepOf(f);
      if (st === 0) continue;
      const ca = Math.max(0, Math.floor(frameToX(this.axis, f - 0.5)) - this.x0);
      const cb = Math.min(this.columns, Math.max(ca + 1, Math.round(frameToX(this.axis, f + 0.5)) - this.x0));
      for (let c = ca; c < cb; c++) if (steps[c] < st) steps[c] = st;
    }
    let c = 0;
    while (c < this.columns) {
      const st = steps[c];
      let e = c + 1;
      while (e < this.columns && steps[e] === st) e++;
      if (st) {
        ctx.fillStyle = HEAT_COLORS[st];
        ctx.fillRect(this.x0 + c, y, e - c, h);
      }
      c = e;
    }
  }
}

/** Distinct colours for lock ranges, by joint. */
const LOCK_PALETTE = ['#ff4f5e', '#ff9f43', '#4fd1c5', '#a78bfa', '#f472b6', '#60a5fa', '#facc15'];

interface RowStat {
  joint: number;
  keys: number;
  user: number;
  /** maxError / tolerance. */
  ratio: number;
  maxError: number;
  report: ChannelReport | null;
}

/**
 * The tooltip over a row's label: what a click there does. The timeline's short hint (round 25) leaves out "Chain
 * header: click folds" and "Label: select (Ctrl/Shift: overlay)"; the label under the pointer says it (tried cold,
 * round 26).
 */
export function labelRowTitle(m: Motion, row: TimelineRow | null): string {
  if (!row) return '';
  if (row.kind === 'group')
    return `${chainGroupWord(row.group)} (${row.joints.length} joints): click to ${row.folded ? 'unfold' : 'fold'} the group`;
  if (row.joint < 0) return 'Root translation: click to select';
  const name = m.joints[row.joint]?.name ?? `joint ${row.joint}`;
  return `${name}: click to select · Ctrl/Shift+click to overlay its curves on the selected joint's`;
}

/**
 * The lock row's tooltip at `frame`: the lock there (its joint and frames, whole: the bar cuts the name to its
 * width), or what a drag there does.
 */
export function lockRowTitle(m: Motion, frame: number, selectedJoint: number): string {
  const r = lockAt(m, frame);
  const sel = selectedJoint >= 0 ? m.joints[selectedJoint]?.name : undefined;
  if (r) {
    const name = m.joints[r.joint]?.name ?? `joint ${r.joint}`;
    const span = framesSpanLabel(r.first, r.last);
    return `${name} locked at ${span} · drag over it with ${name} selected to clear`;
  }
  return sel
    ? `Frame ${frame} · drag to lock ${sel} (the selected joint) over the frames dragged`
    : `Frame ${frame} · select a joint, then drag here to lock it`;
}

/** The timeline canvas's accessible name; the locks in view follow it (paintLockRow). */
const TIMELINE_LABEL =
  'Timeline: drag in the lock row to lock the selected joint, click the trace row to toggle a trace key';

export class TimelinePainter {
  private readonly surface: HiDpiCanvas;
  private axis: TimeAxis | null = null;
  private readonly unsubscribers: (() => void)[] = [];
  private lockDrag: { anchor: number; current: number; clear: boolean } | null = null;
  private scrubbing = false;
  private pan: { x0: number; y0: number; x: number; y: number; start: number; end: number; button: number } | null =
    null;
  /** The pointer's last place over the timeline (client coordinates): where the Menu key opens the menu. */
  private pointer: { x: number; y: number } | null = null;
  /** Pointer position over a joint row (content coordinates), for the tooltip. */
  private hoverPoint: { x: number; y: number; row: number } | null = null;
  /** The host's scroll offset, kept by its scroll event (and revealRow). */
  private scrollTop = 0;

  constructor(private readonly host: HTMLElement) {
    this.surface = new HiDpiCanvas(
      host,
      (ctx, w, h) => this.paint(ctx, w, h),
      (view) => this.contentHeight(view),
      () => settleHoldMs(compressionStore.getState(), performance.now()),
    );
    const c = this.surface.canvas;
    c.dataset.testid = 'timeline-canvas';
    // Focusable by a click, so the right-click menu gives the keyboard back here.
    c.tabIndex = -1;
    c.setAttribute('role', 'img');
    c.setAttribute('aria-label', TIMELINE_LABEL);
    const inv = () => this.surface.invalidate();
    this.unsubscribers.push(
      documentStore.subscribe(inv),
      compressionStore.subscribe(inv),
      preferencesStore.subscribe((s, p) => {
        if (s.timelineGrouped === p.timelineGrouped && s.timelineFolded === p.timelineFolded) return;
        inv();
        this.revealPending = true;
        if (s.timelineGrouped && !p.timelineGrouped) this.openSelectedChain(false);
      }),
      sessionStore.subscribe((s, p) => {
        inv();
        if (s.timelineFilter !== p.timelineFilter) {
          // Other rows: back to the top, then the selected joint's row when it is among them.
          this.host.scrollTop = 0;
          this.scrollTop = 0;
          this.revealPending = true;
        } else if (s.selectedJoint !== p.selectedJoint) {
          this.openSelectedChain(true);
          this.revealRow(s.selectedJoint);
        }
      }),
    );
    c.addEventListener('pointerdown', this.onPointerDown);
    c.addEventListener('pointermove', this.onPointerMove);
    c.addEventListener('pointerup', this.onPointerUp);
    c.addEventListener('pointercancel', () => {
      this.lockDrag = null;
      this.scrubbing = false;
      this.pan = null;
      inv();
    });
    c.addEventListener('pointerleave', () => {
      this.pointer = null;
      this.hoverPoint = null;
      sessionStore.getState().setHover(null);
    });
    c.addEventListener('wheel', this.onWheel, { passive: false });
    // The Menu key (or Shift+F10) with the pointer over the rows opens the right-click menu there.
    const onKey = (e: KeyboardEvent) => {
      if (!this.pointer || !(e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10'))) return;
      if (isTypingTarget(e.target) || (e.target instanceof Element && e.target.closest('[role="menu"]'))) return;
      e.preventDefault();
      this.openMenu(this.pointer);
    };
    window.addEventListener('keydown', onKey, true);
    this.unsubscribers.push(() => window.removeEventListener('keydown', onKey, true));
    host.addEventListener('scroll', () => {
      this.scrollTop = host.scrollTop;
      inv();
    });
    c.addEventListener('contextmenu', (e) => e.preventDefault());
    // A motion that opens shows the selected joint's row (its selection is carried over by name, so the joint
    // index may not change at all); so does a timeline that comes back from a collapsed or hidden panel.
    this.unsubscribers.push(
      documentStore.subscribe((d, p) => {
        // A load (documentStore.load) brings a new motion with a fresh, empty history; reopening the same file
        // keeps its documentId.
        const loaded = d.motion !== p.motion && d.past !== p.past && d.past.length === 0 && d.future.length === 0;
        if (loaded || d.documentId !== p.documentId) this.revealPending = true;
      }),
    );
    let lastHeight = host.clientHeight;
    const ro = new ResizeObserver(() => {
      // Any new height (a panel back from collapsed, another work mode's layout, a splitter): the selected row
      // is scrolled back into view when the new height leaves it out.
      if (host.clientHeight > 0 && host.clientHeight !== lastHeight) {
        this.revealPending = true;
        inv();
      }
      lastHeight = host.clientHeight;
    });
    ro.observe(host);
    this.unsubscribers.push(() => ro.disconnect());
  }

  /** Reveal the selected row once the canvas has the new motion's height (set by a document change). */
  private revealPending = true;
  /** Scroll-snap points, one per joint row, so the rows scroll whole under the pinned rows. */
  private snaps: HTMLElement[] = [];

  /**
   * The rows scroll in whole rows: the pinned ruler, lock and trace rows cover the top JOINTS_TOP px of the
   * scrolled content, so a scroll offset that is a multiple of the row height puts a row's top edge right
   * under them (never half a row hidden). CSS scroll snapping (styles.css) does the rounding for the wheel,
   * the scrollbar and the keyboard; these are its snap points.
   */
  private updateSnapPoints(rows: number): void {
    const wanted = rows + 1;
    while (this.snaps.length < wanted) {
      const el = document.createElement('div');
      el.className = 'timeline-snap';
      el.style.top = `${this.snaps.length * JOINT_ROW_H}px`;
      el.style.height = `${JOINT_ROW_H}px`;
      this.host.appendChild(el);
      this.snaps.push(el);
    }
    while (this.snaps.length > wanted) this.snaps.pop()!.remove();
  }

  /**
   * The rows shown, in order: the filter's joint rows (-1: root translation), under chain headers when grouped
   * (renderer/timeline/jointFilter.ts).
   */
  private shownRows(): TimelineRow[] {
    const m = documentStore.getState().motion;
    if (!m) return [];
    const f = sessionStore.getState().timelineFilter;
    const { timelineGrouped: grouped, timelineFolded: folded } = preferencesStore.getState();
    const k = this.shownKey;
    if (k.m !== m || k.f !== f || k.grouped !== grouped || k.folded !== folded)
      this.shownKey = {
        m,
        f,
        grouped,
        folded,
        rows: timelineRows(
          m.joints.map((j) => j.name),
          f,
          { grouped, folded },
        ),
      };
    return this.shownKey.rows;
  }
  private shownKey: { m: Motion | null; f: unknown; grouped: boolean; folded: unknown; rows: TimelineRow[] } = {
    m: null,
    f: null,
    grouped: false,
    folded: null,
    rows: [],
  };

  /** The row at content y, or null. */
  private rowAtY(y: number): TimelineRow | null {
    const i = Math.floor((y - JOINTS_TOP) / JOINT_ROW_H);
    const rows = this.shownRows();
    return i >= 0 && i < rows.length ? rows[i] : null;
  }

  /** The joint of the row at content y (-99: none, or a chain header). */
  private jointAtY(y: number): number {
    const r = this.rowAtY(y);
    return r?.kind === 'joint' ? r.joint : -99;
  }

  /** Folds or unfolds a chain group's rows (remembered in the preferences). */
  private setFolded(group: ChainGroup, fold: boolean): void {
    const folded = preferencesStore.getState().timelineFolded.filter((g) => g !== group);
    preferencesStore.getState().set({ timelineFolded: fold ? [...folded, group] : folded });
  }

  /** Scrolls the rows so the selected joint's row (or its folded group's header) is visible (the special rows stay as they are). */
  /**
   * Grouped rows that do not all fit the timeline's height: the selected joint's chain open, the others folded
   * (foldedForSelection), when grouping turns on, and when a joint of a folded chain is selected (`whenFolded`).
   */
  private openSelectedChain(whenFolded: boolean): void {
    // A timeline out of view (its panel collapsed, another mode's layout) has no height to fit: left as it is.
    if (this.host.clientHeight <= 0) return;
    const folded = foldedForSelection(
      this.shownRows(),
      sessionStore.getState().selectedJoint,
      wholeRows(this.host.clientHeight),
      whenFolded,
    );
    if (folded) {
      // The chain just opened comes to the top of the rows (revealChain), under the folded headers above it.
      this.chainToTop = true;
      preferencesStore.getState().set({ timelineFolded: folded });
    }
  }

  /** Set when openSelectedChain folds the other chains: the next reveal puts the open chain's header first. */
  private chainToTop = false;

  /**
   * Scrolls the selected joint's chain header to the top of the rows when the joint's row is then still in view: at
   * 1280x800 in Tuning mode the six rows showed three chain headers above three of the legs' joints (tried cold,
   * rounds 17 to 19); from the legs' header they show five. The headers above stay a scroll (or the fold buttons)
   * away. Otherwise the joint's row is revealed as before.
   */
  private revealChain(joint: number): void {
    const rows = this.shownRows();
    const row = rowOfJoint(rows, joint);
    let header = row;
    while (header >= 0 && rows[header].kind !== 'group') header--;
    const visible = Math.max(1, wholeRows(this.host.clientHeight));
    if (header < 0 || row - header >= visible) return this.revealRow(joint);
    this.host.scrollTop = header * JOINT_ROW_H;
    this.scrollTop = this.host.scrollTop;
  }

  private revealRow(joint: number): void {
    // Rows in view: the whole rows from scrollTop / JOINT_ROW_H (the strip under the last whole row shows none).
    const row = rowOfJoint(this.shownRows(), joint);
    if (row < 0) return;
    const view = this.host;
    const visible = Math.max(1, wholeRows(view.clientHeight));
    const first = Math.round(view.scrollTop / JOINT_ROW_H);
    if (row < first) view.scrollTop = row * JOINT_ROW_H;
    else if (row >= first + visible) view.scrollTop = (row - visible + 1) * JOINT_ROW_H;
    this.scrollTop = view.scrollTop;
  }

  /**
   * The canvas height: every row, padded so that the last scroll position is a whole number of rows too (the
   * last row then ends at the bottom edge or above it, and the top row is never cut by the pinned rows).
   */
  private contentHeight(view: number): number {
    const rows = this.shownRows().length;
    // The last scroll position shows the last row as the last whole row in view.
    const hidden = rows - wholeRows(view);
    return hidden <= 0 ? view : view + hidden * JOINT_ROW_H;
  }

  private rowStats(m: Motion): RowStat[] {
    const comp = compressionStore.getState();
    const result = comp.result;
    const rows: RowStat[] = [];
    const byKey = new Map<string, ChannelReport>();
    for (const c of result?.channels ?? []) byKey.set(`${c.kind}:${c.joint}`, c);
    for (let j = -1; j < m.joints.length; j++) {
      const rep = j < 0 ? byKey.get('translation:-1') : byKey.get(`rotation:${j}`);
      const off = j >= 0 ? byKey.get(`offset:${j}`) : undefined;
      let ratio = rep ? rep.maxError / rep.tolerance : 0;
      let maxError = rep ? rep.maxError : 0;
      if (off && off.maxError / off.tolerance > ratio) {
        ratio = off.maxError / off.tolerance;
        maxError = off.maxError;
      }
      rows.push({
        joint: j,
        keys: rep ? rep.keyFrames.length : 0,
        user: rep ? rep.userKeyFrames.length : 0,
        ratio,
        maxError,
        report: rep ?? null,
      });
    }
    return rows;
  }

  private paint(ctx: CanvasRenderingContext2D, w: number, h: number): void {
    const m = documentStore.getState().motion;
    ctx.fillStyle = COLORS.canvasBg;
    ctx.fillRect(0, 0, w, h);
    const c = this.surface.canvas;
    if (!m) {
      this.axis = null;
      this.updateSnapPoints(0);
      return;
    }
    const s = sessionStore.getState();
    const shown = this.shownRows();
    this.updateSnapPoints(shown.length);
    if (this.revealPending && this.surface.hostHeight > 0) {
      this.revealPending = false;
      // The canvas already has this motion's height (HiDpiCanvas sized it before painting).
      if (this.chainToTop) this.revealChain(s.selectedJoint);
      else this.revealRow(s.selectedJoint);
      this.chainToTop = false;
    }
    const axis: TimeAxis = { viewStart: s.viewStart, viewEnd: s.viewEnd, left: GUTTER, right: w - RIGHT_PAD };
    this.axis = axis;
    c.dataset.plotLeft = String(axis.left);
    c.dataset.plotRight = String(axis.right);
    c.dataset.viewStart = String(axis.viewStart);
    c.dataset.viewEnd = String(axis.viewEnd);
    c.dataset.jointsTop = String(JOINTS_TOP);
    c.dataset.rowHeight = String(JOINT_ROW_H);

    const N = m.frameCount;
    const J = m.joints.length;
    const f0 = Math.max(0, Math.floor(axis.viewStart));
    const f1 = Math.min(N, Math.ceil(axis.viewEnd));
    const stats = this.rowStats(m);
    // Worst rows: the three with the largest error relative to tolerance (when above half of it).
    const worst = new Set(
      [...stats]
        .filter((r) => r.ratio > 0.5)
        .sort((a, b) => b.ratio - a.ratio)
        .slice(0, 3)
        .map((r) => r.joint),
    );

    ctx.fillStyle = COLORS.gutterBg;
    ctx.fillRect(0, 0, GUTTER - 1, h);

    // Joint rows.
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // Only the rows in view are painted (the canvas is as tall as all rows; the host scrolls it).
    // (Scroll offset and height as last reported by the scroll event and ResizeObserver: reading them here would
    // force a layout in every frame after a DOM change.)
    const firstRow = Math.max(0, Math.floor((this.scrollTop - JOINT_ROW_H) / JOINT_ROW_H) - 1);
    const lastRow = Math.ceil((this.scrollTop + this.surface.hostHeight) / JOINT_ROW_H);
    const heat = new HeatColumns(axis, f0, f1);
    const selectedRow = rowOfJoint(shown, s.selectedJoint);
    shown.forEach((item, i) => {
      if (i < firstRow || i > lastRow) return;
      const y = JOINTS_TOP + i * JOINT_ROW_H;
      if (item.kind === 'group') {
        this.paintGroupRow(ctx, item, stats, heat, axis, y, w, f0, f1, i === selectedRow);
        return;
      }
      const row = stats[item.joint + 1];
      const selected = row.joint === s.selectedJoint;
      ctx.fillStyle = selected ? 'rgba(255,225,77,0.12)' : i % 2 ? COLORS.rowAlt : COLORS.canvasBg;
      ctx.fillRect(GUTTER, y, w - GUTTER, JOINT_ROW_H);
      // Error heat per frame (per pixel column when frames are narrower than a pixel), in a few colour steps.
      const rep = row.report;
      if (rep) {
        const { errors, tolerance } = rep;
        heat.paint(ctx, (f) => errors[f] / tolerance, y + 1, JOINT_ROW_H - 2);
        ctx.fillStyle = COLORS.autoKey;
        // The keys in view by binary search (docs/architecture.md, "Renderer review, round 5").
        const [a, b] = keysInView(rep.keyFrames, f0 - 1, f1 + 1);
        for (let i = a; i < b; i++)
          ctx.fillRect(Math.round(frameToX(axis, rep.keyFrames[i])) - 1, y + 4, 2, JOINT_ROW_H - 8);
      }
      // User keys straight from the document, so they show before recompression finishes: read once for each edit
      // (userKeysOf), where every paint walked every frame of the motion for them.
      ctx.fillStyle = COLORS.userKey;
      const user = userKeysOf(m, row.joint);
      const [a, b] = keysInView(user, f0 - 1, f1 + 1);
      for (let i = a; i < b; i++) ctx.fillRect(Math.round(frameToX(axis, user[i])) - 2, y + 2, 4, JOINT_ROW_H - 4);
      // Label: name, keys, max error. Its background is painted after the heat and ticks, so when zoomed in
      // the cells and ticks left of the first visible frame never show over the label.
      ctx.fillStyle = selected ? '#3a3720' : COLORS.gutterBg;
      ctx.fillRect(0, y, GUTTER, JOINT_ROW_H);
      const name = row.joint < 0 ? 'Root translation' : `${row.joint} ${m.joints[row.joint].name}`;
      const isWorst = worst.has(row.joint);
      ctx.fillStyle =
        row.ratio > 1.0001 ? COLORS.tolerance : isWorst ? '#ffb347' : selected ? COLORS.selection : COLORS.text;
      // The name gets the gutter left of its figures (keys · max error), cut by drawn width where it does not fit.
      const figures = rep ? `${row.keys} · ${row.maxError.toFixed(2)}` : '';
      ctx.textAlign = 'left';
      ctx.fillText(
        gutterName(name, figures, (t) => ctx.measureText(t).width),
        6,
        y + JOINT_ROW_H / 2,
      );
      ctx.textAlign = 'right';
      ctx.fillStyle = isWorst || row.ratio > 1.0001 ? ctx.fillStyle : COLORS.textDim;
      if (figures) ctx.fillText(figures, GUTTER - 6, y + JOINT_ROW_H / 2);
      ctx.textAlign = 'left';
    });

    // Under the last whole row the host's leftover strip (less than a row) stays empty: no row is half hidden.
    const stripTop = this.scrollTop + JOINTS_TOP + wholeRows(this.surface.hostHeight) * JOINT_ROW_H;
    ctx.fillStyle = COLORS.canvasBg;
    ctx.fillRect(0, stripTop, w, this.scrollTop + this.surface.hostHeight - stripTop);
    c.dataset.visibleRows = String(wholeRows(this.surface.hostHeight));

    drawHoverLine(ctx, axis, s.hoverFrame, 0, h);
    drawPlayhead(ctx, axis, s.playhead, h);

    this.paintTooltip(ctx, m, stats, w);

    // The ruler, lock row and trace row stay at the top while the joint rows scroll.
    const st = this.scrollTop;
    c.dataset.lockRowY = String(st + SPECIAL_TOP + LOCK_ROW_H / 2);
    c.dataset.traceRowY = String(st + SPECIAL_TOP + LOCK_ROW_H + TRACE_ROW_H / 2);
    ctx.save();
    ctx.translate(0, st);
    this.paintLockRow(ctx, m, axis, w, f0, f1);
    this.paintTraceRow(ctx, w);
    drawRuler(ctx, axis, N, w);
    drawTimeGrid(ctx, axis, N, RULER_H, JOINTS_TOP);
    ctx.fillStyle = COLORS.gutterBg;
    ctx.fillRect(0, 0, GUTTER - 1, RULER_H - 1);
    ctx.fillStyle = COLORS.textDim;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'left';
    const shownJoints = shown.flatMap((r) => (r.kind === 'joint' ? [r.joint] : []));
    ctx.fillText(
      shownJoints.length < J + 1 ? `${shownJoints.length} of ${J + 1} rows` : `${N + 1} frames · ${J} joints`,
      6,
      RULER_H / 2,
    );
    c.dataset.shownRows = shownJoints.join(',');
    c.dataset.rows = shown
      .map((r) => (r.kind === 'joint' ? String(r.joint) : `${r.group}${r.folded ? '+' : '-'}`))
      .join(',');
    drawHoverLine(ctx, axis, s.hoverFrame, RULER_H, JOINTS_TOP);
    drawPlayhead(ctx, axis, s.playhead, JOINTS_TOP);
    // Over the playhead line: a key a frame from the playhead, cut by the line off its centre, read as two markers
    // (tried cold, round 6).
    this.paintTraceMarkers(ctx, m, axis, w, f0, f1);
    ctx.restore();
  }

  /**
   * A chain group's header row: its name and joint count in the gutter (▸ folded, ▾ open), and across the
   * frames a summary like a dope sheet's: the worst error of its joints against their tolerances and every key.
   */
  private paintGroupRow(
    ctx: CanvasRenderingContext2D,
    item: Extract<TimelineRow, { kind: 'group' }>,
    stats: RowStat[],
    heat: HeatColumns,
    axis: TimeAxis,
    y: number,
    w: number,
    f0: number,
    f1: number,
    selected: boolean,
  ): void {
    ctx.fillStyle = '#24272d';
    ctx.fillRect(GUTTER, y, w - GUTTER, JOINT_ROW_H);
    const reports = item.joints.map((j) => stats[j + 1].report).filter((r): r is ChannelReport => r !== null);
    if (reports.length > 0) {
      // The heat reads frames f0..f1 only, the group's worst taken frame by frame as it goes: no array of the
      // motion's length a header a paint (docs/architecture.md, "Renderer review, round 6").
      const worstAt = (f: number) => {
        let worst = 0;
        for (let i = 0; i < reports.length; i++) worst = Math.max(worst, reports[i].errors[f] / reports[i].tolerance);
        return worst;
      };
      heat.paint(ctx, worstAt, y + 1, JOINT_ROW_H - 2);
      ctx.fillStyle = COLORS.autoKey;
      const keys = new Set<number>();
      for (const r of reports) {
        const [a, b] = keysInView(r.keyFrames, f0 - 1, f1 + 1);
        for (let i = a; i < b; i++) keys.add(r.keyFrames[i]);
      }
      for (const k of keys) ctx.fillRect(Math.round(frameToX(axis, k)) - 1, y + 5, 2, JOINT_ROW_H - 10);
    }
    ctx.fillStyle = selected ? '#3a3720' : '#2b2e35';
    ctx.fillRect(0, y, GUTTER, JOINT_ROW_H);
    ctx.strokeStyle = COLORS.gridMajor;
    ctx.beginPath();
    ctx.moveTo(0, y + 0.5);
    ctx.lineTo(w, y + 0.5);
    ctx.stroke();
    const over = item.joints.some((j) => stats[j + 1].ratio > 1.0001);
    ctx.fillStyle = over ? COLORS.tolerance : COLORS.text;
    ctx.textAlign = 'left';
    ctx.font = 'bold 11px system-ui, sans-serif';
    const name = chainGroupWord(item.group);
    ctx.fillText(`${item.folded ? '▸' : '▾'} ${name}`, 4, y + JOINT_ROW_H / 2);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.fillStyle = COLORS.textDim;
    ctx.fillText(`${item.joints.length} joints`, GUTTER - 6, y + JOINT_ROW_H / 2);
    ctx.textAlign = 'left';
  }

  /** Row, frame, error against tolerance and key kind under the pointer. */
  private paintTooltip(ctx: CanvasRenderingContext2D, m: Motion, stats: RowStat[], w: number): void {
    const hp = this.hoverPoint;
    const frame = sessionStore.getState().hoverFrame;
    if (!hp || frame === null || hp.row < -1 || hp.row >= m.joints.length || hp.x < GUTTER) return;
    const row = stats[hp.row + 1];
    const name = hp.row < 0 ? 'Root translation' : m.joints[hp.row].name;
    const unit = hp.row < 0 ? ' u' : '°';
    const parts = [`${name} · frame ${frame}`];
    if (row.report) {
      parts.push(
        `error ${row.report.errors[frame].toFixed(3)}${unit} / tol ${formatTolerance(row.report.tolerance)}${unit}`,
      );
      const user = hasKey(userKeysOf(m, hp.row), frame);
      if (user) parts.push('user key');
      else if (hasKey(row.report.keyFrames, frame)) parts.push('key');
    }
    const text = parts.join(' · ');
    ctx.font = '11px system-ui, sans-serif';
    const tw = ctx.measureText(text).width + 12;
    const x = Math.min(w - tw - 4, hp.x + 12);
    const y = hp.y + 14;
    ctx.fillStyle = 'rgba(20,22,26,0.95)';
    ctx.strokeStyle = COLORS.gridMajor;
    ctx.fillRect(x, y, tw, 18);
    ctx.strokeRect(x + 0.5, y + 0.5, tw - 1, 17);
    ctx.fillStyle = COLORS.text;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x + 6, y + 9);
  }

  private paintLockRow(
    ctx: CanvasRenderingContext2D,
    m: Motion,
    axis: TimeAxis,
    w: number,
    f0: number,
    f1: number,
  ): void {
    const y = SPECIAL_TOP;
    paintPinnedRowBand(ctx, y, LOCK_ROW_H, w, '#22252b', COLORS.lock, 'Locks (drag)');
    clipToPlot(ctx, y, LOCK_ROW_H, w);
    // The lock runs with a frame in view (frames f0 - 1 to f1 + 1, each cut to them), found by binary search in the
    // motion's runs (read once for each edit: lockRangesOf), where each paint read every joint's word of every
    // frame in view (docs/architecture.md, "Renderer review, round 6").
    const lo = Math.max(0, f0 - 1);
    const hi = Math.min(m.frameCount, f1 + 1);
    const ranges = lockRangesOf(m);
    const [ra, rb] = locksInView(ranges, lo, hi);
    // The bars' names, whole, for the canvas's accessible name: drawn, they are cut to the bar ("LeftF…" in the
    // Project mode at 1280x800), and the tooltip names only the lock under the pointer (tried cold, rounds 24, 27).
    const named: string[] = [];
    const drawn: string[] = [];
    for (let i = ra; i < rb; i++) {
      const r = ranges[i];
      const first = Math.max(lo, r.first);
      const last = Math.min(hi, r.last);
      named.push(`${m.joints[r.joint].name} at ${framesSpanLabel(first, last)}`);
      const xa = frameToX(axis, first - 0.5);
      const xb = frameToX(axis, last + 0.5);
      ctx.fillStyle = LOCK_PALETTE[r.joint % LOCK_PALETTE.length];
      ctx.globalAlpha = 0.75;
      ctx.fillRect(xa, y + 3, Math.max(2, xb - xa), LOCK_ROW_H - 6);
      ctx.globalAlpha = 1;
      // The joint's name on its bar, whole where the bar has room for it, else cut with "…" (never sliced
      // mid-letter), or none where not even a letter and "…" fit: the tooltip names the lock under the pointer whole
      // (lockRowTitle). Round 25 let a name run on over the free row after its bar; in the Tuning mode at 1280x800
      // "LeftFoot" then read across the bar's end, as if the lock went on (tried cold, round 27).
      const left = Math.max(xa, GUTTER) + 3;
      const end = Math.min(xb, axis.right + RIGHT_PAD);
      const label = lockBarLabel(m.joints[r.joint].name, end - left - 3, (t) => ctx.measureText(t).width);
      if (label) {
        drawn.push(label);
        ctx.save();
        ctx.beginPath();
        ctx.rect(xa, y, xb - xa, LOCK_ROW_H);
        ctx.clip();
        ctx.fillStyle = '#111';
        ctx.fillText(label, left, y + LOCK_ROW_H / 2);
        ctx.restore();
      }
    }
    this.surface.canvas.dataset.lockLabels = drawn.join('|');
    const label = named.length ? `${TIMELINE_LABEL}. Locks in view: ${named.join(', ')}` : TIMELINE_LABEL;
    if (this.surface.canvas.getAttribute('aria-label') !== label) this.surface.canvas.setAttribute('aria-label', label);
    if (this.lockDrag) {
      const a = Math.min(this.lockDrag.anchor, this.lockDrag.current);
      const b = Math.max(this.lockDrag.anchor, this.lockDrag.current);
      const xa = frameToX(axis, a - 0.5);
      const xb = frameToX(axis, b + 0.5);
      ctx.strokeStyle = this.lockDrag.clear ? '#ffffff' : COLORS.selection;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(xa + 0.5, y + 1.5, xb - xa - 1, LOCK_ROW_H - 3);
      ctx.setLineDash([]);
    }
    ctx.restore();
  }

  /** The trace row's keys, drawn after the playhead line so that it never cuts one in two. */
  private paintTraceMarkers(
    ctx: CanvasRenderingContext2D,
    m: Motion,
    axis: TimeAxis,
    w: number,
    f0: number,
    f1: number,
  ): void {
    const y = SPECIAL_TOP + LOCK_ROW_H;
    clipToPlot(ctx, y, TRACE_ROW_H, w);
    const cy = y + TRACE_ROW_H / 2;
    // The trace always has keys at 0 and N (hollow); TRACE frames are filled. The TRACE frames in view by binary
    // search in the motion's (read once for each edit: traceFramesOf), as the lock row's runs.
    const trace = traceFramesOf(m);
    ctx.strokeStyle = COLORS.trace;
    ctx.lineWidth = 1;
    for (const f of [0, m.frameCount]) {
      if (hasKey(trace, f)) continue;
      diamondPath(ctx, frameToX(axis, f), cy, 4.5);
      ctx.stroke();
    }
    ctx.fillStyle = COLORS.trace;
    const [a, b] = keysInView(trace, Math.max(0, f0 - 1), Math.min(m.frameCount, f1 + 1));
    for (let i = a; i < b; i++) {
      diamondPath(ctx, frameToX(axis, trace[i]), cy, 5.5);
      ctx.fill();
    }
    ctx.restore();
  }

  /** The trace row's band (its keys go over the playhead line: paintTraceMarkers). */
  private paintTraceRow(ctx: CanvasRenderingContext2D, w: number): void {
    const y = SPECIAL_TOP + LOCK_ROW_H;
    paintPinnedRowBand(ctx, y, TRACE_ROW_H, w, '#1f2227', COLORS.trace, 'Trace keys (click)');
    ctx.strokeStyle = COLORS.gridMajor;
    ctx.beginPath();
    ctx.moveTo(0, JOINTS_TOP - 0.5);
    ctx.lineTo(w, JOINTS_TOP - 0.5);
    ctx.stroke();
  }

  // -------------------------------------------------------------------------
  // Interaction

  private local(e: PointerEvent | WheelEvent): { x: number; y: number } {
    const r = this.surface.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private frameAt(x: number): number {
    return frameUnder(this.axis!, x, documentStore.getState().motion!.frameCount);
  }

  private onPointerDown = (e: PointerEvent): void => {
    // The field being typed in applies first: its undo step comes before this press's (renderer/app/fieldUndo.ts).
    applyFocusedField(e.target);
    const m = documentStore.getState().motion;
    if (!m || !this.axis) return;
    const { x, y } = this.local(e);
    const s = sessionStore.getState();
    const doc = documentStore.getState();
    this.surface.canvas.setPointerCapture(e.pointerId);
    if (e.button === 1 || e.button === 2) {
      this.pan = { x0: x, y0: y, x, y, start: s.viewStart, end: s.viewEnd, button: e.button };
      return;
    }
    // y is in content coordinates; the header rows are pinned at the visible top.
    const yv = y - this.host.scrollTop;
    if (yv >= JOINTS_TOP) {
      const item = this.rowAtY(y);
      if (item?.kind === 'group') {
        // A chain header: a click on its label folds or unfolds the group; on the frames, moves the playhead.
        if (x < GUTTER) this.setFolded(item.group, !item.folded);
        else {
          s.setPlaying(false);
          s.setPlayhead(this.frameAt(x));
        }
        return;
      }
      const row = this.jointAtY(y);
      // Ctrl/Shift+click on a label overlays that joint's curves on the selected one's (again: takes it out).
      if (x < GUTTER && (e.ctrlKey || e.metaKey || e.shiftKey)) {
        if (row >= 0 && row < m.joints.length) s.toggleOverlayJoint(row);
        return;
      }
      if (row >= -1 && row < m.joints.length) s.select(row);
      if (x >= GUTTER) {
        s.setPlaying(false);
        s.setPlayhead(this.frameAt(x));
      }
      return;
    }
    if (x < GUTTER) return;
    const f = this.frameAt(x);
    if (yv < RULER_H) {
      this.scrubbing = true;
      s.setPlaying(false);
      s.setPlayhead(f);
      return;
    }
    if (yv < RULER_H + LOCK_ROW_H) {
      if (doc.readOnly) return;
      const j = s.selectedJoint;
      const clear = j >= 0 && !!(m.jointKeyInfo[(f * m.joints.length + j) * 4] & KeyFlag.LOCK);
      this.lockDrag = { anchor: f, current: f, clear };
      this.surface.invalidate();
      return;
    }
    if (!doc.readOnly) doc.trace.toggle(f);
  };

  private onPointerMove = (e: PointerEvent): void => {
    if (!this.axis) return;
    const { x, y } = this.local(e);
    const s = sessionStore.getState();
    const yv = y - this.host.scrollTop;
    this.pointer = { x: e.clientX, y: e.clientY };
    // The lock bars' names are cut to their width ("LeftF…"): the lock under the pointer, whole, in the tooltip.
    const m0 = documentStore.getState().motion;
    const title = !m0
      ? ''
      : x >= GUTTER && yv >= SPECIAL_TOP && yv < SPECIAL_TOP + LOCK_ROW_H
        ? lockRowTitle(m0, this.frameAt(x), s.selectedJoint)
        : x < GUTTER && yv >= JOINTS_TOP
          ? labelRowTitle(m0, this.rowAtY(y))
          : '';
    if (this.surface.canvas.title !== title) this.surface.canvas.title = title;
    const row = yv >= JOINTS_TOP ? this.jointAtY(y) : -99;
    const changedRow = (this.hoverPoint?.row ?? -99) !== row;
    this.hoverPoint = row > -99 ? { x, y, row } : null;
    s.setHover(x >= GUTTER ? this.frameAt(x) : null);
    if (changedRow) this.surface.invalidate();
    if (this.scrubbing) s.setPlayhead(this.frameAt(x));
    if (this.lockDrag) {
      const f = this.frameAt(x);
      if (f !== this.lockDrag.current) {
        this.lockDrag.current = f;
        this.surface.invalidate();
      }
    }
    if (this.pan) {
      this.pan.x = x;
      this.pan.y = y;
      const m = documentStore.getState().motion!;
      const [a, b] = dragPanView(this.pan, x - this.pan.x0, this.axis.right - this.axis.left, m.frameCount);
      s.setView(a, b);
    }
  };

  private onPointerUp = (e: PointerEvent): void => {
    this.scrubbing = false;
    const pan = this.pan;
    this.pan = null;
    // A right-click (released where it was pressed; a right-drag pans): the commands at the frame under it.
    if (pan?.button === 2 && Math.abs(pan.x - pan.x0) <= 4 && Math.abs(pan.y - pan.y0) <= 4) {
      this.openMenu({ x: e.clientX, y: e.clientY });
      return;
    }
    const d = this.lockDrag;
    this.lockDrag = null;
    if (!d) return;
    this.surface.invalidate();
    // The whole drag is one edit, applied on release: one undo step.
    const doc = documentStore.getState();
    const joint = sessionStore.getState().selectedJoint;
    if (d.clear) {
      doc.locks.clearRange(joint, d.anchor, d.current);
      return;
    }
    const r = doc.locks.setRange(joint, d.anchor, d.current);
    const [first, last] = [Math.min(d.anchor, d.current), Math.max(d.anchor, d.current)];
    if (!r.ok) sessionStore.getState().refuse(r.message, { edit: 'lock', joint, first, last }, r.fix);
  };

  /**
   * The right-click menu at `at` (client coordinates), for the frame under it: over a joint row it selects that joint
   * first, as a click does (on its label: at the playhead), over a lock bar the lock's joint; over a chain header its
   * fold and show commands (renderer/app/tuningMenu.ts).
   */
  private openMenu(at: { x: number; y: number }): void {
    const r = this.surface.canvas.getBoundingClientRect();
    const x = at.x - r.left;
    const y = at.y - r.top;
    if (!this.axis) return;
    const yv = y - this.host.scrollTop;
    const item = yv >= JOINTS_TOP ? this.rowAtY(y) : null;
    // A chain header, on its label or its frames: the outliner's fold and show commands (round 17).
    if (item?.kind === 'group') {
      openChainMenu(at, item.group, this.surface.canvas);
      return;
    }
    // A joint's label: that joint, at the playhead (a label is no frame), as a click on it selects it.
    if (x < GUTTER) {
      if (item?.kind === 'joint') openTuningMenu('timeline', at, playheadFrame(), item.joint, this.surface.canvas);
      return;
    }
    const f = this.frameAt(x);
    // On a lock bar: its joint (the menu then unlocks it), as a row's label selects that row's joint.
    const m = documentStore.getState().motion!;
    const onLock = yv >= SPECIAL_TOP && yv < SPECIAL_TOP + LOCK_ROW_H ? lockAt(m, f)?.joint : undefined;
    const joint = yv >= JOINTS_TOP ? this.jointAtY(y) : onLock;
    if (joint === -99) return;
    openTuningMenu('timeline', at, f, joint, this.surface.canvas);
  }

  private onWheel = (e: WheelEvent): void => {
    const m = documentStore.getState().motion;
    if (!m || !this.axis) return;
    // Plain wheel scrolls the rows; Ctrl/Alt + wheel zooms time, Shift + wheel pans time.
    const s = sessionStore.getState();
    if (!(e.ctrlKey || e.altKey || e.shiftKey)) return;
    e.preventDefault();
    const view = { start: s.viewStart, end: s.viewEnd };
    const [a, b] =
      e.shiftKey && !(e.ctrlKey || e.altKey)
        ? wheelPanView(view, e, m.frameCount)
        : wheelZoomView(view, this.axis, this.local(e).x, e.deltaY, m.frameCount);
    s.setView(a, b);
  };

  dispose(): void {
    for (const u of this.unsubscribers) u();
    for (const el of this.snaps) el.remove();
    this.surface.dispose();
  }
}

/**
 * The band of a pinned row (locks, trace keys): its background across the
 * frames, the gutter beside it and the row's label in the gutter. Leaves the
 * label font and left alignment set for the row's own text.
 */
/** Saves the context and clips drawing to the plot part (right of the label gutter) of a row; restore after. */
function clipToPlot(ctx: CanvasRenderingContext2D, y: number, rowHeight: number, width: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(GUTTER, y, width - GUTTER, rowHeight);
  ctx.clip();
}

function paintPinnedRowBand(
  ctx: CanvasRenderingContext2D,
  y: number,
  rowHeight: number,
  width: number,
  background: string,
  labelColor: string,
  label: string,
): void {
  ctx.fillStyle = background;
  ctx.fillRect(GUTTER, y, width - GUTTER, rowHeight);
  ctx.fillStyle = COLORS.gutterBg;
  ctx.fillRect(0, y, GUTTER - 1, rowHeight);
  ctx.fillStyle = labelColor;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.fillText(label, 6, y + rowHeight / 2);
}
