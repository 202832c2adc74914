import type { ProjectBuildOutcome } from '../build/build';

/** A build that succeeded (buildProject's outcome with `ok: true`). */
export type BuiltOk = Extract<ProjectBuildOutcome, { ok: true }>;

/** The outcome of a build a test expects to succeed; throws its errors, one a line, when it did not. */
export function builtOk(r: ProjectBuildOutcome): BuiltOk {
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  return r;
}
