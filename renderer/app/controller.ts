/**
 * The app's commands: everything a menu item, a shortcut or a button can do,
 * in one place so the in-window menu, the native menu and the keyboard behave
 * the same. Commands read and write the stores and talk to the main process
 * through the typed API; every API failure becomes a readable message and the
 * current document stays as it was.
 */
import type { ActGuyApi, OpenMotionOutcome, OpenedMotion, MenuCommand, ImportMotionOutcome, ImportedMotion, GltfExportSource, ImportMotionBatchOutcome } from '../../shared/ipc';
import { readMtn } from '../../shared/mtn/read';
import { writeMtn } from '../../shared/mtn/write';
import { KeyFlag } from '../../shared/motion/types';
import { basenameOf } from '../../shared/project/paths';
import { documentStore, type LoadDocument } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore, PLAYBACK_SPEEDS } from '../state/preferencesStore';
import { compressionStore, compressRequestOf } from '../state/compressionStore';
import { askChoice } from './dialogs';
import { adoptTuningFile, markTuningSaved, projectTuning, tuningTextToSave } from './motionTuning';
import { redoLatest, undoLatest } from '../sev/undoOrder';
import { confirmUnsaved, reportUnsavedStateOnChange, saveAllAndClose } from './unsaved';
import { askImportOptions, type ImportOptions } from '../interchange/importOptions';
import { askMshExportOptions } from '../interchange/mshExportOptions';
import { findChannel, userKeyFramesOf } from '../curves/series';
import { projectLayoutStore } from '../project/layout';
import { addImportedMotions, projectMotionNames } from '../project/projectActions';
import { projectStore } from '../project/projectStore';

let api: ActGuyApi | null = null;

export function setControllerApi(a: ActGuyApi): void {
  api = a;
}

function requireApi(): ActGuyApi {
  if (!api) throw new Error('The main-process API is not connected.');
  return api;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function notifyError(prefix: string, err: unknown): void {
  sessionStore.getState().notify('error', `${prefix}: ${errorText(err)}`);
}

/** Runs a file operation with the busy marker and error reporting. */
async function busy<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
  sessionStore.getState().setBusy(what);
  try {
    return await fn();
  } catch (err) {
    notifyError(`${what} failed`, err);
    return undefined;
  } finally {
    sessionStore.getState().setBusy(null);
  }
}

/** Frame under the playhead, as an integer in 0..N. */
export function playheadFrame(): number {
  const m = documentStore.getState().motion;
  if (!m) return 0;
  return Math.max(0, Math.min(m.frameCount, Math.round(sessionStore.getState().playhead)));
}

// ---------------------------------------------------------------------------
// Files

/**
 * Asks before unsaved motion edits are thrown away (opening another motion or closing it replaces only the tuner's
 * document; the SEV and the project stay open). Resolves true to go on. Flows that also replace the SEV or the
 * project ask with confirmUnsaved themselves, naming those too.
 */
async function confirmDiscard(action: string): Promise<boolean> {
  return confirmUnsaved(action, ['motion']);
}

/**
 * The joint to select in a newly opened motion: the one with the same name as the joint selected before (skeletons
 * differ in order, so "9 RightFoot" must not become "9 LeftForeArm"); the root when the name is not there; the same
 * index when there was no motion before or its joints are unnamed.
 */
export function carryJointSelection(selected: number, before: readonly { name: string }[] | null, after: readonly { name: string }[]): number {
  if (after.length === 0) return -1;
  if (selected < 0) return selected;
  const name = before?.[selected]?.name;
  if (!before || !name) return Math.min(selected, after.length - 1);
  const byName = after.findIndex((j) => j.name === name);
  return byName >= 0 ? byName : 0;
}

