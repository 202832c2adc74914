/**
 * The skeleton as an outliner tree for the joint picker: each joint under its parent, in skeleton order, with
 * the subtrees the user folded hidden. A filter shows the joints whose names contain any of its words, with
 * their ancestors (unfolded) so each match is seen where it sits in the hierarchy.
 */

export interface JointTreeRow {
  joint: number;
  /** Depth under the root joint (0 for a joint without a parent). */
  depth: number;
  hasChildren: boolean;
  /** Its children are shown under it. */
  open: boolean;
  /** The joint's name contains a filter word (always false without a filter). */
  match: boolean;
}

/** The rows shown for `parents` (parent index per joint, -1 for none) and `names`, with `folded` joints closed. */
export function jointTreeRows(
  parents: readonly number[],
  names: readonly string[],
  folded: ReadonlySet<number>,
  filter: string,
): JointTreeRow[] {
  const children: number[][] = parents.map(() => []);
  const roots: number[] = [];
  parents.forEach((p, j) => (p >= 0 && p < parents.length && p !== j ? children[p].push(j) : roots.push(j)));
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (j: number) => words.length > 0 && words.some((w) => names[j].toLowerCase().includes(w));
  // With a filter: the joints to show are the matches and their ancestors.
  let keep: Set<number> | null = null;
  if (words.length > 0) {
    keep = new Set();
    parents.forEach((_, j) => {
      if (!matches(j)) return;
      for (let a = j; a >= 0 && !keep!.has(a); a = parents[a] === a ? -1 : parents[a]) keep!.add(a);
    });
  }
  const rows: JointTreeRow[] = [];
  const visit = (j: number, depth: number) => {
    if (keep && !keep.has(j)) return;
    const kids = keep ? children[j].filter((c) => keep!.has(c)) : children[j];
    const open = kids.length > 0 && (keep !== null || !folded.has(j));
    rows.push({ joint: j, depth, hasChildren: children[j].length > 0, open, match: matches(j) });
    if (open) for (const c of kids) visit(c, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  return rows;
}

/** The row a tree key moves to from `index` (Up/Down: previous/next row, Left on an open or leaf row: its parent's). */
export function treeKeyTarget(
  rows: readonly JointTreeRow[],
  parents: readonly number[],
  index: number,
  key: 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'Home' | 'End',
): number {
  if (rows.length === 0) return -1;
  if (key === 'Home') return 0;
  if (key === 'End') return rows.length - 1;
  if (key === 'ArrowUp') return Math.max(0, index - 1);
  if (key === 'ArrowDown') return Math.min(rows.length - 1, index + 1);
  const parent = index >= 0 ? parents[rows[index].joint] : -1;
  const at = rows.findIndex((r) => r.joint === parent);
  return at >= 0 ? at : index;
}
