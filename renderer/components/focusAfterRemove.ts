import { useEffect, useRef, type RefObject } from 'react';

/**
 * After a ✕ took its own entry (and its focus) away, the focus goes to the ✕ now at that place in its list (the
 * next entry's, else the new last's), else to `fallback()` (the root's first button if none is given): the keyboard
 * stays in the list rather than
 * falling back to the page (docs/architecture.md, "Renderer review", rounds 6 and 7). `lists` names each list's ✕
 * buttons by a selector under `root`, in the list's order.
 *
 * Returns `willRemove(list, index)`, to call as a ✕ is pressed, and `forget()`, for a removal that did not happen
 * (a question answered Cancel): a later change of the list by other means then moves no focus.
 */
export function useFocusAfterRemove<L extends string>(
  root: RefObject<HTMLElement | null>,
  lists: Readonly<Record<L, string>>,
  fallback?: () => HTMLElement | null,
): { willRemove: (list: L, index: number) => void; forget: () => void } {
  const removed = useRef<{ list: L; index: number; count: number } | null>(null);
  useEffect(() => {
    const r = removed.current;
    const el = root.current;
    if (!r || !el) return;
    // Not removed yet (the list has not changed): wait for the render that takes the entry away.
    const buttons = el.querySelectorAll<HTMLButtonElement>(lists[r.list]);
    if (buttons.length === r.count) return;
    removed.current = null;
    // Only a focus lost with the entry: one the user has put elsewhere stays there.
    if (document.activeElement && document.activeElement !== document.body) return;
    const next =
      buttons[Math.min(r.index, buttons.length - 1)] ??
      (fallback ? fallback() : el.querySelector<HTMLButtonElement>('button'));
    next?.focus();
  });
  return {
    willRemove: (list, index) => {
      const count = root.current?.querySelectorAll(lists[list]).length ?? 0;
      removed.current = { list, index, count };
    },
    forget: () => {
      removed.current = null;
    },
  };
}
