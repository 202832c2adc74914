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
  private holdTimer: ReturnType<typeof setTimeout> | 0 = 0;
  private hostSize: { w: number; h: number };
  private readonly observer: ResizeObserver;

  constructor(
    private readonly host: HTMLElement,
    private readonly paint: (ctx: CanvasRenderingContext2D, width: number, height: number) => void,
    /** When set, the canvas height follows this (given the host's height) instead of the host's height (scrolling content). */
    private readonly contentHeight?: (hostHeight: number) => number,
    /**
     * When set, milliseconds to put off a repaint (0: paint in this frame): an edit's canvases wait a moment
     * for its compression so both reach the screen in one frame (compressionStore's settleHoldMs).
     */
    private readonly hold?: () => number,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.style.display = 'block';
    host.appendChild(this.canvas);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas 2D is not available in this window.');
    this.ctx = ctx;
    // The host's size is read when the observer reports it (layout is fresh then), not in draw(), where reading
    // clientWidth after a DOM change would force a layout inside the animation frame.
    this.hostSize = { w: host.clientWidth, h: host.clientHeight };
    this.observer = new ResizeObserver(() => {
      this.hostSize = { w: host.clientWidth, h: host.clientHeight };
      this.invalidate();
    });
    this.observer.observe(host);
    this.invalidate();
  }

  /** The host's height in CSS px as last reported by the ResizeObserver (no layout read). */
  get hostHeight(): number {
    return this.hostSize.h;
  }

  invalidate(): void {
    if (this.raf) return;
    // A held repaint waits for its timer, unless what it waited for has arrived...
    const held = this.holdTimer !== 0;
    if (held && (this.hold?.() ?? 0) > 0) return;
    clearTimeout(this.holdTimer);
    this.holdTimer = 0;
    if (held) {
      // ...and then it is painted at once, between frames, so the next frame only has to show it.
      this.draw();
      return;
    }
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      const wait = this.hold?.() ?? 0;
      if (wait > 0) {
        this.holdTimer = setTimeout(() => {
          this.holdTimer = 0;
          this.invalidate();
        }, wait);
        return;
      }
      this.draw();
    });
  }

  /** Draws now (tests and resize). */
  draw(): void {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, this.hostSize.w);
    const h = Math.max(1, this.contentHeight ? this.contentHeight(this.hostSize.h) : this.hostSize.h);
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
    clearTimeout(this.holdTimer);
    this.observer.disconnect();
    this.canvas.remove();
  }
}
