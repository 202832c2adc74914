/**
 * The File > Import options question (frame rate and scale), asked before the
 * file dialog. A tiny vanilla store like the session store's confirm/picker
 * requests: `askImportOptions` resolves with the options, or null when the
 * user cancels; ImportOptionsDialog renders the pending request.
 */
import { createStore } from 'zustand/vanilla';
import { IMPORT_FPS_MAX, type ImportMotionOptions } from '../../shared/ipc/interchange';
import { preferencesStore } from '../state/preferencesStore';

/**
 * The options as the import member takes them, the frame rate and scale filled in; how a BVH's position channels are
 * read is given when the user chose it (absent: the importer judges, as 'auto').
 */
export type ImportOptions = Required<Pick<ImportMotionOptions, 'fps' | 'scale'>> &
  Pick<ImportMotionOptions, 'bvhPositions'>;

/** A pending question. */
export interface ImportOptionsRequest {
  /**
   * Starting values: the last import's frame rate and scale (kept in the preferences, so they outlast the window),
   * else 30 fps and scale 1. The BVH positions start at auto every time: an override is for the file it was chosen for.
   */
  initial: ImportOptions;
  resolve(options: ImportOptions | null): void;
}

export interface ImportOptionsState {
  request: ImportOptionsRequest | null;
}

export const importOptionsStore = createStore<ImportOptionsState>()(() => ({ request: null }));

/**
 * Shows the import options; resolves with the chosen ones or null. The chosen ones are the next import's starting
 * values, in this window and the next (preferencesStore importOptions: a series of takes imports alike, and the
 * CMU scale typed once stays typed).
 */
export function askImportOptions(): Promise<ImportOptions | null> {
  return new Promise((resolve) => {
    importOptionsStore.setState({
      request: {
        initial: { ...preferencesStore.getState().importOptions, bvhPositions: 'auto' },
        resolve: (options) => {
          if (options) preferencesStore.getState().set({ importOptions: { fps: options.fps, scale: options.scale } });
          importOptionsStore.setState({ request: null });
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
