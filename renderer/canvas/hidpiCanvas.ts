/**
 * A canvas painter that stays crisp on devicePixelRatio and redraws at most
 * once per animation frame, outside React: owners call `invalidate()` from
 * store subscriptions, and `paint` draws in CSS pixels.
 */
export class HiDpiCanvas {
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  width = 1;
  height = 1;
  private raf = 0;
  private readonly observer: ResizeObserver;

  constructor(
    private readonly host: HTMLElement,
    private readonly paint: (ctx: CanvasRenderingContext2D, width: number, height: number) => void,
    /** When set, the canvas height follows this instead of the host's height (scrolling content). */
    private readonly contentHeight?: () => number,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.style.display = 'block';
    host.appendChild(this.canvas);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas 2D is not available in this window.');
    this.ctx = ctx;
    this.observer = new ResizeObserver(() => this.invalidate());
    this.observer.observe(host);
    this.invalidate();
  }

  invalidate(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.draw();
    });
  }

  /** Draws now (tests and resize). */
  draw(): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.contentHeight ? this.contentHeight() : this.host.clientHeight);
    if (w !== this.width || h !== this.height || this.canvas.width !== Math.round(w * dpr)) {
      this.width = w;
      this.height = h;
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${h}px`;
    }
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.ctx.clearRect(0, 0, w, h);
    this.paint(this.ctx, w, h);
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    this.observer.disconnect();
    this.canvas.remove();
  }
}
