import { useStore } from 'zustand';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { preferencesStore } from '../state/preferencesStore';
import { userKeysOf } from '../state/keyInfo';
import { curveViewRequests } from '../curves/curvePainter';
import { deleteSelectedKeys, toggleKeyAtPlayhead, toggleLockAtPlayhead, toggleTraceAtPlayhead } from '../app/keyEdits';
import { zoomTimeToFit } from '../app/playhead';
import { tuningEditLabels, tuningEditsHere, tuningMenuStore, type TuningMenuPanel } from '../app/tuningMenu';
import { ContextMenu, type ContextMenuEntry } from './ContextMenu';
import {
  CHAIN_GROUPS,
  chainGroupWord,
  JOINT_CHAINS,
  timelineRows,
  type ChainGroup,
  type JointChain,
} from '../timeline/jointFilter';

/**
 * A grouped timeline's chain header: fold or unfold it, fold or unfold them all, show only that chain (the
 * header's filter), and the grouping itself, as an outliner's header menu offers (tried cold, round 17).
 */
function chainEntriesOf(chain: ChainGroup): ContextMenuEntry[] {
  const m = documentStore.getState().motion;
  if (!m) return [];
  const prefs = preferencesStore.getState();
  const filter = sessionStore.getState().timelineFilter;
  const names = m.joints.map((j) => j.name);
  const groups = timelineRows(names, filter, { grouped: true, folded: prefs.timelineFolded }).flatMap((r) =>
    r.kind === 'group' ? [r] : [],
  );
  const here = groups.find((g) => g.group === chain);
  const folded = prefs.timelineFolded.includes(chain);
  const setFolded = (fold: readonly string[]) => preferencesStore.getState().set({ timelineFolded: [...fold] });
  const count = here ? ` (${here.joints.length} joint${here.joints.length === 1 ? '' : 's'})` : '';
  const only = (JOINT_CHAINS as readonly string[]).includes(chain) ? (chain as JointChain) : null;
  return [
    {
      id: 'chain-context-fold',
      label: `${folded ? 'Unfold' : 'Fold'} ${chainGroupWord(chain)}${count}`,
      run: () => setFolded(folded ? prefs.timelineFolded.filter((g) => g !== chain) : [...prefs.timelineFolded, chain]),
    },
    {
      id: 'chain-context-fold-others',
      label: 'Fold the Other Chains',
      disabled: groups.every((g) => g.group === chain || g.folded),
      why: 'The other chains are folded already',
      run: () => setFolded(CHAIN_GROUPS.filter((g) => g !== chain)),
    },
    {
      id: 'chain-context-unfold-all',
      label: 'Unfold All Chains',
      disabled: groups.every((g) => !g.folded),
      why: 'No chain is folded',
      run: () => setFolded([]),
    },
    'separator',
    // The chain filter knows legs, arms and spine: the other joints have no "only" of their own.
    ...(only
      ? [
          {
            id: 'chain-context-only',
            label: `Show Only ${chainGroupWord(chain)}`,
            disabled: filter.chain === only,
            why: `Only the ${only} are shown already`,
            run: () => sessionStore.getState().setTimelineFilter({ ...filter, chain: only }),
          },
        ]
      : []),
    {
      id: 'tuning-context-group',
      label: 'Group Rows by Chain',
      checked: prefs.timelineGrouped,
      run: () => preferencesStore.getState().set({ timelineGrouped: !prefs.timelineGrouped }),
    },
  ];
}

/** The tuning edits at the playhead (the Edit menu's K / L / T, in the words of their undo steps), then the panel's view commands. */
function entriesOf(panel: TuningMenuPanel): ContextMenuEntry[] {
  const here = tuningEditsHere();
  const m = documentStore.getState().motion;
  if (!here || !m) return [];
  const words = tuningEditLabels(here);
  const why = here.why ?? undefined;
  const s = sessionStore.getState();
  const user = new Set(userKeysOf(m, s.selectedJoint));
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
      entries={open.chain ? chainEntriesOf(open.chain) : entriesOf(open.panel)}
      label={
        open.chain
          ? `${chainGroupWord(open.chain)} chain commands`
          : open.panel === 'curves'
            ? 'Curve commands'
            : 'Timeline commands'
      }
      testid="tuning-context-menu"
      onClose={(giveBack) => {
        tuningMenuStore.setState({ open: null });
        if (giveBack) open.back?.focus({ preventScroll: true });
      }}
    />
  );
}
