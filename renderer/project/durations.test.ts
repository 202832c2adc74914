import { describe, expect, it } from 'vitest';
import type { BuildMotionResult } from '../../shared/ipc';
import { aliasRows, durationTitle, formatDurationMs } from './durations';

const walk: BuildMotionResult = {
  index: 0,
  name: 'walk',
  totalKeys: 10,
  mt3Bytes: 100,
  mtnBytes: 1000,
  ratio: 10,
  maxErrorRatio: 0.5,
  maxRotationErrorDeg: 0.1,
  maxPositionError: 0.1,
  seSlots: 0,
  events: 0,
  frameCount: 132,
  fps: 30,
  resampledFromFps: null,
  speed: 1,
  durationMs: 4400,
};

describe('project panel durations', () => {
  it('formats seconds and explains the computation', () => {
    expect(formatDurationMs(4400)).toBe('4.40 s');
    expect(formatDurationMs(67)).toBe('0.067 s');
    expect(durationTitle({ ...walk, fps: 30, speed: 2, durationMs: 2200, resampledFromFps: 60 })).toBe(
      'effective duration 2200 ms = 132 frames / 30 fps (resampled from 60 fps) / speed 2',
    );
  });

  it('gives an alias its target frames with its own speed, and nothing until the target was checked', () => {
    expect(
      aliasRows(
        [
          { name: 'walk_slow', target: 'walk', speed: 0.5 },
          { name: 'walk2', target: 'walk' },
          { name: 'x', target: 'run' },
        ],
        { walk },
      ),
    ).toEqual([
      { name: 'walk_slow', target: 'walk', speed: 0.5, durationMs: 8800 },
      { name: 'walk2', target: 'walk', speed: 1, durationMs: 4400 },
      { name: 'x', target: 'run', speed: 1, durationMs: null },
    ]);
    expect(aliasRows([{ name: 'blink', target: 'walk', speed: 1e9 }], { walk })[0].error).toMatch(/rounds to 0 ms/);
    expect(aliasRows(undefined, { walk })).toEqual([]);
    expect(aliasRows([{ name: 3, target: 'walk' }, null, 'x'], { walk })).toEqual([]);
  });
});
