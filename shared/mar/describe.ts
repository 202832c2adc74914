import { DEFAULT_GAME_FPS, effectiveDurationMs, formatFps } from '../motion/frameRate';
import { describeMt3Flags } from '../mt3/describe';
import { formatStrCode } from '../strcode';
import type { KnownName } from './names';
import { readMar } from './read';

/**
 * A readable summary of a MAR for `actguy info`: header, then per entry (the
 * motion index) its name where known, offset, size, joints, frames, keys,
 * flags and the duration it plays for at `fps` (an MT3 carries no rate: the
 * game plays every motion at one, 30 fps unless a project says otherwise).
 * Throws the reader's FormatError for a bad file.
 */
export function describeMar(bytes: Uint8Array, names?: Map<number, KnownName>, options: { fps?: number } = {}): string {
  const mar = readMar(bytes);
  const fps = options.fps ?? DEFAULT_GAME_FPS;
  const lines = [
    `MAR: ${mar.entries.length} motion${mar.entries.length === 1 ? '' : 's'}, maxJoint ${mar.maxJoint}, dataBase ${mar.dataBase}, ${bytes.byteLength} bytes`,
    `durations at ${formatFps(fps)} fps: an MT3 carries no frame rate, the game plays every motion at one (--fps to choose another); round(frames / fps * 1000), before any project speed`,
  ];
  let known = 0;
  mar.entries.forEach((e, i) => {
    const n = names?.get(e.name)?.name;
    if (n) known++;
    const label = n ? `${n} (${formatStrCode(e.name)})` : formatStrCode(e.name);
    const m = e.mt3;
    const keys =
      m.root.frames.length +
      m.rotations.reduce((s, r) => s + r.frames.length, 0) +
      (m.offsets?.reduce((s, t) => s + t.frames.length, 0) ?? 0);
    lines.push(
      `  [${i}] ${label}: offset ${e.fileOffset}, ${e.bytes.byteLength} bytes, ${m.rotations.length} joints, ${m.numFrames} frames, ${keys} keys, flags ${describeMt3Flags(m.flags)}, ${durationAt(m.numFrames, fps)}`,
    );
  });
  if (names) lines.push(`names known for ${known} of ${mar.entries.length} entries`);
  return lines.join('\n');
}

/** `duration 4400 ms`, or why the entry has none (0 frames rounds to 0 ms). */
function durationAt(frames: number, fps: number): string {
  try {
    return `duration ${effectiveDurationMs(frames, fps, 1)} ms`;
  } catch (e) {
    return `no duration (${(e as Error).message})`;
  }
}
