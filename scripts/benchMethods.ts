/**
 * The method comparison of `npm run bench`: classic (ActGuy's original greedy
 * rule), refined (the default) and the DP optimum of segment-independent fits
 * (a reference), on the real captures, at 30 fps and at the capture's native
 * rate, at 0.25 / 0.5 / 1 degree; plus the skeleton-aware mode at the
 * object-space error classic reaches (at 30 fps in the table; against classic
 * 0.2 deg on every bundled capture at 30 and 120 fps in benchSkeleton), and the
 * timings the compressor is held to. Writes docs/bench/compression.json and docs/bench/compression.svg.
 * Figures only: nothing here asserts a time; the ratios are measured in one run.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compressMotion, compressMotionWith } from '../shared/compress/compress';
import { naiveClassicStrategy } from '../shared/compress/naive';
import { dpReferenceStrategy } from '../shared/compress/referenceFit';
import type { CompressOptions, CompressResult } from '../shared/compress/types';
import { bvhToMotion } from '../shared/interchange/bvh/import';
import { parseBvh } from '../shared/interchange/bvh/parse';
import { bvhSourceRate } from '../shared/interchange/resample';
import type { Motion } from '../shared/motion/types';
import { resampleMotion } from '../shared/motion/resample';
import { readMtn } from '../shared/mtn/read';
import { listRealBvhSamples } from '../electron/interchange/realBvhSamples';
import { median } from './benchStats';

/** Where the JSON and the chart go (README "Compression methods" shows the chart). */
export const BENCH_OUTPUT_DIR = join('docs', 'bench');
const TOLERANCES_DEG = [0.25, 0.5, 1];

interface Clip {
  name: string;
  fps: number;
  /** 'bundled' (assets/), '30 fps' or 'native'. */
  rate: string;
  motion: Motion;
}

export interface MethodRow {
  clip: string;
  rate: string;
  fps: number;
  frames: number;
  joints: number;
  /** Rotation tolerance in degrees; for the skeleton mode, the classic tolerance whose object-space error it matches. */
  toleranceDeg: number;
  method: 'classic' | 'refined' | 'dp-reference' | 'skeleton';
  /** Object-space bound (skeleton rows). */
  objectTolerance?: number;
  rotationKeys: number;
  totalKeys: number;
  bytes: number;
  ratioToMtn: number;
  /** Largest object-space error (FK at joints and virtual points), motion units. */
  objectError: number;
  ms: number;
}

function clips(root: string): Clip[] {
  const out: Clip[] = [
    {
      name: 'cmu_01_01.mtn',
      fps: 30,
      rate: 'bundled',
      motion: readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'cmu_01_01.mtn')))),
    },
  ];
  for (const s of listRealBvhSamples()) {
    const doc = parseBvh(readFileSync(s.path, 'utf8'));
    const native = bvhSourceRate(doc.frameTime).rate;
    out.push({
      name: `${s.name}.bvh`,
      fps: 30,
      rate: '30 fps',
      motion: bvhToMotion(doc, { fps: 30, scale: s.centimetresPerUnit }).motion,
    });
    out.push({
      name: `${s.name}.bvh`,
      fps: native,
      rate: 'native',
      motion: bvhToMotion(doc, { fps: native, scale: s.centimetresPerUnit }).motion,
    });
  }
  return out;
}

/** One capture at one rate in the skeleton-mode comparison. */
export interface SkeletonRow {
  clip: string;
  fps: number;
  /** Whether the mode's constants were chosen on this capture (the target applies to the others). */
  tunedOn: boolean;
  classicBytes: number;
  /** The object-space error of classic at 0.2 deg: the skeleton mode's bound. */
  objectError: number;
  skeletonBytes: number;
  skeletonObjectError: number;
  ratio: number;
  rounds: number;
  classicMs: number;
  skeletonMs: number;
}

/** The capture the skeleton mode's constants were chosen on (compress.ts, SKELETON_START), at 30 fps. */
const SKELETON_TUNED_ON = ['cmu_01_01.mtn', '01_01.bvh'];
/** The skeleton mode's target: bytes / classic 0.2 deg bytes at the same object-space error, on the other captures. */
const SKELETON_TARGET = 0.43;

/**
 * The skeleton-aware mode against classic 0.2 deg at the same object-space error (the largest FK error of
 * classic's bytes, at the joints and their virtual points, is the mode's bound), on every bundled capture
 * (assets/*.mtn and the assimp-testmodels BVH files) at 30 and 120 fps. Prints a line per capture and rate.
 */
