/**
 * The window layout: which panels show, which are collapsed to their header, how tall the bottom rows and how
 * wide the side columns are, and which work mode (tuning, sound events, project) has the window to itself.
 *
 * Rows of the centre column, top to bottom: viewport, curve view, timeline, SEV editor. The viewport is the
 * flexible row (it takes what the others leave); the others have heights, the user's own or defaults that follow
 * the window (defaultHeights), that a short window shrinks, never below their minimums. Columns: project panel, centre, tuning panel.
 *
 * Sizes and collapsed panels are remembered per layout: the full window ("all") and each maximized work mode,
 * so collapsing the curve view in the sound-events mode leaves the full layout alone. Persisted in localStorage
 * like the other preferences. The tuner-only layout (no project, no .sev) keeps its curve and timeline heights
 * in the preferences store (renderer/state/preferencesStore.ts), as before.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { keepDamagedSetting, settingsWriteFailed } from '../state/preferencesStore';

export type PanelId = 'project' | 'viewport' | 'curves' | 'timeline' | 'sev' | 'tuning';
/** The panels in the order of the Window menu. */
export const PANELS: readonly PanelId[] = ['project', 'viewport', 'curves', 'timeline', 'sev', 'tuning'];
export const PANEL_TITLES: Record<PanelId, string> = {
  project: 'Project',
  viewport: 'Viewport',
  curves: 'Curves',
  timeline: 'Timeline',
  sev: 'Sound events',
  tuning: 'Tuning',
};

/** A work mode that can take the whole window. */
export type WorkMode = 'tuning' | 'sev' | 'project';
export const WORK_MODES: readonly WorkMode[] = ['tuning', 'sev', 'project'];
export const WORK_MODE_TITLES: Record<WorkMode, string> = { tuning: 'Tuning', sev: 'Sound events', project: 'Project' };
/** The panels a maximized work mode shows; the others are hidden until the mode is restored. */
export const MODE_PANELS: Record<WorkMode, readonly PanelId[]> = {
  tuning: ['viewport', 'curves', 'timeline', 'tuning'],
  sev: ['viewport', 'timeline', 'sev'],
  project: ['project', 'viewport', 'timeline', 'sev'],
};

/** A saved layout: the full window, or one maximized work mode. */
export type LayoutKey = 'all' | WorkMode;

export interface RowHeights {
  curvesHeight: number;
  timelineHeight: number;
  sevHeight: number;
}

export interface ProjectLayout {
  projectWidth: number;
  /** Width (px) of the left column in the side-by-side arrangement (viewport over the project panel); see isSideBySide. */
  sideWidth: number;
  /**
   * Width (px) of the viewport's column in the beside arrangement (a wide window: the viewport beside the curves and
   * timeline), set with its splitter; null: it follows the window (defaultBesideWidth). See arrangementOf.
   */
  besideWidth: number | null;
  /**
   * Heights of the bottom rows per layout (px, whole panel with its header) that the user set with a splitter.
   * A height not set here follows the window (defaultHeights), so a larger window gives its room to the timeline.
   */
  heights: Record<LayoutKey, Partial<RowHeights>>;
  /** Panels collapsed to their header (rows) or to a strip (columns), per layout. */
  collapsed: Record<LayoutKey, PanelId[]>;
  /** The work mode that has the window, or null for the full layout. */
  maximized: WorkMode | null;
  /**
   * The SEV editor's event list's share (0..1) of the editor's width beside the SE table, set with the divider
   * between them; null: the default split for the editor's width (sev.css).
   */
  sevListShare: number | null;
}

const KEY = 'actguy.projectLayout';
/** Saved layouts of this version keep only the heights the user set; older ones saved every default as well. */
const VERSION = 2;

function defaults(): ProjectLayout {
  return {
    projectWidth: 250,
    sideWidth: 360,
    besideWidth: null,
    heights: { all: {}, tuning: {}, sev: {}, project: {} },
    collapsed: { all: [], tuning: [], sev: [], project: [] },
    maximized: null,
    sevListShare: null,
  };
}

/** Limits of ProjectLayout.sevListShare: a saved share outside them is read as unset. */
export const SEV_LIST_SHARE = { min: 0.1, max: 0.9 } as const;

/** The fixed default heights versions before VERSION saved for every layout (read as "not set by the user"). */
const OLD_DEFAULTS: Record<LayoutKey, RowHeights> = {
  all: { curvesHeight: 230, timelineHeight: 210, sevHeight: 260 },
  tuning: { curvesHeight: 278, timelineHeight: 222, sevHeight: 260 },
  sev: { curvesHeight: 230, timelineHeight: 200, sevHeight: 290 },
  project: { curvesHeight: 230, timelineHeight: 190, sevHeight: 300 },
};