/** Shows a new document (opened, imported or restored) with the default tolerances unless it brings its own; main forgets the one it replaces. */
export function adoptDocument(doc: LoadDocument): void {
  const previous = documentStore.getState().documentId;
  const previousJoints = documentStore.getState().motion?.joints ?? null;
  documentStore.getState().load({ ...doc, tolerances: doc.tolerances ?? { ...preferencesStore.getState().defaultTolerances } });
  const session = sessionStore.getState();
  session.resetForDocument(doc.motion.frameCount);
  session.select(carryJointSelection(session.selectedJoint, previousJoints, doc.motion.joints));
  session.requestFrameAll();
  if (previous && previous !== doc.documentId) void api?.closeDocument({ documentId: previous }).catch(() => undefined);
}

function adoptOpened(opened: OpenedMotion): void {
  adoptDocument({
    documentId: opened.documentId,
    path: opened.path,
    name: opened.name,
    kind: opened.kind,
    readOnly: opened.readOnly,
    motion: readMtn(opened.mtnBytes),
  });
  const session = sessionStore.getState();
  // The settings saved beside the motion (a project's own, applied after this, win for its motions).
  const tuningProblem = adoptTuningFile(opened, documentStore.getState().motion!);
  if (tuningProblem) session.notify('warning', tuningProblem);
  if (opened.readOnly)
    session.notify('info', `${opened.name} is a compressed ${opened.kind.toUpperCase()} motion: shown read-only (Save As writes an editable .mtn).`);
}