export function benchSkeleton(root: string, print: (line: string) => void = console.log): SkeletonRow[] {
  const captures: [string, (fps: number) => Motion][] = readdirSync(join(root, 'assets'))
    .filter((f) => f.endsWith('.mtn'))
    .sort()
    .map((f) => [f, (fps) => resampleMotion(readMtn(new Uint8Array(readFileSync(join(root, 'assets', f)))), fps)]);
  for (const s of listRealBvhSamples()) {
    const doc = parseBvh(readFileSync(s.path, 'utf8'));
    captures.push([`${s.name}.bvh`, (fps) => bvhToMotion(doc, { fps, scale: s.centimetresPerUnit }).motion]);
  }
  print('');
  print(
    `Skeleton mode at the object-space error of classic 0.2 deg: bytes / classic 0.2 deg bytes (<= ${SKELETON_TARGET} on the captures not tuned on):`,
  );
  const rows: SkeletonRow[] = [];
  for (const fps of [30, 120])
    for (const [clip, load] of captures) {
      const motion = load(fps);
      const o: CompressOptions = {
        positionTolerance: 0.5,
        offsetTolerance: 0.5,
        name: 'bench',
        rotationToleranceDeg: 0.2,
      };
      const classic = compressMotion(motion, { ...o, method: 'classic' });
      const D = classic.objectError!.maxError;
      const skel = compressMotion(motion, { ...o, objectTolerance: D });
      const row: SkeletonRow = {
        clip,
        fps,
        tunedOn: fps === 30 && SKELETON_TUNED_ON.includes(clip),
        classicBytes: classic.mt3Bytes,
        objectError: D,
        skeletonBytes: skel.mt3Bytes,
        skeletonObjectError: skel.objectError!.maxError,
        ratio: skel.mt3Bytes / classic.mt3Bytes,
        rounds: skel.skeleton!.rounds,
        classicMs: classic.ms,
        skeletonMs: skel.ms,
      };
      rows.push(row);
      print(
        `  ${clip} at ${fps} fps${row.tunedOn ? ' (tuned on)' : ''}: ${row.ratio.toFixed(3)} (${row.skeletonBytes} vs ${row.classicBytes} bytes; bound ${D.toFixed(3)}u, reached ${row.skeletonObjectError.toFixed(3)}u; ${row.rounds} rounds, ${row.skeletonMs.toFixed(0)} ms vs classic ${row.classicMs.toFixed(0)} ms)`,
      );
    }
  const held = rows.filter((r) => !r.tunedOn);
  const worst = held.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  print(`  worst not tuned on: ${worst.ratio.toFixed(3)} (${worst.clip} at ${worst.fps} fps)`);
  print(skeletonTimeLine(rows));
  return rows;
}

/**
 * The skeleton-aware mode's time over classic 0.2 deg's on the captures not tuned on (one run of each): the least,
 * the most and the median of the ratios, then the median ratio at each rate (docs/compression.md, round 8).
 */
export function skeletonTimeLine(rows: readonly SkeletonRow[]): string {
  const held = rows.filter((r) => !r.tunedOn);
  const ratio = (r: SkeletonRow) => r.skeletonMs / r.classicMs;
  const ratios = held.map(ratio);
  const perRate = [...new Set(held.map((r) => r.fps))]
    .map((fps) => `${median(held.filter((r) => r.fps === fps).map(ratio)).toFixed(1)}x at ${fps} fps`)
    .join(', ');
  return `  skeleton / classic time, not tuned on: ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x, median ${median(ratios).toFixed(1)}x (${perRate})`;
}

function rowOf(
  clip: Clip,
  toleranceDeg: number,
  method: MethodRow['method'],
  r: CompressResult,
  objectTolerance?: number,
): MethodRow {
  return {
    clip: clip.name,
    rate: clip.rate,
    fps: clip.fps,
    frames: clip.motion.frameCount,
    joints: clip.motion.joints.length,
    toleranceDeg,
    method,
    ...(objectTolerance !== undefined ? { objectTolerance } : {}),
    rotationKeys: r.channels.filter((c) => c.kind === 'rotation').reduce((s, c) => s + c.keyFrames.length, 0),
    totalKeys: r.totalKeys,
    bytes: r.mt3Bytes,
    ratioToMtn: r.ratio,
    objectError: r.objectError?.maxError ?? NaN,
    ms: r.ms,
  };
}