/**
 * Least default heights (px, whole panel with its header) of each layout's rows: the curve view shows 120+ px of
 * values (the full layout's curves stand in a narrower column at 1280 px, where their header takes two lines),
 * the timeline six whole joint rows, the SEV editor three or more events. In the sound-events mode the SEV editor is
 * the row the work is done in (a sound designer's day): it gets 310 px, eight events and the floor variants' first
 * line at 1280x800 (it had 240, five events), and the timeline keeps its lock row (the foot plants a footstep goes
 * on) and three joint rows; the viewport keeps ROW_COMFORT's 250 px, the character whole (tried cold, round 12).
 */
export const DEFAULT_HEIGHTS: Record<LayoutKey, RowHeights> = {
  all: { curvesHeight: 280, timelineHeight: 208, sevHeight: 240 },
  tuning: { curvesHeight: 262, timelineHeight: 208, sevHeight: 240 },
  sev: { curvesHeight: 262, timelineHeight: 170, sevHeight: 310 },
  project: { curvesHeight: 262, timelineHeight: 208, sevHeight: 240 },
};
/** The share of the centre column the viewport gets by default before the timeline takes what is spare. */
export const VIEWPORT_SHARE = 0.4;
/** The most the timeline takes by default (px): every joint row of a 31-joint skeleton and its ruler and rows. */
export const TIMELINE_DEFAULT_MAX = 560;
/** The most the SEV editor takes by default in the sound-events mode (px): about fifteen events with the floor variants. */
export const SEV_DEFAULT_MAX = 600;

/**
 * The heights a layout's rows have until the user drags a splitter, in a window `windowHeight` px tall: each row
 * its DEFAULT_HEIGHTS, and when the window is taller than those rows and VIEWPORT_SHARE of the column for the
 * viewport, the rest goes to the timeline (up to TIMELINE_DEFAULT_MAX), so a large window shows more joints
 * rather than a larger picture; in the sound-events mode to the SEV editor first (up to SEV_DEFAULT_MAX), the
 * events being what that mode is for. The full layout arranged beside (arrangementOf) gives its SEV editor
 * BESIDE_SEV_HEIGHT; its timeline takes what is left there, whatever its default.
 */
export function defaultHeights(key: LayoutKey, windowHeight: number, arrangement: Arrangement = 'stacked'): RowHeights {
  if (key === 'all' && arrangement === 'beside') return { ...DEFAULT_HEIGHTS.all, sevHeight: BESIDE_SEV_HEIGHT };
  const want = DEFAULT_HEIGHTS[key];
  const shown: readonly PanelId[] = key === 'all' ? PANELS : MODE_PANELS[key];
  const column = windowHeight - WINDOW_CHROME;
  const used =
    (shown.includes('curves') ? want.curvesHeight : 0) +
    (shown.includes('timeline') ? want.timelineHeight : 0) +
    (shown.includes('sev') ? want.sevHeight : 0);
  let spare = Math.max(0, column - used - Math.round(VIEWPORT_SHARE * column));
  let sevHeight = want.sevHeight;
  if (key === 'sev') {
    sevHeight = Math.min(SEV_DEFAULT_MAX, want.sevHeight + spare);
    spare -= sevHeight - want.sevHeight;
  }
  return { ...want, sevHeight, timelineHeight: Math.min(TIMELINE_DEFAULT_MAX, want.timelineHeight + spare) };
}

/**
 * The SEV editor's default height (px) in the full layout's beside arrangement (a window 1593 px or wider and 976 px
 * or taller). There the timeline, beside the viewport's column, takes what the curves and the editor leave: at
 * DEFAULT_HEIGHTS.all's 240 px the editor showed five events and, at 1600x1000, the selected SE's floor variants
 * under the window's edge while the timeline had 19 joint rows. At 294 the variants show whole under the SE table,
 * the list seven events, the timeline 16 joint rows at 1600x1000 (every one of walk's 23 at 1920x1080) and the 3D
 * view 478x507 px (tried cold, round 13).
 */
export const BESIDE_SEV_HEIGHT = 294;

/**
 * A layout's row heights in a window `windowHeight` px tall, the full layout arranged as `arrangement`: the user's
 * own, else the defaults (defaultHeights).
 */
export function rowHeights(
  layout: Pick<ProjectLayout, 'heights'>,
  key: LayoutKey,
  windowHeight: number,
  arrangement: Arrangement = 'stacked',
): RowHeights {
  return { ...defaultHeights(key, windowHeight, arrangement), ...layout.heights[key] };
}

