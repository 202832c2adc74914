import { escapeControlsKeepingLines } from '../../shared/errors';
import type { SevTextError } from './sevStore';

/**
 * The warnings of the open .sev's text (its bidirectional formatting characters, shared/bidiText.ts), each with its
 * line:column and the character's name, as the CLI and the Build give them. They never block editing or saving; a
 * click on one goes to its place where the text is shown (`onGoTo`, the broken-file view), plain lines otherwise.
 * docs/sound-events.md.
 */
export function SevTextWarnings({
  warnings,
  onGoTo,
}: {
  warnings: SevTextError[];
  onGoTo?: (line: number, column: number) => void;
}) {
  if (!warnings.length) return null;
  return (
    <div className="sev-text-warnings" data-testid="sev-text-warnings" role="status">
      <b className="warn">
        {warnings.length} warning{warnings.length === 1 ? '' : 's'} in the text
      </b>
      <span className="dim"> — these do not stop editing or saving</span>
      <ul>
        {warnings.map((w, i) => {
          const body = (
            <>
              <span className="sev-loc warn">
                line {w.line}:{w.column}
              </span>{' '}
              {escapeControlsKeepingLines(w.message)}
            </>
          );
          return (
            <li key={i} data-testid="sev-text-warning" data-line={w.line} data-column={w.column}>
              {onGoTo ? (
                <button type="button" className="link" onClick={() => onGoTo(w.line, w.column)}>
                  {/* eslint-disable-next-line no-restricted-syntax -- the line's place and its message, escaped above */}
                  {body}
                </button>
              ) : (
                body
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
