/**
 * The File > Export MSH options question (tolerances), asked before the save
 * dialog. A tiny vanilla store like importOptions.ts: `askMshExportOptions`
 * resolves with the options, or null when the user cancels;
 * MshExportDialog renders the pending request.
 */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_TOLERANCES } from '../../shared/compress/types';
import { preferencesStore } from '../state/preferencesStore';

/** What the export takes from the dialog. */
export interface MshExportChoice {
  /** Position tolerance, motion units (root translation and joint offsets). */
  positionTolerance: number;
  /** Rotation tolerance, degrees. */
  rotationToleranceDeg: number;
  /** Apply the tuning panel's per-joint rotation tolerances (as for MT3). */
  useJointOverrides: boolean;
}

export interface MshExportOptionsRequest {
  /** Starting values: the last export's options (kept in the preferences), else the defaults of `actguy export-msh`. */
  initial: MshExportChoice;
  /** How many per-joint rotation tolerances the motion has in the tuning panel (0: the choice is not offered). */
  jointOverrideCount: number;
  resolve(options: MshExportChoice | null): void;
}

export interface MshExportOptionsState {
  request: MshExportOptionsRequest | null;
}

/** `actguy export-msh`'s defaults (--pos-tol, --rot-tol). */
export const MSH_EXPORT_DEFAULTS: MshExportChoice = {
  positionTolerance: DEFAULT_TOLERANCES.positionTolerance,
  rotationToleranceDeg: DEFAULT_TOLERANCES.rotationToleranceDeg,
  useJointOverrides: true,
};

export const mshExportOptionsStore = createStore<MshExportOptionsState>()(() => ({ request: null }));

/**
 * Shows the export options; resolves with the chosen ones or null. The chosen ones are the next export's starting
 * values, in this window and the next (preferencesStore mshExportOptions: a series of motions exports alike).
 */
export function askMshExportOptions(jointOverrideCount: number): Promise<MshExportChoice | null> {
  return new Promise((resolve) => {
    mshExportOptionsStore.setState({
      request: {
        initial: { ...preferencesStore.getState().mshExportOptions },
        jointOverrideCount,
        resolve: (options) => {
          if (options)
            preferencesStore.getState().set({
              mshExportOptions: {
                positionTolerance: options.positionTolerance,
                rotationToleranceDeg: options.rotationToleranceDeg,
                useJointOverrides: options.useJointOverrides,
              },
            });
          mshExportOptionsStore.setState({ request: null });
          resolve(options);
        },
      },
    });
  });
}

/** Parses the dialog's fields; returns the options or a message saying what is wrong. */
export function parseMshExportOptions(
  positionText: string,
  rotationText: string,
  useJointOverrides: boolean,
): MshExportChoice | { error: string } {
  const position = Number(positionText.trim());
  const rotation = Number(rotationText.trim());
  if (!positionText.trim() || !(Number.isFinite(position) && position >= 0))
    return { error: 'Position tolerance must be a number of motion units, 0 or more.' };
  if (!rotationText.trim() || !(Number.isFinite(rotation) && rotation >= 0))
    return { error: 'Rotation tolerance must be a number of degrees, 0 or more.' };
  return { positionTolerance: position, rotationToleranceDeg: rotation, useJointOverrides };
}
