/** Marker colours by SE index: distinct hues on the dark theme, stable per index. */
const PALETTE = ['#4fd1c5', '#f6ad55', '#b794f4', '#68d391', '#fc8181', '#63b3ed', '#f687b3', '#faf089'];

export function seColor(index: number): string {
  return PALETTE[index % PALETTE.length];
}
