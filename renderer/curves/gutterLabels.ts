/**
 * Where the curve view's gutter labels go (pure, so the no-overlap rule is unit-tested).
 *
 * The gutter (left of the plot) shows, top to bottom: the frame readout, one row per curve component
 * (source / decoded values), a "source / decoded" hint, the "keys" label beside the key band, and the error
 * readout beside the error band (header, value at the frame, tolerance, worst frame). When the canvas is short
 * the component rows tighten (down to MIN_ROW px), and secondary labels are dropped rather than drawn on top of
 * each other: first the hint, then the "keys" label, then the error readout's lines from the least important
 * (header merged into the value line, then max, then tolerance). No two placed labels are closer than their
 * line height and every label lies inside the canvas.
 */

/** Vertical band positions of one paint, in CSS px from the canvas top. */
export interface GutterBands {
  /** Canvas height. */
  height: number;
  /** Bottom of the time ruler. */
  rulerH: number;
  /** Top of the value plot. */
  plotTop: number;
  /** Top and height of the key band. */
  keyTop: number;
  keyH: number;
  /** The error band, when shown. */
  errTop: number;
  errBottom: number;
  showError: boolean;
}

/** Which error readout lines exist, most important first. `headerValue` is the header merged into the value line. */
export type ErrorLine = 'header' | 'value' | 'headerValue' | 'tol' | 'max';

export interface GutterPlan {
  /** Baseline middles (textBaseline 'middle') of each label; null = not drawn (no room). */
  frameY: number;
  /** One y per component that fits (shorter than the component count when even MIN_ROW rows do not fit). */
  componentYs: number[];
  hintY: number | null;
  keysY: number | null;
  /** Error readout lines in drawing order (top to bottom). */
  errorLines: { line: ErrorLine; y: number }[];
}

/** Line heights (px) for the 11 px and 10 px fonts the gutter uses. */
export const ROW = 16;
export const MIN_ROW = 12;
export const SMALL_ROW = 12;
/** Half the height of a text line: a label at y occupies [y - HALF_LINE, y + HALF_LINE]. */
export const HALF_LINE = 6;

export function planGutter(b: GutterBands, componentCount: number, hasErrorValues: boolean): GutterPlan {
  const frameY = b.rulerH + 10;
  const keysMid = b.keyTop + b.keyH / 2;
  // Component rows run from below the frame readout to just above the key band's label.
  const first = Math.max(b.plotTop + 18, frameY + MIN_ROW);
  const lastAllowed = keysMid - MIN_ROW;
  let row = ROW;
  if (componentCount > 1 && first + (componentCount - 1) * row > lastAllowed) {
    row = Math.max(MIN_ROW, Math.floor((lastAllowed - first) / (componentCount - 1)));
  }
  // Values are primary: rows may go past the key band down to the error band (the "keys" label then gives way).
  const hardLimit = b.showError ? Math.min(b.errTop + 4, b.height - HALF_LINE) : b.height - HALF_LINE;
  const componentYs: number[] = [];
  for (let i = 0; i < componentCount; i++) {
    const y = first + i * row;
    if (y > hardLimit) break;
    componentYs.push(y);
  }
  let lowest = componentYs.length ? componentYs[componentYs.length - 1] : frameY;
  let hintY: number | null = null;
  if (componentYs.length === componentCount && componentCount > 0 && lowest + row <= keysMid - MIN_ROW) {
    hintY = lowest + row;
    lowest = hintY;
  }
  let keysY: number | null = null;
  if (keysMid - lowest >= MIN_ROW && keysMid + HALF_LINE <= b.height) {
    keysY = keysMid;
    lowest = keysY;
  }

  const errorLines: { line: ErrorLine; y: number }[] = [];
  if (b.showError) {
    // Lines start at the error band's top (or below the last label above it) and must end inside the canvas.
    const top = Math.max(b.errTop + 10, lowest + SMALL_ROW);
    const bottom = Math.min(b.errBottom, b.height) - HALF_LINE;
    const capacity = bottom < top ? 0 : Math.floor((bottom - top) / SMALL_ROW) + 1;
    let lines: ErrorLine[];
    if (!hasErrorValues) lines = ['header'];
    else if (capacity >= 4) lines = ['header', 'value', 'tol', 'max'];
    else if (capacity === 3) lines = ['headerValue', 'tol', 'max'];
    else if (capacity === 2) lines = ['headerValue', 'tol'];
    else lines = ['headerValue'];
    lines = lines.slice(0, capacity);
    lines.forEach((line, i) => errorLines.push({ line, y: top + i * SMALL_ROW }));
  }
  return { frameY, componentYs, hintY, keysY, errorLines };
}

/**
 * The value-axis tick labels that can be drawn without touching each other or leaving [top, bottom]:
 * walks the ticks in order and keeps one only when it is at least `minGap` px from the last kept one.
 */
export function thinTickLabels<T extends { y: number }>(
  ticks: readonly T[],
  top: number,
  bottom: number,
  minGap = SMALL_ROW,
): T[] {
  const inside = ticks.filter((t) => t.y >= top && t.y <= bottom).sort((a, b) => a.y - b.y);
  const out: T[] = [];
  for (const t of inside) if (!out.length || t.y - out[out.length - 1].y >= minGap) out.push(t);
  return out;
}
