/**
 * A file dropped onto the window, as main sees it (docs/tuner.md#drag-and-drop, docs/security.md). The path comes
 * only from the preload, which asked Electron where the dropped `File` lies (`webUtils.getPathForFile`): the page
 * cannot reach this channel (context isolation, no ipcRenderer) and the preload refuses anything but a real
 * dropped File. Main then treats the drop as the user's pick, exactly as an open dialog's answer: the file becomes
 * allowed, a project counts as chosen, a .sev brings the project beside it that lists it.
 *
 * It still checks what it grants: an absolute path of a kind ActGuy opens, then the look on disk a file the OS hands
 * over gets (systemFiles.ts handedOverProblem), refused in the same words: not there (a drop from a browser's
 * download that is not on disk), a folder or what is not a plain file, a symbolic link, another user's file
 * (docs/security.md, round 30).
 */
import { basename, isAbsolute } from 'node:path';
import { DROPPABLE_LIST, dropKindOf, shownName } from '../shared/dropFiles';
import type { DroppedFileGranted } from '../shared/ipc/drop';
import { MAX_PATH_LENGTH, quotePath } from './pathPolicy';
import { handedOverProblem, handedOverRefusal } from './systemFiles';

/** How main grants what the user picked outside a dialog (main.ts: the same grants as a file the OS hands over). */
export interface DropGrants {
  /** Grants a motion, .sev or project as a file the user chose; answers the project found beside a .sev, if any. */
  grantChosen(path: string): { projectPath?: string };
  /** Grants an import source (.bvh/.glb/.gltf/.fbx) as a file the user chose. */
  grantImport(path: string): void;
  /** Remembers the dropped file's folder, where the next open dialog starts (as a dialog's pick does). */
  rememberFolder?(path: string): void;
}

/**
 * Checks and grants the path of a dropped file. Throws an Error naming the file when it is not one ActGuy opens.
 */
export function grantDroppedFile(path: unknown, grants: DropGrants): DroppedFileGranted {
  if (typeof path !== 'string' || path.length === 0)
    throw new Error('The dropped file has no place on disk, so ActGuy cannot open it; nothing was opened.');
  if (path.length > MAX_PATH_LENGTH || path.includes('\0') || !isAbsolute(path))
    throw new Error(`${quotePath(path.slice(0, MAX_PATH_LENGTH))}: not a path ActGuy can open; nothing was opened.`);
  const name = basename(path);
  const kind = dropKindOf(name);
  if (!kind)
    throw new Error(
      `${shownName(name)}: ActGuy cannot open this kind of file; nothing was opened. ActGuy opens ${DROPPABLE_LIST} files.`,
    );
  // A link, or another user's file, in a folder others may write is what they chose, not the user: judged as a file
  // the OS hands over is, before any grant.
  const problem = handedOverProblem(path);
  if (problem) throw new Error(handedOverRefusal(path, problem));
  const granted: DroppedFileGranted = { status: 'granted', path, kind };
  if (kind === 'import') grants.grantImport(path);
  else {
    const { projectPath } = grants.grantChosen(path);
    if (projectPath) granted.projectPath = projectPath;
  }
  grants.rememberFolder?.(path);
  return granted;
}
