import { useEffect, useRef, useState } from 'react';
import { steppedText, typedNumberAttributes } from './typedNumber';

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
    if (why !== null) setText(shown);
  };
  // A press outside the field applies its text first, as leaving it does, before what the press does there: a click on
  // the timeline or the curves makes its edit on pointerdown, before the field's blur, so a tolerance stepped with ↑
  // and then a trace key clicked made the trace key's undo step first and the tolerance's second, and Ctrl+Z took
  // back the tolerance first (tried cold, round 22).
  const outsidePress = useRef<((e: PointerEvent) => void) | null>(null);
  const stopWatching = () => {
    if (outsidePress.current) window.removeEventListener('pointerdown', outsidePress.current, true);
    outsidePress.current = null;
  };
  useEffect(() => stopWatching, []);
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
        onFocus={(e) => {
          const field = e.currentTarget;
          stopWatching();
          outsidePress.current = (ev: PointerEvent) => {
            if (ev.target instanceof Node && field.contains(ev.target)) return;
            if (document.activeElement === field) field.blur();
          };
          window.addEventListener('pointerdown', outsidePress.current, true);
        }}
        onBlur={() => {
          stopWatching();
          apply();
        }}
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
