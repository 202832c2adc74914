/**
 * Session state: selection, playhead, playback, hover, view ranges, messages.
 * Never undoable, never saved. Vanilla so the viewport's render loop and the
 * canvases read it without React.
 */
import type { JointChain } from '../timeline/jointFilter';
import { createStore } from 'zustand/vanilla';
import type { WorkspaceFile } from '../../shared/ipc/documents';
import { escapeControlsKeepingLines } from '../../shared/errors';
import { normalizePath } from '../../shared/project/paths';
import { documentStore } from './documentStore';
import { sevStore } from '../sev/sevStore';
import { preferencesStore } from './preferencesStore';

/** How the curve view shows the selected joint. */
export type CurveChannel = 'euler' | 'quat' | 'offset';

export type MessageLevel = 'info' | 'warning' | 'error';

/** The motion a message is about: it shows only while the tuner shows that motion (the same document, or its file reopened). */
export interface MessageOwner {
  documentId: string | null;
  /** The motion's file; null for an imported motion not saved yet. */
  path: string | null;
  /** Its name, for the message list. */
  name: string;
}

/**
 * Who a message belongs to: `document`, the motion the tuner shows when the message is raised (a refused lock,
 * a failed save); `app`, nobody in particular (start-up, the project, the audition folder): always shown.
 */
export type MessageScope = 'document' | 'app';

/** A message in the message list (errors from the main process, refused edits). */
export interface AppMessage {
  id: number;
  level: MessageLevel;
  text: string;
  /** The motion it is about, or null for an app-wide message. */
  owner: MessageOwner | null;
  /** An action offered with the message (a refused lock: move it); its button runs it and dismisses the message. */
  action?: MessageAction;
  /** Set on a refused edit's message (a refused lock, a refused SEV edit), so it goes once the user moves on. */
  refusal?: MessageRefusal;
  /** Lines the message stands for (an import's warnings, bounded by its sender), listed under it on "Show all". */
  details?: string[];
}

/**
 * What a refused edit was about. Its message stays until dismissed (✕, Escape) or until the user moves on; never on
 * a timer: it stays as long as it is read.
 * - `lock`: a lock of `joint` on frames first..last. Goes with the next motion edit, undo or redo that succeeds, with
 *   another joint selected, or with the playhead moved from inside those frames to outside them.
 * - `sev`: a SEV edit (move, paste, nudge, copy). Goes with the next SEV edit, undo or redo that succeeds.
 */
export type MessageRefusal = { edit: 'lock'; joint: number; first: number; last: number } | { edit: 'sev' };

export interface MessageAction {
  label: string;
  run: () => void;
}

/** Messages kept, newest last; the oldest go first (those of other motions included). */
export const MESSAGE_LIMIT = 30;

/** Whether `m` shows while the tuner shows document `d`: app messages always, a motion's only over that motion. */
export function messageShownFor(
  m: AppMessage,
  d: { documentId: string | null; path: string | null; motion: unknown },
): boolean {
  if (!m.owner) return true;
  if (!d.motion) return false;
  if (m.owner.documentId !== null && m.owner.documentId === d.documentId) return true;
  return m.owner.path !== null && d.path !== null && normalizePath(m.owner.path) === normalizePath(d.path);
}

/**
 * The action a message offers over document `documentId`, or null. A motion's message also shows over its file
 * reopened (messageShownFor), but its action ran against the motion it was raised on: it is offered only while that
 * same document is open (a refused lock's "Move lock to ..." after Discard changes would move locks unchecked).
 */
export function messageActionFor(m: AppMessage, documentId: string | null): MessageAction | null {
  if (!m.action) return null;
  if (m.owner === null) return m.action;
  return m.owner.documentId !== null && m.owner.documentId === documentId ? m.action : null;
}

