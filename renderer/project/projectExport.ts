/**
 * Project › Export All as MSH… / Export All as glTF…: every motion and alias of the open project into one folder
 * (main: electron/interchange/projectExportHandlers.ts, the code of `actguy export-msh --project`), with progress per
 * motion, a Cancel that leaves nothing written, and a result listing every file written.
 */
import { createStore } from 'zustand/vanilla';
import type { GltfExportSource, ProjectExportFormat, ProjectExportStatus } from '../../shared/ipc';
import { requireApi } from '../app/appApi';
import { message, notify } from './projectMessages';
import { projectStore } from './projectStore';
import { settleUnsavedMotion } from './projectBuild';
import { preferencesStore } from '../state/preferencesStore';
import { mshFilesOf } from '../../shared/msh/files';

/**
 * The names of the files Export All writes for these entries (motions, then aliases), as main names them: `<name>.glb`,
 * or `<name>.res8`, `<name>.res19`, `<name>.nodes.json`.
 */
export function exportFileNames(format: ProjectExportFormat, names: readonly string[]): string[] {
  return names.flatMap((n) => (format === 'gltf' ? [`${n}.glb`] : Object.values(mshFilesOf(n))));
}

/** The names of the open project's motions and aliases, as the export takes them (none while it does not resolve). */
function entryNames(): string[] {
  const r = projectStore.getState().resolved;
  return r ? [...r.motions.map((m) => m.name), ...r.aliases.map((a) => a.name)] : [];
}

export interface ProjectExportState {
  /** The export shown in the dialog; null: no dialog. */
  status: ProjectExportStatus | null;
  /**
   * The motion exported from its saved file, its unsaved edits left out ("Export the saved file"): the dialog says so,
   * as the build's does (tried cold, round 28).
   */
  savedMotion?: string;
}

export const projectExportStore = createStore<ProjectExportState>()(() => ({ status: null }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** "4 motions and 1 alias": what an export's entries are. */
export function entriesText(written: readonly { of?: string }[]): string {
  const aliases = written.filter((e) => e.of !== undefined).length;
  const motions = written.length - aliases;
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return plural(motions, 'motion', 'motions') + (aliases ? ` and ${plural(aliases, 'alias', 'aliases')}` : '');
}

/** Whether an export in this state may still end otherwise (the dialog shows Cancel, not Close). */
export const exportRunning = (s: ProjectExportStatus | null): boolean =>
  !!s && (s.state === 'exporting' || s.state === 'confirm' || s.state === 'writing');

/** Export All as glTF's question, asked before the folder: the source motions or the compressed ones. */
export interface GltfSourceRequest {
  resolve(source: GltfExportSource | null): void;
}

export const gltfSourceStore = createStore<{ request: GltfSourceRequest | null }>()(() => ({ request: null }));

/**
 * Asks which motion each glTF file holds (ProjectExportGltfDialog, which offers the one a glTF export wrote last);
 * resolves with it, kept with the preferences for the next export, or null when the user cancels.
 */
export function askGltfSource(): Promise<GltfExportSource | null> {
  return new Promise((resolve) => {
    gltfSourceStore.setState({
      request: {
        resolve: (source) => {
          gltfSourceStore.setState({ request: null });
          if (source) preferencesStore.getState().set({ gltfExportSource: source });
          resolve(source);
        },
      },
    });
  });
}

/** Asks about unsaved motion edits, then for the folder (glTF: and which motion), then exports every motion and alias there, polling until it ends. */
export async function exportAllMotions(format: ProjectExportFormat): Promise<void> {
  if (!projectStore.getState().path || exportRunning(projectExportStore.getState().status)) return;
  // A tuned motion left unsaved would be exported as saved: asked first, as Build asks.
  const settled = await settleUnsavedMotion('export');
  if (!settled) return;
  const savedMotion = typeof settled === 'string' ? settled : undefined;
  const p = projectStore.getState();
  if (!p.path) return;
  const first = p.json?.motions[0]?.name;
  const gltfSource = format === 'gltf' ? await askGltfSource() : undefined;
  if (gltfSource === null) return;
  try {
    const started = await requireApi().startProjectExportDialog({
      projectPath: p.path,
      projectText: p.text,
      format,
      ...(gltfSource && { gltfSource }),
      fileNames: exportFileNames(format, entryNames()),
      ...(first && { defaultName: `${first}.${format === 'gltf' ? 'glb' : 'res8'}` }),
    });
    if ('status' in started) return;
    let s: ProjectExportStatus = started;
    projectExportStore.setState({ status: s, savedMotion });
    while (exportRunning(s)) {
      await sleep(80);
      s = await requireApi().getProjectExportStatus({ exportId: s.exportId });
      // A closed dialog (after Cancel) stops showing it.
      if (projectExportStore.getState().status?.exportId === s.exportId) projectExportStore.setState({ status: s });
    }
    if (s.state === 'done') {
      const files = s.written.reduce((n, e) => n + e.files.length, 0);
      const what = format === 'msh' ? 'MSH' : s.gltfSource === 'compressed' ? 'glTF of the compressed motions' : 'glTF';
      // The compressed motions' use of the build cache, as Build says it (a reused motion was not compressed again).
      const cache = s.cache ? `; ${s.cache}` : '';
      const asSaved = savedMotion ? ` They hold ${savedMotion} as saved, without the tuner's unsaved changes.` : '';
      notify(
        'info',
        `Exported ${entriesText(s.written)} as ${what} into ${s.folder}: ${files} files${cache}.${asSaved}`,
      );
    }
  } catch (e) {
    notify('error', `Export All failed: ${message(e)}`);
  }
}

/** The dialog's Cancel: the export stops before its commit; nothing is written. */
export async function cancelProjectExport(): Promise<void> {
  const s = projectExportStore.getState().status;
  if (!s) return;
  try {
    projectExportStore.setState({ status: await requireApi().cancelProjectExport({ exportId: s.exportId }) });
  } catch (e) {
    notify('error', `Cancel failed: ${message(e)}`);
  }
}

/** The dialog's Export, in state 'confirm' (the desktop app's export, its files named): the work begins. */
export async function confirmProjectExport(): Promise<void> {
  const s = projectExportStore.getState().status;
  if (s?.state !== 'confirm') return;
  try {
    projectExportStore.setState({ status: await requireApi().confirmProjectExport({ exportId: s.exportId }) });
  } catch (e) {
    notify('error', `Export failed: ${message(e)}`);
  }
}

export function closeProjectExportDialog(): void {
  projectExportStore.setState({ status: null });
}
