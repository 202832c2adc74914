import { describe, expect, it } from 'vitest';
import { ownBuffers } from './buildJob';

describe('the outputs a warm build worker transfers to main (ownBuffers)', () => {
  it('only buffers a view covers whole and shares with no other output: a view into a pool is copied instead', () => {
    const own = new Uint8Array(16);
    const pooled = Buffer.from('a small .sar'); // a view into Node's shared pool of small Buffers
    const shared = new ArrayBuffer(32);
    const a = new Uint8Array(shared);
    const b = new Uint8Array(shared);
    const tail = new Uint8Array(new ArrayBuffer(8), 4);
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);
    expect(ownBuffers([own, pooled, a, b, tail])).toEqual([own.buffer]);
  });
});
