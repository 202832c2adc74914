/**
 * Where the keyboard goes when a layout change hides the control that had it (docs/user-guide.md, fourteenth
 * round): a work mode (Ctrl+1..3) or Show All Panels hides whole panels, and a control in a hidden panel drops the
 * keyboard to the page's start, so Tab began again at the menu bar. The keyboard goes instead to the first control
 * of the panel the mode shows (the viewport's panel in the full layout).
 */

import { focusables } from './modalFocus';

/** True when `el` takes no room on the page (it or a panel around it is hidden). */
function hidden(el: HTMLElement): boolean {
  return el.getClientRects().length === 0;
}

/**
 * Called after the layout changed. `last` is the control that last took the keyboard in `root` and did not give it
 * up by itself (App clears it when the user clicks off a control or code blurs it while it is shown). If the
 * keyboard is in `root` on a control no longer shown, or fell to the page from `last`, hands it back to `last` when
 * it is shown, to the same control drawn anew (its `data-testid`) when the mode drew its panel again, else to the
 * first shown control of the panel `home` names (`area-<panel>`), or to that panel itself when it has none.
 */
export function keepKeyboardShown(root: HTMLElement | null, home: string, last: HTMLElement | null): void {
  if (!root) return;
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body) {
    if (root.contains(active) && hidden(active)) focusFirst(root, home);
    return;
  }
  if (!last) return;
  if (last.isConnected) {
    if (!hidden(last)) last.focus({ preventScroll: true });
    else focusFirst(root, home);
    return;
  }
  const id = last.getAttribute('data-testid');
  const again = id ? root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(id)}"]`) : null;
  if (again && !hidden(again)) again.focus({ preventScroll: true });
  else focusFirst(root, home);
}

/** Whether the keyboard left `el` by itself (a click elsewhere, code): it is still on the page and shown. */
export function leftByItself(el: EventTarget | null): boolean {
  return el instanceof HTMLElement && el.isConnected && !hidden(el);
}

function focusFirst(root: HTMLElement, home: string): void {
  const area = root.querySelector<HTMLElement>(`[data-testid="${home}"]`);
  if (!area || hidden(area)) return;
  const first = focusables(area).find((el) => el.tabIndex >= 0 && el.getAttribute('aria-hidden') !== 'true');
  if (first) first.focus({ preventScroll: true });
  else {
    area.tabIndex = -1;
    area.focus({ preventScroll: true });
  }
}
