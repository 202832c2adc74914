/**
 * What the main process says in the terminal: a warning (a refusal, a problem with a file of its own, a wait) and
 * the failure of a promise it started and did not wait for. Shared by main.ts and the window's questions
 * (closeQuestions.ts, pageRecovery.ts).
 */
import { APP_NAME } from './appIdentity';
import { mainProcessErrorText } from './crashRecords';

/** What main says in the terminal that is not an error: a refusal, a problem with a file of its own, a wait. */
export const warn = (message: string): void => console.warn(`${APP_NAME}: ${message}`);

/**
 * What a promise main starts and does not wait for does when it fails: said in the terminal, never left to
 * unhandledRejection (a question that failed to show must not leave the window unable to close, a worker that did
 * not stop must not pass without a word). Where the failure concerns the user's work, its caller also tells them.
 */
export function failed(what: string): (e: unknown) => void {
  return (e) => console.error(`${APP_NAME}: ${what}: ${mainProcessErrorText(e)}`);
}
