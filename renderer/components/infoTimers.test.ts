import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INFO_MS, InfoTimers } from './infoTimers';

/** Info messages fade INFO_MS after they show, whatever comes after (docs/architecture.md, "Renderer review, round 4"). */
describe('InfoTimers', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('dismisses an info message INFO_MS after it showed, though another came since', () => {
    const gone: number[] = [];
    const timers = new InfoTimers((id) => gone.push(id));
    const a = { id: 1, level: 'info' };
    const b = { id: 2, level: 'info' };
    const warning = { id: 3, level: 'warning' };
    timers.follow([a]);
    vi.advanceTimersByTime(INFO_MS - 2000);
    timers.follow([a, b, warning]);
    vi.advanceTimersByTime(2000);
    expect(gone).toEqual([1]);
    timers.follow([b, warning]);
    vi.advanceTimersByTime(INFO_MS);
    // The warning stays until dismissed.
    expect(gone).toEqual([1, 2]);
  });

  it('forgets the timer of a message dismissed by hand, and every timer once stopped', () => {
    const gone: number[] = [];
    const timers = new InfoTimers((id) => gone.push(id));
    timers.follow([
      { id: 1, level: 'info' },
      { id: 2, level: 'info' },
    ]);
    timers.follow([{ id: 2, level: 'info' }]);
    vi.advanceTimersByTime(INFO_MS);
    expect(gone).toEqual([2]);
    timers.follow([{ id: 4, level: 'info' }]);
    timers.stop();
    vi.advanceTimersByTime(INFO_MS);
    expect(gone).toEqual([2]);
  });
});
