/**
 * The picker's remembered folders as the preferences keep them (renderer/app/pickerFolders.ts uses them): what is read
 * back is input, so each is checked for the form the app writes before it is kept.
 */
import { HIDDEN_CHARACTERS } from '../../shared/errors';

/** The kinds of file a picker remembers a folder for, at most (one per first extension: about a dozen are used). */
export const PICKER_FOLDER_KINDS_MAX = 32;
/** The longest remembered folder kept (characters). */
const PICKER_FOLDER_MAX = 1024;

/**
 * Whether `v` is a folder as the picker remembers one: '' (the root) or a path relative to the workspace, '/' between
 * names, no empty, `.` or `..` part, no backslash, no control or hidden character, at most PICKER_FOLDER_MAX long.
 */
export function isRememberableFolder(v: unknown): v is string {
  if (typeof v !== 'string' || v.length > PICKER_FOLDER_MAX) return false;
  if (v === '') return true;
  if (v.includes('\\') || HIDDEN_CHARACTERS.test(v)) return false;
  return v.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}

/** The remembered folders as read back from the preferences, or undefined when the value is not of that form. */
export function storedPickerFolders(v: unknown): Record<string, string> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > PICKER_FOLDER_KINDS_MAX) return undefined;
  if (!entries.every(([k, f]) => /^[a-z0-9]{1,16}$/.test(k) && isRememberableFolder(f))) return undefined;
  return Object.fromEntries(entries) as Record<string, string>;
}
