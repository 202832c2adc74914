import { useEffect, useRef, useState } from 'react';

/**
 * An integer field that commits on Enter or blur (one undo step), and reverts on Escape or bad input; bad input
 * says why (`onInvalid` gets the reason: "frame 900 is outside 0..132").
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
}) {
  const [text, setText] = useState(String(props.value));
  // Escape reverts; the blur it causes must not commit the text typed before it.
  const reverting = useRef(false);
  useEffect(() => setText(String(props.value)), [props.value]);
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    const v = Number(text);
    if (text.trim() === '' || !Number.isInteger(v) || v < props.min || v > props.max) {
      const what = props.what ?? 'value';
      if (text.trim() !== String(props.value)) {
        props.onInvalid?.(
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
    <input
      className={`num sev-num ${props.className ?? ''}`}
      inputMode="numeric"
      value={text}
      title={props.title}
      data-testid={props.testid}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit();
          reverting.current = true; // committed: the blur below must not commit (or complain) a second time
          (e.target as HTMLInputElement).blur();
        } else if (e.key === 'Escape') {
          reverting.current = true;
          setText(String(props.value));
          (e.target as HTMLInputElement).blur();
        }
      }}
    />
  );
}