/** Follows an open outcome through its follow-up questions (archive entry, skeleton). */
async function followOpen(outcome: OpenMotionOutcome): Promise<void> {
  const a = requireApi();
  for (;;) {
    switch (outcome.status) {
      case 'cancelled':
        return;
      case 'opened':
        adoptOpened(outcome.motion);
        return;
      case 'chooseMarEntry': {
        const pick = await askChoice({
          title: 'Open motion from archive',
          text: `${outcome.path} holds ${outcome.entries.length} motion${outcome.entries.length === 1 ? '' : 's'}. Which one?`,
          buttons: [
            ...outcome.entries.map((e) => ({
              id: String(e.index),
              label: `#${e.index} ${e.nameText}  (${e.frameCount + 1} frames, ${e.jointCount} joints)`,
            })),
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        outcome = await a.openMotion({ path: outcome.path, marEntry: Number(pick) });
        break;
      }
      case 'needsSkeleton': {
        const pick = await askChoice({
          title: 'Skeleton needed',
          text: `No skeleton .mtn was found beside ${outcome.path}. Choose one for joint names and hierarchy, or open without one.`,
          buttons: [
            { id: 'choose', label: 'Choose skeleton…', primary: true },
            { id: 'without', label: 'Open without skeleton' },
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        const marEntry = outcome.marEntry ?? undefined;
        if (pick === 'without') {
          outcome = await a.openMotion({ path: outcome.path, marEntry, withoutSkeleton: true });
        } else {
          const sk = await a.chooseSkeletonDialog();
          if (sk.status === 'cancelled') return;
          outcome = await a.openMotion({ path: outcome.path, marEntry, skeletonPath: sk.path });
        }
        break;
      }
    }
  }
}

/** File > Open: asks for a file (native or in-app dialog) and opens it. */
export async function openDialog(): Promise<void> {
  if (!(await confirmDiscard('open another motion'))) return;
  await busy('Open', async () => followOpen(await requireApi().openMotionDialog()));
}

/** Opens a file by path (start-up, recent files). */
export async function openPath(path: string, askDiscard = true): Promise<void> {
  if (askDiscard && !(await confirmDiscard('open another motion'))) return;
  await busy('Open', async () => followOpen(await requireApi().openMotion({ path })));
}

/** File > Close: asks about unsaved edits, then drops the document here and in main. */
export async function closeDocument(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion) return;
  if (!(await confirmDiscard('close it'))) return;
  const id = documentStore.getState().documentId;
  documentStore.getState().close();
  sessionStore.getState().setPlaying(false);
  if (id) void api?.closeDocument({ documentId: id }).catch(() => undefined);
}

/** File > Save. Resolves true when the document is on disk afterwards. */
export async function save(): Promise<boolean> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return false;
  if (doc.readOnly || doc.kind !== 'mtn' || !doc.path) return saveAs();
  const documentId = doc.documentId;
  const motion = doc.motion;
  // The tuner's settings go with the motion: into the project when it holds this motion, else beside the .mtn.
  const inProject = projectTuning.covers(doc);
  const tuningText = inProject ? undefined : tuningTextToSave(doc);
  const ok = await busy('Save', async () => {
    const r = await requireApi().saveMotion({ documentId, path: doc.path!, mtnBytes: writeMtn(motion), ...(tuningText !== undefined ? { tuningText } : {}) });
    if (r.status === 'cancelled') return false;
    if (tuningText !== undefined) markTuningSaved(documentId);
    // Only the revision that was written counts as saved; edits made meanwhile stay dirty.
    if (documentStore.getState().motion === motion) documentStore.getState().markSaved(r.file.path, r.file.name);
    sessionStore.getState().notify('info', `Saved ${r.file.path} (${r.file.byteLength} bytes${tuningText !== undefined ? ', with its tuning' : ''}).`);
    return true;
  });
  if (ok === true && inProject) return projectTuning.store();
  return ok === true;
}

/** File > Save As: a new .mtn; read-only documents are converted and reopened as editable. */
export async function saveAs(): Promise<boolean> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return false;
  const motion = doc.motion;
  const ok = await busy('Save As', async () => {
    const a = requireApi();
    const tuningText = doc.readOnly ? undefined : tuningTextToSave(doc);
    const r = await a.saveMotionAsDialog({ documentId: doc.documentId!, mtnBytes: writeMtn(motion), defaultName: `${doc.name.replace(/[:/\\]/g, '_')}.mtn`, ...(tuningText !== undefined ? { tuningText } : {}) });
    if (r.status === 'cancelled') return false;
    if (tuningText !== undefined) markTuningSaved(doc.documentId!);
    sessionStore.getState().notify('info', `Saved ${r.file.path} (${r.file.byteLength} bytes).`);
    if (doc.readOnly) {
      await followOpen(await a.openMotion({ path: r.file.path }));
    } else if (documentStore.getState().motion === motion) {
      documentStore.getState().markSaved(r.file.path, r.file.name);
    }
    return true;
  });
  return ok === true;
}

/** File > Export MT3: compresses the current state in main and writes the .mt3. */
export async function exportMt3(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  if (doc.readOnly) {
    sessionStore.getState().notify('warning', 'This motion is already compressed; open an .mtn to export an .mt3.');
    return;
  }
  await busy('Export', async () => {
    const r = await requireApi().exportMt3Dialog({ compress: compressRequestOf(doc, doc.editId), defaultName: `${doc.name}.mt3` });
    if (r.status === 'cancelled') return;
    sessionStore
      .getState()
      .notify('info', `Exported ${r.file.path}: ${r.file.byteLength} bytes, ${r.file.totalKeys} keys, ratio ${r.file.ratio.toFixed(2)}.`);
  });
}

// ---------------------------------------------------------------------------
// Interchange: File > Import (BVH, glTF/GLB), File > Export glTF

/** An imported motion becomes an editable document with no file: modified until saved (Save asks for a path). */
function adoptImported(imported: ImportedMotion): void {
  const motion = readMtn(imported.mtnBytes);
  adoptDocument({ documentId: imported.documentId, path: null, name: imported.name, kind: 'mtn', readOnly: false, motion, unsaved: true });
  const session = sessionStore.getState();
  const source = basenameOf(imported.sourcePath);
  // A snapped source rate (BVH Frame Time .0083333 -> 120 fps) is how the frames were read, not a problem: part of the summary.
  const snap = imported.warnings.find((w) => w.code === 'rate-snapped');
  session.notify(
    'info',
    `Imported ${source}${imported.clip ? ` (clip "${imported.clip}")` : ''}: ${motion.joints.length} joints, frames 0..${motion.frameCount} at ${motion.fps} fps${snap ? ` (${snap.message})` : ''}${imported.summary ? `; ${imported.summary}` : ''}. Not saved yet: Save writes it as an .mtn.`,
  );
  // Importer warnings (truncated names, ignored scale tracks, ...) stay until dismissed.
  for (const w of imported.warnings) if (w !== snap) session.notify('warning', `${source}: ${w.message}`);
}

/** Follows an import through its clip question (a glTF with several clips). */
async function followImport(outcome: ImportMotionOutcome, options: ImportOptions): Promise<void> {
  for (;;) {
    switch (outcome.status) {
      case 'cancelled':
        return;
      case 'imported':
        adoptImported(outcome.motion);
        return;
      case 'chooseClip': {
        const pick = await askChoice({
          title: 'Import animation clip',
          text: `${outcome.path} holds ${outcome.clips.length} animation clips. Which one?`,
          buttons: [
            ...outcome.clips.map((c) => ({ id: String(c.index), label: `#${c.index} ${c.name}  (${c.duration.toFixed(2)} s)` })),
            { id: 'cancel', label: 'Cancel' },
          ],
        });
        if (pick === 'cancel') return;
        outcome = await requireApi().importMotion({ path: outcome.path, clip: Number(pick), ...options });
        break;
      }
      case 'chosenMany': {
        // Several files: one .mtn each beside them; into the open project (if any) all or nothing, as one undo step.
        const project = projectStore.getState();
        const intoProject = project.json !== null && project.path !== null;
        const r = await requireApi().importMotionBatch({ paths: outcome.paths, ...options, allOrNothing: intoProject, reservedNames: intoProject ? projectMotionNames() : [] });
        reportBatch(r, intoProject);
        return;
      }
    }
  }
}

/** Says what a batch import did: each file's problem, the warnings, then one line for the whole; adds the motions to the project. */
function reportBatch(r: ImportMotionBatchOutcome, intoProject: boolean): void {
  if (r.status === 'cancelled') return;
  const session = sessionStore.getState();
  for (const i of r.items) {
    const what = `${basenameOf(i.sourcePath)}${i.clip !== null ? ` (clip "${i.clip}")` : ''}`;
    if (i.error !== null) session.notify('error', `Import ${what} failed: ${i.error}`);
    for (const w of i.warnings) if (w.code !== 'rate-snapped') session.notify('warning', `${what}: ${w.message}`);
  }
  const done = r.items.filter((i) => i.error === null && r.written.includes(i.mtnPath ?? ''));
  const added = intoProject && r.failed === 0 && addImportedMotions(done.map((i) => ({ name: i.name!, mtnPath: i.mtnPath! })));
  session.notify(r.failed ? 'error' : 'info', `Imported ${r.items.length} motion(s): ${r.conclusion}${added ? `; added ${done.map((i) => i.name).join(', ')} to the project (not saved yet)` : ''}.`);
}

/** File > Import: frame rate and scale, a .bvh/.glb/.gltf (native or in-app dialog), the clip when there are several. */
export async function importMotion(): Promise<void> {
  if (!(await confirmDiscard('import another motion'))) return;
  const options = await askImportOptions();
  if (!options) return;
  await busy('Import', async () => followImport(await requireApi().importMotionDialog(options), options));
}

/** Stops the import in progress (the status bar's Cancel): it ends as if its dialog had been closed. */
export async function cancelImport(): Promise<void> {
  try {
    await requireApi().cancelImport();
  } catch (err) {
    notifyError('Cancel import failed', err);
  }
}

/** The export scale chosen last in this session (offered first next time); null before the first export. */
let lastGltfScale: number | null = null;

/**
 * Asks the units of a glTF export: Blender and most viewers read metres, while
 * ActGuy's sample motions are in centimetres. Resolves the scale, or null.
 */
async function askGltfScale(): Promise<number | null> {
  const metres = { id: 'metres', label: 'Centimetres → metres (×0.01)' };
  const asIs = { id: 'as-is', label: 'Keep motion units (×1)' };
  const first = lastGltfScale === 1 ? [asIs, metres] : [metres, asIs];
  const pick = await askChoice({
    title: 'Export glTF',
    text: 'Blender and most glTF viewers read metres. Scale positions by 0.01 when this motion is in centimetres (the samples are); ActGuy\'s import undoes the scale.',
    buttons: [{ ...first[0], primary: true }, first[1], { id: 'cancel', label: 'Cancel' }],
  });
  if (pick === 'cancel') return null;
  lastGltfScale = pick === 'metres' ? 0.01 : 1;
  return lastGltfScale;
}

/** File > Export glTF: the source motion as edited, or the MT3 the current settings produce, decoded (what the game plays). */
export async function exportGltf(source: GltfExportSource): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  if (source === 'compressed' && doc.readOnly) {
    sessionStore.getState().notify('warning', 'This motion is already compressed: Export glTF (source) writes it as decoded.');
    return;
  }
  const motion = doc.motion;
  const base = doc.name.replace(/[:/\\]/g, '_');
  const scale = await askGltfScale();
  if (scale === null) return;
  await busy('Export glTF', async () => {
    const r = await requireApi().exportGltfDialog({
      documentId: doc.documentId!,
      source,
      mtnBytes: writeMtn(motion),
      compress: source === 'compressed' ? compressRequestOf(doc, doc.editId) : undefined,
      scale,
      defaultName: `${base}${source === 'compressed' ? '_compressed' : ''}.glb`,
    });
    if (r.status === 'cancelled') return;
    const f = r.file;
    sessionStore
      .getState()
      .notify(
        'info',
        `Exported ${f.path}: glTF of the ${f.source} motion, ${f.jointCount} joints, frames 0..${f.frameCount}${f.totalKeys === null ? '' : `, ${f.totalKeys} keys`}, ${scale === 1 ? 'motion units' : `positions ×${scale}`}, ${f.byteLength} bytes.`,
      );
  });
}

/**
 * File > Export MSH: the motion as MSH animation (`PREFIX.res8`, `.res19`, `.nodes.json`, written by main as one
 * unit, fitted in a worker). Asks the tolerances, then the .res8 in a save dialog; the message names the files.
 */
export async function exportMsh(): Promise<void> {
  const doc = documentStore.getState();
  if (!doc.motion || !doc.documentId) return;
  const documentId = doc.documentId;
  const overrides = { ...doc.rotationOverridesDeg };
  const options = await askMshExportOptions(Object.keys(overrides).length);
  if (!options) return;
  const base = doc.name.replace(/[:/\\]/g, '_');
  await busy('Export MSH', async () => {
    const r = await requireApi().exportMshDialog({
      documentId,
      positionTolerance: options.positionTolerance,
      rotationToleranceDeg: options.rotationToleranceDeg,
      rotationToleranceOverridesDeg: options.useJointOverrides ? overrides : undefined,
      defaultName: `${base}.res8`,
    });
    if (r.status === 'cancelled') return;
    const e = r.export;
    const session = sessionStore.getState();
    session.notify(
      'info',
      `Exported MSH animation: ${e.files.res8} (${e.totalKeys} keys), ${e.files.res19} (${e.mapWords} map words, ${e.frameCount} frames) and ${e.files.nodes} (${e.animatedNodes} of ${e.nodeCount} nodes animated).`,
    );
    for (const w of e.warnings) session.notify('warning', `MSH export: ${w}`);
  });
}

// ---------------------------------------------------------------------------
// Edits at the playhead (keyboard K / L / T)

export function toggleKeyAtPlayhead(): void {
  const doc = documentStore.getState();
  if (!doc.motion || doc.readOnly) return;
  doc.keys.toggle(sessionStore.getState().selectedJoint, playheadFrame());
}

/** Every key frame of the selected joint's channel: the compressed keys and the document's user keys, sorted. */
export function channelKeyFrames(): number[] {
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m) return [];
  const s = sessionStore.getState();
  const joint = Math.min(s.selectedJoint, m.joints.length - 1);
  const kind = joint < 0 ? 'translation' : s.curveChannel === 'offset' ? 'offset' : 'rotation';
  const report = findChannel(compressionStore.getState().result?.channels, kind, joint);
  return [...new Set([...(report?.keyFrames ?? []), ...userKeyFramesOf(m, joint)])].sort((a, b) => a - b);
}

/** Up / Down: moves the playhead to the previous / next key of the selected channel (Blender's habit). */
export function jumpToKey(dir: 1 | -1): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  const here = playheadFrame();
  const keys = channelKeyFrames();
  const target = dir > 0 ? keys.find((k) => k > here) : [...keys].reverse().find((k) => k < here);
  if (target === undefined) return;
  revealChannelFrame(sessionStore.getState().selectedJoint, target);
}

