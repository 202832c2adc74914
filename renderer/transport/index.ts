/**
 * The renderer's only way to reach the main process. Under Electron the
 * preload exposes `window.actguy`; in a plain browser (npm run web, e2e) the
 * loopback client speaks to the local server with the page's token.
 */
import type { ActGuyApi } from '../../shared/ipc/api';
import { createLoopbackClient, takeToken } from './loopback';

export { setInAppDialogs, type InAppDialogs, type InAppPickRequest, type InAppConfirmRequest } from './loopback';

declare global {
  interface Window {
    /** Set by the Electron preload (contextBridge); absent in a plain browser. */
    actguy?: ActGuyApi;
  }
}

let cached: ActGuyApi | null = null;

/** The API of the current transport (the same object on every call). Throws when neither transport is available. */
export function getApi(): ActGuyApi {
  if (cached) return cached;
  if (window.actguy) {
    cached = window.actguy;
    return cached;
  }
  // Read once, then kept in this tab only and taken out of the address (takeToken).
  const token = takeToken({
    location: window.location,
    history: window.history,
    sessionStorage: () => window.sessionStorage,
  });
  if (!token)
    throw new Error(
      'ActGuy could not reach its main process: no Electron preload, no ?token= in the address and none kept by this tab (open the URL `npm run web` prints)',
    );
  cached = createLoopbackClient({ token });
  return cached;
}
