import { useEffect, type RefObject } from 'react';

/**
 * Where a SEV column's scroll should rest so that no table row is cut across its table's sticky header: the row
 * under the header's foot goes whole below it (more than half of it under the header: the next row comes up to the
 * header's foot instead). Null where no row is cut. The header's foot is the column's `scroll-padding-top` down
 * (sev.css: the header's height), and only a table whose header is stuck at the column's top counts.
 */
export function restingScrollTop(col: HTMLElement): number | null {
  const pad = parseFloat(getComputedStyle(col).scrollPaddingTop) || 0;
  if (pad <= 0 || col.scrollTop <= 0) return null;
  const top = col.getBoundingClientRect().top;
  const edge = top + pad;
  for (const table of Array.from(col.querySelectorAll('table'))) {
    const t = table.getBoundingClientRect();
    // The header sticks only while the table's top is scrolled past the column's top and its rows still reach it.
    if (!table.tHead || t.top >= top || t.bottom <= edge) continue;
    for (const row of Array.from(table.tBodies).flatMap((b) => Array.from(b.rows))) {
      const r = row.getBoundingClientRect();
      if (r.bottom <= edge + 0.5) continue;
      if (r.top >= edge - 0.5) return null;
      const to = edge - r.top > r.height / 2 ? r.bottom : r.top;
      return Math.max(0, Math.round(col.scrollTop + (to - edge)));
    }
  }
  return null;
}

/**
 * After the wheel or the scrollbar scrolls the column (and only then: a row or field scrolled into view by the app
 * is where it was put), the scroll steps to rest with no row cut across the tables' sticky header. A wheel of 30 px
 * left the first row shown half under the header (tried cold, rounds 24 to 26). CSS scroll snapping did this too,
 * but Chromium snaps `scrollIntoView` as well and pulled a heading brought into view back under the column's edge
 * (round 25).
 */
export function useRowRestAfterUserScroll(col: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = col.current;
    if (!el) return;
    let byUser = false;
    const wheel = (e: WheelEvent) => {
      if (e.ctrlKey || e.deltaY === 0) return;
      // A wheel past the end scrolls nothing and so ends no scroll: it must not leave the mark for the app's next one.
      const room = e.deltaY > 0 ? el.scrollHeight - el.clientHeight - el.scrollTop : el.scrollTop;
      if (room >= 1) byUser = true;
    };
    // A press on the column itself, not on what is in it, is on its scrollbar.
    const down = (e: PointerEvent) => {
      if (e.target === el) byUser = true;
    };
    const end = () => {
      if (!byUser) return;
      byUser = false;
      const to = restingScrollTop(el);
      if (to !== null && Math.abs(to - el.scrollTop) >= 1) el.scrollTo({ top: to });
    };
    el.addEventListener('wheel', wheel, { passive: true });
    el.addEventListener('pointerdown', down);
    el.addEventListener('scrollend', end);
    return () => {
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('scrollend', end);
    };
  }, [col]);
}
