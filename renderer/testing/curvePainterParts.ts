/**
 * The curve painter's drawing parts on a long made-up curve, for the tests that count what a repaint draws or reads
 * (renderer/curves/polyline.test.ts, minMax.test.ts): one wave, one series and one painter, so both measure the same
 * thing.
 */
import { CurvePainter } from '../curves/curvePainter';
import type { CurveSeries } from '../curves/series';
import type { TimeAxis } from '../canvas/timeAxis';

/** The painter's private drawing methods, as these tests call them. */
export interface PainterParts {
  paintValues(
    ctx: CanvasRenderingContext2D,
    series: CurveSeries,
    overlays: readonly CurveSeries[],
    solo: number | null,
    axis: TimeAxis,
    top: number,
    bottom: number,
    showSource: boolean,
    showDecoded: boolean,
  ): void;
  paintErrors(ctx: CanvasRenderingContext2D, series: CurveSeries, axis: TimeAxis, top: number, bottom: number): void;
  paintKeys(ctx: CanvasRenderingContext2D, series: CurveSeries, axis: TimeAxis, top: number, plotTop: number): void;
  surface: { canvas: { dataset: Record<string, string> } };
}

/** The painter's drawing parts, with a canvas of data attributes only (a real one needs a window). */
export function painterParts(): PainterParts {
  return Object.assign(Object.create(CurvePainter.prototype) as PainterParts, {
    surface: { canvas: { dataset: {} } },
  });
}

/** A wavy curve with a spike every 997 frames, so that each pixel column has a low, a high and a point between. */
export function wavyCurve(frames: number, shift = 0): Float64Array {
  const v = new Float64Array(frames + 1);
  for (let f = 0; f <= frames; f++)
    v[f] = Math.sin(f * 0.37) * 10 + Math.sin(f * 0.011) * 40 + (f % 997 === 0 ? 80 : 0) + shift;
  return v;
}

/**
 * A rotation series of three components on the wave (decoded: the wave shifted by `decodedShift`), a key every four
 * frames and the wave's scaled size as its error; `wrap` sees each array the painter will read.
 */
export function waveSeries(
  frames: number,
  decodedShift = 1,
  wrap: (values: Float64Array) => Float64Array = (v) => v,
): CurveSeries {
  const c = wavyCurve(frames);
  return {
    kind: 'rotation',
    joint: 1,
    title: 'test',
    unit: '°',
    components: ['X', 'Y', 'Z'].map((label) => ({
      label,
      color: '#fff',
      source: wrap(c),
      decoded: wrap(wavyCurve(frames, decodedShift)),
    })),
    keyFrames: Array.from({ length: Math.floor(frames / 4) }, (_, k) => k * 4),
    userKeyFrames: [],
    errors: wrap(c.map((v) => Math.abs(v) / 100)),
    tolerance: 0.3,
    maxError: 1,
    maxErrorFrame: 0,
    note: null,
    eulerOrder: null,
  } as unknown as CurveSeries;
}
