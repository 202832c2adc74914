import { Component, type ReactNode } from 'react';

/** What a failed panel says: which panel, what went wrong, and that the work is kept. */
export function panelFailureText(title: string, error: unknown): string {
  // The message's own full stop is the sentence's.
  const what = (error instanceof Error ? error.message : String(error)).trim().replace(/\.$/, '');
  return `The ${title} panel stopped: ${what || 'an error without a message'}. Your motion, events and project are kept (the other panels and the File menu still work).`;
}

interface Props {
  /** The panel's title as its header shows it ("Curves"). */
  title: string;
  /** Test id of the fallback (`panel-failed-<id>`). */
  id: string;
  children: ReactNode;
}

/**
 * Catches what a panel throws while it renders or sets up (an effect, a painter's constructor) so one panel's
 * failure does not blank the window: the panel's place says what happened and offers to show it again; the stores
 * (every edit) live outside React and are not touched. React logs the error to the console itself.
 */
export class PanelBoundary extends Component<Props, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };

  static getDerivedStateFromError(error: unknown): { error: unknown; failed: boolean } {
    return { error, failed: true };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="panel panel-failed" role="alert" data-testid={`panel-failed-${this.props.id}`}>
        <div className="panel-header">
          <span className="panel-title">{this.props.title}</span>
        </div>
        <p>{panelFailureText(this.props.title, this.state.error)}</p>
        <button
          type="button"
          className="tool"
          data-testid={`panel-retry-${this.props.id}`}
          onClick={() => this.setState({ error: null, failed: false })}
        >
          Show the panel again
        </button>
      </section>
    );
  }
}
