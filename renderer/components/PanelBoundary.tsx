import { Component, type ReactNode } from 'react';
import { Modal } from './Modal';

/**
 * What a failed part of the window says: which part, what went wrong, that the work is kept, and what still works.
 * `part` leads the sentence ("Curves panel", "menu bar").
 */
export function failureText(part: string, error: unknown, stillWorks: string): string {
  return `The ${part} stopped: ${thrown(error)}. ${kept(stillWorks)}`;
}

/** What was thrown, without its own full stop (the sentence's). */
function thrown(error: unknown): string {
  const what = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '');
  return what || 'an error without a message';
}

function kept(stillWorks: string): string {
  return `Your motion, events and project are kept (${stillWorks}).`;
}

/**
 * What a failed dialog says under its heading ("The file picker stopped"), which it does not repeat: what went
 * wrong, that the work is kept, and what Close does.
 */
export function dialogFailureText(error: unknown, closeSays: string): string {
  return `What went wrong: ${thrown(error)}. ${kept(closeSays)}`;
}

/** What a failed panel says: which panel, what went wrong, and that the work is kept. */
export function panelFailureText(title: string, error: unknown): string {
  return failureText(`${title} panel`, error, 'the other panels and the File menu still work');
}

interface BoundaryProps {
  /** What shows in place of the children once they threw; `retry` renders them again. */
  fallback: (error: unknown, retry: () => void) => ReactNode;
  children: ReactNode;
}

/**
 * Catches what its children throw while they render or set up (an effect, a painter's constructor) so one part's
 * failure does not blank the window: the fallback says what happened. The stores (every edit) live outside React and
 * are not touched. React logs the error to the console itself.
 */
class Boundary extends Component<BoundaryProps, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown): { error: unknown; failed: boolean } {
    return { error, failed: true };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback(this.state.error, () => this.setState({ error: null, failed: false }));
  }
}

interface PanelProps {
  /** The panel's title as its header shows it ("Curves"). */
  title: string;
  /** Test id of the fallback (`panel-failed-<id>`). */
  id: string;
  children: ReactNode;
}

/** A panel's boundary: the panel's place says which panel stopped and why, and offers to show it again. */
export function PanelBoundary(props: PanelProps) {
  return (
    <Boundary
      fallback={(error, retry) => (
        <section className="panel panel-failed" role="alert" data-testid={`panel-failed-${props.id}`}>
          <div className="panel-header">
            <span className="panel-title">{props.title}</span>
          </div>
          <p>{panelFailureText(props.title, error)}</p>
          <button type="button" className="tool" data-testid={`panel-retry-${props.id}`} onClick={retry}>
            Show the panel again
          </button>
        </section>
      )}
    >
      {props.children}
    </Boundary>
  );
}

/**
 * The menu bar's or the status bar's boundary: one line in its place that says it stopped and why, with a button
 * that shows it again (`bar-failed-<id>`, `bar-retry-<id>`).
 */
export function BarBoundary(props: { part: 'menu bar' | 'status bar'; id: string; children: ReactNode }) {
  return (
    <Boundary
      fallback={(error, retry) => (
        <div className="bar-failed" role="alert" data-testid={`bar-failed-${props.id}`}>
          <span>
            {failureText(
              props.part,
              error,
              props.part === 'menu bar'
                ? 'the panels and the keys, Ctrl+S among them, still work'
                : 'the panels and the menus still work',
            )}
          </span>
          <button type="button" className="tool small" data-testid={`bar-retry-${props.id}`} onClick={retry}>
            Show the {props.part} again
          </button>
        </div>
      )}
    >
      {props.children}
    </Boundary>
  );
}

/**
 * A dialog's boundary: a dialog that throws is replaced by one that says it stopped and why; its Close (or Escape)
 * answers what the dialog asked as its Cancel would (`onClose`), so nothing waits on it, and the next time the
 * dialog is asked for it is drawn afresh.
 */
export function DialogBoundary(props: {
  name: string;
  /** What the fallback's Close does, said in its text ("Close chooses no file"). */
  closeSays: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Boundary
      fallback={(error, retry) => {
        const close = () => {
          props.onClose();
          retry();
        };
        return (
          <Modal
            title={`The ${props.name} stopped`}
            testId="dialog-failed"
            onEscape={close}
            buttons={
              <button type="button" className="primary" data-testid="dialog-failed-close" onClick={close}>
                Close
              </button>
            }
          >
            <p className="bad" role="alert">
              {dialogFailureText(error, props.closeSays)}
            </p>
          </Modal>
        );
      }}
    >
      {props.children}
    </Boundary>
  );
}
