/**
 * The parts of the window's work that can be unsaved (the motion in the tuner, the SEV in the sound-event editor,
 * the open project), each registered at start-up by the feature that saves it (renderer/app/features.ts).
 * renderer/app/unsaved.ts asks them instead of importing their savers.
 */
/** The parts of the window's work that can be unsaved. */
export type UnsavedPart = 'motion' | 'sev' | 'project';

export interface SavablePart {
  part: UnsavedPart;
  /** Whether it has changes that are not on disk. */
  isDirty(): boolean;
  /** The name the unsaved question shows ("walk.mtn", "the project"). */
  name(): string;
  /** Saves the part (does nothing when it is clean); resolves true when it is on disk afterwards. */
  save(): Promise<boolean>;
}

const parts = new Map<UnsavedPart, SavablePart>();

export function registerSavablePart(p: SavablePart): void {
  if (parts.has(p.part)) throw new Error(`Savable part ${p.part} is registered twice.`);
  parts.set(p.part, p);
}

/** The registered part, or null (a part nobody registered has nothing to save). */
export function savablePart(part: UnsavedPart): SavablePart | null {
  return parts.get(part) ?? null;
}
