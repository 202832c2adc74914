import { useEffect } from 'react';
import { useSession } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';

/** Messages: errors from the main process, refused edits, confirmations. Info messages fade after a while. */
export function MessageBar() {
  const messages = useSession((s) => s.messages);
  useEffect(() => {
    const timers = messages
      .filter((m) => m.level === 'info')
      .map((m) => window.setTimeout(() => sessionStore.getState().dismiss(m.id), 6000));
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [messages]);
  if (messages.length === 0) return null;
  return (
    <div className="message-bar">
      {messages.map((m) => (
        <div
          key={m.id}
          className={`message ${m.level}`}
          role={m.level === 'info' ? 'status' : 'alert'}
          data-testid={`message-${m.level}`}
        >
          <span className="message-text">{m.text}</span>
          <button type="button" className="tool small" aria-label="Dismiss message" onClick={() => sessionStore.getState().dismiss(m.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
