/**
 * Help › Keyboard Shortcuts (Ctrl+/): every key of the app in one list (shared/shortcutSheet.ts), in a modal that
 * Escape and Close leave, the keyboard going back to where it was. The browser build had no list of its keys at all:
 * ↑ / ↓ between keys, Page Up / Page Down between joints, Shift+← / → and [ / ] were in docs/tuner.md only (tried cold,
 * round 14).
 */
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { shortcutSheet } from '../../shared/shortcutSheet';
import { currentShortcutPlatform } from '../app/shortcuts';
import './shortcuts.css';

export const shortcutsDialogStore = createStore<{ open: boolean }>()(() => ({ open: false }));

export function showShortcuts(): void {
  shortcutsDialogStore.setState({ open: true });
}

export function ShortcutsDialog() {
  const open = useStore(shortcutsDialogStore, (s) => s.open);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);
  if (!open) return null;
  const hide = () => shortcutsDialogStore.setState({ open: false });
  const sheet = shortcutSheet(currentShortcutPlatform());
  return (
    <div
      className="modal-backdrop"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        hide();
      }}
      onMouseDown={(e) => e.target === e.currentTarget && hide()}
    >
      <div
        className="modal shortcuts-dialog"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts-dialog"
      >
        <h2>Keyboard shortcuts</h2>
        <div className="shortcuts-body" tabIndex={0} aria-label="The shortcuts" data-testid="shortcuts-body">
          {sheet.map((section) => (
            <section key={section.title} className="shortcuts-section" data-testid="shortcuts-section">
              <h3>{section.title}</h3>
              {section.note && <p className="dim small">{section.note}</p>}
              <table>
                <tbody>
                  {section.rows.map((row) => (
                    <tr key={row.does} data-testid="shortcuts-row">
                      <td className="shortcuts-keys">
                        {row.keys.map((k, i) => (
                          <span key={k}>
                            {i > 0 && <span className="dim"> or </span>}
                            <kbd>{k}</kbd>
                          </span>
                        ))}
                      </td>
                      <td>{row.does}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </div>
        <div className="modal-buttons">
          <button type="button" className="primary" ref={close} data-testid="shortcuts-close" onClick={hide}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
