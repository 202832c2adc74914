// `node scripts/make-icons.mjs`: draws ActGuy's icon set into build-resources/ (what electron-builder packs):
// icons/<N>x<N>.png for Linux, icon.png (1024) for macOS, icon.ico (16..256) for Windows, icon.icns for macOS.
// The icon is drawn with signed distances (one sample per pixel, smoothstep edges), so every size is crisp
// and the output is the same bytes on every run. The drawing: a motion curve with three user keys on a
// dark tile, the app's palette.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const ICON_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** icns chunk types holding PNG data, by pixel size. */
const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
];

const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** An RGBA image as a PNG file. */
export function encodePng(size, rgba) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const clamp01 = (v) => Math.max(0, Math.min(1, v));
/** Coverage of a shape from its signed distance (negative inside), edges one pixel wide. */
const cover = (d, px) => clamp01(0.5 - d / px);
const mix = (a, b, t) => a + (b - a) * t;
const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];

const TOP = hex('#2c323c');
const BOTTOM = hex('#15171b');
const CURVE = hex('#3fc1b5');
const KEY = hex('#f2a33a');
const RIM = hex('#0e0f12');
const GRID = hex('#3a414d');

/** The motion curve, in unit coordinates (y down). */
const curveY = (x) => 0.56 - 0.17 * Math.sin(((x - 0.2) / 0.6) * 2 * Math.PI * 0.9);
const curveSlope = (x) => -0.17 * Math.cos(((x - 0.2) / 0.6) * 2 * Math.PI * 0.9) * ((2 * Math.PI * 0.9) / 0.6);
const KEYS = [0.2, 0.5, 0.8];

/** Draws the icon at one size; returns RGBA bytes. */
export function drawIcon(size) {
  const rgba = new Uint8Array(size * size * 4);
  const px = 1 / size;
  const inset = size <= 32 ? 0.02 : 0.07;
  const radius = size <= 32 ? 0.16 : 0.2;
  const stroke = Math.max(0.035, 1.4 * px);
  const keyR = Math.max(0.055, 2.2 * px);
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const x = (i + 0.5) / size;
      const y = (j + 0.5) / size;
      // Tile: a rounded square.
      const qx = Math.abs(x - 0.5) - (0.5 - inset - radius);
      const qy = Math.abs(y - 0.5) - (0.5 - inset - radius);
      const dTile = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
      const tile = cover(dTile, px);
      if (tile === 0) continue;
      const t = clamp01((y - inset) / (1 - 2 * inset));
      let c = TOP.map((v, k) => mix(v, BOTTOM[k], t));
      // Time grid: three faint vertical lines at the keys (only where they stay visible).
      if (size >= 48)
        for (const k of KEYS)
          c = c.map((v, n) =>
            mix(
              v,
              GRID[n],
              cover(Math.abs(x - k) - 0.006, px) * 0.8 * clamp01((0.86 - y) * 20) * clamp01((y - 0.14) * 20),
            ),
          );
      // The curve between the first and last key.
      if (x > 0.14 && x < 0.86) {
        const dCurve = Math.abs(y - curveY(x)) / Math.sqrt(1 + curveSlope(x) ** 2) - stroke / 2;
        const ends = clamp01((x - 0.14) / 0.06) * clamp01((0.86 - x) / 0.06);
        c = c.map((v, n) => mix(v, CURVE[n], cover(dCurve, px) * ends));
      }
      // User keys: orange dots with a dark rim.
      for (const k of KEYS) {
        const d = Math.hypot(x - k, y - curveY(k));
        c = c.map((v, n) => mix(v, RIM[n], cover(d - keyR - Math.max(0.012, px * 0.8), px)));
        c = c.map((v, n) => mix(v, KEY[n], cover(d - keyR, px)));
      }
      const o = (j * size + i) * 4;
      rgba[o] = Math.round(c[0]);
      rgba[o + 1] = Math.round(c[1]);
      rgba[o + 2] = Math.round(c[2]);
      rgba[o + 3] = Math.round(255 * tile);
    }
  }
  return rgba;
}

/** A Windows .ico holding PNG images (Vista and later read PNG entries). */
export function encodeIco(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, png }, n) => {
    const e = 6 + 16 * n;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.png)]);
}

/** A macOS .icns holding PNG images. */
export function encodeIcns(entries) {
  const chunks = entries.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(8 + png.length, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

/** Every file of the icon set, by path relative to build-resources/. */
export function iconFiles() {
  const png = new Map(ICON_SIZES.map((s) => [s, encodePng(s, drawIcon(s))]));
  const files = new Map();
  for (const s of ICON_SIZES) if (s <= 512) files.set(`icons/${s}x${s}.png`, png.get(s));
  files.set('icon.png', png.get(1024));
  files.set('icon.ico', encodeIco(ICO_SIZES.map((size) => ({ size, png: png.get(size) }))));
  files.set('icon.icns', encodeIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: png.get(size) }))));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'build-resources');
  for (const [rel, bytes] of iconFiles()) {
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    writeFileSync(join(out, rel), bytes);
    console.log(`build-resources/${rel}  ${bytes.length} bytes`);
  }
}
