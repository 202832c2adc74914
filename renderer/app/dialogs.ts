/**
 * In-window modal questions and the in-app file picker. Over the loopback
 * transport there are no native dialogs, so the transport's dialog members are
 * served by these (registered with setInAppDialogs in main.tsx).
 */
import { sessionStore, type ConfirmRequest, type PickerRequest } from '../state/sessionStore';

/** Shows a modal with buttons; resolves with the chosen button id ('cancel' on Escape). */
export function askChoice(req: Omit<ConfirmRequest, 'resolve'>): Promise<string> {
  return new Promise((resolve) => {
    sessionStore.getState().setConfirm({
      ...req,
      resolve: (id) => {
        sessionStore.getState().setConfirm(null);
        resolve(id);
      },
    });
  });
}

/** Shows the in-app file picker for several files ('open'); resolves with the paths in the order chosen, or null when cancelled. */
export function pickPathsInApp(req: Omit<PickerRequest, 'resolve' | 'resolveMany' | 'mode'>): Promise<string[] | null> {
  return new Promise((resolve) => {
    const done = (paths: string[] | null) => {
      sessionStore.getState().setPicker(null);
      resolve(paths);
    };
    sessionStore.getState().setPicker({
      ...req,
      mode: 'open',
      resolve: (path) => done(path ? [path] : null),
      resolveMany: (paths) => done(paths),
    });
  });
}

/** Shows the in-app file picker; resolves with a path, or null when cancelled. */
export function pickPathInApp(req: Omit<PickerRequest, 'resolve'>): Promise<string | null> {
  return new Promise((resolve) => {
    sessionStore.getState().setPicker({
      ...req,
      resolve: (path) => {
        sessionStore.getState().setPicker(null);
        resolve(path);
      },
    });
  });
}
