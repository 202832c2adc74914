import { escapeControls } from '../../shared/errors';

/** Names shown in full before the list of what a folder choice writes is cut ("… and 30 more"). */
const WILL_WRITE_SHOWN = 12;

/**
 * What an export writes into a folder, said before anything is written (tried cold, round 18: Export All asked for a
 * file name, took its folder and said only afterwards what it had written there): how many files and their names,
 * every name in the tooltip, and which of them the folder holds already, which the export replaces, with `wayOut`
 * (how to keep them). The browser build's folder picker says it of the folder shown; the desktop app's export dialog
 * of the folder the system's dialog chose (round 19).
 */
export function WillWrite({
  names,
  replaced,
  wayOut,
  testId,
}: {
  names: readonly string[];
  replaced: readonly string[];
  wayOut: string;
  /** `<testId>-will-write` and `<testId>-will-replace`. */
  testId: string;
}) {
  const list = (of: readonly string[]) =>
    of.slice(0, WILL_WRITE_SHOWN).join(', ') +
    (of.length > WILL_WRITE_SHOWN ? `, … and ${of.length - WILL_WRITE_SHOWN} more` : '');
  return (
    <>
      <p className="small" data-testid={`${testId}-will-write`} title={names.join('\n')}>
        Writes {names.length} file{names.length === 1 ? '' : 's'} here: {escapeControls(list(names))}
      </p>
      {replaced.length > 0 && (
        <p className="picker-replace" role="alert" data-testid={`${testId}-will-replace`}>
          {replaced.length === names.length
            ? `${names.length === 1 ? 'It is' : `All ${names.length} are`} here already and ${names.length === 1 ? 'is' : 'are'} replaced.`
            : `${replaced.length} of them ${replaced.length === 1 ? 'is' : 'are'} here already and ${replaced.length === 1 ? 'is' : 'are'} replaced: ${escapeControls(list(replaced))}.`}{' '}
          {wayOut}
        </p>
      )}
    </>
  );
}
