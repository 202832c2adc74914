/**
 * The tuner's compression settings are kept with the motion: in the project
 * when the tuner shows one of its motions, else in the tuning file beside the
 * .mtn (docs/formats-tuning.md), written by Save together with the motion and
 * applied again on open. `actguy compress` reads the same file, so an exported
 * .mt3 equals what the CLI writes from the saved files.
 */
import { escapeControls } from '../../shared/errors';
import type { OpenedMotion } from '../../shared/ipc';
import type { Motion } from '../../shared/motion/types';
import {
  defaultTuning,
  parseTuning,
  sameTuning,
  serializeTuning,
  type MotionTuning,
} from '../../shared/tuning/sidecar';
import { documentStore, type DocumentState, type Tolerances } from '../state/documentStore';

/** Documents whose motion file has a tuning file beside it (read on open, or written by a save). */
const onDisk = new Set<string>();

/** The tuning file each document took its starting settings from on open: the file's path and its settings. */
const appliedFiles = new Map<string, { path: string; tuning: MotionTuning }>();

/** The tuning file document `documentId` took its settings from when it opened, or null (none, or a bad one). */
export function appliedTuningFile(documentId: string | null): { path: string; tuning: MotionTuning } | null {
  return (documentId !== null && appliedFiles.get(documentId)) || null;
}

/**
 * What changes from tuning `from` to `to`, one item per setting ("rotation 1.02° → 0.5°", "Hips override none →
 * 0.3°"), in the tuner's order: position, rotation, offset, method, object bound, shell, then the per-joint
 * overrides by joint index (named after `joints`). Empty when they compress alike.
 */
export function tuningChanges(from: MotionTuning, to: MotionTuning, joints: readonly { name: string }[]): string[] {
  const out: string[] = [];
  const value = (v: number | undefined, unit = '') => (v === undefined ? 'none' : `${v}${unit}`);
  const item = (label: string, a: number | undefined, b: number | undefined, unit = '') => {
    if (a !== b) out.push(`${label} ${value(a, unit)} → ${value(b, unit)}`);
  };
  item('position', from.positionTolerance, to.positionTolerance);
  item('rotation', from.rotationToleranceDeg, to.rotationToleranceDeg, '°');
  item('offset', from.offsetTolerance, to.offsetTolerance);
  if (from.method !== to.method) out.push(`method ${from.method} → ${to.method}`);
  item('object bound', from.objectTolerance, to.objectTolerance);
  item('shell', from.shell, to.shell);
  const indices = new Set([...Object.keys(from.rotationOverridesDeg), ...Object.keys(to.rotationOverridesDeg)]);
  for (const j of [...indices].map(Number).sort((a, b) => a - b))
    item(`${joints[j]?.name || `joint ${j}`} override`, from.rotationOverridesDeg[j], to.rotationOverridesDeg[j], '°');
  return out;
}

/** The tuner's settings of a document as a tuning. */
export function tuningOfDocument(d: Pick<DocumentState, 'tolerances' | 'rotationOverridesDeg'>): MotionTuning {
  const t = d.tolerances;
  const tuning: MotionTuning = {
    positionTolerance: t.positionTolerance,
    rotationToleranceDeg: t.rotationToleranceDeg,
    offsetTolerance: t.offsetTolerance,
    method: t.method ?? 'refined',
    rotationOverridesDeg: { ...d.rotationOverridesDeg },
  };
  if (t.objectTolerance !== undefined) {
    tuning.objectTolerance = t.objectTolerance;
    if (t.shell !== undefined) tuning.shell = t.shell;
  }
  return tuning;
}

/** Makes `t` the document's starting settings (not an undo step). */
export function applyTuning(t: MotionTuning): void {
  const tolerances: Tolerances = {
    positionTolerance: t.positionTolerance,
    rotationToleranceDeg: t.rotationToleranceDeg,
    offsetTolerance: t.offsetTolerance,
  };
  if (t.method === 'classic') tolerances.method = 'classic';
  if (t.objectTolerance !== undefined) tolerances.objectTolerance = t.objectTolerance;
  if (t.shell !== undefined) tolerances.shell = t.shell;
  documentStore.getState().adoptTuning(tolerances, t.rotationOverridesDeg);
}

/**
 * Applies the tuning file that came with an opened motion. Returns a message for the user when the file is bad
 * (the motion keeps the default settings, and the file stays on disk untouched until the next save), else null.
 */
export function adoptTuningFile(opened: Pick<OpenedMotion, 'documentId' | 'tuning'>, motion: Motion): string | null {
  const file = opened.tuning;
  if (!file) return null;
  onDisk.add(opened.documentId);
  // Main's reason names the file as its path is (a received folder's motion may hold a bidi override): round 51.
  if ('error' in file) return escapeControls(file.error);
  try {
    const tuning = parseTuning(file.text, file.path, motion.joints);
    applyTuning(tuning);
    appliedFiles.set(opened.documentId, { path: file.path, tuning });
    return null;
  } catch (e) {
    return `${e instanceof Error ? e.message : String(e)} (the motion opened with the default tolerances; Save rewrites the file with the tuner's settings)`;
  }
}

/**
 * The tuning file text Save writes beside the .mtn, or undefined to leave none: a motion that has no file and the
 * default settings needs none (the CLI compresses it alike).
 */
export function tuningTextToSave(
  d: Pick<DocumentState, 'documentId' | 'tolerances' | 'rotationOverridesDeg' | 'motion'>,
): string | undefined {
  if (!d.motion || !d.documentId) return undefined;
  const t = tuningOfDocument(d);
  if (!onDisk.has(d.documentId) && sameTuning(t, defaultTuning())) return undefined;
  return serializeTuning(t, d.motion.joints);
}

/** Records that a save wrote the document's tuning file. */
export function markTuningSaved(documentId: string): void {
  onDisk.add(documentId);
}

/**
 * Where a document's settings live when a project holds its motion: the project panel installs this, so that Save
 * stores them in the project instead of a tuning file. `covers` says whether the project holds the tuner's motion;
 * `store` writes the settings into the project file (resolves false when that failed).
 */
export const projectTuning: { covers: (d: DocumentState) => boolean; store: () => Promise<boolean> } = {
  covers: () => false,
  store: async () => true,
};
