import { describe, expect, it } from 'vitest';
import type { MotionDone } from '../build/compressMotions';
import { progressPrinter } from './commands/build';

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
    const p = progressPrinter(true, (s) => writes.push(s));
    motions.forEach(p.motion);
    p.end();
    expect(writes).toEqual([
      '\r\x1b[K[########................] 1/3 run (cached), … left',
      '\r\x1b[K[################........] 2/3 walk (120 keys), 12 s left',
      '\r\x1b[K[########################] 3/3 jump (120 keys), 0 s left',
      '\n',
    ]);
  });
});
