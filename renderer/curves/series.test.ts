import { describe, it, expect } from 'vitest';
import { buildSeries, formatTolerance } from './series';
import { userKeysOf } from '../state/keyInfo';
import { compressMotion } from '../../shared/compress/compress';
import { emptyMotion, KeyFlag } from '../../shared/motion/types';

function wavingMotion() {
  const joints = [
    { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'root' },
    { parent: 0, mirror: 1, part: 1, reserved: 0, name: 'arm' },
  ];
  const m = emptyMotion(60, joints);
  for (let f = 0; f <= 60; f++) {
    m.translation[f * 4 + 2] = f * 2;
    const a = 0.6 * Math.sin(f / 6);
    const i = (f * 2 + 1) * 4;
    m.rotation[i + 0] = Math.sin(a / 2);
    m.rotation[i + 3] = Math.cos(a / 2);
    m.offset[i] = 10;
  }
  m.jointKeyInfo[(30 * 2 + 1) * 4] = KeyFlag.KEY;
  return m;
}

describe('buildSeries', () => {
  it('plots the compressed channel: its keys, user keys, errors, and decoded curves close to the source', () => {
    const m = wavingMotion();
    const r = compressMotion(m, {
      positionTolerance: 0.1,
      rotationToleranceDeg: 0.5,
      offsetTolerance: 0.1,
      name: 'wave',
    });
    const euler = buildSeries(m, 1, 'euler', r.mt3, r.channels);
    const report = r.channels.find((c) => c.kind === 'rotation' && c.joint === 1)!;
    expect(euler.keyFrames).toEqual(report.keyFrames);
    expect(euler.userKeyFrames).toEqual([30]);
    expect(euler.keyFrames).toContain(30);
    expect(euler.errors).toBe(report.errors);
    // A rotation about X only: the X angle carries it, and decoded stays within the tolerance of the source.
    const x = euler.components[0];
    for (let f = 0; f <= 60; f++) {
      expect(x.source[f]).toBeCloseTo((0.6 * Math.sin(f / 6) * 180) / Math.PI, 3);
      expect(Math.abs(x.decoded![f] - x.source[f])).toBeLessThanOrEqual(report.tolerance + 1e-6);
    }
    const quat = buildSeries(m, 1, 'quat', r.mt3, r.channels);
    expect(quat.components.map((c) => c.label)).toEqual(['qX', 'qY', 'qZ', 'qW']);
    const root = buildSeries(m, -1, 'euler', r.mt3, r.channels);
    expect(root.kind).toBe('translation');
    for (let f = 0; f <= 60; f++)
      expect(Math.abs(root.components[2].decoded![f] - f * 2)).toBeLessThanOrEqual(0.1 + 1e-9);
  });

  it('shows source only before the first compression, with user keys from the document', () => {
    const m = wavingMotion();
    const s = buildSeries(m, 1, 'euler', null, undefined);
    expect(s.components[0].decoded).toBeNull();
    expect(s.keyFrames).toEqual([]);
    expect(s.userKeyFrames).toEqual(userKeysOf(m, 1));
    expect(s.note).toBe('Compressing…');
  });
});

describe('formatTolerance', () => {
  it('shows a derived tolerance with at most three decimals, as the max error beside it', () => {
    // The object-space bound derives per-channel tolerances: this one was drawn whole in the curve gutter.
    expect(formatTolerance(0.5002436384161729)).toBe('0.5');
    expect(formatTolerance(1.2345678)).toBe('1.235');
  });
  it('keeps a typed tolerance as typed', () => {
    expect(formatTolerance(0.5)).toBe('0.5');
    expect(formatTolerance(0.125)).toBe('0.125');
    expect(formatTolerance(1.36)).toBe('1.36');
    expect(formatTolerance(2)).toBe('2');
  });
});
