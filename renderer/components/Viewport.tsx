import { useEffect, useRef, useState } from 'react';
import { ViewportScene } from '../viewport/scene';
import { PlaybackBar } from './PlaybackBar';
import { usePreferences, useDocument, useCompression } from '../state/hooks';
import { preferencesStore } from '../state/preferencesStore';
import { sessionStore } from '../state/sessionStore';
import { COLORS } from '../theme';
import { MessageBar } from './MessageBar';
import { shortcutLabel } from './PanelControls';
import { runCommand } from '../app/commands';
import type { MenuCommandId } from '../../shared/ipc';

/** What the empty viewport offers: the ways in, as buttons (the text used to name menu items it could not run). */
const EMPTY_ACTIONS: { command: MenuCommandId; label: string; testId: string }[] = [
  { command: 'file.open', label: 'Open motion…', testId: 'empty-open' },
  { command: 'project.open', label: 'Open project…', testId: 'empty-open-project' },
  { command: 'file.import', label: 'Import BVH, glTF, FBX…', testId: 'empty-import' },
];

/** The viewport with no motion: what to do, each a button with its shortcut. */
function ViewportEmpty() {
  return (
    <div className="viewport-empty" data-testid="viewport-empty">
      <p>No motion open. Open a .mtn (or a .mt3 / .mar to view), a project, or import a capture:</p>
      <div className="viewport-empty-actions">
        {EMPTY_ACTIONS.map((a) => {
          const keys = shortcutLabel(a.command);
          return (
            <button
              key={a.command}
              type="button"
              data-testid={a.testId}
              title={keys ? `${a.label} (${keys})` : a.label}
              onClick={() => void runCommand({ command: a.command })}
            >
              {a.label}
              {keys && <span className="dim"> {keys}</span>}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** The 3D viewport panel: the three.js scene lives in ViewportScene, outside React. */
export function Viewport() {
  const host = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const showTrajectory = usePreferences((p) => p.showTrajectory);
  const showTrace = usePreferences((p) => p.showTrace);
  const follow = usePreferences((p) => p.followCamera);
  const showGhost = usePreferences((p) => p.showGhost);
  const showOnion = usePreferences((p) => p.showOnionSkin);
  const hasMotion = useDocument((d) => !!d.motion);
  const readOnly = useDocument((d) => d.readOnly);
  const hasDecoded = useCompression((c) => !!c.result);

  useEffect(() => {
    if (!host.current) return;
    let scene: ViewportScene | null = null;
    try {
      scene = new ViewportScene(host.current);
    } catch (err) {
      setFailure(
        `The 3D view could not start (WebGL unavailable): ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return () => scene?.dispose();
  }, []);

  return (
    <section className="panel viewport-panel" aria-label="Viewport" data-testid="viewport">
      <div className="panel-header">
        <span className="panel-title">Viewport</span>
        <span className="legend">
          {readOnly || !hasDecoded ? (
            <span className="legend-item">
              <i style={{ background: COLORS.source }} /> {readOnly ? 'Decoded (file)' : 'Source MTN'}
            </span>
          ) : (
            <span className="legend-item">
              <i style={{ background: COLORS.ghost, opacity: 0.6 }} /> Source (ghost)
            </span>
          )}
          {!readOnly && (
            <span className="legend-item">
              <i style={{ background: COLORS.decoded }} /> Decoded MT3
              {!hasDecoded && hasMotion ? ' (compressing…)' : ''}
            </span>
          )}
          {hasDecoded && !readOnly && (
            <span
              className="error-legend"
              data-testid="joint-error-legend"
              title="Decoded joints coloured by their error at this frame against the tolerance"
            >
              joints: <b style={{ color: COLORS.errorOk }}>●</b> ≤ ½ tol <b style={{ color: COLORS.errorNear }}>●</b> ≤
              tol <b style={{ color: COLORS.errorOver }}>●</b> over
            </span>
          )}
          <span className="legend-item" data-testid="lock-legend">
            <i style={{ background: COLORS.lock }} /> Lock
          </span>
        </span>
        <span className="spacer" />
        {/* One group, kept on one line: where the header wraps (Project mode at 1280x800), the view's checkboxes and
            Frame all go to the next line together; Frame all alone there read as a button of no panel (tried cold,
            round 22). */}
        <span className="viewport-controls" data-testid="viewport-controls">
          <label className="check">
            <input
              type="checkbox"
              checked={showTrajectory}
              onChange={(e) => preferencesStore.getState().set({ showTrajectory: e.target.checked })}
            />
            <span style={{ color: COLORS.trajectory }}>Trajectory</span>
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={showTrace}
              onChange={(e) => preferencesStore.getState().set({ showTrace: e.target.checked })}
            />
            <span style={{ color: COLORS.trace }}>Trace path</span>
          </label>
          <label className="check" title="The source skeleton as a translucent ghost behind the decoded one">
            <input
              type="checkbox"
              checked={showGhost}
              data-testid="show-ghost"
              onChange={(e) => preferencesStore.getState().set({ showGhost: e.target.checked })}
            />
            <span style={{ color: COLORS.ghost }}>Ghost</span>
          </label>
          <label className="check" title="Faint source poses before (blue) and after (green) the playhead">
            <input
              type="checkbox"
              checked={showOnion}
              data-testid="show-onion"
              onChange={(e) => preferencesStore.getState().set({ showOnionSkin: e.target.checked })}
            />
            Onion skin
          </label>
          <label
            className="check"
            title="The camera follows the root while the motion plays and keeps the whole pose in view"
          >
            <input
              type="checkbox"
              checked={follow}
              data-testid="follow"
              onChange={(e) => preferencesStore.getState().set({ followCamera: e.target.checked })}
            />
            Follow
          </label>
          <button
            type="button"
            className="tool"
            title="Frame all (F)"
            data-testid="frame-all"
            onClick={() => sessionStore.getState().requestFrameAll()}
          >
            Frame all
          </button>
        </span>
      </div>
      {/* tabIndex -1: where the keyboard goes back to when a message's action button goes with its message. */}
      <div className="viewport-host" ref={host} data-testid="viewport-host" tabIndex={-1}>
        {/* Over the top of the picture, not above it: messages never cost the picture its size. */}
        <MessageBar />
        {failure && (
          <div className="viewport-failure" role="alert">
            {failure}
          </div>
        )}
        {!hasMotion && !failure && <ViewportEmpty />}
      </div>
      <PlaybackBar />
    </section>
  );
}
