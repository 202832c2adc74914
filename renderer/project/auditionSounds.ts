/** The audition sounds: a folder of sounds named by SE name, the project's own or the one beside the motion. */
import { dirnameOf } from '../../shared/project/paths';
import { requireApi } from '../app/appApi';
import { projectStore, soundsByName } from './projectStore';
import { message, notify } from './projectMessages';

const SOUND_FOLDER_KEY = 'actguy.soundFolder:';

export function savedSoundFolder(projectPath: string): string | null {
  try {
    return localStorage.getItem(SOUND_FOLDER_KEY + projectPath);
  } catch {
    return null;
  }
}

/** Lists the sounds of a folder (quietly when it is the default that may not exist). */
export async function loadSounds(
  folder: string,
  quiet = false,
  stillWanted: () => boolean = () => true,
): Promise<void> {
  try {
    const r = await requireApi().listSounds({ folder });
    if (!stillWanted()) return;
    projectStore.getState().setSounds(r.folder, soundsByName(r.sounds));
  } catch (e) {
    if (!stillWanted()) return;
    projectStore.getState().setSounds(null, {});
    if (!quiet) notify('error', `Audition folder: ${message(e)}`);
  }
}

/**
 * Outside a project, the audition sounds are the `sounds/` folder beside the motion file (the layout of assets/),
 * when it is there; a project's own folder wins as soon as one is open.
 */
export async function loadSoundsBesideMotion(motionPath: string | null): Promise<void> {
  if (projectStore.getState().path || !motionPath) return;
  const folder = `${dirnameOf(motionPath)}/sounds`;
  if (projectStore.getState().soundFolder === folder) return;
  // A project opened meanwhile has loaded its own folder: this listing is not applied over it.
  await loadSounds(folder, true, () => !projectStore.getState().path);
}

/** Points the project at a folder of sounds named by SE name (pick any sound in it). */
export async function chooseSoundFolder(): Promise<void> {
  const p = projectStore.getState();
  try {
    const r = await requireApi().chooseProjectFileDialog({ purpose: 'sound' });
    if (r.status !== 'chosen') return;
    const folder = dirnameOf(r.path);
    await loadSounds(folder);
    try {
      if (p.path) localStorage.setItem(SOUND_FOLDER_KEY + p.path, folder);
    } catch {
      // private mode: the folder is remembered for this session only
    }
  } catch (e) {
    notify('error', `Choose audition folder failed: ${message(e)}`);
  }
}