/** Delete: removes the user keys selected in the curve view (one undo step). */
export function deleteSelectedKeys(): void {
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m || doc.readOnly) return;
  const s = sessionStore.getState();
  const user = new Set(userKeyFramesOf(m, s.selectedJoint));
  const frames = s.selectedKeys.filter((f) => user.has(f));
  if (frames.length === 0) return;
  doc.keys.remove(s.selectedJoint, frames);
  s.selectKeys([]);
}

/** PageUp / PageDown: selects the previous / next joint (root translation first). */
export function selectNeighbourJoint(dir: 1 | -1): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  const s = sessionStore.getState();
  s.select(Math.max(-1, Math.min(m.joints.length - 1, s.selectedJoint + dir)));
}

/** L: locks the selected joint at the playhead, or unlocks it when it is locked there. */
export function toggleLockAtPlayhead(): void {
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m || doc.readOnly) return;
  const joint = sessionStore.getState().selectedJoint;
  const f = playheadFrame();
  if (joint >= 0 && m.jointKeyInfo[(f * m.joints.length + joint) * 4] & KeyFlag.LOCK) {
    doc.locks.clearRange(joint, f, f);
    return;
  }
  const r = doc.locks.setRange(joint, f, f);
  if (!r.ok) sessionStore.getState().notify('warning', r.message, 'document', r.fix);
}

