import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { escapeControlsKeepingLines } from '../../shared/errors';
import { useDocument, useSession, useMotionShape } from '../state/hooks';
import { messageActionFor, messageShownFor, sessionStore } from '../state/sessionStore';
import { isModalOpen, isTypingTarget } from '../app/commands';
import { sevStore } from '../sev/sevStore';
import { InfoTimers } from './infoTimers';

/**
 * The message list over the top of the viewport's picture: errors from the main process, refused edits,
 * confirmations.
 *
 * It overlays the picture instead of taking a strip above it, so messages never shrink the 3D view; several
 * messages stack, newest first, each with its own ✕, and "Dismiss all" clears the ones shown. A message about a motion
 * shows only while the tuner shows that motion (a lock refused on walk is not shown over cmu_01_01, and is back
 * when walk is). A message that stands for many lines (an import's warnings) lists them on "Show all", in a box of its
 * own that scrolls. Info messages fade after a while; warnings and errors stay until dismissed. A refused edit's warning
 * (a refused lock or SEV edit) also goes once the user moves on (sessionStore's MessageRefusal), and Escape dismisses
 * the newest one shown, as Escape closes a menu or a dialog.
 *
 * A message's action button ("Move lock to ...", "Discard") hands the keyboard back when it runs: to the control that
 * had it when the message appeared, if that is still on the page and can take it, else to the picture the message lay
 * over (the main work area). The button went with its message and the keyboard fell to the page's start (tried
 * cold, round 13). A dialog the action opens takes the keyboard from there and gives it back there when it closes.
 */
export function MessageBar() {
  const messages = useSession((s) => s.messages);
  const documentId = useDocument((d) => d.documentId);
  const path = useDocument((d) => d.path);
  const motion = useMotionShape();
  const shown = messages.filter((m) => messageShownFor(m, { documentId, path, motion })).reverse();
  // Where the keyboard was when each message appeared (before any of its buttons took it), by message id.
  const focusBefore = useRef(new Map<number, Element | null>());
  useLayoutEffect(() => {
    const seen = focusBefore.current;
    const active = document.activeElement;
    const outside = active && active !== document.body && !active.closest('.message-bar') ? active : null;
    for (const m of messages) if (!seen.has(m.id)) seen.set(m.id, outside);
    for (const id of [...seen.keys()]) if (!messages.some((m) => m.id === id)) seen.delete(id);
  }, [messages]);
  const bar = useRef<HTMLDivElement>(null);
  // Each info message fades INFO_MS after it first showed (./infoTimers.ts); the timers go with the bar.
  const [infoTimers] = useState(() => new InfoTimers((id) => sessionStore.getState().dismiss(id)));
  useEffect(() => infoTimers.follow(messages), [infoTimers, messages]);
  useEffect(() => () => infoTimers.stop(), [infoTimers]);
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
  // Messages whose lines are listed (an import's warnings: "Show all"); this window's view, not kept.
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  if (shown.length === 0) return null;
  const toggle = (id: number) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="message-bar" role="region" aria-label="Messages" data-testid="message-list" ref={bar}>
      {shown.map((m, k) => {
        const action = messageActionFor(m, documentId);
        return (
          <div
            key={m.id}
            className={`message ${m.level}`}
            role={m.level === 'info' ? 'status' : 'alert'}
            data-testid={`message-${m.level}`}
            data-message-id={m.id}
            data-owner={m.owner?.name}
          >
            <span className="message-text">{m.text}</span>
            {m.details && m.details.length > 0 && (
              <button
                type="button"
                className="tool small"
                data-testid="message-details-toggle"
                aria-expanded={expanded.has(m.id)}
                aria-controls={`message-details-${m.id}`}
                onClick={() => toggle(m.id)}
              >
                {expanded.has(m.id) ? 'Hide list' : `Show all ${m.details.length}`}
              </button>
            )}
            {action && (
              <button
                type="button"
                className="tool small"
                data-testid="message-action"
                onClick={() => {
                  // The keyboard goes back first, so that a dialog the action opens gives it back there too.
                  handFocusBack(focusBefore.current.get(m.id) ?? null, bar.current?.closest('.viewport-host'));
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
            {m.details && expanded.has(m.id) && (
              // Its own scrolling box: a long list never pushes the other messages out of the list.
              <ol className="message-details" id={`message-details-${m.id}`} data-testid="message-details" tabIndex={0}>
                {m.details.map((line, i) => (
                  <li key={i}>{escapeControlsKeepingLines(line)}</li>
                ))}
              </ol>
            )}
          </div>
        );
      })}
    </div>
  );
}

/**
 * Focuses `before` (the control that had the keyboard when a message appeared) if it is still on the page and takes
 * the focus (not in a hidden panel, not disabled), else `home`, the work area the message lay over.
 */
function handFocusBack(before: Element | null, home: Element | null | undefined): void {
  if (before instanceof HTMLElement && before.isConnected) {
    before.focus({ preventScroll: true });
    if (document.activeElement === before) return;
  }
  if (home instanceof HTMLElement) home.focus({ preventScroll: true });
}
