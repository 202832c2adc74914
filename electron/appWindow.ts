/**
 * The app's one window as the app's lifecycle sees it: its title and edited mark from the page's report, and a second
 * launch bringing it forward. No Electron call of its own: main.ts hands it the window it made, so each decision runs
 * under vitest (docs/architecture.md#electron).
 */
import type { DocumentStateReport } from '../shared/ipc/documents';
import { APP_NAME } from './appIdentity';

/** What of the window follows the page's report (a BrowserWindow's). */
interface ReportedWindow {
  setDocumentEdited(edited: boolean): void;
  setTitle(title: string): void;
}

/** What a second launch needs of the window (a BrowserWindow's). */
interface ForwardWindow {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** The window's title: the document the page shows, a dot while it has unsaved edits, then the app's name. */
function windowTitle(report: DocumentStateReport): string {
  return report.documentName ? `${report.documentName}${report.dirty ? ' •' : ''} — ${APP_NAME}` : APP_NAME;
}

/**
 * The window follows the page's report (handlers' onDocumentState: names already escaped and bounded there): its title
 * and macOS's edited mark. Whether the greyed-out menu items changed is the answer (the menu is rebuilt only then).
 */
export function followDocumentReport(
  win: ReportedWindow | null,
  previous: DocumentStateReport,
  report: DocumentStateReport,
): { menuChanged: boolean } {
  const menuChanged = (report.disabledCommands ?? []).join() !== (previous.disabledCommands ?? []).join();
  win?.setDocumentEdited(report.dirty);
  win?.setTitle(windowTitle(report));
  return { menuChanged };
}

/**
 * A second launch brings the window forward, restored if minimised. Not before its first paint: ready-to-show shows
 * and focuses it then, and focusing a hidden window shows it (macOS does), empty, and unmaximised until ready-to-show
 * maximises it.
 */
export function bringForward(win: ForwardWindow | null, shown: boolean): void {
  if (!win || !shown) return;
  if (win.isMinimized()) win.restore();
  win.focus();
}
