/**
 * Where the browser build's file picker starts (tried cold, round 18: every open and save began at the workspace
 * root, so an exporter walked into out/msh/ again at each export): in the folder the user last chose a file of that
 * kind in (remembered in the preferences, across restarts), else the folder of the document it is about, else the
 * workspace root.
 *
 * What the preferences hold is input (docs/security.md): a remembered folder is used only when it is one of the
 * folders the workspace listing gives now, which holds no link to a folder, nothing under one and nothing outside the
 * workspace; a folder that is gone, became a link or never was one falls back, as a stored value of the wrong form is
 * set aside when the preferences are read (storedPickerFolders).
 */
import { isRememberableFolder, PICKER_FOLDER_KINDS_MAX } from '../state/rememberedFolders';
import { documentStore } from '../state/documentStore';
import { preferencesStore } from '../state/preferencesStore';
import { sevStore } from '../sev/sevStore';
import { projectStore } from '../project/projectStore';

/** The kind of file a picker is for, that its folder is remembered under: its first extension ('mtn', 'res8'). */
export function pickerKind(extensions: readonly string[]): string {
  return extensions[0] ?? '';
}

/**
 * The folder a picker starts in: `remembered`, else `documentFolder`, each only when it is the root ('') or one of
 * `listed` (the listing's folders, links and what lies under them left out); else the root.
 */
export function pickerStartFolder(
  listed: readonly string[] | undefined,
  remembered: string | undefined,
  documentFolder: string | undefined,
): string {
  const folders = new Set(listed ?? []);
  for (const f of [remembered, documentFolder])
    if (f !== undefined && isRememberableFolder(f) && (f === '' || folders.has(f))) return f;
  return '';
}

/**
 * `path` (absolute) relative to the workspace `root`, '/'-separated, or undefined when it does not lie under it
 * ('' for the root itself).
 */
export function relativeToRoot(root: string, path: string): string | undefined {
  const slash = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const r = slash(root);
  const p = slash(path);
  if (p === r) return '';
  return p.startsWith(`${r}/`) ? p.slice(r.length + 1) : undefined;
}

/** The folder `path` (absolute) lies in, relative to `root`; undefined when it lies outside. */
export function workspaceFolderOf(root: string, path: string): string | undefined {
  const rel = relativeToRoot(root, path);
  if (rel === undefined || rel === '') return undefined;
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}

/** The document a picker of these extensions is about: the project for a project, the SEV for a SEV, else the motion. */
function documentPathFor(extensions: readonly string[]): string | null {
  const motion = documentStore.getState().path;
  const project = projectStore.getState().path;
  if (extensions.includes('json')) return project ?? motion;
  if (extensions.includes('sev')) return sevStore.getState().file?.path ?? motion ?? project;
  return motion ?? project;
}

/** Where a picker of `extensions` over this listing starts (pickerStartFolder with the preferences and documents). */
export function startFolderFor(extensions: readonly string[], listing: { root: string | null; folders?: string[] }) {
  const near = documentPathFor(extensions);
  const documentFolder = listing.root && near ? workspaceFolderOf(listing.root, near) : undefined;
  return pickerStartFolder(
    listing.folders,
    preferencesStore.getState().pickerFolders[pickerKind(extensions)],
    documentFolder,
  );
}

/**
 * Remembers where the user chose (`chosen`: a file, or with `isFolder` the folder itself) for pickers of
 * `extensions`; a path outside the workspace is not remembered.
 */
export function rememberPickerFolder(
  extensions: readonly string[],
  root: string | null,
  chosen: string,
  isFolder = false,
): void {
  if (!root) return;
  const folder = isFolder ? relativeToRoot(root, chosen) : workspaceFolderOf(root, chosen);
  const kind = pickerKind(extensions);
  const prefs = preferencesStore.getState();
  if (folder === undefined || !kind || !isRememberableFolder(folder) || prefs.pickerFolders[kind] === folder) return;
  const kept = Object.entries(prefs.pickerFolders).filter(([k]) => k !== kind);
  // The newest kinds are kept when there are more than the store holds.
  prefs.set({ pickerFolders: Object.fromEntries([...kept.slice(-(PICKER_FOLDER_KINDS_MAX - 1)), [kind, folder]]) });
}
