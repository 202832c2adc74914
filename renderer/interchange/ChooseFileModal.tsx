import { escapeControlsKeepingLines } from '../../shared/errors';
import type { ReactNode, Ref } from 'react';
import { Modal } from '../components/Modal';

interface Props {
  /** The dialog's name and heading. */
  title: string;
  /** The request the dialog answers: a new one puts the focus on the first field again. */
  focusKey: unknown;
  testId: string;
  /** Test ids of the parts: `<prefix>-choose-file`, `<prefix>-cancel`, `<prefix>-options-error`. */
  prefix: string;
  /** What the fields hold wrong, said under them; the dialog cannot go on while there is one. */
  error: string | null;
  /** What the dialog asks for next: "Choose file…" unless it is a folder (Export All). */
  choose?: 'file' | 'folder';
  onAccept: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * The options asked before a file dialog (File > Import, File > Export MSH): fields, what is wrong with them, and
 * "Choose file…" (Enter) or Cancel (Escape).
 */
export function ChooseFileModal(props: Props) {
  return (
    <Modal
      title={props.title}
      focusKey={props.focusKey}
      testId={props.testId}
      className="import-options"
      onEscape={props.onCancel}
      onSubmit={() => props.error === null && props.onAccept()}
      formClassName="import-fields"
      buttons={
        <>
          <button
            type="submit"
            className="primary"
            disabled={props.error !== null}
            data-testid={`${props.prefix}-choose-file`}
          >
            {props.choose === 'folder' ? 'Choose folder…' : 'Choose file…'}
          </button>
          <button type="button" data-testid={`${props.prefix}-cancel`} onClick={props.onCancel}>
            Cancel
          </button>
        </>
      }
    >
      {props.children}
      {props.error !== null && (
        <div className="bad small" data-testid={`${props.prefix}-options-error`}>
          {escapeControlsKeepingLines(props.error)}
        </div>
      )}
    </Modal>
  );
}

/** One number field of such a dialog: its name, the field, and its unit or hint after it. */
export function DecimalField(props: {
  /** The name before the field ("Scale"). */
  label: string;
  /** The field's accessible name, where it says more than the label ("Position tolerance"). */
  name?: string;
  testId: string;
  value: string;
  onChange: (text: string) => void;
  /** What the number is, after the field. */
  hint: ReactNode;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <label>
      <span>{props.label}</span>
      <input
        ref={props.ref}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        inputMode="decimal"
        aria-label={props.name ?? props.label}
        data-testid={props.testId}
      />
      <span className="dim">{props.hint}</span>
    </label>
  );
}
