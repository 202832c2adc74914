/**
 * The main-process API the renderer's commands call, injected at start-up (renderer/main.tsx) and by tests (a fake
 * main process), so every command's API calls can be tested without a transport. Every API failure becomes a
 * readable message; the current document stays as it was.
 */
import type { ActGuyApi } from '../../shared/ipc';
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

export function notifyError(prefix: string, err: unknown): void {
  sessionStore.getState().notify('error', `${prefix}: ${errorText(err)}`);
}

/**
 * Runs a file operation with the busy marker and error reporting. `next` (read when it fails) says what the user
 * can do then, after the reason.
 */
export async function busy<T>(what: string, fn: () => Promise<T>, next?: () => string): Promise<T | undefined> {
  sessionStore.getState().setBusy(what);
  try {
    return await fn();
  } catch (err) {
    if (next) sessionStore.getState().notify('error', `${what} failed: ${errorText(err)} — ${next()}`);
    else notifyError(`${what} failed`, err);
    return undefined;
  } finally {
    sessionStore.getState().setBusy(null);
  }
}
