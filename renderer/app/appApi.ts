/**
 * The main-process API the renderer's commands call, injected at start-up (renderer/main.tsx) and by tests (a fake
 * main process), so every command's API calls can be tested without a transport. Every API failure becomes a
 * readable message; the current document stays as it was.
 */
import type { ActGuyApi } from '../../shared/ipc';
import { ActGuyApiError } from '../../shared/ipc/transport';
import { FormatError } from '../../shared/errors';
import { plainFileProblem, type PlainFileProblem } from '../../shared/fileProblem';
import { sessionStore } from '../state/sessionStore';

let api: ActGuyApi | null = null;

export function setAppApi(a: ActGuyApi): void {
  api = a;
}

/** The connected API; throws (into a command's error message) when there is none. */
export function requireApi(): ActGuyApi {
  if (!api) throw new Error('The main-process API is not connected.');
  return api;
}

/** The connected API, or null (for calls that may quietly not happen, such as forgetting a closed document). */
export function connectedApi(): ActGuyApi | null {
  return api;
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A bad file's problem in plain words, when `err` is one (from main, or a FormatError thrown here). */
export function plainProblemOf(err: unknown): PlainFileProblem | null {
  if (err instanceof ActGuyApiError) return err.plain ?? null;
  if (err instanceof FormatError) return plainFileProblem(err.kind, err.detail, err.place, err.file);
  return null;
}

/**
 * A failed operation as the user reads it. A bad file leads with plain words: "Could not open FILE: what is wrong.",
 * then `after` (what the failure left: "Nothing was changed; walk stays open."), what to do about the file and
 * `next`, and last, on its own line, the reader's precise message (kind, place, byte offset) for an expert.
 * Anything else reads "`what` failed: message — after next".
 */
export function failureText(what: string, err: unknown, after = '', next = ''): string {
  const plain = plainProblemOf(err);
  if (!plain) {
    const text = errorText(err);
    // A message that already says it ("Could not import X: the importer stopped") is not prefixed a second time.
    const said = text.toLowerCase().startsWith(`could not ${what.split(' ')[0].toLowerCase()} `);
    return `${said ? text : `${what} failed: ${text}`}${after || next ? ` — ${[after, next].filter(Boolean).join(' ')}` : ''}`;
  }
  const advice = next
    ? `${plain.advice.replace(/\.$/, '')}; or ${next.charAt(0).toLowerCase()}${next.slice(1)}`
    : plain.advice;
  return `Could not ${what.toLowerCase()} ${plain.file}: ${plain.lead}${after ? ` ${after}` : ''} ${advice}\nDetails: ${errorText(err)}`;
}

export function notifyError(prefix: string, err: unknown): void {
  sessionStore.getState().notify('error', `${prefix}: ${errorText(err)}`);
}

/**
 * Runs a file operation with the busy marker and error reporting. `next` (read when it fails) says what the failure
 * left and what the user can do then (failureText); `failed` gets the failure message's id.
 */
export async function busy<T>(
  what: string,
  fn: () => Promise<T>,
  next?: () => { after: string; next: string },
  failed?: (messageId: number) => void,
): Promise<T | undefined> {
  sessionStore.getState().setBusy(what);
  try {
    return await fn();
  } catch (err) {
    const n = next?.();
    const id = sessionStore.getState().notify('error', failureText(what, err, n?.after, n?.next));
    failed?.(id);
    return undefined;
  } finally {
    sessionStore.getState().setBusy(null);
  }
}
