import { useStore } from 'zustand';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { userKeyFramesOf } from '../curves/series';
import { curveViewRequests } from '../curves/curvePainter';
import { deleteSelectedKeys, toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead } from '../app/keyEdits';
import { zoomTimeToFit } from '../app/playhead';
import { tuningEditLabels, tuningEditsHere, tuningMenuStore, type TuningMenuPanel } from '../app/tuningMenu';
import { ContextMenu, type ContextMenuEntry } from './ContextMenu';

/** The tuning edits at the playhead (the Edit menu's K / L / T, in the words of their undo steps), then the panel's view commands. */
function entriesOf(panel: TuningMenuPanel): ContextMenuEntry[] {
  const here = tuningEditsHere();
  const m = documentStore.getState().motion;
  if (!here || !m) return [];
  const words = tuningEditLabels(here);
  const why = here.why ?? undefined;
  const s = sessionStore.getState();
  const user = new Set(userKeyFramesOf(m, s.selectedJoint));
  const selected = s.selectedKeys.filter((f) => user.has(f)).length;
  const edits: ContextMenuEntry[] = [
    { id: 'tuning-context-key', label: words.key, shortcut: 'K', disabled: !!why, why, run: toggleKeyAtPlayhead },
    {
      id: 'tuning-context-delete-keys',
      label: selected
        ? `Delete ${selected} Selected User Key${selected === 1 ? '' : 's'}`
        : 'Delete Selected User Keys',
      shortcut: 'Delete',
      disabled: !!why || selected === 0,
      why: why ?? 'Select user keys first: click one in the curves, or drag a box around them',
      run: deleteSelectedKeys,
    },
    'separator',
    {
      id: 'tuning-context-lock',
      label: words.lock,
      shortcut: 'L',
      disabled: !!why || here.root,
      why: why ?? 'The root translation cannot be locked: select a joint (its timeline row, or Page Down)',
      run: toggleLockAtPlayhead,
    },
    ...(words.wholeLock && !why
      ? [
          {
            id: 'tuning-context-unlock-range',
            label: words.wholeLock,
            run: () => {
              const lock = here.lock!;
              documentStore.getState().locks.clearRange(s.selectedJoint, lock.first, lock.last);
            },
          },
        ]
      : []),
    { id: 'tuning-context-trace', label: words.trace, shortcut: 'T', disabled: !!why, why, run: toggleTraceAtPlayhead },
    'separator',
  ];
  const prefs = preferencesStore.getState();
  const view: ContextMenuEntry[] =
    panel === 'curves'
      ? [
          {
            id: 'tuning-context-frame-all',
            label: 'Frame All',
            shortcut: 'Home',
            run: () => curveViewRequests.setState((r) => ({ frameAll: r.frameAll + 1 })),
          },
          {
            id: 'tuning-context-frame-selected',
            label: 'Frame Selected Keys',
            shortcut: 'F',
            disabled: selected === 0,
            why: 'Select user keys first: click one in the curves, or drag a box around them',
            run: () => curveViewRequests.setState((r) => ({ frameSelected: r.frameSelected + 1 })),
          },
          {
            id: 'tuning-context-normalize',
            label: 'Normalize Curves',
            shortcut: 'N',
            checked: prefs.curveNormalize,
            run: () => preferencesStore.getState().set({ curveNormalize: !prefs.curveNormalize }),
          },
        ]
      : [
          { id: 'tuning-context-all-frames', label: 'Show All Frames', shortcut: 'A', run: zoomTimeToFit },
          {
            id: 'tuning-context-group',
            label: 'Group Rows by Chain',
            checked: prefs.timelineGrouped,
            run: () => preferencesStore.getState().set({ timelineGrouped: !prefs.timelineGrouped }),
          },
        ];
  return [...edits, ...view];
}

/**
 * The right-click menu of the curve view and the timeline (renderer/app/tuningMenu.ts opens it): the tuning edits at
 * the frame right-clicked, each one undo step named as from the Edit menu, then the panel's view commands. Escape, a
 * command or Tab closes it and gives the keyboard back to the panel.
 */
export function TuningContextMenu() {
  const open = useStore(tuningMenuStore, (t) => t.open);
  if (!open) return null;
  return (
    <ContextMenu
      key={`${open.x},${open.y}`}
      at={open}
      entries={entriesOf(open.panel)}
      label={open.panel === 'curves' ? 'Curve commands' : 'Timeline commands'}
      testid="tuning-context-menu"
      onClose={(giveBack) => {
        tuningMenuStore.setState({ open: null });
        if (giveBack) open.back?.focus({ preventScroll: true });
      }}
    />
  );
}
