import { useEffect, useId, useRef, useState } from 'react';
import { EVENT_SCOPE_ATTRIBUTE } from '../app/shortcuts';

/** Where the reason bad input gives is drawn: beside the field, in window coordinates (it floats over the list). */
interface Refusal {
  text: string;
  left: number;
  /** Its top edge under the field, or its bottom edge over it (a field near the window's foot). */
  top?: number;
  bottom?: number;
}

/**
 * Leaves a field after Enter or Escape: the keyboard goes to the event list around it (Alt+→ nudges, Delete
 * removes the selected events there), not to the page, where Alt+→ did nothing and Delete deleted curve keys: an
 * event's frame typed, then Alt+→, was a keyboard path that stopped (docs/user-guide.md "Tried cold", seventh round).
 */
function leaveField(field: HTMLInputElement): void {
  const scope = field.closest<HTMLElement>(`[${EVENT_SCOPE_ATTRIBUTE}]`);
  field.blur();
  scope?.focus({ preventScroll: true });
}

/**
 * An integer field that commits on Enter or blur (one undo step), and reverts on Escape or bad input; bad input
 * says why (`onInvalid` gets the reason: "frame 900 is outside 0..132"), and the field shows it beside itself until
 * the next key, click or scroll: the message list is across the window from a field in the event list, and a
 * first-time user typing a frame past the end looked at the field, which simply went back (docs/user-guide.md
 * "Tried cold").
 */
export function NumberField(props: {
  value: number;
  min: number;
  max: number;
  onCommit: (v: number) => void;
  /** What the number is ("frame"), for the reason bad input gives. */
  what?: string;
  onInvalid?: (reason: string) => void;
  className?: string;
  testid?: string;
  title?: string;
  /** Its accessible name, where the tooltip alone would name every row's field alike ("Frame"). */
  label?: string;
}) {
  const [text, setText] = useState(String(props.value));
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const refusalId = useId();
  // Escape reverts; the blur it causes must not commit the text typed before it.
  const reverting = useRef(false);
  // A new value shows at once, set in the render that brings it. An effect set it after the commit: a render more at each
  // change, and one at each field's first render after its mount (its mount's set of the same text was queued and ran
  // then), so a click on an event row rendered the frame field of each row it touched twice (docs/architecture.md,
  // "Renderer review, round 10").
  const [shown, setShown] = useState(props.value);
  if (!Object.is(shown, props.value)) {
    setShown(props.value);
    setText(String(props.value));
  }
  useEffect(() => {
    if (!refusal) return undefined;
    // The next thing the user does takes it away (it is also in the message list, until they move on).
    const clear = () => setRefusal(null);
    window.addEventListener('pointerdown', clear, true);
    window.addEventListener('keydown', clear, true);
    window.addEventListener('scroll', clear, true);
    window.addEventListener('resize', clear);
    return () => {
      window.removeEventListener('pointerdown', clear, true);
      window.removeEventListener('keydown', clear, true);
      window.removeEventListener('scroll', clear, true);
      window.removeEventListener('resize', clear);
    };
  }, [refusal]);
  const refuse = (why: string) => {
    props.onInvalid?.(why);
    const box = input.current?.getBoundingClientRect();
    if (!box) return;
    const below = box.bottom + 60 < window.innerHeight;
    setRefusal({
      text: why,
      left: Math.max(4, Math.min(box.left, window.innerWidth - 320)),
      ...(below ? { top: box.bottom + 2 } : { bottom: window.innerHeight - box.top + 2 }),
    });
  };
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    const v = Number(text);
    if (text.trim() === '' || !Number.isInteger(v) || v < props.min || v > props.max) {
      const what = props.what ?? 'value';
      if (text.trim() !== String(props.value)) {
        refuse(
          text.trim() === '' || !Number.isInteger(v)
            ? `${what} must be a whole number in ${props.min}..${props.max}; "${text.trim()}" was not applied.`
            : `${what} ${v} is outside ${props.min}..${props.max}; it stays ${props.value}.`,
        );
      }
      setText(String(props.value));
      return;
    }
    if (v !== props.value) props.onCommit(v);
  };
  return (
    <>
      <input
        ref={input}
        className={`num sev-num ${props.className ?? ''}`}
        inputMode="numeric"
        value={text}
        title={props.title}
        aria-label={props.label}
        data-testid={props.testid}
        aria-describedby={refusal ? refusalId : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            commit();
            reverting.current = true; // committed: the blur below must not commit (or complain) a second time
            leaveField(e.target as HTMLInputElement);
          } else if (e.key === 'Escape') {
            reverting.current = true;
            setText(String(props.value));
            leaveField(e.target as HTMLInputElement);
          }
        }}
      />
      {refusal && (
        <span
          id={refusalId}
          className="field-refusal"
          role="alert"
          data-testid={props.testid ? `${props.testid}-refusal` : undefined}
          style={{ left: refusal.left, top: refusal.top, bottom: refusal.bottom }}
        >
          {refusal.text}
        </span>
      )}
    </>
  );
}
