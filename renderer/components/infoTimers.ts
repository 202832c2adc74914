/**
 * The fading of info messages (./MessageBar.tsx): each info message goes INFO_MS after it first shows, whatever
 * comes after it. The bar's effect cleared and restarted every info message's timer whenever the message list changed,
 * so a message arriving (or any dismissed) gave the older ones their full time again: an info message stayed for as
 * long as others kept coming (docs/architecture.md, "Renderer review, round 4").
 */
export const INFO_MS = 6000;

export class InfoTimers {
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(private readonly dismiss: (id: number) => void) {}

  /** Starts a timer for each info message not seen before; drops those of messages gone. */
  follow(messages: readonly { id: number; level: string }[]): void {
    for (const m of messages) {
      if (m.level !== 'info' || this.timers.has(m.id)) continue;
      this.timers.set(
        m.id,
        setTimeout(() => this.dismiss(m.id), INFO_MS),
      );
    }
    for (const [id, t] of this.timers)
      if (!messages.some((m) => m.id === id)) {
        clearTimeout(t);
        this.timers.delete(id);
      }
  }

  /** Clears every timer (the bar is gone). */
  stop(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
