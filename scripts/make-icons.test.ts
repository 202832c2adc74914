import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { drawIcon, encodePng } from './make-icons.mjs';

const resources = resolve(__dirname, '..', 'build-resources');

it('the committed icons are what scripts/make-icons.mjs draws (a tile with a curve and keys, transparent corners)', () => {
  for (const size of [16, 32, 64]) {
    const png = encodePng(size, drawIcon(size));
    expect(Buffer.compare(png, readFileSync(join(resources, 'icons', `${size}x${size}.png`))), `${size}x${size}`).toBe(
      0,
    );
    // Decode the PNG back (filter 0 rows) and look at it.
    const idat = png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
    const raw = inflateSync(idat);
    const at = (x: number, y: number) => [
      ...raw.subarray(y * (size * 4 + 1) + 1 + x * 4, y * (size * 4 + 1) + 1 + x * 4 + 4),
    ];
    expect(at(0, 0)[3], 'corner').toBe(0);
    expect(at(size >> 1, size >> 1)[3], 'centre').toBe(255);
    const colours = new Set<string>();
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) colours.add(at(x, y).join());
    expect(colours.size, 'more than a flat tile').toBeGreaterThan(20);
  }
});
