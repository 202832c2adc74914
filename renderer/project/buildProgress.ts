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
      label = s.upToDate ? 'up to date' : motions;
      break;
    default:
      // failed / cancelled: validation passed once motions were counted.
      step = s.count > 0 ? 1 + Math.min(s.done, s.count) : 0;
      label = s.count > 0 ? motions : '—';
  }
  step = Math.min(step, steps);
  return { step, steps, fraction: s.state === 'done' ? 1 : Math.min(step / steps, 1 - 1e-9), label };
}

/** How the project panel's Build button looks: primary while a build can run, plainly refused while problems stand. */
export interface BuildButtonLook {
  /** Class names of the button. */
  className: string;
  /** Its text. */
  label: string;
  /** Its tooltip: what the click does, and while refused, how many problems and where they are listed. */
  title: string;
  /** Whether the build would be refused (the click still runs it, and its dialog lists the problems). */
  blocked: boolean;
}

/**
 * The project panel's Build button names what it builds, as File › Build Archives (.mar, .sar)… does: "Build
 * archives…" alone left a first-time user asking what archives (tried cold, round 10).
 */
export const BUILD_LABEL = 'Build archives (.mar, .sar)…';

/**
 * The Build button for a project with `problems` known problems, `inShownSev` of them found live in the `.sev` being
 * edited (not yet in the last check's Problems list). While there are some the build is refused, so the
 * button is not the blue call to action: it names the count and points to the Problems list. It stays clickable:
 * the build it starts stops at validation and its dialog lists the same problems.
 */
export function buildButtonLook(problems: number, inShownSev = 0): BuildButtonLook {
  if (problems <= 0)
    return {
      className: 'tool primary',
      label: BUILD_LABEL,
      title: 'Compress every motion and write the .mar and .sar',
      blocked: false,
    };
  const n = `${problems} problem${problems === 1 ? '' : 's'}`;
  const listed = problems - inShownSev;
  const where = [
    listed > 0 ? 'see Problems in the project panel above (click one to go to it)' : '',
    inShownSev > 0
      ? `${listed > 0 ? `${inShownSev} of them are` : problems === 1 ? 'it is' : 'they are'} in the .sev being edited, ` +
        'named in the Sound events toolbar (Check lists them under Problems)'
      : '',
  ].filter((w) => w !== '');
  return {
    className: 'tool build-blocked',
    label: `${BUILD_LABEL} (${n} to fix)`,
    title:
      `The build is refused until ${problems === 1 ? 'this problem is' : `these ${problems} problems are`} fixed: ` +
      `${where.join('; ')}. Click to run the build anyway and list them.`,
    blocked: true,
  };
}

/**
 * The build dialog's Cancel while a build runs. Once the archives are being written the commit finishes whatever
 * is pressed (docs/architecture.md: the outputs commit as one unit), so Cancel is shown disabled and says why
 * instead of doing nothing.
 */
export function cancelLook(s: BuildStatus | null): { disabled: boolean; title: string } {
  if (s?.state === 'writing')
    return {
      disabled: true,
      title: 'The archives are being written as one unit: the build can no longer be cancelled.',
    };
  return { disabled: false, title: 'Stop the build: nothing is written.' };
}
