import { useEffect, useRef, useState } from 'react';
import { steppedText, typedNumberAttributes } from './typedNumber';
import { sessionStore } from '../state/sessionStore';

/**
 * The tuner's number field (a tolerance, a joint's override): text, not a number input (that read "0,3" as 3;
 * typedNumber.ts). Enter or leaving applies what was typed; ↑ / ↓ step it by 0.05; Escape puts back the value and
 * leaves without applying. What cannot be applied is said under the field (`onApply` returns why) and the field
 * goes back to the value. The SEV editor's NumberField is another thing: a whole number in a range, whose refusal
 * floats beside a row of the event list and whose Enter hands the keyboard to that list.
 */
export function TypedDecimalField(props: {
  /** What the field shows while not typed in: the value as text ('' for none). */
  shown: string;
  /** Another thing edited (another motion, another joint): the field shows `shown` again, and no refusal. */
  subject: unknown;
  /** Applies the text typed; returns why it cannot be applied, or null once it is. */
  onApply: (text: string) => string | null;
  /** Its test id, its id and its error's (`<testid>-error`). */
  testid: string;
  unit: string;
  className: string;
  disabled: boolean;
  placeholder?: string;
  label?: string;
  /** Whether ↑ / ↓ step an empty field (from 0): not where empty means none. */
  stepsEmpty: boolean;
}) {
  const { shown, subject } = props;
  const [text, setText] = useState(shown);
  const [invalid, setInvalid] = useState<string | null>(null);
  // Escape reverts: the blur it causes must not apply the text typed before it (the handler still sees that text).
  const reverting = useRef(false);
  // The message that says this field's last refusal (apply).
  const said = useRef<number | null>(null);
  // A value set elsewhere (the slider, Undo, a project opened) or another motion answers the refusal: it said "it
  // stays 1°" beside a field that read 1.02 or 0.5 (tried cold, round 3).
  useEffect(() => {
    setText(shown);
    setInvalid(null);
  }, [shown, subject]);
  const apply = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    const why = props.onApply(text);
    setInvalid(why);
    // The refusal is said in the message list too, as the SEV editor's frame field does: a click on another joint's
    // row applies the override first and then selects that joint, and the field, now the other joint's, lets its
    // refusal go with the joint (round 3), so "abc" for LeftUpLeg was refused without a word (tried cold, round 23).
    // The field's next refusal or value applied takes its message away; the click still does what it does.
    const s = sessionStore.getState();
    if (said.current !== null) s.dismiss(said.current);
    said.current = why === null ? null : s.notify('warning', why);
    if (why !== null) setText(shown);
  };
  const errorId = `${props.testid}-error`;
  return (
    <>
      <input
        id={props.testid}
        className={props.className}
        {...typedNumberAttributes('decimal')}
        placeholder={props.placeholder}
        value={text}
        disabled={props.disabled}
        data-testid={props.testid}
        aria-label={props.label}
        title={props.label}
        aria-invalid={invalid !== null}
        aria-describedby={invalid ? errorId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setInvalid(null);
        }}
        // A press on the timeline or the curves applies the text first (applyFocusedField, renderer/app/fieldUndo.ts).
        onBlur={apply}
        onKeyDown={(e) => {
          // Enter applies (on blur) and hands the keyboard back to the shortcuts.
          if (e.key === 'Enter') e.currentTarget.blur();
          if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && (props.stepsEmpty || text.trim() !== '')) {
            e.preventDefault();
            setText(steppedText(text, e.key === 'ArrowUp' ? 0.05 : -0.05, 0.001));
            setInvalid(null);
          }
          if (e.key === 'Escape') {
            reverting.current = true;
            setText(shown);
            setInvalid(null);
            e.currentTarget.blur();
          }
        }}
      />
      <span className="unit">{props.unit}</span>
      {invalid && (
        <div className="tol-error bad small" id={errorId} role="alert" data-testid={errorId}>
          {invalid}
        </div>
      )}
    </>
  );
}
