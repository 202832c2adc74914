/**
 * In-window modal questions and the in-app file picker. Over the loopback
 * transport there are no native dialogs, so the transport's dialog members are
 * served by these (registered with setInAppDialogs in main.tsx).
 */
import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { sessionStore, type ConfirmRequest, type PickerRequest } from '../state/sessionStore';

/**
 * Shows a modal with buttons; resolves with the chosen button id ('cancel' on Escape). Its words may name a received
 * folder's file, motion, clip or SE: their hidden characters are shown as \uXXXX, as the status line's are
 * (docs/security.md, round 52).
 */
export function askChoice(req: Omit<ConfirmRequest, 'resolve'>): Promise<string> {
  return new Promise((resolve) => {
    sessionStore.getState().setConfirm({
      ...req,
      title: escapeControls(req.title),
      text: escapeControlsKeepingLines(req.text),
      buttons: req.buttons.map((b) => ({ ...b, label: escapeControls(b.label) })),
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
