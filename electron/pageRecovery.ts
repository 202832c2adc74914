/**
 * A crashed or hung page ('render-process-gone', 'unresponsive'): a crash record, then the offer to reload
 * (crashRecords.ts recoveryQuestion); the hang's question is taken down when the page answers again ('responsive').
 * A page that failed to load after it had loaded once (its reload: 'did-fail-load', or the page file missing from the
 * installation): the offer to reload again or to quit, with the same Reload and Quit. No Electron call of its own: main.ts hands it the window, a message box over it and what it does on each answer,
 * so it runs under vitest.
 */
import type { MessageBoxOptions } from 'electron';
import type { DocumentStateReport } from '../shared/ipc/documents';
import { APP_NAME } from './appIdentity';
import { recoveryQuestion, type CrashRecord } from './crashRecords';
import { failed } from './mainLog';

/** The page events a question is asked for. */
type PageTrouble = Extract<CrashRecord['event'], 'render-process-gone' | 'unresponsive'>;

interface RecoveryContext {
  win: { isVisible(): boolean; isDestroyed(): boolean };
  /** Shows a message box over the window. */
  ask: (options: MessageBoxOptions) => Promise<{ response: number }>;
  /** What the page last reported (handlers' onDocumentState). */
  document: () => DocumentStateReport;
  /** Writes the crash record: its path, or null where it could not be written (main says why in the terminal). */
  keepRecord: (record: Pick<CrashRecord, 'event' | 'reason' | 'exitCode'>, unsaved: string[]) => string | null;
  /** Whether copies of unsaved work are held (unsavedBackups.ts): the question says they come back. */
  hasCopies: () => boolean;
  /** Shows the window that never painted (no ready-to-show): a question on an invisible window is never seen. */
  show: () => void;
  /**
   * "Reload" or "Quit" was answered, or the page failed to load: the page's unsaved work is held as copies, nothing is
   * left to ask about on close.
   */
  forgetUnsaved: () => void;
  reload: () => void;
  /** "Quit": the window closes and the copies stay for the next start. */
  quit: () => void;
}

interface PageRecovery {
  /** The page crashed (Electron's details: why, the exit code) or stopped answering. */
  pageInTrouble(event: PageTrouble, details?: { reason: string; exitCode: number }): void;
  /** The hung page answers again: its question goes away by itself (its record stays). */
  pageAnswers(): void;
  /**
   * The page failed to load after it had loaded once; `reason` says why (the error and its code, or the page file the
   * installation lacks). The window stays without the app: its unsaved work is forgotten at once (the copies stay), and a
   * box over it offers Reload (the default) or Quit. One box at a time: a failure while it is up asks nothing more.
   */
  pageFailedToLoad(reason: string): void;
}

export function createPageRecovery(ctx: RecoveryContext): PageRecovery {
  const { win } = ctx;
  /** The recovery question on screen, and how to take it down (the page answered again, or crashed meanwhile). */
  let recovery: { event: PageTrouble; dismiss: AbortController } | null = null;
  /** The failed load's box is on screen. */
  let loadFailureAsked = false;
  return {
    pageInTrouble(event, details) {
      if (recovery) {
        // A hung page that then crashes: "Wait" would leave a dead page, so the crash question replaces the hang's.
        if (recovery.event !== 'unresponsive' || event !== 'render-process-gone') return;
        recovery.dismiss.abort();
      }
      const asking = { event, dismiss: new AbortController() };
      recovery = asking;
      const documentState = ctx.document();
      const unsaved = documentState.dirty
        ? (documentState.unsaved ?? [documentState.documentName ?? 'the motion'])
        : [];
      const recordPath = ctx.keepRecord(
        { event, ...(details ? { reason: details.reason, exitCode: details.exitCode } : {}) },
        unsaved,
      );
      const { question, actions } = recoveryQuestion(event, unsaved, recordPath, ctx.hasCopies());
      // A page that crashes or hangs before its first paint never sends ready-to-show: the window, and a question
      // attached to it (a macOS sheet), would stay invisible, the app running with nothing on screen.
      if (!win.isVisible()) ctx.show();
      void ctx
        .ask({
          type: event === 'unresponsive' ? 'warning' : 'error',
          noLink: true,
          ...question,
          signal: asking.dismiss.signal,
        })
        .then(({ response }) => {
          // Taken down (an aborted box answers its cancel button): nobody chose anything.
          if (asking.dismiss.signal.aborted) return;
          recovery = null;
          const action = actions[response] ?? 'wait';
          if (action === 'wait' || win.isDestroyed()) return;
          // What the page had unsaved is held as copies (the reloaded page restores them, and so does the next start
          // after Quit): nothing left to ask about on close.
          ctx.forgetUnsaved();
          if (action === 'reload') ctx.reload();
          else ctx.quit();
        })
        .catch((e: unknown) => {
          // The question did not show (or its answer failed): the next hang or crash asks again.
          if (recovery === asking) recovery = null;
          failed('the recovery question could not be shown')(e);
        });
    },
    pageAnswers() {
      if (recovery?.event !== 'unresponsive') return;
      recovery.dismiss.abort();
      recovery = null;
    },
    pageFailedToLoad(reason) {
      if (loadFailureAsked) return;
      loadFailureAsked = true;
      ctx.forgetUnsaved();
      if (!win.isVisible()) ctx.show();
      ctx
        .ask({
          type: 'error',
          title: APP_NAME,
          message: "ActGuy's window could not load its page.",
          detail:
            `${reason}\n\nThe window cannot show ActGuy until its page loads: nothing can be opened or saved in it. ` +
            'Reload tries again; Quit ends ActGuy' +
            (ctx.hasCopies() ? ', and the copies it holds of your unsaved work come back at the next start.' : '.'),
          buttons: ['Reload', 'Quit'],
          defaultId: 0,
          cancelId: 0,
          noLink: true,
        })
        .then(({ response }) => {
          loadFailureAsked = false;
          if (win.isDestroyed()) return;
          if (response === 1) ctx.quit();
          else ctx.reload();
        })
        .catch((e: unknown) => {
          loadFailureAsked = false;
          failed('the message about the page that did not load could not be shown')(e);
        });
    },
  };
}
