import { useEffect, useState } from 'react';
import { useSev } from './hooks';
import { events } from './sevActions';

/** The selected event's note: the comment at the end of its line in the .sev (kept when saving). */
export function NoteField() {
  const index = useSev((s) => s.selectedEvent);
  const ev = useSev((s) => (s.selectedEvent === null ? null : (s.file?.doc?.events[s.selectedEvent] ?? null)));
  const saved = (ev?.comments.trailing ?? '').trim();
  const [text, setText] = useState(saved);
  useEffect(() => setText(saved), [saved, index]);
  if (index === null || !ev) return null;
  const commit = () => events.setNote(index, text);
  return (
    <label className="sev-note-field dim" title="Comment at the end of this event's line in the .sev">
      note
      <input
        value={text}
        placeholder={`# note for frame ${ev.frame}`}
        data-testid="sev-event-note"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          else if (e.key === 'Escape') {
            setText(saved);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
    </label>
  );
}
