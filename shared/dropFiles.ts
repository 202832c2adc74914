/**
 * Which dropped files ActGuy opens and what the drop overlay says (docs/tuner.md#drag-and-drop): a motion opens
 * in the tuner, a .sev in the project that lists it, a project in the project panel, a BVH/glTF/FBX is imported.
 * Pure words and rules, shared by the page (the overlay, the refusals) and main (which refuses any other kind).
 */
import { escapeControls } from './errors';
import { systemFileKindOfPath, type SystemFileKind } from './systemFiles';

/** motion, sev, project: as a file the OS hands over (shared/systemFiles.ts); import: File > Import's sources. */
export type DropKind = SystemFileKind | 'import';

/** File > Import's sources, lower case with the dot. */
export const IMPORT_EXTENSIONS: readonly string[] = ['.bvh', '.glb', '.gltf', '.fbx'];

/** The kinds a drop opens, as the overlay and the refusals list them. */
export const DROPPABLE_LIST = '.mtn, .mt3, .mar, .bvh, .glb, .gltf, .fbx, .sev and .actguy.json';

/** The kind of a dropped file by its name (case-insensitive), or null for a file ActGuy does not open. */
export function dropKindOf(name: string): DropKind | null {
  const kind = systemFileKindOfPath(name);
  if (kind) return kind;
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1).toLowerCase();
  return IMPORT_EXTENSIONS.some((ext) => base.length > ext.length && base.endsWith(ext)) ? 'import' : null;
}

/** What dropping `name` does, in the overlay's words. */
function actionOf(kind: DropKind, name: string): string {
  switch (kind) {
    case 'motion':
      return `Drop to open ${name}`;
    case 'import':
      return `Drop to import ${name} as a new motion`;
    case 'sev':
      return `Drop to open ${name} in the project that lists it`;
    case 'project':
      return `Drop to open the project ${name}`;
  }
}

/** A file name for a message: its hidden characters shown escaped (escapeControls), at most 120 characters. */
export function shownName(name: string): string {
  return escapeControls(name.length > 120 ? `${name.slice(0, 58)}…${name.slice(-58)}` : name);
}

/**
 * What the overlay says while files are dragged over the window. `names` are the dragged files' names when the
 * browser shows them (a drag from another app hides them until the drop: then only `count` is known).
 */
export function dropOverlayText(count: number, names: readonly string[]): { text: string; ok: boolean } {
  const opens = `ActGuy opens ${DROPPABLE_LIST} files.`;
  if (count > 1) return { text: `One file at a time: drop a single file. ${opens}`, ok: false };
  const name = names[0];
  if (name === undefined) return { text: `Drop a file to open it. ${opens}`, ok: true };
  const kind = dropKindOf(name);
  if (!kind) return { text: `${shownName(name)}: ActGuy cannot open this kind of file. ${opens}`, ok: false };
  return { text: actionOf(kind, shownName(name)), ok: true };
}

/** Why a drop of these files opens nothing, or null when it is one file ActGuy opens. */
export function dropRefusal(names: readonly string[]): string | null {
  const opens = `ActGuy opens ${DROPPABLE_LIST} files.`;
  if (names.length === 0) return null;
  if (names.length > 1) {
    const listed = names.slice(0, 3).map(shownName).join(', ');
    return `${names.length} files were dropped (${listed}${names.length > 3 ? ', …' : ''}): ActGuy opens one file at a time, so nothing was opened. Drop a single file.`;
  }
  return dropKindOf(names[0]!)
    ? null
    : `${shownName(names[0]!)}: ActGuy cannot open this kind of file; nothing was opened. ${opens}`;
}

/** The menu item that opens a file of this kind with a dialog (shared/menus.ts), for "choose it with …" advice. */
export function menuItemFor(kind: DropKind | null): string {
  switch (kind) {
    case 'import':
      return 'File › Import Motion (BVH, glTF, FBX)…';
    case 'project':
      return 'File › Open Project…';
    case 'sev':
      return 'File › Open .sev…';
    default:
      return 'File › Open…';
  }
}
