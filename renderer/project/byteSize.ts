/**
 * The one way the window writes a size of a file or of data (docs/architecture.md, "Renderer review, round 2"):
 * bytes under 1 KiB ("480 bytes", "1 byte"), KiB with one decimal under 1 MiB ("82.5 KiB"), MiB with two decimals
 * from there ("1.25 MiB"); 1024-based, as the budget field reads "48K" and "1.5 MiB". A size that would read
 * "1024.0 KiB" reads "1.00 MiB". The exact count goes in the tooltip (`exactBytes`).
 */
export function sizeText(bytes: number): string {
  if (bytes < 0) return `-${sizeText(-bytes)}`;
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const kib = (bytes / 1024).toFixed(1);
  if (Number(kib) < 1024) return `${kib} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

/** A size to the byte, for a tooltip: "77,200 bytes". */
export function exactBytes(bytes: number): string {
  return bytes === 1 ? '1 byte' : `${bytes.toLocaleString('en-US')} bytes`;
}
