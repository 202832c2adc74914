/**
 * Line styles of the joints the curve view overlays on the selected joint's curves: each extra joint keeps the
 * axis colours and gets its own dash pattern (the selected joint is drawn solid), in the order they were added.
 */
export const OVERLAY_DASHES: readonly (readonly number[])[] = [
  [7, 4],
  [2, 3],
  [10, 3, 2, 3],
  [4, 6],
];

/** The dash pattern of the i-th overlaid joint (patterns repeat after four). */
export function overlayDash(i: number): readonly number[] {
  return OVERLAY_DASHES[i % OVERLAY_DASHES.length];
}
