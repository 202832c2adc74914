import { escapeControls, escapeControlsKeepingLines } from '../../shared/errors';
import { basenameOf } from '../../shared/project/paths';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useDocument, useSession, useMotionShape, type MotionShape } from '../state/hooks';
import { sessionStore } from '../state/sessionStore';
import { documentStore } from '../state/documentStore';
import { useAudition, useProject, useSev } from './hooks';
import { isSevDirty, sevStore, type SevFileState } from './sevStore';
import { auditionStore, clearAuditionCache, startAudition } from './audition';
import { events, footsteps, ses } from './sevActions';
import { FootstepPanel } from './FootstepPanel';
import { FLOOR_NAMES } from './resolve';
import { useShownSevProblems } from './sevProblems';
import { EventTrack } from './EventTrack';
import { EventList } from './EventList';
import { EventContextMenu } from './EventContextMenu';
import { SeTable, SeTablesMissing } from './SeTable';
import { SevBody } from './SevBody';
import { SePicker } from './SePicker';
import { BrokenSevView } from './BrokenSevView';
import { SevTextWarnings } from './SevTextWarnings';
import { useSevTextWarnings } from './useSevTextWarnings';
import { NoteField } from './NoteField';
import { chooseSoundFolder } from '../project/auditionSounds';
import { saveProject, saveProjectAndSev } from '../project/projectFiles';
import { saveSev } from './sevFiles';
import { confirmUnsaved } from '../app/unsaved';
import { isTypingTarget } from '../app/commands';
import { createSevForTuner, followTuner, installSevFollower, openSevDialog, openSevMotion } from './sevMotion';
import { sevBelongsTo } from './sevBinding';
import { NO_SE_DEFINED_YET, addEventTitle, addJointLabel, addJointOf, seLabel } from './sevLabels';
import { isProjectDirty, projectStore, soundPathOf } from '../project/projectStore';
import { seColor } from './colors';
import type { SevDocument } from '../../shared/sev/types';
import './sev.css';

/** Why the sound-folder button is disabled outside a project (docs/sound-events.md). */
const SOUND_FOLDER_NEEDS_PROJECT =
  'Outside a project the sounds/ folder beside the motion is used: open a project (File › Open Project…) to choose another';

