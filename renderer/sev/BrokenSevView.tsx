import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { basenameOf } from '../../shared/project/paths';
import { useEffect, useRef } from 'react';
import { useSev } from './hooks';
import { sevStore } from './sevStore';
import { reloadSev } from './sevFiles';
import { SevTextWarnings } from './SevTextWarnings';

/**
 * A .sev that does not parse: every error with its line:column, and the
 * file's text to fix in place (nothing is dropped; saving is refused until it
 * parses, so the file on disk is never replaced by a partial document).
 */
/** Line height of the source view (CSS uses the same). */
const LINE_H = 15;

export function BrokenSevView() {
  const f = useSev((s) => s.file);
  const area = useRef<HTMLTextAreaElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const text = f?.brokenText ?? '';
  useEffect(() => {
    const onReveal = (e: Event) => {
      const line = (e as CustomEvent<{ line?: number }>).detail?.line;
      if (line) goTo(line, 1);
    };
    window.addEventListener('actguy:reveal-sev-line', onReveal);
    return () => window.removeEventListener('actguy:reveal-sev-line', onReveal);
  });
  if (!f || f.doc) return null;
  const lines = text.split(/\r\n|\n|\r/);
  const badLines = new Set(f.parseErrors.map((e) => e.line));

  function goTo(line: number, column: number): void {
    const el = area.current;
    if (!el) return;
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    offset += column - 1;
    el.focus();
    el.setSelectionRange(
      offset,
      Math.min(text.length, offset + Math.max(1, (lines[line - 1] ?? '').length - column + 1)),
    );
    if (scroller.current) scroller.current.scrollTop = Math.max(0, (line - 3) * LINE_H);
  }

  return (
    <div className="sev-broken" data-testid="sev-broken">
      <div className="sev-broken-head">
        <b className="bad">
          {f.parseErrors.length} error{f.parseErrors.length === 1 ? '' : 's'} in {escapeControls(basenameOf(f.path))}
        </b>
        <span className="dim"> — the file is kept as it is; fix the text here (or in your editor, then Reload).</span>
        <span className="spacer" />
        <button type="button" className="tool" onClick={() => void reloadSev()} data-testid="sev-reload">
          Reload from disk
        </button>
      </div>
      <ul className="sev-parse-errors" data-testid="sev-parse-errors">
        {f.parseErrors.map((e, i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => goTo(e.line, e.column)} data-testid="sev-parse-error">
              <span className="sev-loc">
                line {e.line}:{e.column}
              </span>{' '}
              {escapeControlsKeepingLines(e.message)}
            </button>
          </li>
        ))}
      </ul>
      <SevTextWarnings warnings={f.textWarnings} onGoTo={goTo} />
      <div className="sev-source" ref={scroller}>
        <div className="sev-gutter" aria-hidden="true">
          {lines.map((_, i) => (
            <div key={i} className={badLines.has(i + 1) ? 'bad' : ''}>
              {i + 1}
            </div>
          ))}
        </div>
        <textarea
          ref={area}
          spellCheck={false}
          value={text}
          aria-label="SEV text"
          style={{ height: lines.length * LINE_H + 8 }}
          data-testid="sev-source"
          onChange={(e) => sevStore.getState().setBrokenText(e.target.value)}
        />
      </div>
    </div>
  );
}
