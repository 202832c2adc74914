/**
 * Hot exit, the page's half (docs/install.md#unsaved-work-after-a-crash): a
 * copy of each unsaved part (the motion, the SEV, the project) goes to main
 * shortly after it changes, so a crashed page or app loses at most the last
 * half second of edits; after a crash the page asks main for the copies it
 * holds and shows them again as unsaved documents.
 *
 * Restoring never writes a file: the parts come back modified (●), Save
 * writes them through the normal save path, and the message's Discard drops
 * them (the files on disk are read again).
 */
import { escapeControls } from '../../shared/errors';
import type { ActGuyApi, BackupPart, UnsavedBackup } from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { basenameOf, dirnameOf, normalizePath } from '../../shared/project/paths';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { isSevDirty, sevStore, sevTextToSave, type SevMotionBinding } from '../sev/sevStore';
import { tunerBinding } from '../sev/sevBinding';
import { isProjectDirty, projectStore, type ProjectJson } from '../project/projectStore';
import { clearProjectHistory } from '../project/projectHistory';
import { openProject } from '../project/projectFiles';
import { loadSev, type ReloadQuestion } from '../sev/sevFiles';
import { askChoice } from './dialogs';
import { adoptDocument, openPath } from './motionFiles';

/** How long after the last edit a copy is sent: a typing burst or a drag sends one copy, not one per change. */
export const BACKUP_DELAY_MS = 500;

/** What a part's copy is made from: when none of these changed since the last copy, nothing is sent. */
function sourcesOf(part: BackupPart): unknown[] {
  if (part === 'motion') {
    const d = documentStore.getState();
    return [d.documentId, d.path, d.name, d.dirty, d.motion, d.tolerances, d.rotationOverridesDeg];
  }
  if (part === 'sev') {
    const f = sevStore.getState().file;
    return [f?.path, isSevDirty(f), f?.doc, f?.brokenText];
  }
  const p = projectStore.getState();
  return [p.path, isProjectDirty(p), p.text];
}

/** The copy of a part as it is now, or null when it has nothing unsaved. */
export function backupOf(part: BackupPart, editedAt: number): UnsavedBackup | null {
  if (part === 'motion') {
    const d = documentStore.getState();
    if (!d.motion || !d.documentId || !d.dirty) return null;
    return {
      part,
      documentId: d.documentId,
      name: d.name,
      path: d.path,
      editedAt,
      mtnBytes: writeMtn(d.motion),
      tolerances: { ...d.tolerances },
      rotationOverridesDeg: { ...d.rotationOverridesDeg },
    };
  }
  if (part === 'sev') {
    const f = sevStore.getState().file;
    if (!f || !isSevDirty(f)) return null;
    return {
      part,
      name: basenameOf(f.path),
      path: f.path,
      motionName: f.motionName,
      editedAt,
      text: sevTextToSave(f) ?? f.brokenText ?? '',
    };
  }
  const p = projectStore.getState();
  if (!p.path || !isProjectDirty(p)) return null;
  return { part, name: basenameOf(p.path), path: p.path, editedAt, text: p.text };
}

const PARTS: readonly BackupPart[] = ['motion', 'sev', 'project'];

/**
 * Sends main a copy of every part that changed, `delayMs` after the last change of any of them, and tells it to
 * drop a copy once its part is saved or its edits are gone. Copies go one after another, in order. Returns the
 * unsubscriber.
 */
export function backupUnsavedOnChange(
  api: Pick<ActGuyApi, 'backupUnsaved'>,
  options: {
    delayMs?: number;
    now?: () => number;
    /** Parts main already holds a copy of (those just restored). */ held?: readonly BackupPart[];
  } = {},
): () => void {
  const { delayMs = BACKUP_DELAY_MS, now = Date.now } = options;
  const sent = new Map<BackupPart, unknown[]>(PARTS.map((p) => [p, sourcesOf(p)]));
  /** Parts main holds a copy of: dropped there once the part is saved or its edits are gone. */
  const held = new Set<BackupPart>(options.held ?? []);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let queue = Promise.resolve();

  const flush = (): void => {
    timer = null;
    for (const part of PARTS) {
      const sources = sourcesOf(part);
      const before = sent.get(part)!;
      if (sources.every((v, i) => Object.is(v, before[i]))) continue;
      sent.set(part, sources);
      const backup = backupOf(part, now());
      if (!backup && !held.has(part)) continue;
      if (backup) held.add(part);
      else held.delete(part);
      queue = queue.then(() => api.backupUnsaved({ part, backup }).catch(() => undefined));
    }
  };
  const changed = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
  };
  const offs = [documentStore.subscribe(changed), sevStore.subscribe(changed), projectStore.subscribe(changed)];
  return () => {
    if (timer !== null) clearTimeout(timer);
    offs.forEach((off) => off());
  };
}

