/**
 * The build dialog's progress bar as phases: validating the project (one step), compressing each motion (one
 * step each), writing the archives (one step; a dry run writes nothing). The bar is full exactly when the build
 * is done; a failed or cancelled build keeps the steps it finished.
 */
import type { BuildStatus } from '../../shared/ipc';

export interface BuildProgress {
  /** Steps finished and all steps (the motion count is 0 until the project validated: then 1 step for now). */
  step: number;
  steps: number;
  /** step / steps, in [0, 1]; 1 only when the build is done. */
  fraction: number;
  /** The text on the bar. */
  label: string;
}

export function buildProgress(s: BuildStatus | null): BuildProgress {
  if (!s) return { step: 0, steps: 1, fraction: 0, label: '' };
  const writeSteps = s.dryRun ? 0 : 1;
  const steps = 1 + s.count + writeSteps;
  const motions = `${s.done} / ${s.count} motions`;
  let step: number;
  let label: string;
  switch (s.state) {
    case 'checking':
      step = 0;
      label = 'Validating…';
      break;
    case 'compressing':
      step = 1 + s.done;
      label = motions;
      break;
    case 'writing':
      step = 1 + s.count;
      label = `${motions} · writing`;
      break;
    case 'done':
      step = steps;
      label = motions;
      break;
    default:
      // failed / cancelled: validation passed once motions were counted.
      step = s.count > 0 ? 1 + Math.min(s.done, s.count) : 0;
      label = s.count > 0 ? motions : '—';
  }
  step = Math.min(step, steps);
  return { step, steps, fraction: s.state === 'done' ? 1 : Math.min(step / steps, 1 - 1e-9), label };
}