/** The SEV editor of the current motion: toolbar, the event row under the timeline, the event list and the SE definitions. */
export function SevEditor() {
  const file = useSev((s) => s.file);
  const floor = useSev((s) => s.floor);
  const projectPath = useProject((p) => p.path);
  const soundFolder = useProject((p) => p.soundFolder);
  const soundCount = useProject((p) => Object.keys(p.sounds).length);
  const audition = useAudition((a) => a.enabled);
  const lastPlayed = useAudition((a) => a.lastPlayed[a.lastPlayed.length - 1] ?? null);
  // Whether the last SE played has a sound now (a folder loaded since, a project opened): not when it was played.
  const lastMissing = useProject((p) => (lastPlayed ? soundPathOf(p.sounds, lastPlayed.name) === null : false));
  const started = useAudition((a) => a.started);
  const motion = useMotionShape();
  const motionName = useDocument((d) => d.name);
  const unreadable = useSev((s) => s.unreadable);
  const documentId = useDocument((d) => d.documentId);
  const motionPath = useDocument((d) => d.path);
  const textWarnings = useSevTextWarnings();

  useEffect(() => startAudition(), []);
  // The editor follows the tuner's motion (its .sev, or none); see ./sevMotion.ts.
  useEffect(() => {
    const stop = installSevFollower();
    void followTuner(); // the motion opened at start-up brings its .sev too
    return stop;
  }, []);

  // Joint picking: while armed, the next joint selection (viewport, curve view, timeline labels) becomes the event's joint.
  useEffect(
    () =>
      sessionStore.subscribe((s, prev) => {
        const sev = sevStore.getState();
        if (!sev.pickingJoint || s.selectedJoint === prev.selectedJoint || sev.selectedEvent === null) return;
        events.setJoint(sev.selectedEvent, s.selectedJoint >= 0 ? s.selectedJoint : null);
        sevStore.getState().setPickingJoint(false);
      }),
    [],
  );

  // Ctrl+S here; the event keys (copy, paste, Delete, nudge) are in renderer/app/shortcuts.ts.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Ctrl+S saves the motion (the tuner's shortcut) and, with it, the open SEV and the project when they changed.
      if (sessionStore.getState().confirm || sessionStore.getState().picker) return;
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 's') {
        // Only the .sev of the motion being saved: a parked .sev of another motion is saved with its own button.
        const file = sevStore.getState().file;
        const own = sevBelongsTo(file, documentStore.getState());
        if ((own && isSevDirty(file)) || isProjectDirty(projectStore.getState()))
          void (own ? saveProjectAndSev() : saveProjectOnly());
        return;
      }
      // A field's Escape is the field's (a frame typed reverts, a picker's filter closes): it cancelled the pick too,
      // armed for the event being typed in (docs/architecture.md, "Renderer review, round 10").
      if (e.key === 'Escape' && sevStore.getState().pickingJoint && !isTypingTarget(e.target)) {
        // This Escape cancels the picking only (a refused edit's message keeps its own Escape).
        e.preventDefault();
        sevStore.getState().setPickingJoint(false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const belongs = sevBelongsTo(file, { documentId, path: motionPath, motion });
  // Another motion's .sev is never shown against this skeleton: its events stay hidden until its motion is back.
  const doc = belongs ? (file?.doc ?? null) : null;
  const dirty = isSevDirty(file);
  // The same count the project panel's Build button takes until a check lists this file.
  const { unknown, outside } = useShownSevProblems();

  return (
    <section className="panel sev-panel" aria-label="Sound events" data-testid="sev-editor">
      <div className="panel-header">
        <span className="panel-title">Sound events</span>
        {file ? (
          <span className="sev-file" title={escapeControls(file.path)} data-testid="sev-file">
            {escapeControls(basenameOf(file.path))}
            {file.isNew && <span className="dim"> (new)</span>}
            {file.outsideProject && (
              <span
                className="dim"
                data-testid="sev-outside"
                title={`The project names a file outside its own folder: ${escapeControls(file.path)}. Saving writes there.`}
              >
                {' '}
                (outside the project)
              </span>
            )}
            <span className={dirty ? 'dirty on' : 'dirty'} data-testid="sev-dirty">
              {dirty ? ' ● modified' : ''}
            </span>
          </span>
        ) : (
          <span className="dim">
            {motion
              ? 'no .sev'
              : projectPath
                ? 'Select a motion in the project panel.'
                : 'Open a motion, a project, or a .sev (File › Open .sev…).'}
          </span>
        )}
        <button
          type="button"
          className="tool"
          disabled={!dirty || !doc}
          onClick={() => void saveSev()}
          data-testid="sev-save"
          title={saveSevTitle(file, dirty, !!doc)}
        >
          Save SEV
        </button>
        <span className="sev-sep" />
        <span className="dim">Floor</span>
        <div className="segmented" role="tablist" aria-label="Floor attribute" data-testid="sev-floor">
          {FLOOR_NAMES.map((n, k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={floor === k}
              title={`floor attribute ${k}: ${n}`}
              data-testid={`sev-floor-${k}`}
              onClick={() => sevStore.getState().setFloor(k)}
            >
              {k}
            </button>
          ))}
        </div>
        <span className="dim small" data-testid="sev-floor-name">
          {FLOOR_NAMES[floor]}
        </span>
        <span className="sev-sep" />
        <label className="check" title="Play each event's SE at its frame during playback">
          <input
            type="checkbox"
            checked={audition}
            data-testid="sev-audition"
            onChange={(e) => auditionStore.getState().setEnabled(e.target.checked)}
          />
          Audition
        </label>
        <button
          type="button"
          className="tool"
          disabled={!projectPath}
          data-testid="sev-sound-folder"
          title={
            (soundFolder
              ? `${soundFolder}: ${soundCount} sounds named by SE name`
              : 'Choose the folder of sounds named by SE name (pick any sound in it)') +
            // Disabled, it said only what it holds: a cold user could not tell why it did not click.
            (projectPath ? '' : `. ${SOUND_FOLDER_NEEDS_PROJECT}`)
          }
          onClick={() => void chooseSoundFolder().then(clearAuditionCache)}
        >
          {soundFolder ? `Sounds: ${soundCount}` : 'Sounds…'}
        </button>
        {lastPlayed && (
          <span
            className={`small sev-last-played ${lastMissing ? 'bad' : 'dim'}`}
            data-testid="sev-last-played"
            data-missing={lastMissing}
            data-started={started}
            title={
              lastMissing
                ? `${lastPlayed.name}: no sound file with this SE name in the audition folder`
                : `${lastPlayed.name}: played`
            }
          >
            ♪ {lastPlayed.name}
            {lastMissing ? ' (no sound)' : ''}
          </span>
        )}
      </div>
      {file && !belongs && (
        <div className="sev-mismatch" data-testid="sev-mismatch" role="status">
          <span>
            The tuner shows {motion ? <b>{escapeControls(motionName)}</b> : 'no motion'};{' '}
            <b>{escapeControls(basenameOf(file.path))}</b> holds the sound events of{' '}
            <b>{escapeControls(file.motionName)}</b>
            {dirty ? ' and has unsaved edits' : ''}, so they are hidden here (they would land on another skeleton's
            joints and frames).
          </span>
          <button
            type="button"
            className="tool small"
            data-testid="sev-open-motion"
            onClick={() => void openSevMotion()}
          >
            Open {escapeControls(file.motionName)}
          </button>
          {dirty && file.doc && (
            <button type="button" className="tool small" data-testid="sev-save-parked" onClick={() => void saveSev()}>
              Save {escapeControls(basenameOf(file.path))}
            </button>
          )}
          {dirty && (
            <button
              type="button"
              className="tool small"
              data-testid="sev-discard-parked"
              onClick={() => void discardParked()}
            >
              Discard its edits
            </button>
          )}
        </div>
      )}
      {!file && motion && unreadable && (
        <div className="sev-none" data-testid="sev-unreadable">
          <span>
            <b>{escapeControls(basenameOf(unreadable.path))}</b> is there but cannot be read, so its events are not
            shown and nothing will be written over it. Fix it in a text editor or move it aside, then choose the motion
            again.
            <span className="dim"> Details: {escapeControlsKeepingLines(unreadable.reason)}</span>
          </span>
          <button type="button" className="tool" data-testid="sev-open" onClick={() => void openSevDialog()}>
            Open .sev…
          </button>
        </div>
      )}
      {!file && motion && !unreadable && (
        <div className="sev-none" data-testid="sev-none">
          <span>
            <b>{escapeControls(motionName)}</b> has no .sev.
          </span>
          <button type="button" className="tool" data-testid="sev-create" onClick={() => void createSevForTuner()}>
            Create {escapeControls(motionName)}.sev
          </button>
          <button type="button" className="tool" data-testid="sev-open" onClick={() => void openSevDialog()}>
            Open .sev…
          </button>
        </div>
      )}
      {file && belongs && !file.doc && <BrokenSevView />}
      {doc && (
        <>
          <SevToolbar doc={doc} motion={motion}>
            {(unknown.length > 0 || outside.length > 0) && (
              <span
                className="sev-issues bad"
                data-testid="sev-issues"
                title={escapeControlsKeepingLines(
                  [...unknown.map((u) => `se ${u.index}: ${u.error}`), ...outside.map((e) => e.message)].join('\n'),
                )}
              >
                {unknown.length + outside.length} problem{unknown.length + outside.length === 1 ? '' : 's'} — the build
                will refuse this SEV
              </span>
            )}
          </SevToolbar>
          <SevTextWarnings warnings={textWarnings} />
          <FootstepPanel />
          <EventTrack />
          <SevBody list={<EventList />} table={<SeTable />} tableFoot={<SeTablesMissing />} />
          <EventContextMenu />
        </>
      )}
    </section>
  );
}

/**
 * The editor's toolbar. What in it shows the selection reads it itself (the SE and joint the add uses, the selection's
 * count or the current event's note, the pick's status, Paste), so a click on an event renders those and not the
 * editor, its body, its track's host and its checks of the .sev (docs/architecture.md, "Renderer review, round 12").
 * `children`: the problems' badge, from the editor's checks.
 */
function SevToolbar({ doc, motion, children }: { doc: SevDocument; motion: MotionShape | null; children: ReactNode }) {
  return (
    <div className="sev-toolbar">
      <AddControls doc={doc} motion={motion} />
      <SelectionOrNote />
      <PasteButton />
      <PickingStatus />
      <button
        type="button"
        className="tool"
        data-testid="sev-suggest-footsteps"
        disabled={!motion}
        onClick={() => footsteps.suggest()}
        title="Find the foot contacts in this motion and propose SE_FOOT_L / SE_FOOT_R events on them"
      >
        Suggest footsteps
      </button>
      <span className="spacer" />
      <button
        type="button"
        className="tool"
        onClick={ses.add}
        data-testid="sev-add-se-def"
        title="Define an SE at the next free index"
      >
        + Add SE
      </button>
      {children}
    </div>
  );
}

/** "+ Add event at playhead", the SE it puts down and the joint: they follow the selected SE and joint. */
function AddControls({ doc, motion }: { doc: SevDocument; motion: MotionShape | null }) {
  const selectedSe = useSev((s) => s.selectedSe);
  const selectedJoint = useSession((s) => s.selectedJoint);
  const defs = useMemo(() => doc.ses.slice().sort((a, b) => a.index - b.index), [doc.ses]);
  // The joint M and "+ Add event at playhead" will use: the SE's last joint, else the selection (addJointOf).
  const addAt = addJointOf(doc, selectedSe, selectedJoint, motion?.joints.length ?? 0);
  const addJoint = addAt?.joint ?? null;
  const jointLabel = addJoint !== null ? `${addJoint} ${motion?.joints[addJoint]?.name ?? ''}` : 'no joint';
  return (
    <>
      <AddAtPlayhead
        disabled={!motion || !defs.length}
        frameCount={motion?.frameCount ?? 65535}
        what={
          defs.length ? (doc.ses.some((d) => d.index === selectedSe) ? seLabel(doc, selectedSe) : 'an event') : null
        }
        joint={addJointLabel(addJoint, addJoint === null ? undefined : motion?.joints[addJoint]?.name)}
        fromSe={addAt?.fromSe}
      />
      <span className="dim sev-add-se-field">
        SE{' '}
        <SePicker
          defs={defs}
          value={selectedSe}
          label="SE to add"
          testId="sev-add-se"
          onPick={(se) => sevStore.getState().selectSe(se)}
        />
        <span className="sev-swatch" style={{ background: seColor(selectedSe), marginLeft: 4 }} />
      </span>
      <span
        className="dim"
        title={
          addAt?.fromSe
            ? "The joint of this SE's last event: M puts the next one there too (change a row's Joint for another)"
            : 'Select a joint in the viewport, curve view or timeline'
        }
      >
        joint <b data-testid="sev-add-joint">{jointLabel}</b>
        {addAt?.fromSe && <span data-testid="sev-add-joint-from-se"> as before</span>}
      </span>
    </>
  );
}

/** Several events selected: their count and what to do with them; else the current event's note. */
function SelectionOrNote() {
  const selectionCount = useSev((s) => s.selectedEvents.length);
  return selectionCount > 1 ? (
    <span
      className="sev-selection"
      data-testid="sev-selection"
      title="Ctrl+C copy · Ctrl+X cut · Delete remove · Alt+←/→ nudge by a frame · drag one of them to move them all"
    >
      {selectionCount} events selected
    </span>
  ) : (
    <NoteField />
  );
}

function PasteButton() {
  const clipboard = useSev((s) => s.clipboard);
  if (!clipboard) return null;
  return (
    <button
      type="button"
      className="tool"
      data-testid="sev-paste"
      onClick={() => void events.pasteAtPlayhead()}
      title={`Paste the ${clipboard.events.length} copied event${clipboard.events.length === 1 ? '' : 's'} of ${escapeControls(clipboard.sourceMotion)} with the first at the playhead (Ctrl+V in the event list or row); joints are found by name`}
    >
      Paste {clipboard.events.length}
    </button>
  );
}

/**
 * What an armed pick waits for, and how to stop it. A live region there before the pick is armed, so that a screen
 * reader says it when it appears (it was a plain span: the pick button's pressed state was said, not what to do next
 * nor Esc); out of the toolbar's flow while empty (sev.css).
 */
function PickingStatus() {
  const picking = useSev((s) => s.pickingJoint);
  const selectedEvent = useSev((s) => s.selectedEvent);
  return (
    <span role="status" className="sev-picking-status" data-testid="sev-picking-status">
      {picking && selectedEvent !== null && (
        <span className="sev-picking" data-testid="sev-picking">
          Pick a joint for event {selectedEvent}… (Esc: stop)
        </span>
      )}
    </span>
  );
}

/**
 * "+ Add event at playhead" and the frame beside it: the one part of the editor that shows the playhead, so it
 * alone re-renders as the playhead moves, not the editor with its event list, SE table and event row (which
 * re-rendered at every frame of playback; docs/architecture.md, "Renderer review, round 3").
 */
function AddAtPlayhead(props: {
  disabled: boolean;
  frameCount: number;
  /** The SE the add puts down ("an event" when none is picked); null: no SE is defined yet. */
  what: string | null;
  joint: string;
  fromSe: boolean | undefined;
}) {
  const frame = useSession((s) => Math.round(s.playhead));
  return (
    <>
      <button
        type="button"
        className="tool"
        data-testid="sev-add-event"
        disabled={props.disabled}
        onClick={events.addAtPlayhead}
        title={
          props.what !== null
            ? addEventTitle(props.what, Math.max(0, Math.min(props.frameCount, frame)), props.joint, props.fromSe)
            : NO_SE_DEFINED_YET
        }
      >
        + Add event at playhead
      </button>
      <span className="dim">
        frame <b data-testid="sev-playhead">{frame}</b>
      </span>
    </>
  );
}

/** What the header's Save SEV does, or why it is greyed (a greyed button with no reason read as broken). */
function saveSevTitle(file: SevFileState | null, dirty: boolean, shown: boolean): string {
  if (!file) return 'No .sev is open';
  const name = escapeControls(basenameOf(file.path));
  if (!dirty) return `${name} has no unsaved changes`;
  if (!shown)
    return file.doc
      ? `${name} holds ${escapeControls(file.motionName)}'s events, hidden while the tuner shows another motion: save it with "Save ${name}" above the list, or open ${escapeControls(file.motionName)}`
      : `${name} does not read: fix its text first`;
  return 'Write the .sev (your comments are kept)';
}

/** Saves the project alone (Ctrl+S while the tuner shows a motion the open .sev does not belong to). */
async function saveProjectOnly(): Promise<void> {
  if (isProjectDirty(projectStore.getState())) await saveProject();
}

/** Drops the parked .sev's edits (after asking) and shows the tuner motion's own .sev. */
async function discardParked(): Promise<void> {
  if (!sevStore.getState().file) return;
  if (!(await confirmUnsaved(`show ${documentStore.getState().name}'s sound events instead`, ['sev']))) return;
  sevStore.getState().close();
  await followTuner();
}