/**
 * Smallest heights (px, whole panel including its header) at which each bottom panel stays usable. The curve
 * view needs room for its header (two lines at 1280 px), a 150 px canvas for the ruler, three or four value rows,
 * the key band and the error band with its readout (renderer/curves/gutterLabels.ts drops secondary labels below
 * that, but the curves themselves need height), and its hint line.
 * The timeline keeps its header, pinned ruler, lock and trace rows, two whole joint rows and its help line; the SEV
 * editor its toolbar, event row and a few events.
 */
export const PANEL_MIN = { curves: 226, timeline: 150, sev: 150 } as const;
/** The 3D viewport keeps at least this height (px) when the window is short; the bottom panels shrink first. */
export const VIEWPORT_MIN = 200;
/** Height (px) of everything that is not a resizable row: menu bar, status bar, splitters (estimated generously). */
export const WINDOW_CHROME = 26 + 24 + 4 * 5;
/** Height (px) of a row collapsed to its header, for the sums (the grid sizes it to its content). */
export const COLLAPSED_ROW = 40;
/** Width (px) of a side column collapsed to a strip. */
export const COLLAPSED_COLUMN = 26;
/** Side columns' widths (px): what each needs, and the least the centre column (viewport, curves) keeps. */
export const COLUMN_MIN = { project: 180, tuning: 240 } as const;
export const COLUMN_MAX = { project: 640, tuning: 700 } as const;
export const CENTER_MIN = 420;
/** Width (px) of a vertical splitter. */
export const SPLITTER = 5;

/**
 * Heights (px) at which each row of the full layout is comfortable: the viewport shows the character whole, the
 * timeline five or more joint rows, the SEV editor several events. When the stacked rows cannot all have them
 * (a 1280x800 laptop), the full layout with a .sev goes side by side (useSideBySide).
 */
export const ROW_COMFORT: Record<RowId, number> = { viewport: 250, curves: PANEL_MIN.curves, timeline: 200, sev: 230 };
/** Least height (px) of the timeline in the side-by-side arrangement, where it takes the room the curves leave: five joint rows. */
export const SIDE_TIMELINE_MIN = 200;
/** Limits (px) of the side-by-side arrangement's left column (viewport over the project panel). */
export const SIDE_MIN = 320;
export const SIDE_MAX = 900;

/**
 * Whether the full layout goes side by side: viewport over the project panel on the left, curves over timeline in
 * the centre beside the tuning panel, the SEV editor under the curves, timeline and tuning panel. Stacked, the
 * viewport, curve view, timeline and SEV editor share one column, which a window shorter than their comfortable
 * heights (ROW_COMFORT) cannot give them: at 1280x800 the viewport kept 90 px and the timeline two joint rows.
 * Only the full layout with a .sev in the editor, the project panel and every row open (the curve view may be
 * collapsed), and a window wide enough for the three columns; the work modes and a layout with another panel
 * collapsed stay stacked (they have the room).
 */
export function isSideBySide(
  win: { width: number; height: number },
  states: Record<PanelId, PanelState>,
  opts: { maximized: WorkMode | null; sevPanel: boolean },
): boolean {
  if (opts.maximized !== null || !opts.sevPanel) return false;
  // The curve view may be collapsed (its header stays over the timeline, which takes its room); the viewport, the
  // timeline it stands beside, the SEV editor and the project panel under it must be open.
  if (
    (['project', 'viewport', 'timeline', 'sev'] as const).some((id) => states[id] !== 'open') ||
    states.curves === 'hidden'
  )
    return false;
  const stacked = WINDOW_CHROME + ROWS.reduce((a, id) => a + ROW_COMFORT[id], 0);
  return win.height < stacked && win.width >= SIDE_MIN + CENTER_MIN + COLUMN_MIN.tuning + 2 * SPLITTER;
}

/**
 * How the full layout is arranged: `stacked` (viewport over curves over timeline over the SEV editor in one column),
 * `side-by-side` (a short window, isSideBySide), or `beside`: in a wide window whose column, less the other rows at
 * their default heights (DEFAULT_HEIGHTS), would leave the viewport under VIEWPORT_SHARE of it (at 1920x1080 a
 * 230 px strip over the curves: tried cold, rounds 9 and 10), the viewport takes its own column beside the curves
 * and timeline, as tall as both. The project panel keeps its column on the left and the SEV editor its full width
 * under the viewport, curves, timeline and tuning panel, so the selected SE's floor variants keep the room they have
 * stacked (going side by side there cut them). The default heights decide, not the user's: a splitter drag never
 * flips the arrangement under the pointer.
 */
export type Arrangement = 'stacked' | 'side-by-side' | 'beside';

/** The viewport column's share of the window's width in the beside arrangement until its splitter sets it. */
export const BESIDE_SHARE = 0.3;
/**
 * Least width (px) the curves keep in the beside arrangement at the default column widths: a little under the 580
 * they have side by side at 1280x800 (520: at 1600 px wide they get 525), so a time axis the laptop finds usable.
 * At 560 (until the twelfth cold round) a 1600x1000 window stayed stacked with a 3D view of 1010x135 px.
 */
