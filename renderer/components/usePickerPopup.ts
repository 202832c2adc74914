import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Where a picker's list opens: below its button, or above it when there is more room there. */
export interface PopupPlace {
  left: number;
  top?: number;
  bottom?: number;
  maxHeight: number;
}

/** Widest a picker's list opens (px), and its tallest. */
const POP_WIDTH = 300;
const POP_MAX_HEIGHT = 420;

/**
 * The drop-down of the app's filtered pickers (JointTreePicker, SePicker): the button and list elements, whether the
 * list is open and where, `show` (placed below the button, or above it when there is more room there), `close`
 * (the keyboard back on the button when asked), a pointer press outside the list or button closes it, and the row
 * `data-item={active}` is kept in view.
 */
export function usePickerPopup(active: number) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [place, setPlace] = useState<PopupPlace>({ left: 0, top: 0, maxHeight: 300 });

  const show = () => {
    const r = button.current!.getBoundingClientRect();
    const below = window.innerHeight - r.bottom - 8;
    const above = r.top - 8;
    const left = Math.max(0, Math.min(r.left, window.innerWidth - POP_WIDTH));
    setPlace(
      below >= 220 || below >= above
        ? { left, top: r.bottom + 2, maxHeight: Math.min(POP_MAX_HEIGHT, below) }
        : { left, bottom: window.innerHeight - r.top + 2, maxHeight: Math.min(POP_MAX_HEIGHT, above) },
    );
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useLayoutEffect(() => {
    list.current?.querySelector(`[data-item="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);
  useEffect(() => {
    if (!open) return undefined;
    const onDown = (e: PointerEvent) => {
      if (!pop.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) close(false);
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, [open]);

  return { open, button, pop, list, place, show, close };
}