/** Runs the comparison, writes the JSON and the chart, and prints as it goes (`print`). */
export function benchMethods(root: string, print: (line: string) => void = console.log): void {
  const base = { positionTolerance: 0.5, offsetTolerance: 0.5, name: 'bench' };
  const rows: MethodRow[] = [];
  const lines = { push: (...xs: string[]) => xs.forEach((x) => print(x)) };
  lines.push(
    '',
    "Compression methods (classic = ActGuy's original greedy rule, refined = the default, dp = DP optimum of segment-independent fits, a reference):",
  );
  const w = [16, 8, 6, 5, 13, 8, 8, 8, 7, 9, 9];
  const fmt = (cells: (string | number)[]) => cells.map((c, i) => String(c).padStart(w[i])).join(' ');
  lines.push(fmt(['clip', 'rate', 'frames', 'deg', 'method', 'rot keys', 'keys', 'bytes', 'x MTN', 'obj err', 'ms']));
  const all = clips(root);
  for (const clip of all) {
    for (const deg of TOLERANCES_DEG) {
      const o: CompressOptions = { ...base, rotationToleranceDeg: deg };
      const classic = compressMotion(clip.motion, { ...o, method: 'classic' });
      const refined = compressMotion(clip.motion, o);
      const dp = compressMotionWith(dpReferenceStrategy, clip.motion, o);
      const set: MethodRow[] = [
        rowOf(clip, deg, 'classic', classic),
        rowOf(clip, deg, 'refined', refined),
        rowOf(clip, deg, 'dp-reference', dp),
      ];
      if (clip.fps === 30) {
        // The skeleton-aware mode at the object-space error classic reaches at this tolerance.
        const D = classic.objectError!.maxError;
        set.push(rowOf(clip, deg, 'skeleton', compressMotion(clip.motion, { ...o, objectTolerance: D }), D));
      }
      for (const r of set) {
        rows.push(r);
        lines.push(
          fmt([
            r.clip.slice(0, 16),
            r.rate,
            r.frames,
            r.toleranceDeg,
            r.method === 'skeleton' ? `skel ${r.objectTolerance!.toFixed(2)}u` : r.method,
            r.rotationKeys,
            r.totalKeys,
            r.bytes,
            r.ratioToMtn.toFixed(1),
            r.objectError.toFixed(3),
            r.ms.toFixed(0),
          ]),
        );
      }
    }
  }

  const skeleton = benchSkeleton(root, print);

  // Timings on the bundled 30 fps capture, all measured in this run.
  const cmu = all[0].motion;
  const o5: CompressOptions = { ...base, rotationToleranceDeg: 0.5 };
  const time = (f: () => CompressResult, runs: number) => {
    f();
    return median(Array.from({ length: runs }, () => f().ms));
  };
  const greedyMs = time(() => compressMotion(cmu, { ...o5, method: 'classic' }), 7);
  const refinedMs = time(() => compressMotion(cmu, o5), 3);
  const t0 = performance.now();
  compressMotionWith(naiveClassicStrategy, cmu, { ...o5, method: 'classic' });
  const naiveMs = performance.now() - t0;
  const timing = { clip: 'cmu_01_01.mtn', greedyMs, refinedMs, naiveMs, refinedOverNaive: refinedMs / naiveMs };

  const at = (clip: Clip, method: string) =>
    rows.find((r) => r.clip === clip.name && r.rate === clip.rate && r.toleranceDeg === 0.5 && r.method === method)!;
  const targets = all
    .filter((c) => c.fps === 30)
    .map((c) => ({
      clip: c.name,
      rate: c.rate,
      refinedRotationKeysOverClassic: at(c, 'refined').rotationKeys / at(c, 'classic').rotationKeys,
    }));
  lines.push('', 'Targets, 30 fps, 0.5 deg: refined rotation keys / classic (<= 0.75):');
  for (const t of targets) lines.push(`  ${t.clip} (${t.rate}): ${t.refinedRotationKeysOverClassic.toFixed(3)}`);
  lines.push(
    `Timing on cmu_01_01.mtn (31 joints x 688 frames, 0.5 deg): greedy ${greedyMs.toFixed(1)} ms (median of 7), refined ${refinedMs.toFixed(0)} ms (median of 3), naive full-refit greedy ${naiveMs.toFixed(0)} ms; refined / naive = ${timing.refinedOverNaive.toFixed(3)} (<= 0.5)`,
  );

  const dir = join(root, BENCH_OUTPUT_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'compression.json'),
    JSON.stringify(
      { generated: new Date().toISOString(), positionTolerance: 0.5, rows, skeleton, timing, targets },
      null,
      2,
    ) + '\n',
  );
  writeFileSync(join(dir, 'compression.svg'), chart(rows.filter((r) => r.fps === 30)));
  lines.push(`wrote ${join(BENCH_OUTPUT_DIR, 'compression.json')} and ${join(BENCH_OUTPUT_DIR, 'compression.svg')}`);
}