export const BESIDE_CURVES_MIN = 520;
/**
 * Least window width (px) for the beside arrangement: the project (250) and tuning (330) columns at their default
 * widths, the viewport's column (BESIDE_SHARE of the window), three splitters and BESIDE_CURVES_MIN for the curves:
 * 1593. At 1800 (its value until the eleventh cold round) a 1680x1050 window stayed stacked with a 3D view of
 * 1090x200 px; at 1650 (until the twelfth) a 1600x1000 one with 1010x135 px; beside it is about 480x700 px.
 */
export const BESIDE_MIN_WIDTH = Math.ceil((250 + 330 + 3 * SPLITTER + BESIDE_CURVES_MIN) / (1 - BESIDE_SHARE));

/** The viewport column's width (px) in the beside arrangement until the user drags its splitter. */
export function defaultBesideWidth(windowWidth: number): number {
  return Math.min(SIDE_MAX, Math.max(SIDE_MIN, Math.round(BESIDE_SHARE * windowWidth)));
}

export function arrangementOf(
  win: { width: number; height: number },
  states: Record<PanelId, PanelState>,
  opts: { maximized: WorkMode | null; sevPanel: boolean },
): Arrangement {
  if (isSideBySide(win, states, opts)) return 'side-by-side';
  if (opts.maximized !== null || !opts.sevPanel || win.width < BESIDE_MIN_WIDTH) return 'stacked';
  if ((['viewport', 'timeline', 'sev'] as const).some((id) => states[id] !== 'open') || states.curves === 'hidden')
    return 'stacked';
  const column = win.height - WINDOW_CHROME;
  const { curvesHeight, timelineHeight, sevHeight } = DEFAULT_HEIGHTS.all;
  return column - curvesHeight - timelineHeight - sevHeight < VIEWPORT_SHARE * column ? 'beside' : 'stacked';
}

/** A sized panel as fitSizes takes it: its wanted size, its minimum, and whether it gives up room last (`keep`). */
export interface PanelSize {
  wanted: number;
  min: number;
  keep?: boolean;
}

/**
 * Sizes `panels` into `available` px, leaving `flexMin` for the flexible neighbour. Each wanted size is raised to
 * its minimum (sizes saved by older versions may be smaller), then, when the panels and `flexMin` do not fit,
 * the panels not marked `keep` give up room in proportion to what they have above their minimum, and only when
 * they are all at their minimum do the kept ones give up theirs (a work mode's own panel: the SEV editor in the
 * sound-events mode). When even the minimums do not fit, the minimums are returned.
 */
export function fitSizes(available: number, panels: readonly PanelSize[], flexMin: number): number[] {
  const out = panels.map((p) => Math.max(p.min, Math.round(p.wanted)));
  let excess = out.reduce((a, b) => a + b, 0) - (available - flexMin);
  for (const kept of [false, true]) {
    if (excess <= 0) break;
    const group = panels.flatMap((p, i) => ((p.keep ?? false) === kept ? [i] : []));
    const slack = group.map((i) => out[i] - panels[i].min);
    const totalSlack = slack.reduce((a, b) => a + b, 0);
    if (totalSlack <= 0) continue;
    const share = Math.min(1, excess / totalSlack);
    group.forEach((i, k) => {
      const size = Math.floor(out[i] - slack[k] * share);
      excess -= out[i] - size;
      out[i] = size;
    });
  }
  return out;
}

/**
 * The heights to show for the bottom panels in a window `windowHeight` px tall (see fitSizes); `fixed` px are
 * taken by rows that are not resizable (a collapsed panel, the SEV header of the tuner-only layout). The user's
 * saved sizes are not changed, so enlarging the window brings them back.
 */
export function fitPanelHeights(
  windowHeight: number,
  panels: readonly PanelSize[],
  fixed = 0,
  flexMin = VIEWPORT_MIN,
): number[] {
  return fitSizes(windowHeight - WINDOW_CHROME - fixed, panels, flexMin);
}

/**
 * A splitter drag: panel `index` asks for `size`. It gets it up to what the window allows once every other
 * panel is at its minimum and the flexible row keeps `flexMin`; the others give up the room it takes beyond
 * the window, in proportion to what they have above their minimum. Returns every panel's new saved size, so
 * a drag moves the splitter under the pointer instead of being shared out again on the next render.
 */