/** The in-app file picker (loopback mode has no native dialogs). */
export interface PickerRequest {
  /**
   * 'open' picks an existing file; 'save' picks one or types a new name under `root`; 'folder' chooses a workspace
   * folder (Export All), resolving its absolute path.
   */
  mode: 'open' | 'save' | 'folder';
  title: string;
  /** Extensions accepted, lower case without the dot. */
  extensions: string[];
  /** Suggested file name for 'save'. */
  defaultName: string;
  /** Workspace root (absolute) new names are placed under; null when none. */
  root: string | null;
  files: WorkspaceFile[];
  /**
   * The workspace's folders (WorkspaceListing.folders): the picker goes into them, one at a time, as a system dialog
   * does (an open picker also into the folders its files lie in); without them it lists every file, flat.
   */
  folders?: string[];
  /** The folder it starts in ('' the root; renderer/app/pickerFolders.ts); one not among `folders` is the root. */
  startFolder?: string;
  /** 'folder': the names of the files that will be written into the folder chosen, said before anything is. */
  willWrite?: string[];
  /** 'save', 'folder': makes the folder `name` in `parent` (relative, '' the root) and resolves with its relative path. */
  makeFolder?(parent: string, name: string): Promise<string>;
  /** What the listing left out (WorkspaceListing.incomplete), said under the list. */
  incomplete?: string;
  resolve(path: string | null): void;
  /** 'open' with several files: a click toggles a file, Open resolves them all here, in the order chosen. */
  resolveMany?(paths: string[]): void;
}

/** A pending yes/no/cancel question (unsaved changes). */
export interface ConfirmRequest {
  title: string;
  text: string;
  buttons: { id: string; label: string; primary?: boolean }[];
  /**
   * The buttons other than `cancel` are a list to choose from (an archive's motions, a file's clips: a thousand of
   * them in a stage archive): shown in a scrolling list, with a filter once there are more than a few, so that the
   * question and Cancel stay on screen. The text names the list for the filter's label.
   */
  list?: string;
  resolve(id: string): void;
}

export interface SessionState {
  /** Selected joint; -1 is the root translation channel. */
  selectedJoint: number;
  /** Curve view channel for a selected joint. */
  curveChannel: CurveChannel;
  /** Other joints whose curves the curve view overlays on the selected joint's (Ctrl/Shift+click a timeline label). */
  overlayJoints: number[];
  /** The timeline's joint rows: a name filter and a body chain (renderer/timeline/jointFilter.ts). */
  timelineFilter: { text: string; chain: JointChain | null };
  /** The one curve component (index: X, Y, Z, W) the curve view shows alone, or null for all. */
  soloComponent: number | null;
  /** Playhead in frames (fractional while playing). */
  playhead: number;
  playing: boolean;
  /**
   * Selected user keys in the curve view: frames on the selected joint's channel. Cleared when another joint
   * is selected or a document opens; frames that are no longer user keys (after an undo) are ignored.
   */
  selectedKeys: number[];
  /** Frame under the pointer in the curve view or timeline, or null. */
  hoverFrame: number | null;
  /** Visible frame range of the curve view and timeline (shared time axis). */
  viewStart: number;
  viewEnd: number;
  /** Bumps to ask the viewport to frame everything. */
  frameAllRequest: number;
  messages: AppMessage[];
  picker: PickerRequest | null;
  confirm: ConfirmRequest | null;
  /** A file operation is in flight (open/save/export): shown in the status bar. */
  busy: string | null;

