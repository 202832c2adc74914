/**
 * The waveform the event track draws under each event whose SE has a sound in the audition folder: the sound
 * decoded once (audition.ts keeps the decoded sound per file), reduced once to peaks, kept per file. The track
 * draws the peaks over the frames the sound lasts from the event's frame (UE's notify track draws its sound
 * the same way), scaled to the zoom by SVG, so zooming never decodes or reduces again.
 */
import { createStore } from 'zustand/vanilla';
import { decodeSound } from './audition';

/** Columns of a reduced waveform (min and max per column), whatever the sound's length. */
export const WAVEFORM_COLUMNS = 512;

export interface Waveform {
  /** Seconds. */
  duration: number;
  /** Per column: the lowest and highest sample of any channel, -1..1 (2 * WAVEFORM_COLUMNS values). */
  peaks: Float32Array;
  /** The peaks as an SVG path (waveformPath), made once. */
  svgPath: string;
}

/** The peaks of `channels` (equal lengths) in `columns` columns: min then max per column, -1..1. */
export function waveformPeaks(channels: readonly Float32Array[], columns = WAVEFORM_COLUMNS): Float32Array {
  const peaks = new Float32Array(columns * 2);
  const n = channels[0]?.length ?? 0;
  if (n === 0) return peaks;
  for (let c = 0; c < columns; c++) {
    const a = Math.floor((c * n) / columns);
    const b = Math.max(a + 1, Math.floor(((c + 1) * n) / columns));
    let lo = Infinity;
    let hi = -Infinity;
    for (const ch of channels)
      for (let i = a; i < b && i < n; i++) {
        if (ch[i] < lo) lo = ch[i];
        if (ch[i] > hi) hi = ch[i];
      }
    peaks[c * 2] = Math.max(-1, Math.min(1, lo));
    peaks[c * 2 + 1] = Math.max(-1, Math.min(1, hi));
  }
  return peaks;
}

/**
 * An SVG path of the peaks in a box `columns` wide and 2 high (y -1..1, up positive as drawn with y flipped):
 * the max edge left to right through the columns' centres, then the min edge back, closed.
 */
export function waveformPath(peaks: Float32Array): string {
  const columns = peaks.length / 2;
  const parts: string[] = [];
  for (let c = 0; c < columns; c++) parts.push(`${c === 0 ? 'M' : 'L'}${c + 0.5} ${(-peaks[c * 2 + 1]).toFixed(3)}`);
  for (let c = columns - 1; c >= 0; c--) parts.push(`L${c + 0.5} ${(-peaks[c * 2]).toFixed(3)}`);
  return `${parts.join('')}Z`;
}

/** Waveforms by sound file (null: the file could not be decoded), filled as sounds are decoded; another folder's files are other paths. */
export const waveformStore = createStore<{ byPath: Record<string, Waveform | null> }>()(() => ({ byPath: {} }));
const pending = new Set<string>();

/** Starts decoding `path` unless it is decoded or on its way; the store gets its waveform when done. */
export function requestWaveform(path: string): void {
  if (pending.has(path) || path in waveformStore.getState().byPath) return;
  pending.add(path);
  void decodeSound(path).then((buffer) => {
    pending.delete(path);
    const peaks = buffer
      ? waveformPeaks(Array.from({ length: buffer.numberOfChannels }, (_, k) => buffer.getChannelData(k)))
      : null;
    const waveform = buffer && peaks ? { duration: buffer.duration, peaks, svgPath: waveformPath(peaks) } : null;
    waveformStore.setState((s) => ({ byPath: { ...s.byPath, [path]: waveform } }));
  });
}
