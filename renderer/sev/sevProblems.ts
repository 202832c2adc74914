import { useDocument, useMotionShape } from '../state/hooks';
import { useProject, useSev } from './hooks';
import { motionProblems, unknownNames } from './resolve';
import { sevBelongsTo } from './sevBinding';

/** What the build would refuse in the `.sev` shown against its motion, as the editor finds it while it is edited. */
export interface ShownSevProblems {
  /** The `.sev`'s path; null when none is shown (no `.sev`, or another motion's kept aside). */
  path: string | null;
  /** SE names no table defines. */
  unknown: ReturnType<typeof unknownNames>;
  /** Events past the motion's end or on a joint it lacks. */
  outside: ReturnType<typeof motionProblems>;
}

/**
 * The shown `.sev`'s problems, live: the SEV toolbar counts them ("1 problem — the build will refuse this SEV") and
 * the project panel's Build button adds them until a check lists that file (the check runs on open, on save and on
 * Check, so an SE renamed to a name no table defines left the button blue while the toolbar said "refuse").
 */
export function useShownSevProblems(): ShownSevProblems {
  const file = useSev((s) => s.file);
  const tables = useProject((p) => p.tables);
  const motion = useMotionShape();
  const motionName = useDocument((d) => d.name);
  const documentId = useDocument((d) => d.documentId);
  const motionPath = useDocument((d) => d.path);
  const doc = sevBelongsTo(file, { documentId, path: motionPath, motion }) ? (file?.doc ?? null) : null;
  if (!file || !doc) return { path: null, unknown: [], outside: [] };
  return {
    path: file.path,
    unknown: unknownNames(doc, tables?.table ?? null),
    outside: motion
      ? motionProblems(doc, { name: motionName, frameCount: motion.frameCount, jointCount: motion.joints.length })
      : [],
  };
}
