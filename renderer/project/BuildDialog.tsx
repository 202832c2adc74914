import { Modal } from '../components/Modal';
import { useProject } from '../sev/hooks';
import { cancelBuild, closeBuildDialog } from './projectBuild';
import { revealProblem } from './projectMotions';
import { buildProgress, cancelLook } from './buildProgress';
import { formatEta } from '../../shared/project/eta';
import { BuildBudget } from './BuildBudget';
import { useSev } from '../sev/hooks';
import { isSevDirty } from '../sev/sevStore';
import { isProjectDirty } from './projectStore';
import { saveProjectAndSev } from './projectFiles';
import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { basenameOf } from '../../shared/project/paths';
import { writtenRows } from './buildOutputs';
import { exactBytes, sizeText } from './byteSize';

/** "walk.sev", "walk.sev and the project file", "a, b and c". */
function listed(names: readonly string[]): string {
  const shown = names.map(escapeControls);
  return shown.length < 2 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

const STATE_TEXT = {
  checking: 'Checking the project, every motion and SEV…',
  compressing: 'Compressing motions…',
  writing: 'Writing the archives…',
  done: 'Built.',
  failed: 'Build refused: nothing was written.',
  cancelled: 'Cancelled: nothing was written.',
} as const;
/** A build with nothing to do (docs/cache.md, "Up to date"). */
const UP_TO_DATE_TEXT =
  'Up to date: nothing changed since the last build, and its archives are as it wrote them; nothing was written.';

/**
 * The motion table's columns, each with what it means: a lead reading a first build met "SE slots", "Max rot err" and
 * "(cached)" with no word of what they were (tried cold, round 14).
 */
export const BUILD_COLUMNS: readonly (readonly [string, string])[] = [
  ['#', 'The motion’s entry in the .mar (its index in the game)'],
  ['Motion', 'The project’s name for the motion'],
  ['Keys', 'Keys the .mar holds for the motion, every joint and the root together'],
  ['MT3', 'The motion’s compressed size in the .mar (KiB: 1024 bytes; hover a size: to the byte)'],
  ['Ratio', 'The source .mtn’s size over the compressed size: 18.9 means 18.9 times smaller'],
  [
    'Max rot err',
    'Largest rotation error of any joint on any frame, in degrees, against the source (hover a value: the largest position error and its share of the tolerance)',
  ],
  ['SE slots', 'SEs the .sar holds for the motion, from its .sev (each with its 8 floor/wall variants)'],
  ['Events', 'Sound events the .sar holds for the motion'],
];

/** What "(cached)" beside a motion means. */
export const CACHED_TITLE =
  'Not compressed again: unchanged since the last build, so its data and figures are that build’s (docs/cache.md)';

/**
 * The line over the build's warnings: they are not errors, and the archives were written (or, up to date, are the
 * last build's, which showed the same warnings: it said "were written" of a build that wrote nothing).
 */
export function warningsHead(count: number, upToDate = false): string {
  const stand = upToDate ? 'the archives stand as the last build wrote them' : 'the archives were written all the same';
  return `${count === 1 ? '1 warning' : `${count} warnings`}: ${stand}. Check that this is what the game expects:`;
}

/**
 * What a lead reading a warning can do about it. A resample warning named what the build did and not why: a lead
 * looked for the fault to fix (tried cold, round 16 continued). It is what the project asks for, and where it asks.
 */
function warningCause(warning: string): string | null {
  return / resampled from [\d.]+ fps /.test(warning)
    ? 'The project asks for this: "resample": true, on this motion or on the whole project. To build the frames as ' +
        'captured, import the source again at the project\'s fps and drop "resample".'
    : null;
}

/** The build dialog: progress bar, Cancel, per-motion results, and every error (click to go to it). */
export function BuildDialog() {
  const build = useProject((p) => p.build);
  const s = build?.status ?? null;
  const running =
    !!build && (build.starting || !s || s.state === 'checking' || s.state === 'compressing' || s.state === 'writing');
  // A finished build closes with Escape as every other dialog does (it stayed open to Escape; a running build is not
  // cancelled by a stray Escape: its Cancel says what it does).
  const finished = !!build && !running;
  // Of the files whose unsaved edits the build took, those still unsaved (a save from this dialog clears them).
  const sevName = useSev((f) => (f.file && isSevDirty(f.file) ? basenameOf(f.file.path) : null));
  const projectDirty = useProject((p) => isProjectDirty(p));
  if (!build) return null;
  const took = build.unsaved ?? [];
  const stillUnsaved = took.filter((n) => (n === 'the project file' ? projectDirty : n === sevName));
  const stopped = s?.state === 'failed' || s?.state === 'cancelled';
  // Phases (validate, each motion, write), so the bar is full exactly when the build is done.
  const progress = buildProgress(s);
  return (
    <Modal
      title="Build archives"
      // While it runs the heading holds the focus (a stray Enter or Space does not cancel the build); once done, the
      // one way out does: Enter or Escape closes, Tab stays in the dialog.
      focusHeading={running}
      focusKey={finished}
      testId="build-dialog"
      className="build-dialog"
      onEscape={finished ? closeBuildDialog : undefined}
      buttons={
        running ? (
          <button
            type="button"
            onClick={() => void cancelBuild()}
            data-testid="build-cancel"
            disabled={cancelLook(s).disabled}
            title={cancelLook(s).title}
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={closeBuildDialog}
            data-testid="build-close"
            title="Close (Esc)"
            data-autofocus
          >
            Close
          </button>
        )
      }
    >
      <p
        data-testid="build-state"
        data-state={s?.state ?? 'starting'}
        // A cancelled build: whether its worker has ended (nothing of it runs any more).
        data-stopped={s?.state === 'cancelled' ? String(s.stopped !== false) : undefined}
        className={s?.state === 'failed' ? 'bad' : ''}
      >
        {s ? (s.upToDate ? UP_TO_DATE_TEXT : STATE_TEXT[s.state]) : 'Starting…'}
        {s?.current && running && <span className="dim"> {s.current}</span>}
        {running && s?.state === 'compressing' && s.etaMs !== undefined && s.etaMs !== null && (
          <span className="dim" data-testid="build-eta">
            {' '}
            · about {formatEta(s.etaMs)} left
          </span>
        )}
      </p>
      {took.length > 0 && !stopped && (
        <p className="build-unsaved" data-testid="build-unsaved" role="status">
          {stillUnsaved.length > 0 ? (
            <>
              {running ? 'This build takes ' : 'These archives hold '}
              {listed(stillUnsaved)} as you see {stillUnsaved.length > 1 ? 'them' : 'it'}, unsaved edits included;{' '}
              {stillUnsaved.length > 1 ? 'the files' : 'the file'} on disk {stillUnsaved.length > 1 ? 'do' : 'does'} not
              have them yet.{' '}
              <button
                type="button"
                className="tool small"
                data-testid="build-save-unsaved"
                title="Save them (as Ctrl+S does), so the files on disk match the archives"
                onClick={() => void saveProjectAndSev()}
              >
                Save {listed(stillUnsaved)}
              </button>
            </>
          ) : (
            <span data-testid="build-unsaved-saved">
              Saved {listed(took)}: the files on disk hold what the archives were built from.
            </span>
          )}
        </p>
      )}
      {build.savedMotion && !stopped && (
        // "Build the saved file" was chosen for a motion with unsaved edits: the dialog said "Built." and nothing of
        // what it left out, the tuner still marked modified (tried cold, round 27).
        <p className="build-unsaved" data-testid="build-saved-motion" role="status">
          {running ? 'This build reads ' : 'These archives hold '}
          {build.savedMotion} as saved: the unsaved changes in the tuner are not in {running ? 'it' : 'them'}. Save it
          and build again to take them in.
        </p>
      )}
      <div
        className="build-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={progress.steps}
        aria-valuenow={progress.step}
        aria-valuetext={progress.label}
        data-testid="build-progress"
        data-motions-done={s?.done ?? 0}
        data-fraction={progress.fraction}
      >
        {/* No width transition once finished: the final state shows at once (and in screenshots). */}
        <div
          className={`build-progress-fill${s?.state === 'failed' || s?.state === 'cancelled' ? ' stopped' : ''}${running ? '' : ' finished'}`}
          data-testid="build-progress-fill"
          style={{ width: `${(progress.fraction * 100).toFixed(1)}%` }}
        />
        <span>{progress.label}</span>
      </div>
      {s && s.motions.length > 0 && (
        <table className="channel-table build-table" data-testid="build-motions">
          <thead>
            <tr>
              {BUILD_COLUMNS.map(([head, title]) => (
                <th key={head} title={title} data-testid="build-column">
                  {head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {s.motions.map((m) => (
              <tr key={m.index}>
                <td>{m.index}</td>
                <td>
                  {m.name}
                  {m.cached && (
                    <span className="dim" data-testid="build-cached" title={CACHED_TITLE}>
                      {' '}
                      (cached)
                    </span>
                  )}
                </td>
                <td>{m.totalKeys}</td>
                <td title={exactBytes(m.mt3Bytes)}>{sizeText(m.mt3Bytes)}</td>
                <td>{m.ratio.toFixed(2)}</td>
                <td
                  className={m.maxErrorRatio > 1 ? 'bad' : ''}
                  title={`position ${m.maxPositionError.toFixed(3)}; ${(m.maxErrorRatio * 100).toFixed(1)}% of the tightest tolerance`}
                >
                  {m.maxRotationErrorDeg.toFixed(3)}°
                </td>
                <td>{m.seSlots}</td>
                <td>{m.events}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {s?.report?.budget && <BuildBudget budget={s.report.budget} />}
      {s && s.errors.length > 0 && (
        <ul className="build-errors" data-testid="build-errors">
          {s.errors.map((e, i) => (
            <li key={i}>
              <button
                type="button"
                className="link bad"
                onClick={() => void revealProblem(e)}
                data-testid="build-error"
              >
                {escapeControlsKeepingLines(e.message)}
              </button>
            </li>
          ))}
        </ul>
      )}
      {s && s.state === 'done' && (
        <ul className="build-written small" data-testid="build-written">
          {writtenRows(s).map((w) => (
            <li
              key={w.path}
              data-testid="build-output"
              data-name={w.name}
              data-bytes={w.bytes ?? ''}
              data-unchanged={w.unchanged}
            >
              {w.unchanged ? 'unchanged: ' : 'wrote '}
              {/* A project in a received folder's subfolder: its path's hidden characters as \uXXXX (security.md, round 52). */}
              {escapeControls(w.path)}
              {w.bytes !== null && (
                <>
                  {' · '}
                  <b data-testid="build-output-size" title={exactBytes(w.bytes)}>
                    {sizeText(w.bytes)}
                  </b>
                </>
              )}
              {w.holds && (
                <div className={`build-output-holds ${w.overBudget ? 'bad' : 'dim'}`} data-testid="build-output-holds">
                  {w.holds}
                </div>
              )}
            </li>
          ))}
          {s.warnings.length > 0 && (
            <li className="warn-inline build-warnings-head" data-testid="build-warnings-head">
              {warningsHead(s.warnings.length, s.upToDate === true)}
            </li>
          )}
          {s.warnings.map((w, i) => (
            <li key={`w${i}`} className="warn-inline">
              {escapeControlsKeepingLines(w)}
              {warningCause(w) && (
                <div className="dim build-warning-cause" data-testid="build-warning-cause">
                  {warningCause(w)}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
