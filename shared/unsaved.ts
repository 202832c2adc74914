/**
 * The sentence that names what has unsaved changes, shared by the renderer's questions and main's close
 * confirmation so both say the same thing: "walk.mtn has unsaved changes.",
 * "walk.mtn, walk.sev and the project have unsaved changes."
 */

/** Joins names as "a", "a and b", "a, b and c". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * "<names> has/have unsaved changes."; `fallback` names the thing when the list is empty. File names keep their
 * case; a leading "the ..." phrase starts the sentence as "The ...".
 */
export function unsavedSentence(names: readonly string[], fallback = 'The motion'): string {
  const list = names.length ? names : [fallback];
  const text = `${joinNames(list)} ${list.length > 1 ? 'have' : 'has'} unsaved changes.`;
  return text.startsWith('the ') ? `T${text.slice(1)}` : text;
}
