/**
 * Edits at the playhead and key navigation (keyboard K / L / T, Up / Down, Delete, PageUp / PageDown): one undo
 * step each, on the selected joint.
 */
import { KeyFlag } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { compressionStore } from '../state/compressionStore';
import { findChannel } from '../curves/series';
import { userKeysOf } from '../state/keyInfo';
import { playheadFrame, revealChannelFrame } from './playhead';
import { panelStates, projectLayoutStore } from '../project/layout';

/**
 * Whether the tuning edits at the playhead (user key, lock, trace key) are offered: not in a work mode that hides
 * the tuning panel (sound events, project), where K / L / T would change keys the user cannot see. The Edit menu
 * greys them with TUNING_EDITS_HIDDEN_REASON and the keys say why in the message bar instead.
 */
export function tuningEditsShown(): boolean {
  return panelStates(projectLayoutStore.getState()).tuning !== 'hidden';
}
export const TUNING_EDITS_HIDDEN_REASON =
  'This work mode hides the tuning panel: View › Maximize Tuning or Show All Panels offers these edits';

/** What K / L / T say where the work mode hides the tuning panel (they did nothing, silently: tried cold, round 6). */
export function tuningEditHiddenMessage(key: 'K' | 'L' | 'T'): string {
  const what = key === 'K' ? 'a user key' : key === 'L' ? 'a lock' : 'a trace key';
  return (
    `${key} toggles ${what} at the playhead in the tuning panel, which this work mode hides: ` +
    'View › Maximize Tuning (Ctrl+1) or Show All Panels brings it back.'
  );
}

/**
 * Whether the tuning edit of `key` can be made on the open motion now. Where the work mode hides the tuning panel
 * (the Edit menu greys the edit there) the key says why in the message bar, once while that message is up.
 */
function tuningEditAllowed(key: 'K' | 'L' | 'T'): boolean {
  const doc = documentStore.getState();
  if (!doc.motion || doc.readOnly) return false;
  if (tuningEditsShown()) return true;
  const session = sessionStore.getState();
  const text = tuningEditHiddenMessage(key);
  if (!session.messages.some((m) => m.text === text)) session.notify('info', text);
  return false;
}

export function toggleKeyAtPlayhead(): void {
  if (!tuningEditAllowed('K')) return;
  const doc = documentStore.getState();
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
  return [...new Set([...(report?.keyFrames ?? []), ...userKeysOf(m, joint)])].sort((a, b) => a - b);
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

/**
 * What Delete says on the page where the work mode hides the curves: it removed the user keys still selected there,
 * unseen, while the designer meant the event just added (tried cold, round 21).
 */
export const DELETE_KEYS_HIDDEN_MESSAGE =
  'Delete removes the user keys selected in the curve view, which this work mode hides: nothing was deleted. ' +
  'To delete events, click one in the event row or list first; View › Maximize Tuning (Ctrl+1) shows the curves.';

/** Delete: removes the user keys selected in the curve view (one undo step), only where the curves are shown. */
export function deleteSelectedKeys(): void {
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m || doc.readOnly) return;
  const s = sessionStore.getState();
  const user = new Set(userKeysOf(m, s.selectedJoint));
  const frames = s.selectedKeys.filter((f) => user.has(f));
  if (frames.length === 0) return;
  if (!tuningEditsShown()) {
    if (!s.messages.some((msg) => msg.text === DELETE_KEYS_HIDDEN_MESSAGE))
      s.notify('info', DELETE_KEYS_HIDDEN_MESSAGE);
    return;
  }
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
  if (!tuningEditAllowed('L')) return;
  const doc = documentStore.getState();
  const m = doc.motion;
  if (!m) return;
  const joint = sessionStore.getState().selectedJoint;
  const f = playheadFrame();
  if (joint >= 0 && m.jointKeyInfo[(f * m.joints.length + joint) * 4] & KeyFlag.LOCK) {
    doc.locks.clearRange(joint, f, f);
    return;
  }
  const r = doc.locks.setRange(joint, f, f);
  if (!r.ok) sessionStore.getState().refuse(r.message, { edit: 'lock', joint, first: f, last: f }, r.fix);
}

export function toggleTraceAtPlayhead(): void {
  if (!tuningEditAllowed('T')) return;
  const doc = documentStore.getState();
  doc.trace.toggle(playheadFrame());
}
