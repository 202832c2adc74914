/** Where the keyboard is: a text field keeps its own editing keys (Ctrl+Z / Ctrl+Y included). */

/** Whether keys go to a text field (its own editing keys, Ctrl+Z / Ctrl+Y included, belong to it). */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'range', 'button'].includes(type);
  }
  return false;
}

/** Whether Ctrl+Z / Ctrl+Y belong to the focused element (a text field has its own undo; a select has none). */
export function hasOwnUndo(target: EventTarget | null): boolean {
  return isTyping(target) && (target as HTMLElement).tagName !== 'SELECT';
}
