import { useEffect } from 'react';
import { useDocument, useSession, useMotionShape } from '../state/hooks';
import { messageActionFor, messageShownFor, sessionStore } from '../state/sessionStore';
import { isModalOpen, isTypingTarget } from '../app/commands';
import { sevStore } from '../sev/sevStore';

/**
 * The message list over the top of the viewport's picture: errors from the main process, refused edits,
 * confirmations.
 *
 * It overlays the picture instead of taking a strip above it, so messages never shrink the 3D view; several
 * messages stack, newest first, each with its own ✕, and "Dismiss all" clears the ones shown. A message about a motion
 * shows only while the tuner shows that motion (a lock refused on walk is not shown over cmu_01_01, and is back
 * when walk is). Info messages fade after a while; warnings and errors stay until dismissed. A refused edit's warning
 * (a refused lock or SEV edit) also goes once the user moves on (sessionStore's MessageRefusal), and Escape dismisses
 * the newest one shown, as Escape closes a menu or a dialog.
 */
export function MessageBar() {
  const messages = useSession((s) => s.messages);
  const documentId = useDocument((d) => d.documentId);
  const path = useDocument((d) => d.path);
  const motion = useMotionShape();
  const shown = messages.filter((m) => messageShownFor(m, { documentId, path, motion })).reverse();
  useEffect(() => {
    const timers = messages
      .filter((m) => m.level === 'info')
      .map((m) => window.setTimeout(() => sessionStore.getState().dismiss(m.id), 6000));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [messages]);
  const newestRefusal = shown.find((m) => m.refusal)?.id;
  useEffect(() => {
    if (newestRefusal === undefined) return undefined;
    const onKey = (e: KeyboardEvent) => {
      // An open menu takes Escape first (it stops it); a dialog, a text field and an armed joint pick (which it
      // cancels, whichever listener runs first) keep their own Escape.
      if (e.key !== 'Escape' || e.defaultPrevented || isModalOpen() || isTypingTarget(e.target)) return;
      if (sevStore.getState().pickingJoint) return;
      sessionStore.getState().dismiss(newestRefusal);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [newestRefusal]);
  if (shown.length === 0) return null;
  return (
    <div className="message-bar" role="region" aria-label="Messages" data-testid="message-list">
      {shown.map((m, k) => {
        const action = messageActionFor(m, documentId);
        return (
          <div
            key={m.id}
            className={`message ${m.level}`}
            role={m.level === 'info' ? 'status' : 'alert'}
            data-testid={`message-${m.level}`}
            data-owner={m.owner?.name}
          >
            <span className="message-text">{m.text}</span>
            {action && (
              <button
                type="button"
                className="tool small"
                data-testid="message-action"
                onClick={() => {
                  sessionStore.getState().dismiss(m.id);
                  action.run();
                }}
              >
                {action.label}
              </button>
            )}
            {k === 0 && shown.length > 1 && (
              // On the newest message's line: the list stays one line per message.
              <button
                type="button"
                className="tool small"
                data-testid="message-dismiss-all"
                title="Dismiss every message shown"
                onClick={() => sessionStore.getState().dismissMany(shown.map((x) => x.id))}
              >
                Dismiss all <span data-testid="message-count">{shown.length}</span>
              </button>
            )}
            <button
              type="button"
              className="tool small"
              aria-label="Dismiss message"
              data-testid="message-dismiss"
              onClick={() => sessionStore.getState().dismiss(m.id)}
            >
              ✕
            </button>
          </div>
        );
      })}
    </div>
  );
}
