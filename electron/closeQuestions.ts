/**
 * The questions a close of the window asks (its 'close' event; Cmd+Q, File › Exit and the Dock's Quit close the
 * window first, so these stand for 'before-quit' too): the unsaved-changes question while the page reports unsaved
 * work, and the running-work question while a build or an Export All the window started runs. A close that needs
 * neither goes ahead.
 * No Electron call of its own: main.ts hands it the window and a message box over it, so it runs under vitest.
 */
import type { MessageBoxOptions } from 'electron';
import type { DocumentStateReport } from '../shared/ipc/documents';
import { unsavedSentence } from '../shared/unsaved';
import { APP_NAME } from './appIdentity';
import type { WorkInFlight } from './buildsInFlight';
import { failed } from './mainLog';

interface CloseContext {
  /** The window whose close is asked about: closed again once an answer lets it. */
  win: { close(): void; isDestroyed(): boolean };
  /** Shows a message box over the window. */
  ask: (options: MessageBoxOptions) => Promise<{ response: number }>;
  /** What the page last reported (handlers' onDocumentState): whether it holds unsaved work, and what. */
  document: () => DocumentStateReport;
  /** The builds the window started (buildsInFlight.ts trackBuilds). */
  builds: WorkInFlight;
  /** The Export Alls the window started (buildsInFlight.ts trackExports): asked about as a build is. */
  exports: WorkInFlight;
  /** "Save": the page saves everything, tells main it is clean and closes the window itself (a failed save keeps it open). */
  saveAllAndClose: () => void;
  /** The close goes ahead: nothing unsaved is left or it was discarded, and no build or export runs. */
  closing: () => void;
  /** An answer kept the window (Cancel, or a question or stop that failed): a quit that asked is over. */
  kept: () => void;
}

/** The window's 'close' listener: lets the close go on, or prevents it and asks. */
export function createCloseQuestions(ctx: CloseContext): (event: { preventDefault(): void }) => void {
  const { win, ask, builds, exports } = ctx;
  /** "Discard changes" was answered: the close that follows goes on without asking about the edits again. */
  let closeConfirmed = false;
  /** The close question is on screen: a second close (the title bar again, Cmd+Q, the taskbar) waits for its answer. */
  let closeAsked = false;
  /**
   * Whether the close may stop the running builds and exports: asks when one runs; they are cancelled on "Stop and
   * close".
   */
  const mayStopWork = async (): Promise<boolean> => {
    const runningBuilds = await builds.running();
    const runningExports = await exports.running();
    const count = runningBuilds.length + runningExports.length;
    if (count === 0) return true;
    const named = [
      ...(runningBuilds.length === 0 ? [] : [runningBuilds.length > 1 ? `${runningBuilds.length} builds` : 'a build']),
      ...(runningExports.length === 0
        ? []
        : [runningExports.length > 1 ? `${runningExports.length} Export Alls` : 'an Export All']),
    ].join(' and ');
    const { response } = await ask({
      type: 'warning',
      title:
        runningExports.length === 0
          ? 'Build in progress'
          : runningBuilds.length === 0
            ? 'Export in progress'
            : 'Build and export in progress',
      message: `${named[0].toUpperCase()}${named.slice(1)} ${count > 1 ? 'are' : 'is'} running.`,
      detail:
        runningExports.length === 0
          ? 'Closing ActGuy stops it before it writes anything: its outputs stay as they are on disk.'
          : `Closing ActGuy stops ${count > 1 ? 'them before they write' : 'it before it writes'} anything: the files on disk stay as they are.`,
      buttons: ['Stop and close', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    });
    if (response !== 0) return false;
    await builds.cancel(runningBuilds);
    await exports.cancel(runningExports);
    return true;
  };
  return (event) => {
    const documentState = ctx.document();
    if (!documentState.dirty || closeConfirmed) {
      // A build or an export in flight would end with the process without a word: asked first (its runner is asked, so
      // this waits). Once none runs (or they were stopped), they are forgotten and the close that follows goes ahead.
      if (builds.any || exports.any) {
        event.preventDefault();
        if (closeAsked) return;
        closeAsked = true;
        mayStopWork()
          .then((go) => {
            closeAsked = false;
            // Kept open: a "Discard changes" answered before this question was for that close only; the page still
            // holds its edits, so the next close asks about them again.
            if (!go) {
              closeConfirmed = false;
              ctx.kept();
            } else if (!win.isDestroyed()) win.close();
          })
          .catch((e: unknown) => {
            // The question, or the stop, failed: the window stays open with its build or export, and the next close asks
            // again.
            closeAsked = false;
            closeConfirmed = false;
            ctx.kept();
            failed('the running build or export could not be asked about or stopped')(e);
            if (!win.isDestroyed())
              ask({
                type: 'error',
                title: APP_NAME,
                message: 'ActGuy could not stop the running build or export, so it stays open.',
                detail: `${e instanceof Error ? e.message : String(e)}\n\nWait for it to end, or cancel it, and close again.`,
                buttons: ['OK'],
              }).catch(failed('the message about the build or export could not be shown'));
          });
        return;
      }
      ctx.closing();
      return;
    }
    event.preventDefault();
    if (closeAsked) return;
    closeAsked = true;
    const several = (documentState.unsaved ?? []).length > 1;
    // The same three choices as the page's own question (renderer/app/unsaved.ts).
    void ask({
      type: 'warning',
      title: 'Unsaved changes',
      // Names the motion, the SEV and the project when they are unsaved ("walk.mtn, walk.sev and the project have ...").
      message: unsavedSentence(documentState.unsaved ?? [], documentState.documentName ?? 'The motion'),
      detail: `Save ${several ? 'them' : 'it'} before you close ActGuy?`,
      buttons: [several ? 'Save all' : 'Save', 'Discard changes', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    })
      .then(({ response }) => {
        closeAsked = false;
        if (response === 0) ctx.saveAllAndClose();
        if (response === 2) ctx.kept();
        if (response !== 1) return;
        closeConfirmed = true;
        // Gone meanwhile (a crash's Quit while this question was open): closing it again would throw.
        if (!win.isDestroyed()) win.close();
      })
      .catch((e: unknown) => {
        // The question did not show: the window stays open with the edits, and the next close asks again.
        closeAsked = false;
        ctx.kept();
        failed('the unsaved-changes question could not be shown')(e);
      });
  };
}

/**
 * The question a quit asks when its wait for writes ran out while commits still run (quitWaits.ts
 * createQuitGate's `quitDuringCommits`): the window is gone by then, so `ask` shows a box of its own. Wait is the
 * default (and what Escape answers): a commit is the one write whose cut loses work. True: quit now. `signal` takes
 * the box down once the commits have ended (it then answers Wait).
 */
export function quitDuringCommitsQuestion(
  ask: (options: MessageBoxOptions) => Promise<{ response: number }>,
): (count: number, signal?: AbortSignal) => Promise<boolean> {
  return async (count, signal) => {
    const { response } = await ask({
      type: 'warning',
      title: APP_NAME,
      message: `${APP_NAME} is still putting ${count > 1 ? `${count} sets of files` : 'files'} in place.`,
      detail:
        'A build, an export or a save is writing its files, all together or none. Wait, and ActGuy quits once they ' +
        'are written, and asks again every half minute until then. Quit now stops it: the files on disk stay as ' +
        'they were, or are completed the next time ActGuy writes them; a build or an export stopped now is lost and ' +
        'must be run again.',
      buttons: ['Wait', 'Quit now'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
      ...(signal ? { signal } : {}),
    });
    return response === 1;
  };
}
