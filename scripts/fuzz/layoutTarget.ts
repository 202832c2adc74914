/**
 * Fuzz target `layout`: the panel layout the renderer keeps in localStorage under `actguy.projectLayout`
 * (renderer/project/layout.ts: widths, row heights per work mode, collapsed panels, the maximized mode, the SEV
 * list's share), as another version of the app or a damaged profile could leave it. Each input is read as the app
 * reads it at start-up (parseLayout).
 *
 * Judged: any throw is a crash; the layout it gives must be one the app can lay out (finite sizes, known panels
 * once each, a known work mode or none, a list share within its bounds, row heights for every layout in any
 * window) and survive its own storage: saved as the store saves it (version 2) and read again, the same layout. A
 * value that does not fit falls back to the default without a word (a layout is not a document), so an input is
 * accepted when some stored value was kept, rejected when the defaults are used.
 */
import {
  PANELS,
  parseLayout,
  rowHeights,
  SEV_LIST_SHARE,
  STORED_SIZE_LIMITS,
  WORK_MODES,
  type LayoutKey,
  type ProjectLayout,
} from '../../renderer/project/layout';
import { mutateJsonDocument, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';

const TOKENS = ['"besideWidth"', '1e309', '-1e308', '0', '0.05', '0.95', 'null', '"sev"', '"viewport"', '2', '1'];
const STRINGS = ['all', 'tuning', 'sev', 'project', 'viewport', 'curves', 'timeline', 'nope', '__proto__', 'NaN'];
const KEYS: LayoutKey[] = ['all', ...WORK_MODES];

/** The text the store saves (layout.ts save). */
const saved = (l: ProjectLayout) =>
  JSON.stringify({
    version: 2,
    projectWidth: l.projectWidth,
    sideWidth: l.sideWidth,
    besideWidth: l.besideWidth,
    heights: l.heights,
    collapsed: l.collapsed,
    maximized: l.maximized,
    sevListShare: l.sevListShare,
  });

function seeds(): Uint8Array[] {
  const l = parseLayout(null);
  l.projectWidth = 300;
  l.besideWidth = 600;
  l.heights.sev = { timelineHeight: 250, sevHeight: 320 };
  l.collapsed.all = ['curves', 'project'];
  l.maximized = 'sev';
  l.sevListShare = 0.4;
  // An older version's layout: four numbers at the top level.
  const old = JSON.stringify({ projectWidth: 260, curvesHeight: 230, timelineHeight: 210, sevHeight: 260 });
  return [saved(l), old].map((s) => new Uint8Array(Buffer.from(s)));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

/** Whether `v` lies in `[lo, hi]` (STORED_SIZE_LIMITS: what the splitters can set). */
const inRange = (v: number, [lo, hi]: readonly [number, number]) => v >= lo && v <= hi;

function check(l: ProjectLayout): void {
  must(Number.isFinite(l.projectWidth) && Number.isFinite(l.sideWidth), `widths ${l.projectWidth}, ${l.sideWidth}`);
  must(
    inRange(l.projectWidth, STORED_SIZE_LIMITS.projectWidth) && inRange(l.sideWidth, STORED_SIZE_LIMITS.sideWidth),
    `widths ${l.projectWidth}, ${l.sideWidth} outside what the splitters set`,
  );
  must(
    l.besideWidth === null || inRange(l.besideWidth, STORED_SIZE_LIMITS.besideWidth),
    `beside width ${l.besideWidth} outside what its splitter sets`,
  );
  for (const key of KEYS)
    for (const [k, v] of Object.entries(l.heights[key]) as [keyof typeof STORED_SIZE_LIMITS, number][])
      must(inRange(v, STORED_SIZE_LIMITS[k]), `${key} ${k} ${v} outside what the splitters set`);
  for (const key of KEYS) {
    const c = l.collapsed[key];
    must(Array.isArray(c) && c.every((p) => PANELS.includes(p)) && new Set(c).size === c.length, `collapsed ${key}`);
    for (const h of [600, 1080]) {
      const rows = rowHeights(l, key, h);
      must(Object.values(rows).every(Number.isFinite), `row heights of ${key}: ${JSON.stringify(rows)}`);
    }
  }
  must(l.maximized === null || WORK_MODES.includes(l.maximized), `maximized ${String(l.maximized)}`);
  must(
    l.sevListShare === null || (l.sevListShare >= SEV_LIST_SHARE.min && l.sevListShare <= SEV_LIST_SHARE.max),
    `sevListShare ${l.sevListShare}`,
  );
}

function run(input: Uint8Array): Outcome {
  let l: ProjectLayout;
  try {
    l = parseLayout(Buffer.from(input).toString('utf8'));
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  check(l);
  must(saved(parseLayout(saved(l))) === saved(l), 'the layout kept reads back as another');
  return saved(l) === saved(parseLayout(null)) ? 'rejected' : 'accepted';
}

export const layoutTarget: FuzzTarget = {
  name: 'layout',
  ext: 'json',
  seeds,
  mutate,
  run,
};