export function toggleTraceAtPlayhead(): void {
  const doc = documentStore.getState();
  if (!doc.motion || doc.readOnly) return;
  doc.trace.toggle(playheadFrame());
}

// ---------------------------------------------------------------------------
// Playback

export function togglePlay(): void {
  const s = sessionStore.getState();
  const m = documentStore.getState().motion;
  if (!m) return;
  if (!s.playing && s.playhead >= m.frameCount && !preferencesStore.getState().loop) s.setPlayhead(0);
  s.setPlaying(!s.playing);
}

export function step(delta: number): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  const s = sessionStore.getState();
  s.setPlaying(false);
  let f = Math.round(s.playhead) + delta;
  if (preferencesStore.getState().loop) f = ((f % (m.frameCount + 1)) + m.frameCount + 1) % (m.frameCount + 1);
  else f = Math.max(0, Math.min(m.frameCount, f));
  s.setPlayhead(f);
}

export function gotoFrame(frame: number): void {
  const m = documentStore.getState().motion;
  if (!m) return;
  sessionStore.getState().setPlaying(false);
  sessionStore.getState().setPlayhead(Math.max(0, Math.min(m.frameCount, Math.round(frame))));
}

export function cycleSpeed(dir: 1 | -1): void {
  const p = preferencesStore.getState();
  const i = PLAYBACK_SPEEDS.indexOf(p.playbackSpeed as (typeof PLAYBACK_SPEEDS)[number]);
  const next = PLAYBACK_SPEEDS[Math.max(0, Math.min(PLAYBACK_SPEEDS.length - 1, (i < 0 ? 3 : i) + dir))];
  p.set({ playbackSpeed: next });
}

