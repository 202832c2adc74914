/** Small canvas paths the views share, so a key looks the same in every view. */

/** Begins and closes a diamond path of half-size r centred at (x, cy); the caller fills or strokes it. */
export function diamondPath(ctx: CanvasRenderingContext2D, x: number, cy: number, r: number): void {
  ctx.beginPath();
  ctx.moveTo(x, cy - r);
  ctx.lineTo(x + r, cy);
  ctx.lineTo(x, cy + r);
  ctx.lineTo(x - r, cy);
  ctx.closePath();
}
