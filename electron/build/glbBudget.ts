/**
 * How large the glTF files of Export All may be together (`actguy export-gltf --project`, Project › Export All as
 * glTF): every file is made in memory before the commit writes them as one, so the sum is memory before it is disk.
 * A motion is bounded on its own (a project's `"resample": true` makes at most what an .mtn of 1 GiB holds,
 * docs/limits.md), but not a project of them: a 12 KB .mtn resampled to 30,000 frames made a 31 MB .glb, and every
 * alias of it another (docs/security.md, round 44).
 */
import { FormatError } from '../../shared/errors';

/** The most bytes the glTF files of one Export All may come to, by their upper bound (glbBytesAtMost). */
export const GLB_EXPORT_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The most bytes motionToGlb (shared/interchange/gltf/export.ts) makes for `frames` samples of `joints` joints: per
 * joint and sample a rotation (4 floats), at most a translation (3 floats) and at most a key's flags in the JSON
 * (`[65535,1023,255],`, 17 bytes); per sample its time and at most a translation key (`[65535,255],`); per joint its
 * node, channels, accessors and bone mesh (2 KB is more than they take); and the file's own head.
 */
export function glbBytesAtMost(frames: number, joints: number): number {
  return frames * (joints * (7 * 4 + 17) + 4 + 12) + joints * 2048 + 4096;
}

/**
 * Why the glTF files of these entries (one per entry, an alias its target's size) are too large to make, counted
 * before any is made, or undefined. `max`: GLB_EXPORT_MAX_BYTES.
 */
export function glbExportProblem(
  projectFile: string,
  entries: readonly { name: string; frames: number; joints: number }[],
  max = GLB_EXPORT_MAX_BYTES,
): FormatError | undefined {
  let total = 0;
  let largest: (typeof entries)[number] | undefined;
  for (const e of entries) {
    total += glbBytesAtMost(e.frames, e.joints);
    if (!largest || glbBytesAtMost(e.frames, e.joints) > glbBytesAtMost(largest.frames, largest.joints)) largest = e;
  }
  if (total <= max || !largest) return undefined;
  return new FormatError(
    'PROJECT',
    `its ${entries.length} glTF files would be up to ${total} bytes (the largest, ${largest.name}, ${largest.frames} frames of ${largest.joints} joints), more than the ${max} bytes Export All makes at once; nothing was exported: export fewer motions (a project of part of them), or resample to a lower "fps"`,
    { where: 'export' },
    projectFile,
  );
}