  select(joint: number): void;
  selectKeys(frames: readonly number[]): void;
  setCurveChannel(c: CurveChannel): void;
  /** Adds a joint to the curve overlay, or takes it out (the selected joint and the root translation never join it). */
  toggleOverlayJoint(joint: number): void;
  clearOverlay(): void;
  /** Solos a curve component, or shows all again when it is the one soloed. */
  toggleSolo(component: number): void;
  setPlayhead(frame: number): void;
  setPlaying(on: boolean): void;
  setHover(frame: number | null): void;
  setTimelineFilter(filter: { text: string; chain: JointChain | null }): void;
  setView(start: number, end: number): void;
  requestFrameAll(): void;
  /**
   * Adds a message; returns its id. By default it belongs to the motion the tuner shows now (it is hidden while
   * another motion is shown); `app` messages show over every motion. Info messages time out in the UI.
   */
  notify(level: MessageLevel, text: string, scope?: MessageScope, action?: MessageAction): number;
  /** Adds one message that stands for several lines (renderer/app/warningGroup.ts); returns its id. */
  notifyGroup(level: MessageLevel, group: { text: string; details: string[] }, scope?: MessageScope): number;
  /** Adds a refused edit's warning about the motion shown (see MessageRefusal for when it goes); returns its id. */
  refuse(text: string, refusal: MessageRefusal, action?: MessageAction): number;
  dismiss(id: number): void;
  /** Dismisses every message in `ids` (the list's "Dismiss all": the messages shown). */
  dismissMany(ids: readonly number[]): void;
  setPicker(p: PickerRequest | null): void;
  setConfirm(c: ConfirmRequest | null): void;
  setBusy(what: string | null): void;
  /** Resets per-document state when a document is opened. */
  resetForDocument(frameCount: number): void;
}

let nextMessageId = 1;

/** Whether a refusal message `m` is about the document open now (the same document, not its file reopened). */
function refusalOfOpenDocument(m: AppMessage): m is AppMessage & { refusal: MessageRefusal } {
  return m.refusal !== undefined && m.owner !== null && m.owner.documentId === documentStore.getState().documentId;
}

/** `messages` without the open document's refusal messages that `stale` says no longer apply (the same array if none). */
function withoutStaleRefusals(messages: AppMessage[], stale: (r: MessageRefusal) => boolean): AppMessage[] {
  const kept = messages.filter((m) => !(refusalOfOpenDocument(m) && stale(m.refusal)));
  return kept.length === messages.length ? messages : kept;
}

