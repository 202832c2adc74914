import { useEffect, useState } from 'react';

/** An integer field that commits on Enter or blur (one undo step), and reverts on Escape or bad input. */
export function NumberField(props: { value: number; min: number; max: number; onCommit: (v: number) => void; className?: string; testid?: string; title?: string }) {
  const [text, setText] = useState(String(props.value));
  useEffect(() => setText(String(props.value)), [props.value]);
  const commit = () => {
    const v = Number(text);
    if (text.trim() === '' || !Number.isInteger(v) || v < props.min || v > props.max) {
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
          (e.target as HTMLInputElement).blur();
        } else if (e.key === 'Escape') {
          setText(String(props.value));
          (e.target as HTMLInputElement).blur();
        }
      }}
    />
  );
}
