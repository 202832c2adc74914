/**
 * Help › Keyboard Shortcuts (Ctrl+/): every key of the app in one list (shared/shortcutSheet.ts), in a modal that
 * Escape and Close leave, the keyboard going back to where it was. The browser build had no list of its keys at all:
 * ↑ / ↓ between keys, Page Up / Page Down between joints, Shift+← / → and [ / ] were in docs/tuner.md only (tried cold,
 * round 14).
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { shortcutSheet } from '../../shared/shortcutSheet';
import { currentShortcutPlatform } from '../app/shortcuts';
import { Modal } from './Modal';
import './shortcuts.css';

export const shortcutsDialogStore = createStore<{ open: boolean }>()(() => ({ open: false }));

export function showShortcuts(): void {
  shortcutsDialogStore.setState({ open: true });
}

export function hideShortcuts(): void {
  shortcutsDialogStore.setState({ open: false });
}

export function ShortcutsDialog() {
  const open = useStore(shortcutsDialogStore, (s) => s.open);
  if (!open) return null;
  const sheet = shortcutSheet(currentShortcutPlatform());
  return (
    <Modal
      title="Keyboard shortcuts"
      testId="shortcuts-dialog"
      className="shortcuts-dialog"
      onEscape={hideShortcuts}
      onBackdrop={hideShortcuts}
      buttons={
        <button type="button" className="primary" data-autofocus data-testid="shortcuts-close" onClick={hideShortcuts}>
          Close
        </button>
      }
    >
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
    </Modal>
  );
}
