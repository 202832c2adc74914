import { escapeControlsKeepingLines } from '../../shared/errors';
import { useEffect, useRef, useState } from 'react';
import type { ResolvedName } from './resolve';

/**
 * An SE name field with autocomplete from the loaded tables (a shared
 * <datalist>), committed on Enter/blur; shows the resolved code, or the
 * reason the name has none, right under it.
 */
export function NameField(props: {
  value: string;
  resolved: ResolvedName;
  onCommit: (name: string) => void;
  testid?: string;
  label: string;
  compact?: boolean;
  highlight?: boolean;
}) {
  const [text, setText] = useState(props.value);
  // Escape reverts; the blur it causes must not commit the text typed before it.
  const reverting = useRef(false);
  useEffect(() => setText(props.value), [props.value]);
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    const t = text.trim();
    if (t && t !== props.value) props.onCommit(t);
    else setText(props.value);
  };
  const r = props.resolved;
  return (
    <div className={`sev-name${r.error ? ' bad' : ''}${props.highlight ? ' floor' : ''}`}>
      <input
        value={text}
        list="sev-se-names"
        spellCheck={false}
        aria-label={props.label}
        aria-invalid={!!r.error}
        data-testid={props.testid}
        title={escapeControlsKeepingLines(r.error ?? `${props.value} = ${r.codeText}`)}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          else if (e.key === 'Escape') {
            reverting.current = true;
            setText(props.value);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
      {!props.compact && (
        <span
          className={r.error ? 'sev-code bad' : 'sev-code'}
          data-testid={props.testid ? `${props.testid}-code` : undefined}
        >
          {r.error ? 'unknown' : r.codeText}
        </span>
      )}
      {props.compact && <span className={r.error ? 'sev-code bad' : 'sev-code'}>{r.error ? '?' : r.codeText}</span>}
    </div>
  );
}
