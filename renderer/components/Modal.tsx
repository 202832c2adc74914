import { useEffect, useEffectEvent, useRef, type ReactNode } from 'react';

/**
 * Whether Escape pressed now is for `dialog`: the modal that holds the focus, or, with the focus in none (on the page
 * after a click on a dialog's text), the topmost open one (the last `[aria-modal="true"]`).
 */
function ownsEscape(dialog: Element): boolean {
  const doc = dialog.ownerDocument;
  const focused = doc.activeElement?.closest('[aria-modal="true"]');
  if (focused) return focused === dialog;
  const open = doc.querySelectorAll('[aria-modal="true"]');
  return open[open.length - 1] === dialog;
}

interface ModalProps {
  /** The dialog's accessible name (`aria-label`), unless `labelledBy` names its heading. */
  label?: string;
  /** The id of the element that names the dialog (`aria-labelledby`). */
  labelledBy?: string;
  /** Test id of the dialog. */
  testId: string;
  /** Classes beside `modal` (`picker`, `build-dialog`, ...). */
  className?: string;
  /**
   * What Escape does while this is the topmost dialog, wherever the focus is in the page (on the dialog's text after
   * a click, say); absent: Escape does nothing here (a running build is not cancelled by a stray Escape).
   */
  onEscape?: () => void;
  /** What a press on the dimmed backdrop (outside the dialog) does; absent: nothing. */
  onBackdrop?: () => void;
  /** The button row, under the body. */
  buttons: ReactNode;
  /** `column` stacks the button row (a question of four answers or more). */
  buttonsLayout?: 'row' | 'column';
  /**
   * With it, the body and the button row are one form (class `formClassName`): Enter in a field submits it, as the
   * row's `type="submit"` button does, and this is called.
   */
  onSubmit?: () => void;
  formClassName?: string;
  children: ReactNode;
}

/**
 * The app's one modal frame: the dimmed backdrop, the dialog (`aria-modal`, which the page's focus trap and focus
 * return in components/modalFocus.ts go by, App installs them once), Escape and the button row. Each dialog gives
 * its body and buttons and moves the focus into itself when it opens.
 */
export function Modal(props: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  // The handler of the latest render, read at the key press: a request replaced while the dialog stays open answers
  // the new request, not the one the listener was added with.
  const escape = useEffectEvent(() => props.onEscape?.());
  const escapes = props.onEscape !== undefined;
  useEffect(() => {
    if (!escapes) return undefined;
    const onKey = (e: KeyboardEvent) => {
      const el = dialog.current;
      if (e.key !== 'Escape' || e.defaultPrevented || !el || !ownsEscape(el)) return;
      // The dialog's Escape is not also the page's (a refusal in the message bar stays).
      e.preventDefault();
      e.stopPropagation();
      escape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [escapes]);
  const buttons = (
    <div className={props.buttonsLayout === 'column' ? 'modal-buttons column' : 'modal-buttons'}>{props.buttons}</div>
  );
  const { onSubmit } = props;
  return (
    <div
      className="modal-backdrop"
      role="presentation"
      onMouseDown={props.onBackdrop && ((e) => e.target === e.currentTarget && props.onBackdrop?.())}
    >
      <div
        ref={dialog}
        className={props.className ? `modal ${props.className}` : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        aria-labelledby={props.labelledBy}
        data-testid={props.testId}
      >
        {onSubmit ? (
          <form
            className={props.formClassName}
            onSubmit={(e) => {
              e.preventDefault();
              onSubmit();
            }}
          >
            {props.children}
            {buttons}
          </form>
        ) : (
          <>
            {props.children}
            {buttons}
          </>
        )}
      </div>
    </div>
  );
}
