/**
 * Reading a number typed into a tolerance field. The fields are text fields, not number fields: Chromium's number
 * field read "0,3" (a decimal comma, as a European keyboard types it) as 03, so a rotation tolerance typed as 0,3°
 * became 3° without a word, and "1e" reached the app as an empty field (tried cold, round 8).
 */

/**
 * The number `text` says, or NaN when it says none. A comma is the decimal mark when it is the only separator
 * ("0,3" is 0.3); "1,000.5", "1.2.3", "0,3,4", "abc" and "" say none. Blanks around the number are ignored.
 */
export function parseTypedNumber(text: string): number {
  let t = text.trim();
  if (/^[+-]?\d*,\d+$|^[+-]?\d+,$/.test(t)) t = t.replace(',', '.');
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return NaN;
  return Number(t);
}

/**
 * The text after ↑ / ↓ in a tolerance field (it steps as the number field did): the typed value plus `delta`,
 * never below `min`, rounded to 3 decimals; text that says no number is left as it is.
 */
export function steppedText(text: string, delta: number, min: number): string {
  const v = parseTypedNumber(text);
  if (!Number.isFinite(v)) return text;
  return String(Math.max(min, Math.round((v + delta) * 1000) / 1000));
}

/**
 * The whole number `text` says, or NaN when it says none or a fraction: a frame typed as "1,5" is refused (the
 * number field read it as 15).
 */
export function parseTypedWholeNumber(text: string): number {
  const v = parseTypedNumber(text);
  return Number.isInteger(v) ? v : NaN;
}

/** How a refused typed text is quoted in its message: as typed, or "an empty field". */
export function quotedTyped(text: string): string {
  return text.trim() === '' ? 'an empty field' : `"${text.trim()}"`;
}

/**
 * The attributes of a field typed in as text and read by the functions above: not a number field (that read "0,3" as
 * 3), stepping with ↑ / ↓, so a spin button to assistive technology as the number field was.
 */
export function typedNumberAttributes(inputMode: 'decimal' | 'numeric') {
  return { type: 'text', inputMode, role: 'spinbutton', spellCheck: false, autoComplete: 'off' } as const;
}
