import { useStore } from 'zustand';
import { dropStore } from '../app/dropFiles';

/**
 * Covers the window while files are dragged over it and says what a drop will do (renderer/app/dropFiles.ts):
 * "Drop to open walk.mtn", or why a drop would open nothing. It takes no pointer events: the drag stays the
 * window's, so leaving it hides the overlay.
 */
export function DropOverlay() {
  const hint = useStore(dropStore, (s) => s.hint);
  if (!hint) return null;
  return (
    <div className={`drop-overlay${hint.ok ? '' : ' refused'}`} data-testid="drop-overlay" role="status">
      <div className="drop-overlay-box" data-testid="drop-overlay-text">
        {hint.text}
      </div>
    </div>
  );
}