/** Jumps to a place the stats or a warning names: selects the channel and moves the playhead. */
export function revealChannelFrame(joint: number, frame: number, kind?: 'translation' | 'rotation' | 'offset'): void {
  const s = sessionStore.getState();
  s.select(joint);
  if (kind === 'offset') s.setCurveChannel('offset');
  else if (kind === 'rotation' && s.curveChannel === 'offset') s.setCurveChannel('euler');
  gotoFrame(frame);
  // Keep the frame visible in the curve view and timeline.
  if (frame < s.viewStart || frame > s.viewEnd) {
    const span = s.viewEnd - s.viewStart;
    s.setView(frame - span / 2, frame + span / 2);
  }
}

/** Shows the whole motion in the curve view and timeline. */
export function zoomTimeToFit(): void {
  const m = documentStore.getState().motion;
  if (m) sessionStore.getState().setView(0, m.frameCount);
}

// ---------------------------------------------------------------------------
// Menu commands (native menu and the in-window menu bar)

export function runMenuCommand(cmd: MenuCommand): void {
  const doc = documentStore.getState();
  switch (cmd.command) {
    case 'file.open':
      void openDialog();
      break;
    case 'file.openRecent':
      if (cmd.path) void openPath(cmd.path);
      break;
    case 'file.save':
      void save();
      break;
    case 'file.saveAs':
      void saveAs();
      break;
    case 'file.exportMt3':
      void exportMt3();
      break;
    case 'file.import':
      void importMotion();
      break;
    case 'file.exportGltfSource':
      void exportGltf('source');
      break;
    case 'file.exportGltfCompressed':
      void exportGltf('compressed');
      break;
    case 'file.exportMsh':
      void exportMsh();
      break;
    case 'edit.undo':
      undoLatest();
      break;
    case 'edit.redo':
      redoLatest();
      break;
    case 'view.resetCamera':
    case 'view.zoomToFit':
      sessionStore.getState().requestFrameAll();
      zoomTimeToFit();
      break;
    case 'view.maximizeTuning':
      projectLayoutStore.getState().toggleMaximized('tuning');
      break;
    case 'view.maximizeSev':
      projectLayoutStore.getState().toggleMaximized('sev');
      break;
    case 'view.maximizeProject':
      projectLayoutStore.getState().toggleMaximized('project');
      break;
    case 'view.showAllPanels':
      projectLayoutStore.getState().showAllPanels();
      break;
    case 'playback.togglePlay':
      togglePlay();
      break;
    case 'playback.stepForward':
      step(1);
      break;
    case 'playback.stepBack':
      step(-1);
      break;
    case 'playback.firstFrame':
      gotoFrame(0);
      break;
    case 'playback.lastFrame':
      gotoFrame(doc.motion?.frameCount ?? 0);
      break;
    case 'help.about':
      void showAbout();
      break;
  }
}

async function showAbout(): Promise<void> {
  let version = '';
  try {
    version = (await requireApi().getAppInfo()).version;
  } catch {
    /* about still shows without a version */
  }
  await askChoice({
    title: 'About ActGuy',
    text: `ActGuy ${version}: motion-compression tuner for .mtn → .mt3 (MGS2-style pipeline).`,
    buttons: [{ id: 'ok', label: 'OK', primary: true }],
  });
}

/**
 * Keeps main informed of the dirty state (close confirmation, window title): the motion, the SEV and the project
 * together, so closing the window never drops unsaved SEV or project edits silently.
 */
export function reportDocumentStateOnChange(): () => void {
  return reportUnsavedStateOnChange({ reportDocumentState: (r) => (api ? api.reportDocumentState(r) : Promise.resolve()) });
}

/** The Save of Electron's native close question: everything saved, then the window closes (renderer/app/unsaved.ts). */
export function saveAllAndCloseWindow(): Promise<boolean> {
  return saveAllAndClose({ reportDocumentState: (r) => requireApi().reportDocumentState(r) }, () => window.close());
}
