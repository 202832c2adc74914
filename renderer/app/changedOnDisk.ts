/**
 * A save main refused because the file changed on disk since it was opened (electron/loadedFiles.ts: a colleague's
 * edit in a shared folder, another editor, a sync). The page asks what to do, in the app's question dialog (Escape
 * cancels, the focus goes back where it was): "Save anyway" saves again with `overwriteChanged`, which main honours
 * only for that file while it is still what the refusal found (changed once more, it asks again); "Reload from disk"
 * shows the disk's version as one undo step, so Ctrl+Z brings the edits back; "Cancel" keeps the edits and writes
 * nothing. No choice loses work: a motion's reload opens the file again, which its undo history cannot hold as a step
 * (a file's frames and joints may differ), so it first keeps the edits in a new file beside the motion
 * (keepMotionCopy), and its question and the message after it say where.
 */
import { basenameOf } from '../../shared/project/paths';
import { ActGuyApiError, type ChangedOnDisk, type ChangeOnDisk } from '../../shared/ipc/transport';
import { askChoice } from './dialogs';

/** The change a failed save reports, or null when it failed otherwise. */
export function changedOnDiskOf(e: unknown): ChangedOnDisk | null {
  return e instanceof ActGuyApiError ? (e.changedOnDisk ?? null) : null;
}

/** Whether the disk has a version to reload (the file is there, and a plain file). */
export function reloadable(change: ChangeOnDisk): boolean {
  return change === 'changed' || change === 'created';
}

/** How a document reloads from disk: as an undo step (a .sev, a project), or by replacing the edits (a motion). */
export interface ReloadKind {
  replacesEdits?: boolean;
}

/** How the copy of a motion's dropped edits is named, as the question shows it: `walk (edits kept <date time>).mtn`. */
function keptNameOf(name: string): string {
  return `${name.replace(/\.mtn(\..*)?$/i, '')} (edits kept <date time>).mtn`;
}

/** The question's text for `name`. */
export function changedOnDiskText(name: string, change: ChangeOnDisk, reload: ReloadKind = {}): string {
  const what: Record<ChangeOnDisk, string> = {
    changed: `${name} changed on disk since it was opened here (another program or person saved it).`,
    created: `${name} was created on disk since the editor found none there (another program or person saved it).`,
    deleted: `${name} was deleted from disk since it was opened here.`,
    link: `${name} was replaced on disk by a symbolic link since it was opened here.`,
    folder: `${name} was replaced on disk by a folder since it was opened here.`,
    special: `${name} was replaced on disk by something that is not a plain file since it was opened here.`,
  };
  // In the buttons' order: Cancel, Reload from disk, Save anyway.
  return (
    `${what[change]}\n` +
    'Cancel keeps your edits and writes nothing. ' +
    (!reloadable(change)
      ? ''
      : reload.replacesEdits
        ? `Reload from disk first keeps your edits in a new file beside the motion ("${keptNameOf(name)}"), then opens the version on disk in their place (Undo does not bring them back: open the copy). `
        : 'Reload from disk shows the version on disk; Undo (Ctrl+Z) brings your edits back. ') +
    `Save anyway writes your version over ${change === 'deleted' ? 'its name' : 'what is there now'}.`
  );
}

/** The user's answer to a save refused over a change on disk. */
export type ChangedOnDiskChoice = 'overwrite' | 'reload' | 'cancel';

/** Asks what to do with a save of `path` refused over `change` (Cancel the default, focused, and Escape's answer). */
export async function askChangedOnDisk(
  path: string,
  change: ChangeOnDisk,
  reload: ReloadKind = {},
): Promise<ChangedOnDiskChoice> {
  const name = basenameOf(path);
  const pick = await askChoice({
    title: `${name} changed on disk`,
    text: changedOnDiskText(name, change, reload),
    // Cancel first: the dialog focuses it, so Enter, like Escape, writes nothing.
    buttons: [
      { id: 'cancel', label: 'Cancel', primary: true },
      ...(reloadable(change)
        ? [
            {
              id: 'reload',
              label: reload.replacesEdits ? 'Reload from disk (keep edits as a copy)' : 'Reload from disk',
            },
          ]
        : []),
      { id: 'overwrite', label: 'Save anyway' },
    ],
  });
  return pick === 'overwrite' || pick === 'reload' ? pick : 'cancel';
}

/** How a save that may meet a change on disk ended. */
export type SaveOverChange<T> = { status: 'saved'; value: T } | { status: 'reloaded' } | { status: 'cancelled' };

/**
 * Runs `save` (false: a plain save); when main refuses it over a change on disk, asks, and saves again with the
 * overwrite flag ("Save anyway": asked again if the file changed once more), reloads (`reload`), or stops. Other
 * failures are thrown as they are.
 */
export async function saveMindingDisk<T>(
  save: (overwriteChanged: boolean) => Promise<T>,
  reload: () => Promise<void>,
  reloadKind: ReloadKind = {},
): Promise<SaveOverChange<T>> {
  let overwrite = false;
  for (;;) {
    try {
      return { status: 'saved', value: await save(overwrite) };
    } catch (e) {
      const changed = changedOnDiskOf(e);
      if (!changed) throw e;
      const choice = await askChangedOnDisk(changed.path, changed.change, reloadKind);
      if (choice === 'cancel') return { status: 'cancelled' };
      if (choice === 'reload') {
        await reload();
        return { status: 'reloaded' };
      }
      overwrite = true;
    }
  }
}

/** The name of the undo step a reload from disk makes, e.g. "Reload walk.sev from disk". */
export function reloadStepLabel(path: string): string {
  return `Reload ${basenameOf(path)} from disk`;
}
