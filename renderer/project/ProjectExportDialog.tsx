import { useStore } from 'zustand';
import { Modal } from '../components/Modal';
import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { basenameOf } from '../../shared/project/paths';
import { exactBytes, sizeText } from './byteSize';
import { WillWrite } from '../components/WillWrite';
import {
  cancelProjectExport,
  closeProjectExportDialog,
  confirmProjectExport,
  entriesText,
  exportRunning,
  projectExportStore,
} from './projectExport';

const FORMAT_NAME = { msh: 'MSH', gltf: 'glTF' } as const;

/** The Export All dialog: progress per motion, Cancel until the commit, then every file written or every problem. */
export function ProjectExportDialog() {
  const s = useStore(projectExportStore, (st) => st.status);
  const savedMotion = useStore(projectExportStore, (st) => st.savedMotion);
  if (!s) return null;
  const running = exportRunning(s);
  const what = FORMAT_NAME[s.format] + (s.gltfSource === 'compressed' ? ' (compressed motions)' : '');
  // A folder, a name or a message from a received folder: its hidden characters shown as \uXXXX (docs/security.md, round 52).
  const stateText = {
    exporting: s.count ? `Exporting motion ${Math.min(s.done + 1, s.count)} of ${s.count}…` : 'Reading the project…',
    confirm: `Export into ${escapeControls(s.folder)}?`,
    writing: `Writing ${s.count} motions' files as one unit…`,
    // The compressed motions' use of the project's build cache, in Build's words (a reused motion was not compressed).
    done: `Exported ${entriesText(s.written)} as ${what} into ${escapeControls(s.folder)}, as one unit${s.cache ? ` (${s.cache})` : ''}.`,
    failed: 'Export refused: nothing was written.',
    cancelled: 'Cancelled: nothing was written.',
  }[s.state];
  return (
    <Modal
      title={`Export All as ${what}`}
      focusHeading={running}
      focusKey={s.state === 'confirm' ? s.state : running}
      testId="project-export-dialog"
      className="build-dialog"
      onEscape={
        // A question's Escape is its Cancel; a running export is not stopped by a stray Escape.
        s.state === 'confirm' ? () => void cancelProjectExport() : running ? undefined : closeProjectExportDialog
      }
      buttons={
        s.state === 'confirm' ? (
          <>
            <button
              type="button"
              className="primary"
              onClick={() => void confirmProjectExport()}
              data-testid="project-export-confirm"
            >
              Export
            </button>
            <button
              type="button"
              onClick={() => void cancelProjectExport()}
              data-testid="project-export-cancel"
              title="Stop; nothing is written"
            >
              Cancel
            </button>
          </>
        ) : running ? (
          <button
            type="button"
            onClick={() => void cancelProjectExport()}
            data-testid="project-export-cancel"
            disabled={s.state === 'writing'}
            title={
              s.state === 'writing'
                ? 'The files are being written as one unit: too late to cancel'
                : 'Stop; nothing is written'
            }
          >
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={closeProjectExportDialog}
            data-testid="project-export-close"
            data-autofocus
          >
            Close
          </button>
        )
      }
    >
      <p data-testid="project-export-state" data-state={s.state} className={s.state === 'failed' ? 'bad' : ''}>
        {stateText}
        {s.current && running && <span className="dim"> {s.current}</span>}
      </p>
      {savedMotion && s.state !== 'failed' && s.state !== 'cancelled' && (
        // "Export the saved file" was chosen for a motion with unsaved edits: the result listed its files and nothing
        // said they lacked the edits on screen, while Build's dialog says so (tried cold, round 28).
        <p className="build-unsaved" data-testid="project-export-saved-motion" role="status">
          {s.state === 'done' ? 'These files hold ' : 'This export reads '}
          {escapeControls(savedMotion)} as saved: the unsaved changes in the tuner are not in{' '}
          {s.state === 'done' ? 'them' : 'it'}. Save it and export again to take them in.
        </p>
      )}
      {s.state === 'confirm' && s.planned && (
        // The desktop app's folder dialog says nothing of the files (round 19): they are named here before any work.
        <WillWrite
          names={s.planned.files}
          replaced={s.planned.replaced}
          wayOut="Cancel and choose another folder to keep them."
          testId="project-export"
        />
      )}
      {running && s.state !== 'confirm' && (
        <progress
          data-testid="project-export-progress"
          max={Math.max(1, s.count)}
          value={s.state === 'writing' ? s.count : s.done}
          aria-label={`Motions exported: ${s.done} of ${s.count}`}
        />
      )}
      {s.state === 'done' && (
        <table className="build-table" data-testid="project-export-written">
          <thead>
            <tr>
              <th>Motion</th>
              <th>Files written</th>
            </tr>
          </thead>
          <tbody>
            {s.written.map((e) => (
              <tr key={e.name} data-testid="project-export-row">
                <td>
                  {escapeControls(e.name)}
                  {e.of && <span className="dim"> (alias of {escapeControls(e.of)})</span>}
                </td>
                <td>
                  {e.files.map((f) => (
                    <span key={f.path} title={`${escapeControls(f.path)}: ${exactBytes(f.bytes)}`}>
                      {escapeControls(basenameOf(f.path))} ({sizeText(f.bytes)}){' '}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {s.errors.length > 0 && (
        <ul className="build-errors" data-testid="project-export-errors">
          {s.errors.map((e, k) => (
            <li key={k}>{escapeControlsKeepingLines(e.message)}</li>
          ))}
        </ul>
      )}
      {s.warnings.length > 0 && (
        <ul className="build-warnings" data-testid="project-export-warnings">
          {s.warnings.slice(0, 20).map((w, k) => (
            <li key={k}>{escapeControlsKeepingLines(w)}</li>
          ))}
          {s.warnings.length > 20 && <li>… and {s.warnings.length - 20} more</li>}
        </ul>
      )}
    </Modal>
  );
}
