/**
 * Scrolling a block into view inside one scrolled column, without scrolling anything around it (Element.scrollIntoView
 * also scrolls every scrolled ancestor: the panel, the page).
 */

/** A vertical extent on screen (getBoundingClientRect's top and bottom). */
export interface Extent {
  top: number;
  bottom: number;
}

/**
 * The scrollTop that brings `item` into the scrolled `view` by the least scroll: unchanged when it is whole in view,
 * its bottom on the view's bottom when it lies below, its top on the view's top when it lies above or is taller than
 * the view (its start, a heading, is what must be seen first). Never below 0.
 *
 * With `clearAbove`: an item brought up from below goes on the view's top instead when less than that many pixels of
 * what precedes it would stay in view above it (the SE table's sticky header alone, no row under it, half cut off by
 * the column's top, read as a glitch at 1280x800). The column may need room below the item to scroll
 * that far (SeTable adds it).
 */
export function revealScrollTop(view: Extent & { scrollTop: number }, item: Extent, clearAbove = 0): number {
  const height = view.bottom - view.top;
  if (item.bottom - item.top > height || item.top < view.top)
    return Math.max(0, view.scrollTop + (item.top - view.top));
  if (item.bottom > view.bottom) {
    const up = item.bottom - view.bottom;
    return item.top - up - view.top < clearAbove ? view.scrollTop + (item.top - view.top) : view.scrollTop + up;
  }
  return view.scrollTop;
}