export function resizeWithin(
  available: number,
  panels: readonly PanelSize[],
  index: number,
  size: number,
  flexMin: number,
): number[] {
  const current = fitSizes(available, panels, flexMin);
  const othersMin = panels.reduce((a, p, i) => (i === index ? a : a + p.min), 0);
  const max = Math.max(panels[index].min, available - flexMin - othersMin);
  const mine = Math.max(panels[index].min, Math.min(max, Math.round(size)));
  let excess = current.reduce((a, b, i) => (i === index ? a : a + b), mine) - (available - flexMin);
  const out = current.slice();
  out[index] = mine;
  if (excess <= 0) return out;
  const slack = out.map((w, i) => (i === index ? 0 : w - panels[i].min));
  const totalSlack = slack.reduce((a, b) => a + b, 0);
  for (let i = 0; i < out.length; i++) {
    if (i === index || totalSlack <= 0) continue;
    const give = Math.min(slack[i], Math.floor((excess * slack[i]) / totalSlack));
    out[i] -= give;
  }
  excess = out.reduce((a, b) => a + b, 0) - (available - flexMin);
  // Rounding down leaves a pixel or two: take them from whoever still has room.
  for (let i = 0; i < out.length && excess > 0; i++) {
    if (i === index) continue;
    const give = Math.min(excess, out[i] - panels[i].min);
    out[i] -= give;
    excess -= give;
  }
  return out;
}

/** The largest size panel `index` can take (see resizeWithin). */
export function maxSizeWithin(
  available: number,
  panels: readonly { min: number }[],
  index: number,
  flexMin: number,
): number {
  const othersMin = panels.reduce((a, p, i) => (i === index ? a : a + p.min), 0);
  return Math.max(panels[index].min, available - flexMin - othersMin);
}

/** How a row or column shows: not at all (another work mode has the window), as its header only, or open. */
export type PanelState = 'hidden' | 'collapsed' | 'open';

export type RowId = 'viewport' | 'curves' | 'timeline' | 'sev';
export const ROWS: readonly RowId[] = ['viewport', 'curves', 'timeline', 'sev'];

export interface RowInput {
  state: PanelState;
  /** Saved height (ignored for the viewport). */
  wanted: number;
  min: number;
  /**
   * The row keeps its height in a short window until the other sized rows are at their minimum (fitSizes): the
   * SEV editor in the sound-events mode, whose list is what that mode is for.
   */
  keep?: boolean;
  /** A row sized by its content whatever its state (the SEV header without a .sev): `height` px estimated. */
  autoHeight?: number;
}

export interface RowPlan {
  state: PanelState;
  /** The CSS grid track. */
  track: string;
  /** Height in px of a sized row; null for the flexible, collapsed, automatic and hidden rows. */
  height: number | null;
  /** Whether the splitter above the row shows (the row is open and sized). */
  splitter: boolean;
  /** The splitter's limits. */
  min: number;
  max: number;
}

/** How the rows share the column: the flexible row, the sized ones (in order), what the others take, the flexible row's least height. */
function stackOf(
  rows: Record<RowId, RowInput>,
  sideBySide: boolean,
): { flex: RowId | undefined; sized: RowId[]; fixed: number; flexMin: number } {
  // Side by side (isSideBySide) the viewport leaves the column: it stands beside the curves and timeline, which
  // take the room the SEV editor leaves, the timeline what the curves leave.
  const inColumn = ROWS.filter((id) => !(sideBySide && id === 'viewport'));
  const open = inColumn.filter((id) => rows[id].state === 'open' && rows[id].autoHeight === undefined);
  const flex: RowId | undefined = sideBySide
    ? 'timeline'
    : rows.viewport.state === 'open'
      ? 'viewport'
      : (open[open.length - 1] ?? inColumn.filter((id) => rows[id].state !== 'hidden').pop());
  const sized = open.filter((id) => id !== flex);
  let fixed = 0;
  for (const id of inColumn) {
    const r = rows[id];
    if (r.state === 'hidden' || id === flex) continue;
    if (r.autoHeight !== undefined && r.state === 'open') fixed += r.autoHeight;
    else if (r.state === 'collapsed') fixed += COLLAPSED_ROW;
  }
  const flexMin = sideBySide
    ? Math.max(SIDE_TIMELINE_MIN, rows.timeline.min)
    : flex === 'viewport'
      ? VIEWPORT_MIN
      : flex && rows[flex].state === 'open'
        ? rows[flex].min
        : 0;
  return { flex, sized, fixed, flexMin };
}

/**
 * Plans the centre column's rows: hidden rows take nothing, collapsed ones their header, sized ones their saved
 * height fitted to the window (fitPanelHeights), and one open row takes the rest: the viewport when it is open,
 * else the lowest open row (so collapsing the viewport gives its room to the panels), else the lowest visible row.
 * `sideBySide` (isSideBySide): the viewport stands beside the column (its own row is empty) and the timeline takes
 * the rest, at least SIDE_TIMELINE_MIN.
 */
