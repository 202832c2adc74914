/** Round to nearest, ties to even (exact for any float64 input). */
export function roundHalfEven(y: number): number {
  const f = Math.floor(y);
  const diff = y - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