const COLORS: Record<MethodRow['method'], string> = {
  classic: '#d9534f',
  refined: '#2a7ae2',
  'dp-reference': '#8a8a8a',
  skeleton: '#2ca02c',
};

/** Bytes vs object-space error, one panel per 30 fps clip, one line per method (points: the three tolerances). */
export function chart(rows: MethodRow[]): string {
  const panels = [...new Set(rows.map((r) => `${r.clip} (${r.rate})`))];
  const pw = 360,
    ph = 260,
    m = { l: 64, r: 16, t: 28, b: 44 };
  const cols = Math.min(2, panels.length);
  const W = cols * pw,
    H = Math.ceil(panels.length / cols) * ph + 30;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
  ];
  const methods = Object.keys(COLORS) as MethodRow['method'][];
  methods.forEach((meth, i) => {
    out.push(
      `<line x1="${10 + i * 150}" y1="14" x2="${30 + i * 150}" y2="14" stroke="${COLORS[meth]}" stroke-width="2"/>`,
      `<text x="${34 + i * 150}" y="18">${meth === 'dp-reference' ? 'DP optimum (reference)' : meth === 'skeleton' ? 'skeleton-aware' : meth}</text>`,
    );
  });
  panels.forEach((panel, k) => {
    const ox = (k % cols) * pw,
      oy = 30 + Math.floor(k / cols) * ph;
    const pr = rows.filter((r) => `${r.clip} (${r.rate})` === panel);
    const xs = pr.map((r) => r.objectError),
      ys = pr.map((r) => r.bytes);
    const x0 = 0,
      x1 = Math.max(...xs) * 1.1,
      y0 = 0,
      y1 = Math.max(...ys) * 1.1;
    const X = (v: number) => ox + m.l + ((v - x0) / (x1 - x0)) * (pw - m.l - m.r);
    const Y = (v: number) => oy + ph - m.b - ((v - y0) / (y1 - y0)) * (ph - m.t - m.b);
    out.push(`<text x="${ox + m.l}" y="${oy + 16}" font-weight="bold">${esc(panel)}</text>`);
    out.push(
      `<line x1="${X(x0)}" y1="${Y(y0)}" x2="${X(x1)}" y2="${Y(y0)}" stroke="#333"/>`,
      `<line x1="${X(x0)}" y1="${Y(y0)}" x2="${X(x0)}" y2="${Y(y1)}" stroke="#333"/>`,
    );
    for (let t = 0; t <= 4; t++) {
      const xv = x0 + ((x1 - x0) * t) / 4,
        yv = y0 + ((y1 - y0) * t) / 4;
      out.push(`<text x="${X(xv)}" y="${Y(y0) + 14}" text-anchor="middle">${xv.toFixed(2)}</text>`);
      out.push(`<text x="${X(x0) - 4}" y="${Y(yv) + 4}" text-anchor="end">${Math.round(yv / 1000)}k</text>`);
    }
    out.push(
      `<text x="${ox + m.l + (pw - m.l - m.r) / 2}" y="${oy + ph - 8}" text-anchor="middle">object-space max error (motion units)</text>`,
    );
    out.push(
      `<text x="${ox + 12}" y="${oy + ph / 2}" transform="rotate(-90 ${ox + 12} ${oy + ph / 2})" text-anchor="middle">MT3 bytes</text>`,
    );
    for (const meth of methods) {
      const pts = pr.filter((r) => r.method === meth).sort((a, b) => a.objectError - b.objectError);
      if (!pts.length) continue;
      out.push(
        `<polyline fill="none" stroke="${COLORS[meth]}" stroke-width="2" points="${pts.map((p) => `${X(p.objectError).toFixed(1)},${Y(p.bytes).toFixed(1)}`).join(' ')}"/>`,
      );
      for (const p of pts)
        out.push(
          `<circle cx="${X(p.objectError).toFixed(1)}" cy="${Y(p.bytes).toFixed(1)}" r="3" fill="${COLORS[meth]}"><title>${esc(`${p.method} ${p.toleranceDeg} deg: ${p.bytes} bytes, ${p.objectError.toFixed(3)} u`)}</title></circle>`,
        );
    }
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
