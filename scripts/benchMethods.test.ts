import { describe, expect, it } from 'vitest';
import { chart, skeletonTimeLine, type MethodRow, type SkeletonRow } from './benchMethods';

const row = (
  clip: string,
  method: MethodRow['method'],
  toleranceDeg: number,
  bytes: number,
  objectError: number,
): MethodRow => ({
  clip,
  rate: '30 fps',
  fps: 30,
  frames: 100,
  joints: 5,
  toleranceDeg,
  method,
  rotationKeys: 10,
  totalKeys: 12,
  bytes,
  ratioToMtn: 5,
  objectError,
  ms: 1,
});

describe('bench chart', () => {
  it('draws one panel per clip and one line per method, each point at its bytes and object-space error', () => {
    const rows: MethodRow[] = [];
    for (const clip of ['a.bvh', 'b.bvh'])
      for (const [k, method] of (['classic', 'refined', 'dp-reference', 'skeleton'] as const).entries())
        for (const [i, deg] of [0.25, 0.5, 1].entries())
          rows.push(row(clip, method, deg, 1000 * (4 - k) * (3 - i), 0.5 * (i + 1)));
    const svg = chart(rows);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(8);
    expect(svg.match(/<circle /g)).toHaveLength(24);
    expect(svg).toContain('a.bvh (30 fps)');
    expect(svg).toContain('b.bvh (30 fps)');
    expect(svg).toContain('<title>classic 0.25 deg: 12000 bytes, 0.500 u</title>');
    // Larger files sit higher: the classic 0.25 deg point is above the refined one.
    const y = (title: string) => Number(new RegExp(`cy="([\\d.]+)" r="3" fill="[^"]+"><title>${title}`).exec(svg)![1]);
    expect(y('classic 0.25 deg')).toBeLessThan(y('refined 0.25 deg'));
  });
});

describe('bench skeleton time line', () => {
  const skel = (clip: string, fps: number, tunedOn: boolean, classicMs: number, skeletonMs: number): SkeletonRow => ({
    clip,
    fps,
    tunedOn,
    classicBytes: 100,
    objectError: 1,
    skeletonBytes: 40,
    skeletonObjectError: 1,
    ratio: 0.4,
    rounds: 3,
    classicMs,
    skeletonMs,
  });

  it('gives the range and median of skeleton / classic time over the captures not tuned on, and per rate', () => {
    const line = skeletonTimeLine([
      skel('a', 30, true, 100, 900),
      skel('b', 30, false, 100, 200),
      skel('c', 30, false, 100, 300),
      skel('a', 120, false, 100, 150),
      skel('b', 120, false, 100, 250),
      skel('c', 120, false, 100, 400),
    ]);
    expect(line).toBe(
      '  skeleton / classic time, not tuned on: 1.5-4.0x, median 2.5x (3.0x at 30 fps, 2.5x at 120 fps)',
    );
  });
});
