import { useEffect } from 'react';
import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { cancelImport } from '../app/interchange';
import { cancelOpen } from '../app/motionFiles';
import { useCompression, useDocument, useSession, useMotionShape } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { useProject } from '../sev/hooks';

/** Document name with the dirty marker, frame, selection and compression figures. */
export function StatusBar() {
  const fileName = useDocument((d) => d.name);
  const filePath = useDocument((d) => d.path);
  const dirty = useDocument((d) => d.dirty);
  const readOnly = useDocument((d) => d.readOnly);
  const motion = useMotionShape();
  const frame = useSession((s) => Math.round(s.playhead));
  const joint = useSession((s) => s.selectedJoint);
  const busy = useSession((s) => s.busy);
  // The project motion the tuner shows goes by its entry's name: walk_rough is walk.mtn at its own tolerances, and
  // the status bar said "walk" while the panel had walk_rough selected (tried cold, round 12).
  const documentId = useDocument((d) => d.documentId);
  const entry = useProject((p) =>
    p.current !== null && documentId !== null && p.currentDocumentId === documentId
      ? (p.json?.motions[p.current]?.name ?? null)
      : null,
  );
  const result = useCompression((c) => c.result);
  const pending = useCompression((c) => c.pending);
  const error = useCompression((c) => c.error);
  const errorPlain = useCompression((c) => c.errorPlain);
  const errorEdit = useCompression((c) => c.editId);
  // A failed compression is said once in the message list, in plain words with the compressor's message as Details;
  // the status bar keeps a short note of it until a compression works again.
  useEffect(() => {
    if (!error || !errorPlain) return;
    const id = sessionStore
      .getState()
      .notify('error', `Compression failed: ${errorPlain.lead}. ${errorPlain.advice}\nDetails: ${error}`);
    return () => sessionStore.getState().dismiss(id);
  }, [error, errorPlain, errorEdit]);
  const stage = useCompression((c) => c.stage);
  // An import (in a worker) and an open (a large .mar, a slow disk) may take a while: both can be stopped from here.
  const busyNote = busy && (
    <>
      <span className="dim" data-testid="busy-note">
        {busy}…
      </span>
      {busy === 'Import' && (
        <button type="button" className="tool small" data-testid="cancel-import" onClick={() => void cancelImport()}>
          Cancel
        </button>
      )}
      {busy === 'Open' && (
        <button type="button" className="tool small" data-testid="cancel-open" onClick={() => void cancelOpen()}>
          Cancel
        </button>
      )}
    </>
  );
  if (!motion)
    return (
      <footer className="statusbar" data-testid="statusbar">
        No motion open
        {busy && <span className="spacer" />}
        {busyNote}
      </footer>
    );
  const jointName = joint < 0 ? 'Root translation' : motion.joints[joint]?.name;
  // A received folder's `walk\u202Eves.mtn`: its name and path shown with hidden characters as \uXXXX, as the window's
  // title and the status line show them (docs/security.md, round 52).
  const name = escapeControls(fileName);
  const shownPath = filePath === null ? null : escapeControls(filePath);
  return (
    <footer className="statusbar" data-testid="statusbar">
      {entry !== null && entry !== name ? (
        // The file's name stays in doc-name, in brackets after the entry's.
        <span data-testid="status-entry" title={`Project motion ${entry}, from the file ${shownPath ?? name}`}>
          {entry}{' '}
          <span className="dim">
            (file{' '}
            <span title={shownPath ?? ''} data-testid="doc-name">
              {name}
              {readOnly ? ' (read-only)' : ''}
            </span>
            )
          </span>
        </span>
      ) : (
        <span title={shownPath ?? ''} data-testid="doc-name">
          {name}
          {readOnly ? ' (read-only)' : ''}
        </span>
      )}
      <span
        className={dirty ? 'dirty on' : 'dirty'}
        data-testid="dirty-marker"
        aria-label={dirty ? 'Unsaved changes' : 'Saved'}
      >
        {dirty ? '● modified' : 'saved'}
      </span>
      <span>
        frame <b data-testid="status-frame">{frame}</b> / {motion.frameCount}
      </span>
      <span>{jointName}</span>
      {result && (
        <>
          <span>
            keys <b data-testid="status-keys">{result.totalKeys}</b>
          </span>
          <span>
            MT3 <b data-testid="status-bytes">{result.mt3Bytes}</b> B
          </span>
          <span>ratio {result.ratio.toFixed(2)}</span>
          {stage === 'greedy' && (
            <span
              className="dim"
              data-testid="status-preview"
              title="Greedy figures while the refined compression runs"
            >
              (preview)
            </span>
          )}
        </>
      )}
      {pending && (
        <span className="dim" data-testid="compress-pending">
          compressing…
        </span>
      )}
      {error && (
        <span
          className="bad"
          data-testid="compress-error"
          title={escapeControlsKeepingLines(
            `${errorPlain ? `${errorPlain.lead}. ${errorPlain.advice}\n` : ''}Details: ${error}`,
          )}
        >
          compression failed (see the message)
        </span>
      )}
      <span className="spacer" />
      {busyNote}
    </footer>
  );
}