export function planRows(
  windowHeight: number,
  rows: Record<RowId, RowInput>,
  sideBySide = false,
): Record<RowId, RowPlan> {
  const { flex, sized, fixed, flexMin } = stackOf(rows, sideBySide);
  const inputs = sized.map((id) => ({ wanted: rows[id].wanted, min: rows[id].min, keep: rows[id].keep }));
  const heights = fitPanelHeights(windowHeight, inputs, fixed, flexMin);
  const available = windowHeight - WINDOW_CHROME - fixed;
  const out = {} as Record<RowId, RowPlan>;
  for (const id of ROWS) {
    const r = rows[id];
    const i = sized.indexOf(id);
    let track: string;
    if (r.state === 'hidden' || (sideBySide && id === 'viewport')) track = '0px';
    else if (id === flex)
      track =
        r.state === 'open' ? `minmax(${id === 'viewport' ? 120 : Math.min(r.min, 120)}px, 1fr)` : 'minmax(auto, 1fr)';
    else if (i >= 0) track = `${heights[i]}px`;
    else track = 'auto';
    out[id] = {
      state: r.state,
      track,
      height: i >= 0 ? heights[i] : null,
      splitter: i >= 0,
      min: r.min,
      max: i >= 0 ? maxSizeWithin(available, inputs, i, flexMin) : r.min,
    };
  }
  return out;
}

/** A splitter drag on row `id`: the new saved heights of every sized row (see resizeWithin). */
export function resizeRow(
  windowHeight: number,
  rows: Record<RowId, RowInput>,
  id: RowId,
  size: number,
  sideBySide = false,
): Partial<Record<RowId, number>> {
  const { sized, fixed, flexMin } = stackOf(rows, sideBySide);
  const i = sized.indexOf(id);
  if (i < 0) return {};
  const next = resizeWithin(
    windowHeight - WINDOW_CHROME - fixed,
    sized.map((r) => ({ wanted: rows[r].wanted, min: rows[r].min, keep: rows[r].keep })),
    i,
    size,
    flexMin,
  );
  const out: Partial<Record<RowId, number>> = {};
  sized.forEach((r, k) => (out[r] = next[k]));
  return out;
}

export interface ColumnInput {
  state: PanelState;
  wanted: number;
  /** Limits (px) other than the column's own (COLUMN_MIN, COLUMN_MAX): the side-by-side left column. */
  min?: number;
  max?: number;
}
export interface ColumnPlan {
  state: PanelState;
  /** Width in px (0 hidden, the strip when collapsed). */
  width: number;
  splitter: boolean;
  min: number;
  max: number;
}

/**
 * Widths of the project and tuning columns in a window `windowWidth` px wide: collapsed ones are a strip, open
 * ones their saved width (within their limits) shrunk, never below their minimum, so the centre keeps CENTER_MIN.
 */
export function planColumns(
  windowWidth: number,
  cols: { project: ColumnInput; tuning: ColumnInput },
): { project: ColumnPlan; tuning: ColumnPlan } {
  const ids = ['project', 'tuning'] as const;
  const lo = (id: 'project' | 'tuning') => cols[id].min ?? COLUMN_MIN[id];
  const hi = (id: 'project' | 'tuning') => cols[id].max ?? COLUMN_MAX[id];
  const openIds = ids.filter((id) => cols[id].state === 'open');
  const strips = ids.filter((id) => cols[id].state === 'collapsed').length * COLLAPSED_COLUMN;
  const available = windowWidth - strips - openIds.length * SPLITTER;
  const inputs = openIds.map((id) => ({ wanted: Math.min(hi(id), cols[id].wanted), min: lo(id) }));
  const widths = fitSizes(available, inputs, CENTER_MIN);
  const plan = (id: 'project' | 'tuning'): ColumnPlan => {
    const i = openIds.indexOf(id as never);
    const state = cols[id].state;
    if (i < 0)
      return { state, width: state === 'collapsed' ? COLLAPSED_COLUMN : 0, splitter: false, min: lo(id), max: lo(id) };
    return {
      state,
      width: widths[i],
      splitter: true,
      min: lo(id),
      max: Math.min(hi(id), maxSizeWithin(available, inputs, i, CENTER_MIN)),
    };
  };
  return { project: plan('project'), tuning: plan('tuning') };
}

/** The panels shown in a layout, and how. */
export function panelStates(layout: Pick<ProjectLayout, 'collapsed' | 'maximized'>): Record<PanelId, PanelState> {
  const key: LayoutKey = layout.maximized ?? 'all';
  const shown = layout.maximized ? MODE_PANELS[layout.maximized] : PANELS;
  const out = {} as Record<PanelId, PanelState>;
  for (const id of PANELS)
    out[id] = !shown.includes(id) ? 'hidden' : layout.collapsed[key].includes(id) ? 'collapsed' : 'open';
  return out;
}

