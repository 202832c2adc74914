/**
 * Tab and Shift+Tab stay inside an open modal dialog ([aria-modal="true"]): from its last control Tab goes back to
 * its first, from its first Shift+Tab goes to its last, and focus that has left the dialog is brought back. Without
 * this, Tab from the file picker's Cancel walked into the menu bar and panels behind the dimmed backdrop.
 */
const FOCUSABLE =
  'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** The controls Tab can reach in `dialog`, in document order (hidden ones left out). */
export function focusables(dialog: Element): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((e) => e.getClientRects().length > 0);
}

/** Listens on `doc` for Tab while a modal dialog is open; returns the function that stops listening. */
export function installModalFocusTrap(doc: Document): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey) return;
    const dialogs = doc.querySelectorAll('[aria-modal="true"]');
    const dialog = dialogs[dialogs.length - 1];
    if (!dialog) return;
    const items = focusables(dialog);
    if (items.length === 0) return;
    const active = doc.activeElement;
    const first = items[0];
    const last = items[items.length - 1];
    // Focus on something inside that Tab does not stop at (the heading a running build focuses) counts as before the
    // first control: Shift+Tab from there walked out into the page behind.
    const onStop = active instanceof HTMLElement && items.includes(active);
    if (!onStop || (e.shiftKey ? active === first : active === last)) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  };
  doc.addEventListener('keydown', onKey, true);
  return () => doc.removeEventListener('keydown', onKey, true);
}

/**
 * When the last modal dialog closes and the focus is nowhere (the dialog took it with it), the focus goes back to the
 * control that had it before the dialog opened, if that is still on the page: Escape from the file picker that
 * File › Open .sev… opened left the keyboard at the page's start, some 25 Tab stops from the menu (tried cold, round
 * 5). A dialog that hands the focus on itself (a deleted row's ✕ gives it to the event list) is left alone. A menu's
 * command is not what had it: the menu is gone once its command ran (File › Open… left the keyboard at the page's
 * start), so the focus goes back to what had it before the menu's command, the menu's title (File). Returns the
 * function that stops watching.
 */
export function installModalFocusReturn(doc: Document): () => void {
  const inModal = (e: Element | null) => !!e?.closest('[aria-modal="true"], [role="menu"]');
  let before: HTMLElement | null = null;
  const onFocus = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement && !inModal(e.target)) before = e.target;
  };
  let open = false;
  const watch = new MutationObserver(() => {
    const nowOpen = doc.querySelector('[aria-modal="true"]') !== null;
    const closed = open && !nowOpen;
    open = nowOpen;
    const nowhere = doc.activeElement === null || doc.activeElement === doc.body;
    if (closed && nowhere && before?.isConnected) before.focus({ preventScroll: true });
  });
  doc.addEventListener('focusin', onFocus, true);
  watch.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-modal'] });
  return () => {
    doc.removeEventListener('focusin', onFocus, true);
    watch.disconnect();
  };
}
