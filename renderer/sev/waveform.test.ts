import { describe, expect, it } from 'vitest';
import { waveformPath, waveformPeaks } from './waveform';

describe('waveform', () => {
  it('keeps the lowest and highest sample of every channel per column', () => {
    const left = Float32Array.from([0, 0.5, -0.25, 0, 0, 0, 0.1, -0.1]);
    const right = Float32Array.from([0, 0, 0, -0.75, 0, 2, 0, 0]);
    expect(Array.from(waveformPeaks([left, right], 2))).toEqual([-0.75, 0.5, -0.10000000149011612, 1]);
  });

  it('spreads a short sound over every column and is silent without samples', () => {
    expect(Array.from(waveformPeaks([Float32Array.from([0.5, -0.5])], 4))).toEqual([
      0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5,
    ]);
    expect(Array.from(waveformPeaks([new Float32Array(0)], 2))).toEqual([0, 0, 0, 0]);
  });

  it('draws the max edge forwards and the min edge back, y up', () => {
    expect(waveformPath(Float32Array.from([-0.5, 0.25, 0, 1]))).toBe('M0.5 -0.250L1.5 -1.000L1.5 0.000L0.5 0.500Z');
  });
});
