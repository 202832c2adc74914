/** The middle value of `xs` (the upper of the two middle values for an even count), as every bench section prints. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