function time(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Asks main for the copies it holds and shows them as unsaved documents: the project first (reopened from its
 * file, then given the copy's text), then the motion, then the SEV (edited against the motion now shown).
 * A message names what came back and from when, with a Discard button. Resolves the parts restored.
 */
/**
 * The motion a restored `.sev` belongs to. It is the tuner's only when the tuner shows that motion's file (the
 * project's entry of that name, else `<motion>.mtn` beside the `.sev`); else the `.sev` stays hidden behind its banner
 * (docs/sound-events.md, "Unsaved edits are never dropped"). Bound to whatever the tuner showed, walk.sev's unsaved
 * edits, kept while an imported capture was open, came back as that capture's events, their joints read against its
 * skeleton (tried cold, round 5).
 */
function restoredSevBinding(sevPath: string, motionName: string): SevMotionBinding {
  const project = projectStore.getState().resolved?.motions.find((m) => m.name === motionName);
  const path = project?.mtnPath ?? `${dirnameOf(sevPath)}/${motionName}.mtn`;
  const d = documentStore.getState();
  if (d.motion && d.path !== null && normalizePath(d.path) === normalizePath(path)) return tunerBinding(d);
  return { documentId: null, path };
}

export async function restoreHeldBackups(api: Pick<ActGuyApi, 'restoreBackups'>): Promise<BackupPart[]> {
  const { backups, setAside } = await api.restoreBackups();
  const session = sessionStore.getState();
  for (const message of setAside) session.notify('warning', message, 'app');
  const restored: UnsavedBackup[] = [];
  const byPart = (part: BackupPart) => backups.find((b) => b.part === part);

  const project = byPart('project');
  if (project?.part === 'project') {
    try {
      const json = JSON.parse(project.text) as unknown;
      if (typeof json !== 'object' || json === null || Array.isArray(json))
        throw new Error('the copy is not a project');
      await openProject(project.path);
      if (projectStore.getState().path !== project.path) throw new Error('the project could not be opened');
      projectStore.getState().setJson(json as ProjectJson);
      clearProjectHistory();
      restored.push(project);
    } catch (e) {
      session.notify(
        'error',
        `The unsaved copy of ${escapeControls(project.name)} was not restored: ${errorText(e)}`,
        'app',
      );
    }
  }

  const motion = byPart('motion');
  if (motion?.part === 'motion') {
    try {
      adoptDocument({
        documentId: motion.documentId,
        path: motion.path,
        name: motion.name,
        kind: 'mtn',
        readOnly: false,
        motion: readMtn(motion.mtnBytes),
        tolerances: motion.tolerances,
        rotationOverridesDeg: motion.rotationOverridesDeg,
        unsaved: true,
      });
      // The project's motion of that file is the one shown now.
      const p = projectStore.getState();
      const index = p.resolved?.motions.findIndex((m) => motion.path !== null && m.mtnPath === motion.path) ?? -1;
      if (index >= 0) p.setCurrent(index, motion.documentId);
      restored.push(motion);
    } catch (e) {
      session.notify(
        'error',
        `The unsaved copy of ${escapeControls(motion.name)} was not restored: ${errorText(e)}`,
        'app',
      );
    }
  }

  const sev = byPart('sev');
  if (sev?.part === 'sev') {
    sevStore.getState().load(sev.path, sev.motionName, sev.text, restoredSevBinding(sev.path, sev.motionName));
    sevStore.getState().markUnsaved();
    restored.push(sev);
  }

  if (restored.length === 0) return [];
  const when = time(Math.max(...restored.map((b) => b.editedAt)));
  const textOf = (parts: readonly UnsavedBackup[]): string =>
    `Restored unsaved changes to ${parts.map(backupName).join(', ')} (as of ${when}): ActGuy closed before they were saved. They are not on disk yet: Save writes them, Discard drops them.`;
  // Shown again, naming what is still unsaved, when the question its Discard asks is cancelled (the click took the
  // message away).
  const show = (parts: readonly UnsavedBackup[]): void => {
    const id = sessionStore.getState().notify('warning', textOf(parts), 'app', {
      label: 'Discard',
      run: () => void discardRestored(parts, () => show(parts.filter(stillUnsaved))),
    });
    dismissOnceSettled(id, parts, textOf);
  };
  show(restored);
  return restored.map((b) => b.part);
}

/**
 * A restored part as the unsaved question names it: a motion by its file when it has one. A copy's name and path come
 * from the Backups folder, read back as a stranger's file: a line break or a bidirectional override in one is shown
 * escaped, not as another file's name (docs/security.md, round 26).
 */
function backupName(b: UnsavedBackup): string {
  return escapeControls(b.path ? basenameOf(b.path) : b.name);
}

/** Whether restored part `b` is still open with unsaved edits (not saved, discarded or replaced since). */
function stillUnsaved(b: UnsavedBackup): boolean {
  if (b.part === 'motion') {
    const d = documentStore.getState();
    return d.documentId === b.documentId && d.dirty;
  }
  if (b.part === 'sev') {
    const f = sevStore.getState().file;
    return f?.path === b.path && isSevDirty(f);
  }
  const p = projectStore.getState();
  return p.path === b.path && isProjectDirty(p);
}

/**
 * The restore message goes once none of its parts is left unsaved (each saved, discarded or closed): it said "not on
 * disk yet" and offered Discard after Save had written them, so a first-time user could not tell whether the save had
 * worked (docs/user-guide.md#tried-cold-2026-12-03). Until then it names only the parts still unsaved.
 */
function dismissOnceSettled(
  id: number,
  restored: readonly UnsavedBackup[],
  textOf: (parts: readonly UnsavedBackup[]) => string,
): void {
  const check = (): void => {
    const session = sessionStore.getState();
    const message = session.messages.find((m) => m.id === id);
    const left = restored.filter(stillUnsaved);
    if (message && left.length) {
      // Until then it names only what is left: walk.sev saved, it still said walk.sev was "not on disk yet".
      const text = textOf(left);
      if (message.text !== text)
        sessionStore.setState({ messages: session.messages.map((m) => (m.id === id ? { ...m, text } : m)) });
      return;
    }
    const shown = message !== undefined;
    offs.forEach((off) => off());
    if (shown) session.dismiss(id);
  };
  const offs = [
    documentStore.subscribe(check),
    sevStore.subscribe(check),
    projectStore.subscribe(check),
    sessionStore.subscribe(check),
  ];
}

/** A restored part as Discard's question names it, and whether it has a file to read again (an imported capture has none). */
export interface RestoredPartName {
  name: string;
  onDisk: boolean;
}

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The question before restored copies are dropped: each part still unsaved goes, with the edits made to it since. It
 * asked only about a `.sev` ("Reload from disk … Discard edits and reload" until round 4), and a restored motion, with
 * whatever had been done to it since, went at the click with no question and no undo (tried cold, round 6). What
 * happens to each is said: a part with a file is read from disk again; one without (a capture imported and never
 * saved) is closed. The question said "read it from disk again" of those too.
 */
export function discardRestoredQuestion(parts: readonly RestoredPartName[]): ReloadQuestion {
  const one = parts.length === 1;
  const it = one ? 'it' : 'them';
  const head = `Discard the restored changes to ${listed(parts.map((p) => p.name))}, and any edits made to ${it} since`;
  const reread = parts.filter((p) => p.onDisk).map((p) => p.name);
  const closed = parts.filter((p) => !p.onDisk).map((p) => p.name);
  const text =
    closed.length === 0
      ? `${head}, and read ${it} from disk again?`
      : reread.length === 0
        ? `${head}, and close ${it}? ${one ? 'It has' : 'They have'} no file on disk to read again: imported and never saved, ${it} ${one ? 'is' : 'are'} gone once discarded.`
        : `${head}? ${listed(reread)} ${reread.length === 1 ? 'is' : 'are'} read from disk again; ${listed(closed)}, with no file on disk (imported and never saved), ${closed.length === 1 ? 'is' : 'are'} closed and gone.`;
  return { title: 'Discard restored changes', text, drop: 'Discard changes' };
}

/**
 * Drops restored copies once the user has said so (Cancel shows their message again): each part is read again from its file (a motion that never had
 * one is closed), the SEV first and the project last (reopening the project opens its first motion, asking nothing
 * once the rest is clean).
 */
async function discardRestored(restored: readonly UnsavedBackup[], showAgain: () => void): Promise<void> {
  const unsaved = restored.filter(stillUnsaved);
  if (unsaved.length) {
    const q = discardRestoredQuestion(unsaved.map((b) => ({ name: backupName(b), onDisk: b.path !== null })));
    const choice = await askChoice({
      title: q.title,
      text: q.text,
      buttons: [
        { id: 'reload', label: q.drop },
        { id: 'cancel', label: 'Cancel', primary: true },
      ],
    });
    if (choice !== 'reload') return showAgain();
  }
  const order: BackupPart[] = ['sev', 'motion', 'project'];
  for (const b of [...restored].sort((x, y) => order.indexOf(x.part) - order.indexOf(y.part))) {
    if (b.part === 'motion') {
      const d = documentStore.getState();
      if (d.documentId !== b.documentId) continue; // replaced since
      if (b.path) await openPath(b.path, false);
      else documentStore.getState().close();
    } else if (b.part === 'sev') {
      const f = sevStore.getState().file;
      if (f?.path === b.path) await loadSev(f.path, f.motionName);
    } else if (projectStore.getState().path === b.path) {
      await openProject(b.path);
    }
  }
}
