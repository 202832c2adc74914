import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MotionDone } from '../build/compressMotions';
import { PROGRESS_FLUSH_MS, progressPrinter } from './commands/build';

const result = {
  bytes: new Uint8Array(0),
  totalKeys: 120,
  mt3Bytes: 3000,
  mtnBytes: 30000,
  ratio: 10,
  ms: 250,
  method: 'classic',
  objectError: null,
  channels: [],
  warnings: [],
} as unknown as MotionDone['result'];
const motions: MotionDone[] = [
  { index: 1, count: 3, name: 'run', result, cached: true, done: 1, etaMs: null },
  { index: 0, count: 3, name: 'walk', result, cached: false, done: 2, etaMs: 12_000 },
  { index: 2, count: 3, name: 'jump', result, cached: false, done: 3, etaMs: 0 },
];

describe('build progress', () => {
  // A fake clock that stands still unless a test moves it: every motion below finishes at the same instant.
  const clock = () => Date.now();
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('plain lines when not on a terminal: one per motion, with what happened and the time left', () => {
    let out = '';
    const p = progressPrinter(false, (s) => (out += s));
    motions.forEach(p.motion);
    p.end();
    expect(out).toBe(
      '[1/3] run: from the cache; … left\n' +
        '[2/3] walk: 120 keys, 3000 bytes (ratio 10.00), 250 ms; 12 s left\n' +
        '[3/3] jump: 120 keys, 3000 bytes (ratio 10.00), 250 ms; 0 s left\n',
    );
  });

  it('one live line with a bar on a terminal, redrawn per motion and ended with a newline', () => {
    const writes: string[] = [];
    const p = progressPrinter(true, (s) => writes.push(s), clock);
    for (const m of motions) {
      p.motion(m);
      vi.advanceTimersByTime(PROGRESS_FLUSH_MS);
    }
    p.end();
    expect(writes).toEqual([
      '\r\x1b[K[########................] 1/3 run (cached), … left',
      '\r\x1b[K[################........] 2/3 walk (120 keys), 12 s left',
      '\r\x1b[K[########################] 3/3 jump (120 keys), 0 s left',
      '\n',
    ]);
  });

  it('plain lines that come at once go out in one write; held lines are written by a timer, and the last motion at once', () => {
    const writes: string[] = [];
    const p = progressPrinter(false, (s) => writes.push(s), clock);
    const many: MotionDone[] = Array.from({ length: 6 }, (_, k) => ({
      ...motions[0],
      index: k,
      count: 6,
      name: `m${k}`,
      done: k + 1,
    }));
    many.slice(0, 5).forEach(p.motion);
    // The first line goes out at once; the next four wait for the timer (a rebuild's thousand cache hits: a few writes).
    expect(writes).toEqual(['[1/6] m0: from the cache; … left\n']);
    vi.advanceTimersByTime(PROGRESS_FLUSH_MS - 1);
    expect(writes).toHaveLength(1);
    // No motion followed them (the build is compressing one): the timer writes them, so a log shows them meanwhile.
    vi.advanceTimersByTime(1);
    expect(writes).toEqual([
      '[1/6] m0: from the cache; … left\n',
      '[2/6] m1: from the cache; … left\n[3/6] m2: from the cache; … left\n[4/6] m3: from the cache; … left\n' +
        '[5/6] m4: from the cache; … left\n',
    ]);
    // The last motion is written at once, though the interval has not passed again.
    p.motion(many[5]);
    expect(writes.at(-1)).toBe('[6/6] m5: from the cache; 0 s left\n');
    p.end();
    expect(writes).toHaveLength(3);
  });

  it('the live line is redrawn at most once an interval, with its latest state; end writes what is held', () => {
    const writes: string[] = [];
    const p = progressPrinter(true, (s) => writes.push(s), clock);
    const four: MotionDone[] = Array.from({ length: 3 }, (_, k) => ({
      ...motions[0],
      index: k,
      count: 4,
      name: `m${k}`,
      done: k + 1,
    }));
    four.forEach(p.motion);
    expect(writes).toEqual(['\r\x1b[K[######..................] 1/4 m0 (cached), … left']);
    p.end();
    expect(writes).toEqual([
      '\r\x1b[K[######..................] 1/4 m0 (cached), … left',
      '\r\x1b[K[##################......] 3/4 m2 (cached), … left',
      '\n',
    ]);
    // Nothing is left for the timer once end has written it.
    vi.advanceTimersByTime(PROGRESS_FLUSH_MS);
    expect(writes).toHaveLength(3);
  });
});