/** Height (px) no row can be given: taller than an 8K screen, and a splitter never gives a row more than its window. */
export const ROW_HEIGHT_MAX = 4320;

/**
 * The range (px) parseLayout brings each stored size within: what the splitters can set, a row never below its
 * minimum (PANEL_MIN) nor taller than any screen, a column within its limits (COLUMN_MIN..COLUMN_MAX, the
 * side-by-side left column SIDE_MIN..SIDE_MAX). The window then fits them (planRows, planColumns).
 */
export const STORED_SIZE_LIMITS = {
  projectWidth: [COLUMN_MIN.project, COLUMN_MAX.project],
  sideWidth: [SIDE_MIN, SIDE_MAX],
  besideWidth: [SIDE_MIN, SIDE_MAX],
  curvesHeight: [PANEL_MIN.curves, ROW_HEIGHT_MAX],
  timelineHeight: [PANEL_MIN.timeline, ROW_HEIGHT_MAX],
  sevHeight: [PANEL_MIN.sev, ROW_HEIGHT_MAX],
} as const satisfies Record<string, readonly [number, number]>;

function isPanel(v: unknown): v is PanelId {
  return typeof v === 'string' && (PANELS as readonly string[]).includes(v);
}

/**
 * Reads a saved layout; anything missing or malformed falls back to the defaults (older versions saved four numbers).
 * What is set aside (text that is not JSON, a value of the wrong kind) is added to `setAside`, in words.
 */
export function parseLayout(text: string | null, setAside: string[] = []): ProjectLayout {
  const out = defaults();
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text ?? '{}') as Record<string, unknown>;
  } catch {
    setAside.push('the text is not JSON');
    return out;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    setAside.push('it is not a layout');
    return out;
  }
  const num = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  const isRecord = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x);
  // A value of the wrong kind keeps its default, and is named: sizes are numbers, the per-layout maps objects, the
  // work mode one of WORK_MODES or null, the SEV list's share a number within its range.
  for (const k of ['projectWidth', 'sideWidth', 'curvesHeight', 'timelineHeight', 'sevHeight'] as const)
    if (v[k] !== undefined && !num(v[k])) setAside.push(k);
  if (v.besideWidth !== undefined && v.besideWidth !== null && !num(v.besideWidth)) setAside.push('besideWidth');
  for (const k of ['heights', 'collapsed'] as const) if (v[k] !== undefined && !isRecord(v[k])) setAside.push(k);
  if (v.maximized !== undefined && v.maximized !== null && !(WORK_MODES as readonly unknown[]).includes(v.maximized))
    setAside.push('maximized');
  if (
    v.sevListShare !== undefined &&
    v.sevListShare !== null &&
    !(num(v.sevListShare) && v.sevListShare >= SEV_LIST_SHARE.min && v.sevListShare <= SEV_LIST_SHARE.max)
  )
    setAside.push('sevListShare');
  // Stored sizes are input like any other: a width or height is brought within what the splitters can set (a
  // stored 1e308 curve height planned a 0 px row, below its minimum). See STORED_SIZE_LIMITS.
  const within = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, Math.round(x)));
  if (num(v.projectWidth)) out.projectWidth = within(v.projectWidth, STORED_SIZE_LIMITS.projectWidth);
  if (num(v.sideWidth)) out.sideWidth = within(v.sideWidth, STORED_SIZE_LIMITS.sideWidth);
  if (num(v.besideWidth)) out.besideWidth = within(v.besideWidth, STORED_SIZE_LIMITS.besideWidth);
  // The first version saved the full layout's heights at the top level.
  for (const k of ['curvesHeight', 'timelineHeight', 'sevHeight'] as const)
    if (num(v[k])) out.heights.all[k] = within(v[k], STORED_SIZE_LIMITS[k]);
  const heights = v.heights as Record<string, Record<string, unknown>> | undefined;
  const collapsed = v.collapsed as Record<string, unknown> | undefined;
  for (const key of ['all', ...WORK_MODES] as LayoutKey[]) {
    const h = heights?.[key];
    if (h && typeof h === 'object') {
      // Older versions saved the fixed defaults of layouts the user never resized: those follow the window now.
      const old =
        v.version !== VERSION &&
        (['curvesHeight', 'timelineHeight', 'sevHeight'] as const).every((k) => h[k] === OLD_DEFAULTS[key][k]);
      if (!old)
        for (const k of ['curvesHeight', 'timelineHeight', 'sevHeight'] as const)
          if (num(h[k])) out.heights[key][k] = within(h[k], STORED_SIZE_LIMITS[k]);
    }
    const c = collapsed?.[key];
    if (Array.isArray(c)) out.collapsed[key] = [...new Set(c.filter(isPanel))];
  }
  if (typeof v.maximized === 'string' && (WORK_MODES as readonly string[]).includes(v.maximized))
    out.maximized = v.maximized as WorkMode;
  if (num(v.sevListShare) && v.sevListShare >= SEV_LIST_SHARE.min && v.sevListShare <= SEV_LIST_SHARE.max)
    out.sevListShare = v.sevListShare;
  return out;
}

