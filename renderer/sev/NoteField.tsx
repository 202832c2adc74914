import { useRef, useState } from 'react';
import { useSev } from './hooks';
import { events } from './sevActions';

/** The selected event's note: the comment at the end of its line in the .sev (kept when saving). */
export function NoteField() {
  const index = useSev((s) => s.selectedEvent);
  const ev = useSev((s) => (s.selectedEvent === null ? null : (s.file?.doc?.events[s.selectedEvent] ?? null)));
  const saved = (ev?.comments.trailing ?? '').trim();
  const [text, setText] = useState(saved);
  // Another event, or its note edited (an undo): the field shows the new note in the render that brings it. An effect
  // that set it ran after, at the mount too, and rendered the field a second time at each click on another event
  // (docs/architecture.md, "Renderer review, round 12"; NumberField's of round 10).
  const [shown, setShown] = useState({ saved, index });
  if (shown.saved !== saved || shown.index !== index) {
    setShown({ saved, index });
    setText(saved);
  }
  // Escape reverts; the blur it causes must not commit the text typed before it.
  const reverting = useRef(false);
  if (index === null || !ev) return null;
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    events.setNote(index, text);
  };
  return (
    <label className="sev-note-field dim" title="Comment at the end of this event's line in the .sev">
      note
      <input
        value={text}
        // Short enough for the field at 1280 px ("# note for frame 0" read "# note for fr"; the frame shows beside it).
        placeholder="# comment"
        data-testid="sev-event-note"
        // The field is narrow at 1280 px ("left heel str"): the whole note on hover, or what the field is for.
        title={text ? `# ${text}` : `Comment at the end of this event's line in the .sev (frame ${ev.frame})`}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          else if (e.key === 'Escape') {
            reverting.current = true;
            setText(saved);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
    </label>
  );
}
