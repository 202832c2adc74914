/**
 * How large the files of Export All may be together (`actguy export-gltf --project`, `actguy export-msh --project`,
 * Project › Export All): every file is made in memory before the commit writes them as one, so the sum is memory
 * before it is disk. A motion is bounded on its own (a project's `"resample": true` makes at most what an .mtn of
 * 1 GiB holds, docs/limits.md), but not a project of them: a 12 KB .mtn resampled to 30,000 frames made a 31 MB .glb,
 * and every alias of it another (docs/security.md, round 44); an MSH entry is up to 1.7 MB, and 4,096 of them 7 GB
 * (round 45).
 */
import { FormatError } from '../../shared/errors';
import type { ProjectExportFormat } from '../../shared/ipc/project';

/** The most bytes the files of one Export All may come to, by their upper bound (glbBytesAtMost, mshBytesAtMost). */
export const EXPORT_MAX_BYTES = 2 * 1024 ** 3;

/**
 * The most bytes motionToGlb (shared/interchange/gltf/export.ts) makes for `frames` samples of `joints` joints: per
 * joint and sample a rotation (4 floats), at most a translation (3 floats) and at most a key's flags in the JSON
 * (`[65535,1023,255],`, 17 bytes); per sample its time and at most a translation key (`[65535,255],`); per joint its
 * node, channels, accessors and bone mesh (2 KB is more than they take); and the file's own head.
 */
export function glbBytesAtMost(frames: number, joints: number): number {
  return frames * (joints * (7 * 4 + 17) + 4 + 12) + joints * 2048 + 4096;
}

/** The most keys and frame-map words an MSH holds (shared/msh/export.ts refuses more: both are u16 there). */
const MSH_MAX_WORDS = 0xffff;

/**
 * The most bytes of one entry's MSH files (shared/msh/files.ts mshFilesOfFit) for `frames` samples of `joints` joints
 * whose names take `nameChars` characters: a key (24 bytes) per node and frame at most, and a frame-map word (2 bytes)
 * likewise, each capped where the fit refuses more; its `.nodes.json` a node record (under 384 bytes with its
 * tolerance override) and its name escaped (6 bytes a character at most) per joint, and its head (the source's path
 * escaped, up to 4,096 characters, and the rest: 32 KB).
 */
export function mshBytesAtMost(frames: number, joints: number, nameChars: number): number {
  const samples = Math.min(MSH_MAX_WORDS, frames * joints);
  return samples * (24 + 2) + joints * 384 + nameChars * 6 + 32768;
}

/** An entry of Export All as the bound counts it: its motion's samples (an alias its target's). */
export interface ExportSizeEntry {
  name: string;
  frames: number;
  joints: number;
  /** The characters of its joints' names (MSH's `.nodes.json`). */
  nameChars: number;
}

const FORMATS: Record<ProjectExportFormat, { files: string; most: (e: ExportSizeEntry) => number }> = {
  gltf: { files: 'glTF files', most: (e) => glbBytesAtMost(e.frames, e.joints) },
  msh: {
    files: 'MSH exports (.res8, .res19 and .nodes.json each)',
    most: (e) => mshBytesAtMost(e.frames, e.joints, e.nameChars),
  },
};

/**
 * Why the files of these entries (one glTF file or one MSH export per entry, an alias its target's size) are too large
 * to make, counted before any is made, or undefined. `max`: EXPORT_MAX_BYTES.
 */
export function exportSizeProblem(
  projectFile: string,
  format: ProjectExportFormat,
  entries: readonly ExportSizeEntry[],
  max = EXPORT_MAX_BYTES,
): FormatError | undefined {
  const { files, most } = FORMATS[format];
  let total = 0;
  let largest: ExportSizeEntry | undefined;
  for (const e of entries) {
    total += most(e);
    if (!largest || most(e) > most(largest)) largest = e;
  }
  if (total <= max || !largest) return undefined;
  return new FormatError(
    'PROJECT',
    `its ${entries.length} ${files} would be up to ${total} bytes (the largest, ${largest.name}, ${largest.frames} frames of ${largest.joints} joints), more than the ${max} bytes Export All makes at once; nothing was exported: export fewer motions (a project of part of them), or resample to a lower "fps"`,
    { where: 'export' },
    projectFile,
  );
}
