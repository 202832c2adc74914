/** Line and column (both from 1) of a character offset in a JSON text, for syntax errors. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  return { line, column: offset - start + 1 };
}
