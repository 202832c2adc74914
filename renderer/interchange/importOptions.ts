/**
 * The File > Import options question (frame rate and scale), asked before the
 * file dialog. A tiny vanilla store like the session store's confirm/picker
 * requests: `askImportOptions` resolves with the options, or null when the
 * user cancels; ImportOptionsDialog renders the pending request.
 */
import { createStore } from 'zustand/vanilla';
import type { ImportMotionOptions } from '../../shared/ipc/interchange';

/** Highest rate offered (main refuses more than 1000). */
export const IMPORT_FPS_MAX = 1000;

/** The options as the import member takes them, with defaults filled in. */
export type ImportOptions = Required<ImportMotionOptions>;

/** A pending question. */
export interface ImportOptionsRequest {
  /** Starting values: the last import's options in this session, else 30 fps and scale 1. */
  initial: ImportOptions;
  resolve(options: ImportOptions | null): void;
}

export interface ImportOptionsState {
  request: ImportOptionsRequest | null;
  /** The options of the last import (kept for the session, so a series of takes imports alike). */
  last: ImportOptions;
}

export const importOptionsStore = createStore<ImportOptionsState>()(() => ({
  request: null,
  last: { fps: 30, scale: 1 },
}));

/** Shows the import options; resolves with the chosen ones (remembered for the next import) or null. */
export function askImportOptions(): Promise<ImportOptions | null> {
  return new Promise((resolve) => {
    importOptionsStore.setState({
      request: {
        initial: importOptionsStore.getState().last,
        resolve: (options) => {
          importOptionsStore.setState(options ? { request: null, last: options } : { request: null });
          resolve(options);
        },
      },
    });
  });
}

/** Parses the fields of the dialog; returns the options or a message saying what is wrong. */
export function parseImportOptions(fpsText: string, scaleText: string): ImportOptions | { error: string } {
  const fps = Number(fpsText.trim());
  const scale = Number(scaleText.trim());
  if (!fpsText.trim() || !(Number.isFinite(fps) && fps > 0 && fps <= IMPORT_FPS_MAX))
    return { error: `Frame rate must be a number above 0 and at most ${IMPORT_FPS_MAX}.` };
  if (!scaleText.trim() || !(Number.isFinite(scale) && scale > 0))
    return {
      error: 'Scale must be a number above 0 (e.g. 0.01 for centimetres to metres, 100 for metres to centimetres).',
    };
  return { fps, scale };
}