/** What the start set aside of the stored layout, in words for the message bar; null when nothing was. */
let readWarning: string | null = null;

/** See readWarning (renderer/main.tsx says it once at start). */
export function layoutReadWarning(): string | null {
  return readWarning;
}

/** The stored layout (`text`, read from localStorage), with what was set aside of it in readWarning. */
export function loadLayout(text: string | null): ProjectLayout {
  const setAside: string[] = [];
  const layout = parseLayout(text, setAside);
  readWarning = setAside.length
    ? `The saved panel layout (${KEY} in this window's storage) was set aside in part (${setAside.join(', ')}): the defaults are used there.`
    : null;
  return layout;
}

/** The text the layout is stored as (what parseLayout reads back without a word). */
function layoutText(l: ProjectLayout): string {
  const { projectWidth, sideWidth, besideWidth, heights, collapsed, maximized, sevListShare } = l;
  return JSON.stringify({
    version: VERSION,
    projectWidth,
    sideWidth,
    besideWidth,
    heights,
    collapsed,
    maximized,
    sevListShare,
  });
}

/**
 * The layout stored in `storage` (localStorage). What was set aside is said once: the text as found is kept under
 * setAsideKey, and the layout used is written over it (before 2026-12-04 the warning came back at every start until
 * the layout changed).
 */
export function readStoredLayout(storage: Pick<Storage, 'getItem' | 'setItem'>): ProjectLayout {
  const text = storage.getItem(KEY);
  const layout = loadLayout(text);
  if (readWarning !== null && text !== null)
    readWarning += keepDamagedSetting(storage, KEY, text, () => {
      try {
        storage.setItem(KEY, layoutText(layout));
      } catch (e) {
        settingsWriteFailed('The panel layout', e instanceof Error ? e.message : String(e));
      }
    });
  return layout;
}

function load(): ProjectLayout {
  try {
    return readStoredLayout(localStorage);
  } catch {
    return defaults();
  }
}

export interface ProjectLayoutActions {
  set(patch: Partial<Pick<ProjectLayout, 'projectWidth' | 'sideWidth' | 'besideWidth' | 'sevListShare'>>): void;
  /** Sets row heights of the layout on screen now. */
  setHeights(patch: Partial<RowHeights>): void;
  /** Collapses or restores a panel in the layout on screen now. */
  setCollapsed(panel: PanelId, collapsed: boolean): void;
  /** Gives the window to a work mode, or back to the full layout (null). */
  setMaximized(mode: WorkMode | null): void;
  /** Maximizes the mode, or restores the full layout when it already has the window. */
  toggleMaximized(mode: WorkMode): void;
  /** The full layout with every panel open (collapsed ones restored). */
  showAllPanels(): void;
  /**
   * The arrangement of a first start, in every work mode: panel widths and heights that follow the window, nothing
   * collapsed, no mode maximized, the SEV editor's default split (View › Reset Layout).
   */
  resetLayout(): void;
}

export const projectLayoutStore = createStore<ProjectLayout & ProjectLayoutActions>()((set, get) => {
  const save = () => {
    try {
      localStorage.setItem(KEY, layoutText(get()));
    } catch (e) {
      // storage unavailable: the layout lasts for this session, and the message bar says so once
      settingsWriteFailed('The panel layout', e instanceof Error ? e.message : String(e));
    }
  };
  const key = (): LayoutKey => get().maximized ?? 'all';
  return {
    ...load(),
    set(patch) {
      set(patch);
      save();
    },
    setHeights(patch) {
      const k = key();
      set({ heights: { ...get().heights, [k]: { ...get().heights[k], ...patch } } });
      save();
    },
    setCollapsed(panel, collapsed) {
      const k = key();
      const now = get().collapsed[k].filter((p) => p !== panel);
      set({ collapsed: { ...get().collapsed, [k]: collapsed ? [...now, panel] : now } });
      save();
    },
    setMaximized(mode) {
      set({ maximized: mode });
      save();
    },
    toggleMaximized(mode) {
      set({ maximized: get().maximized === mode ? null : mode });
      save();
    },
    showAllPanels() {
      set({ maximized: null, collapsed: { ...get().collapsed, all: [] } });
      save();
    },
    resetLayout() {
      set(defaults());
      save();
    },
  };
});

export function useProjectLayout(): ProjectLayout & ProjectLayoutActions {
  return useStore(projectLayoutStore);
}
