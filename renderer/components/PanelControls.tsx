/**
 * The window layout's controls: a panel's collapse / restore button, the strip a collapsed side column leaves,
 * and the work-mode buttons of the menu bar (each mode takes the window; pressed again, the full layout returns).
 */
import { useStore } from 'zustand';
import { Icon } from './Icons';
import { acceleratorLabel, primaryShortcut } from '../../shared/shortcuts';
import type { MenuCommandId } from '../../shared/ipc';
import { currentShortcutPlatform } from '../app/shortcuts';
import {
  PANEL_TITLES,
  WORK_MODES,
  WORK_MODE_TITLES,
  projectLayoutStore,
  type PanelId,
  type WorkMode,
} from '../project/layout';

export const MODE_COMMANDS: Record<WorkMode, MenuCommandId> = {
  tuning: 'view.maximizeTuning',
  sev: 'view.maximizeSev',
  project: 'view.maximizeProject',
};

/** The shortcut label of a menu command ("Ctrl+1"), from the one shortcut table. */
export function shortcutLabel(command: MenuCommandId): string | undefined {
  const platform = currentShortcutPlatform();
  const b = primaryShortcut(command, platform);
  return b ? acceleratorLabel(b.accelerator, platform) : undefined;
}

/** Collapses a panel to its header, or restores it. Sits at the right end of the panel's header. */
export function PanelToggle({ panel, collapsed }: { panel: PanelId; collapsed: boolean }) {
  const title = `${collapsed ? 'Restore' : 'Collapse'} ${PANEL_TITLES[panel]}`;
  return (
    <button
      type="button"
      className="panel-toggle"
      title={title}
      aria-label={title}
      aria-expanded={!collapsed}
      data-testid={`panel-toggle-${panel}`}
      onClick={() => projectLayoutStore.getState().setCollapsed(panel, !collapsed)}
    >
      <Icon name={collapsed ? 'restore' : 'collapse'} />
    </button>
  );
}

/**
 * Beside a panel's collapse button, the button of the work mode made for that panel (the SEV editor's: Sound events):
 * pressed, the mode has the window and the panel the room; pressed again, all panels return. The menu bar's mode
 * buttons are far from the panel: at 1280x800 the editor had 240 px of the full layout and nothing in it said where
 * more was (tried cold, round 13).
 */
export function PanelModeButton({ mode }: { mode: WorkMode }) {
  const on = useStore(projectLayoutStore, (l) => l.maximized) === mode;
  const keys = shortcutLabel(MODE_COMMANDS[mode]);
  const title = `${on ? 'Restore all panels' : `${WORK_MODE_TITLES[mode]} mode: this panel gets the room`}${keys ? ` (${keys})` : ''}`;
  return (
    <button
      type="button"
      className="panel-toggle panel-mode"
      title={title}
      aria-label={title}
      aria-pressed={on}
      data-testid={`panel-mode-${mode}`}
      onClick={() => projectLayoutStore.getState().toggleMaximized(mode)}
    >
      <Icon name={on ? 'restore' : 'maximize'} />
    </button>
  );
}

/** What a collapsed side column shows: its title, vertical, and a button that restores it. */
export function PanelStrip({ panel }: { panel: PanelId }) {
  const title = `Restore ${PANEL_TITLES[panel]}`;
  return (
    <button
      type="button"
      className="panel-strip"
      title={title}
      aria-label={title}
      aria-expanded={false}
      data-testid={`panel-toggle-${panel}`}
      onClick={() => projectLayoutStore.getState().setCollapsed(panel, false)}
    >
      <Icon name="restore" />
      <span className="panel-strip-title">{PANEL_TITLES[panel]}</span>
    </button>
  );
}

/**
 * The work modes at the right of the menu bar: pressed, a mode has the window; pressed again, all panels return.
 * `squeezed`: the window is too short for the full layout's panels at the sizes the user gave them, so it says
 * where the room is.
 */
export function LayoutModes({ squeezed }: { squeezed: boolean }) {
  const maximized = useStore(projectLayoutStore, (l) => l.maximized);
  return (
    <div className="layout-modes" role="group" aria-label="Work modes">
      {squeezed && (
        <span
          className="layout-squeezed"
          data-testid="layout-squeezed"
          title="The window is too short for every panel at its size: a work mode shows fewer panels, bigger; or collapse a panel (the button at the right of its header)."
        >
          Window too short for every panel: try a work mode →
        </span>
      )}
      {WORK_MODES.map((mode) => {
        const on = maximized === mode;
        const keys = shortcutLabel(MODE_COMMANDS[mode]);
        return (
          <button
            key={mode}
            type="button"
            className={on ? 'layout-mode on' : 'layout-mode'}
            aria-pressed={on}
            data-testid={`mode-${mode}`}
            title={`${on ? 'Restore all panels' : `${WORK_MODE_TITLES[mode]} takes the window`}${keys ? ` (${keys})` : ''}`}
            onClick={() => projectLayoutStore.getState().toggleMaximized(mode)}
          >
            <Icon name="maximize" />
            {WORK_MODE_TITLES[mode]}
          </button>
        );
      })}
    </div>
  );
}
