import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import type { JointInfo } from '../../shared/motion/types';
import { jointTreeRows, treeKeyTarget } from './jointTree';
import { usePickerPopup } from './usePickerPopup';

/** A choice listed before the skeleton (the root translation, "none"). */
export interface PickerExtra {
  value: number;
  label: string;
}

/** Folded subtrees per skeleton (its joint names), kept while the app runs, so a picker opens as it was left. */
const foldedBySkeleton = new Map<string, Set<number>>();

/**
 * A joint picker like an outliner: the button shows the chosen joint; it opens the skeleton as a tree (each
 * joint under its parent, subtrees fold) with a filter box. Keys: type to filter, ↑/↓ move, → unfolds,
 * ← folds (or goes to the parent), Enter picks, Escape closes.
 */
export function JointTreePicker(props: {
  joints: readonly JointInfo[] | undefined;
  value: number;
  extras: readonly PickerExtra[];
  onPick: (value: number) => void;
  label: string;
  testId: string;
  disabled?: boolean;
  className?: string;
  /** Marks the value as wrong (red), e.g. a joint the motion lacks. */
  bad?: boolean;
  /** Shown for a value that is neither an extra nor a joint (a joint the motion lacks). */
  missingLabel?: (value: number) => string;
}) {
  const { joints, value, extras } = props;
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const { open, button, pop, list, place, show, close } = usePickerPopup(active);
  const skeletonKey = joints?.map((j) => j.name).join('/') ?? '';
  const [folded, setFolded] = useState<Set<number>>(() => foldedBySkeleton.get(skeletonKey) ?? new Set());
  useEffect(() => setFolded(foldedBySkeleton.get(skeletonKey) ?? new Set()), [skeletonKey]);
  const parents = useMemo(() => joints?.map((j) => j.parent) ?? [], [joints]);
  const names = useMemo(() => joints?.map((j) => j.name) ?? [], [joints]);
  const rows = useMemo(() => jointTreeRows(parents, names, folded, filter), [parents, names, folded, filter]);
  // Extras first (hidden while filtering), then the tree.
  const shownExtras = filter.trim() ? [] : extras;
  const items = [
    ...shownExtras.map((e) => ({ value: e.value, row: null })),
    ...rows.map((r) => ({ value: r.joint, row: r })),
  ];

  const labelOf = (v: number): string => {
    const extra = extras.find((e) => e.value === v);
    if (extra) return extra.label;
    const j = joints?.[v];
    return j ? `${v} ${j.name}` : (props.missingLabel?.(v) ?? `joint ${v}`);
  };

  const setFold = (joint: number, fold: boolean) => {
    const next = new Set(folded);
    if (fold) next.add(joint);
    else next.delete(joint);
    foldedBySkeleton.set(skeletonKey, next);
    setFolded(next);
  };

  const openPicker = () => {
    if (props.disabled) return;
    setFilter('');
    show();
  };
  const pick = (v: number, fromKeyboard = false) => {
    close(fromKeyboard);
    props.onPick(v);
    // A click hands the keyboard back to the app (K / L / T act on the joint just chosen). Enter leaves it on the
    // button, where the keyboard was before the list opened (they act there too): blurred, it went to the page's
    // start, far from the next event row's joint (tried cold, round 5).
    if (!fromKeyboard) button.current?.blur();
  };

  // Opening (or filtering) makes the chosen joint, or the first match, the active row.
  useLayoutEffect(() => {
    if (!open) return;
    const firstMatch = items.findIndex((it) => it.row?.match);
    const chosen = items.findIndex((it) => it.value === value);
    setActive(filter.trim() ? Math.max(0, firstMatch) : Math.max(0, chosen));
  }, [open, filter]);

  const onKey = (e: React.KeyboardEvent) => {
    const it = items[active];
    if (e.key === 'Escape') close(true);
    else if (e.key === 'Enter') {
      if (it) pick(it.value, true);
    } else if (e.key === 'ArrowRight' && it?.row) {
      if (it.row.hasChildren && !it.row.open && !filter.trim()) setFold(it.row.joint, false);
      else if (it.row.open) setActive(Math.min(items.length - 1, active + 1));
      else return;
    } else if (e.key === 'ArrowLeft' && it?.row) {
      if (it.row.open && !filter.trim()) setFold(it.row.joint, true);
      else setActive(shownExtras.length + treeKeyTarget(rows, parents, active - shownExtras.length, 'ArrowLeft'));
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      setActive(Math.max(0, Math.min(items.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1))));
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <span className={`joint-picker ${props.className ?? ''}`}>
      <button
        ref={button}
        type="button"
        className={`joint-picker-button${props.bad ? ' bad' : ''}`}
        aria-label={props.label}
        aria-haspopup="tree"
        aria-expanded={open}
        data-testid={props.testId}
        data-value={value}
        disabled={props.disabled || !joints}
        title={`${props.label}: ${labelOf(value)} (click or ↓ to pick from the skeleton)`}
        onClick={() => (open ? close(false) : openPicker())}
        onKeyDown={(e) => {
          if (!open && (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ')) {
            e.preventDefault();
            e.stopPropagation();
            openPicker();
          }
        }}
      >
        <span className="joint-picker-value">{labelOf(value)}</span>
        <span className="joint-picker-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div
          ref={pop}
          className="joint-picker-pop"
          data-testid={`${props.testId}-tree`}
          onKeyDown={onKey}
          style={{ left: place.left, top: place.top, bottom: place.bottom, maxHeight: place.maxHeight }}
        >
          <input
            type="search"
            autoFocus
            className="joint-picker-filter"
            placeholder="Filter joints"
            aria-label="Filter the joints by name"
            data-testid={`${props.testId}-filter`}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          {/* A click in the tree leaves the keyboard in the filter box. */}
          <ul
            ref={list}
            role="tree"
            aria-label={props.label}
            className="joint-picker-tree"
            onMouseDown={(e) => e.preventDefault()}
          >
            {items.map((it, k) => {
              const r = it.row;
              return (
                <li
                  key={r ? `j${r.joint}` : `x${it.value}`}
                  role="treeitem"
                  aria-selected={it.value === value}
                  aria-expanded={r?.hasChildren ? r.open : undefined}
                  aria-level={r ? r.depth + 1 : 1}
                  data-item={k}
                  data-joint={it.value}
                  data-testid="joint-tree-item"
                  className={`${k === active ? 'active' : ''}${it.value === value ? ' chosen' : ''}${r?.match ? ' match' : ''}`}
                  style={{ paddingLeft: 4 + (r ? r.depth * 12 : 0) }}
                  onPointerEnter={() => setActive(k)}
                  onClick={() => pick(it.value)}
                >
                  <span
                    className="twisty"
                    data-testid={r?.hasChildren ? 'joint-tree-twisty' : undefined}
                    aria-hidden="true"
                    onClick={(e) => {
                      if (!r?.hasChildren || filter.trim()) return;
                      e.stopPropagation();
                      setFold(r.joint, r.open);
                    }}
                  >
                    {r?.hasChildren ? (r.open ? '▾' : '▸') : ''}
                  </span>
                  <span className="joint-tree-name">{r ? `${r.joint} ${names[r.joint]}` : labelOf(it.value)}</span>
                </li>
              );
            })}
            {items.length === 0 && (
              <li className="dim" role="none">
                No joint matches “{filter}”.
              </li>
            )}
          </ul>
        </div>
      )}
    </span>
  );
}