export function createSessionStore() {
  const store = createStore<SessionState>()((set, get) => ({
    selectedJoint: 0,
    // The curve view's channel and the timeline's chain are view choices: kept across restarts as preferences.
    curveChannel: preferencesStore.getState().curveChannel,
    overlayJoints: [],
    timelineFilter: { text: '', chain: preferencesStore.getState().timelineChain },
    soloComponent: null,
    playhead: 0,
    playing: false,
    selectedKeys: [],
    hoverFrame: null,
    viewStart: 0,
    viewEnd: 1,
    frameAllRequest: 0,
    messages: [],
    picker: null,
    confirm: null,
    busy: null,

    select(joint) {
      if (joint !== get().selectedJoint)
        set({
          selectedJoint: joint,
          selectedKeys: [],
          overlayJoints: get().overlayJoints.filter((j) => j !== joint),
          messages: withoutStaleRefusals(get().messages, (r) => r.edit === 'lock' && r.joint !== joint),
        });
    },
    selectKeys(frames) {
      set({ selectedKeys: [...new Set(frames)].sort((a, b) => a - b) });
    },
    setCurveChannel(c) {
      // X, Y, Z of one channel are not those of another (quaternions have four): show all again.
      if (c !== get().curveChannel) set({ curveChannel: c, soloComponent: null });
      preferencesStore.getState().set({ curveChannel: c });
    },
    toggleOverlayJoint(joint) {
      const { overlayJoints, selectedJoint } = get();
      if (joint < 0 || joint === selectedJoint) return;
      set({
        overlayJoints: overlayJoints.includes(joint)
          ? overlayJoints.filter((j) => j !== joint)
          : [...overlayJoints, joint],
      });
    },
    clearOverlay() {
      if (get().overlayJoints.length) set({ overlayJoints: [] });
    },
    toggleSolo(component) {
      set({ soloComponent: get().soloComponent === component ? null : component });
    },
    setPlayhead(frame) {
      if (!Number.isFinite(frame)) return;
      const [from, to] = [Math.round(get().playhead), Math.round(frame)];
      const off = (r: MessageRefusal) =>
        r.edit === 'lock' && from >= r.first && from <= r.last && (to < r.first || to > r.last);
      set({ playhead: frame, messages: to === from ? get().messages : withoutStaleRefusals(get().messages, off) });
    },
    setPlaying(on) {
      set({ playing: on });
    },
    setTimelineFilter(filter) {
      set({ timelineFilter: filter });
      if (filter.chain !== preferencesStore.getState().timelineChain)
        preferencesStore.getState().set({ timelineChain: filter.chain });
    },
    setHover(frame) {
      if (get().hoverFrame !== frame) set({ hoverFrame: frame });
    },
    setView(start, end) {
      if (end - start < 1e-3 || !Number.isFinite(start) || !Number.isFinite(end)) return;
      set({ viewStart: start, viewEnd: end });
    },
    requestFrameAll() {
      set({ frameAllRequest: get().frameAllRequest + 1 });
    },
    notify(level, text, scope = 'document', action) {
      const id = nextMessageId++;
      const d = documentStore.getState();
      const owner = scope === 'document' && d.motion ? { documentId: d.documentId, path: d.path, name: d.name } : null;
      set({
        messages: [
          ...get().messages,
          { id, level, text: escapeControlsKeepingLines(text), owner, ...(action ? { action } : {}) },
        ].slice(-MESSAGE_LIMIT),
      });
      return id;
    },
    notifyGroup(level, group, scope = 'document') {
      const id = get().notify(level, group.text, scope);
      if (group.details.length > 0)
        set({
          messages: get().messages.map((m) =>
            m.id === id ? { ...m, details: group.details.map(escapeControlsKeepingLines) } : m,
          ),
        });
      return id;
    },
    refuse(text, refusal, action) {
      const id = get().notify('warning', text, 'document', action);
      set({ messages: get().messages.map((m) => (m.id === id ? { ...m, refusal: { ...refusal } } : m)) });
      return id;
    },
    dismiss(id) {
      set({ messages: get().messages.filter((m) => m.id !== id) });
    },
    dismissMany(ids) {
      const gone = new Set(ids);
      set({ messages: get().messages.filter((m) => !gone.has(m.id)) });
    },
    setPicker(p) {
      set({ picker: p });
    },
    setConfirm(c) {
      set({ confirm: c });
    },
    setBusy(what) {
      set({ busy: what });
    },
    resetForDocument(frameCount) {
      set({
        playhead: 0,
        playing: false,
        hoverFrame: null,
        selectedKeys: [],
        overlayJoints: [],
        soloComponent: null,
        viewStart: 0,
        viewEnd: Math.max(1, frameCount),
      });
    },
  }));
  const drop = (edit: MessageRefusal['edit']) => {
    const { messages } = store.getState();
    const kept = withoutStaleRefusals(messages, (r) => r.edit === edit);
    if (kept !== messages) store.setState({ messages: kept });
  };
  // An edit, undo or redo that succeeds in the motion a refusal was about: the user has moved on from it.
  documentStore.subscribe((d, before) => {
    // A motion closed (File › Close, Discard of an unsaved capture) leaves no frame to stand on: the frame field read
    // "50 / 0" with nothing open (tried cold, round 6).
    if (d.motion === null && before.motion !== null) store.getState().resetForDocument(0);
    if (d.documentId === null || d.documentId !== before.documentId) return;
    if (d.past !== before.past || d.future !== before.future) drop('lock');
  });
  // The same in the .sev open beside it (the same file: not a .sev loaded or closed).
  sevStore.subscribe(({ file }, { file: was }) => {
    if (!file || !was || file.path !== was.path) return;
    if (file.past !== was.past || file.future !== was.future) drop('sev');
  });
  return store;
}

export const sessionStore = createSessionStore();
