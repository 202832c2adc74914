/**
 * Which motion a .sev belongs to: the tuner's motion as a SEV binding, whether the open .sev is that motion's, the
 * .sev beside a motion file, the project motion of a path, and what the build would refuse in a .sev. Also the
 * gate that keeps the SEV editor from following the tuner while a command opens a motion and its .sev itself.
 */
import { dirnameOf, normalizePath, stemOf } from '../../shared/project/paths';
import type { SevDocument } from '../../shared/sev/types';
import { documentStore, type DocumentState } from '../state/documentStore';
import { motionPaths, projectStore, type ProjectState } from '../project/projectStore';
import { motionProblems, unknownNames } from './resolve';
import type { SevFileState, SevMotionBinding } from './sevStore';

/** The tuner's motion as a SEV binding. */
export function tunerBinding(
  d: Pick<DocumentState, 'documentId' | 'path'> = documentStore.getState(),
): SevMotionBinding {
  return { documentId: d.documentId, path: d.path };
}

/** Whether `f` is the .sev of the motion the tuner shows (the same document, or the same motion file reopened). */
export function sevBelongsTo(
  f: Pick<SevFileState, 'motion'> | null,
  d: Pick<DocumentState, 'documentId' | 'path'> & { motion: unknown },
): boolean {
  if (!f || !d.motion) return false;
  if (f.motion.documentId !== null && f.motion.documentId === d.documentId) return true;
  return f.motion.path !== null && d.path !== null && normalizePath(f.motion.path) === normalizePath(d.path);
}

/** The .sev that sits beside a motion file (`walk.mtn` -> `walk.sev`); null for a motion without a file or a .mar entry. */
export function siblingSevPath(motionPath: string | null): string | null {
  if (!motionPath || !/\.mtn$/i.test(motionPath)) return null;
  return `${dirnameOf(motionPath)}/${stemOf(motionPath)}.sev`;
}

/** The project motion (archive index) whose .mtn is `path`, or null. */
export function projectMotionOfPath(p: ProjectState, path: string | null): number | null {
  if (!path || !p.json) return null;
  const want = normalizePath(path);
  const i = p.json.motions.findIndex((_, k) => {
    const paths = motionPaths(p, k);
    return paths !== null && normalizePath(paths.mtn) === want;
  });
  return i >= 0 ? i : null;
}

/** What the build would refuse in `doc`: SE names no table defines, and (against its motion) frames and joints out of range. */
export function sevProblemLines(
  doc: SevDocument,
  motion: { name: string; frameCount: number; jointCount: number } | null,
): string[] {
  const tables = projectStore.getState().tables?.table ?? null;
  const lines = unknownNames(doc, tables).map((u) => `SE ${u.index}: ${u.error}`);
  for (const e of motionProblems(doc, motion)) {
    const where = e.place.line !== undefined ? `line ${e.place.line}` : (e.place.where ?? '');
    lines.push(where ? `${where}: ${e.detail}` : e.detail);
  }
  return lines;
}

let following = 0;

/** Runs `fn` (which opens a motion and its .sev itself) without the editor following the tuner meanwhile. */
export async function withoutFollowing<T>(fn: () => Promise<T>): Promise<T> {
  following++;
  try {
    return await fn();
  } finally {
    following--;
  }
}

/** Whether a command is opening a motion and its .sev itself (the editor does not follow the tuner meanwhile). */
export function isFollowingPaused(): boolean {
  return following > 0;
}
