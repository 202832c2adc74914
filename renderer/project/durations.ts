/**
 * Effective playback durations for the project panel: a motion's comes from
 * its last check or build; an alias's from its target's frame count with the
 * alias's own speed (the build computes the same numbers for the report).
 */
import type { BuildMotionResult } from '../../shared/ipc';
import { effectiveDurationMs } from '../../shared/motion/frameRate';
import type { ProjectAlias } from '../../shared/project/types';

/** `1.23 s` (whole ms kept: `0.067 s` under a second). */
export function formatDurationMs(ms: number): string {
  return ms < 1000 ? `${(ms / 1000).toFixed(3)} s` : `${(ms / 1000).toFixed(2)} s`;
}

/** The hover text of a motion's duration: how it was computed. */
export function durationTitle(
  st: Pick<BuildMotionResult, 'frameCount' | 'fps' | 'speed' | 'durationMs' | 'resampledFromFps'>,
): string {
  const resampled = st.resampledFromFps === null ? '' : ` (resampled from ${st.resampledFromFps} fps)`;
  return `effective duration ${st.durationMs} ms = ${st.frameCount} frames / ${st.fps} fps${resampled} / speed ${st.speed}`;
}

/** One alias row: its target, its own speed, and its duration once the target has been checked or built. */
export interface AliasRow {
  name: string;
  target: string;
  speed: number;
  /** Null until the target has a status; undefined with `error` when the duration is invalid. */
  durationMs: number | null;
  error?: string;
}

/** Rows for the project's `aliases` as the panel holds them (unvalidated JSON: entries without a string name and target are left out; the check lists them as problems). */
export function aliasRows(aliases: unknown, status: Readonly<Record<string, BuildMotionResult>>): AliasRow[] {
  const list = Array.isArray(aliases)
    ? aliases.filter((a): a is ProjectAlias => typeof a?.name === 'string' && typeof a?.target === 'string')
    : [];
  return list.map((a) => {
    const speed = typeof a.speed === 'number' ? a.speed : 1;
    const st = status[a.target];
    if (!st) return { name: a.name, target: a.target, speed, durationMs: null };
    try {
      return { name: a.name, target: a.target, speed, durationMs: effectiveDurationMs(st.frameCount, st.fps, speed) };
    } catch (e) {
      return { name: a.name, target: a.target, speed, durationMs: null, error: (e as Error).message };
    }
  });
}
