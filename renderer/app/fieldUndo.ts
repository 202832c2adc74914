/**
 * Undo and Redo in a one-line field (a tolerance, the budget, a frame, an SE name): Ctrl+Z takes back what was typed
 * there since the field got the keyboard or last applied its value (Enter, Escape, leaving it), and Ctrl+Y puts it
 * back; in a field holding nothing typed they are the app's Undo and Redo, the keyboard staying in the field.
 *
 * The browser's own undo, which the fields had, keeps one history for the whole page: after a budget typed and
 * applied with Enter (the field keeps the keyboard), Ctrl+Z did not undo the budget, as the Edit menu said it would,
 * but went back to the rotation override typed earlier, put the focus there and, on leaving it, applied its old text
 * as a new edit; the next Ctrl+Z moved on to the position tolerance (tried cold, round 13). A text area (the .sev
 * text view) keeps the browser's undo, line by line.
 */
interface FieldState {
  /** The text the field had before the typing now in it. */
  baseline: string;
  /** Typed since it got the keyboard or last applied its value. */
  dirty: boolean;
  /** What Ctrl+Z took back, for Ctrl+Y; null once anything else happened. */
  undone: string | null;
}

const fields = new WeakMap<HTMLInputElement, FieldState>();

/** A one-line text field (not a text area, a select, a checkbox or a slider). */
export function isOneLineField(el: unknown): el is HTMLInputElement {
  return (
    typeof HTMLInputElement !== 'undefined' &&
    el instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'range', 'button', 'submit', 'reset', 'color', 'file'].includes(el.type)
  );
}

/** Sets a field's text as typing would, so its React onChange sees it. */
function setTyped(el: HTMLInputElement, text: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(el, text);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Undo (`which` 'undo') or redo the typing in the focused one-line field `el`. Returns false where there is none to
 * take back or put back (the caller then runs the app's Undo or Redo).
 */
export function fieldUndo(el: unknown, which: 'undo' | 'redo'): boolean {
  if (!isOneLineField(el)) return false;
  const s = fields.get(el);
  if (!s) return false;
  if (which === 'undo') {
    if (!s.dirty || el.value === s.baseline) return false;
    s.undone = el.value;
    s.dirty = false;
    setTyped(el, s.baseline);
    return true;
  }
  if (s.undone === null || s.dirty) return false;
  const text = s.undone;
  s.undone = null;
  s.dirty = true;
  setTyped(el, text);
  return true;
}

/** Follows what is typed in the page's one-line fields (see fieldUndo). Returns the uninstaller. */
export function installFieldUndo(doc: Document): () => void {
  const clean = (el: HTMLInputElement) => fields.set(el, { baseline: el.value, dirty: false, undone: null });
  const onFocus = (e: Event) => {
    if (isOneLineField(e.target)) clean(e.target);
  };
  const onBeforeInput = (e: Event) => {
    const el = e.target;
    // Enter in a one-line field announces a line break that changes nothing (the field applies its value).
    if (!isOneLineField(el) || /^insert(LineBreak|Paragraph)$/.test((e as InputEvent).inputType)) return;
    const s = fields.get(el);
    if (!s) return clean(el);
    if (!s.dirty) {
      s.baseline = el.value;
      s.dirty = true;
    }
    s.undone = null;
  };
  // Enter and Escape apply or put back the field's value; leaving it applies it.
  const onKey = (e: KeyboardEvent) => {
    if ((e.key === 'Enter' || e.key === 'Escape') && isOneLineField(e.target)) clean(e.target);
  };
  const onBlur = (e: Event) => {
    if (isOneLineField(e.target)) fields.delete(e.target);
  };
  doc.addEventListener('focusin', onFocus, true);
  doc.addEventListener('beforeinput', onBeforeInput, true);
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('focusout', onBlur, true);
  return () => {
    doc.removeEventListener('focusin', onFocus, true);
    doc.removeEventListener('beforeinput', onBeforeInput, true);
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('focusout', onBlur, true);
  };
}

/**
 * Applies the one-line field that has the keyboard, as leaving it does, before a press elsewhere makes its own edit.
 * The timeline, the curves and the SEV editor's event row and event list act on pointerdown (a trace key, a key, the
 * joint or the event selected), before the browser moves the keyboard off the field (with the mousedown after it):
 * a tolerance stepped with ↑ and then a trace key clicked made the trace key's undo step first and the tolerance's
 * second (tried cold, round 22), and a note typed for an event, then a click on the event row, lost the note (the
 * click deselected the event, whose field went away with its text; round 23). Each of those presses calls this first.
 * A press inside the field itself leaves it alone.
 */
export function applyFocusedField(pressed: EventTarget | null): void {
  const el = typeof document === 'undefined' ? null : document.activeElement;
  if (!isOneLineField(el)) return;
  if (typeof Node !== 'undefined' && pressed instanceof Node && el.contains(pressed)) return;
  el.blur();
}
