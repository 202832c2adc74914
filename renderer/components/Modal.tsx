import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import { focusables } from './modalFocus';

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

/**
 * Puts the focus in `dialog` by the one rule of every dialog: on the element marked `data-autofocus`, else on its
 * first control; a text field's text is selected, so typing replaces it.
 */
function focusInto(dialog: HTMLElement): void {
  const target = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(dialog)[0];
  target?.focus({ preventScroll: true });
  if (target instanceof HTMLInputElement && (target.type === 'text' || target.type === '')) target.select();
}

interface ModalProps {
  /** The dialog's heading, drawn first in it, which names it (`aria-labelledby`). */
  title: ReactNode;
  /**
   * The focus goes to the heading (not a control) when the dialog opens: where Enter or Space on the first control
   * would undo what the dialog shows (a running build's Cancel).
   */
  focusHeading?: boolean;
  /**
   * The focus goes into the dialog when it opens and again each time this changes (a new question in the same
   * dialog, a build that finished).
   */
  focusKey?: unknown;
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
 * return in components/modalFocus.ts go by, App installs them once), its heading, Escape and the button row, and
 * the focus put into it on open (`focusInto`). Each dialog gives its body and buttons.
 */
export function Modal(props: ModalProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const { focusKey } = props;
  useEffect(() => {
    const el = dialog.current;
    if (!el) return undefined;
    focusInto(el);
    // The command that opened the dialog can hand the focus back to where it came from after this (a menu closing
    // after its click): once more on the next turn, unless a dialog holds it by then. Cleared when the dialog goes.
    const again = setTimeout(() => {
      if (!el.ownerDocument.activeElement?.closest('[aria-modal="true"]')) focusInto(el);
    }, 0);
    return () => clearTimeout(again);
  }, [focusKey]);
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
        aria-labelledby={headingId}
        data-testid={props.testId}
      >
        <h2
          id={headingId}
          tabIndex={props.focusHeading ? -1 : undefined}
          data-autofocus={props.focusHeading || undefined}
        >
          {props.title}
        </h2>
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
