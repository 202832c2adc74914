/**
 * Which joint rows the timeline shows: a name filter (case-insensitive substring, several words: any of them)
 * or a body chain (legs, arms, spine), so a 31-joint skeleton's rows of interest fit in view. The rows keep
 * skeleton order; -1 is the root translation row.
 */
export type JointChain = 'legs' | 'arms' | 'spine';

export const JOINT_CHAINS: readonly JointChain[] = ['legs', 'arms', 'spine'];

/** Name parts of each chain (lower case), as rigs name them (Mixamo, CMU, Unreal, Blender's Rigify). */
const CHAIN_PARTS: Record<JointChain, string[]> = {
  legs: ['leg', 'thigh', 'knee', 'calf', 'shin', 'foot', 'ankle', 'toe', 'hip_', 'upleg'],
  arms: [
    'arm',
    'shoulder',
    'clavicle',
    'collar',
    'elbow',
    'wrist',
    'hand',
    'finger',
    'thumb',
    'index',
    'pinky',
    'ring',
    'middle',
  ],
  spine: ['hips', 'pelvis', 'root', 'spine', 'chest', 'torso', 'neck', 'head', 'waist', 'abdomen'],
};

/**
 * Whether a lower-case joint name is one of `chain`'s. A name ending in "hip" (LeftHip, r_hip: the thigh in the
 * BVH files assimp ships, Boxing_Toes.bvh) is a leg's; "Hips" and a lone "Hip" (a pelvis) are not, nor is CMU's
 * LHipJoint (the pelvis's bone to the hip). Legs left out the thighs of those takes before 2026-12-04.
 */
function inChain(chain: JointChain, n: string): boolean {
  if (chain === 'legs' && n.endsWith('hip') && n !== 'hip') return true;
  return CHAIN_PARTS[chain].some((p) => n.includes(p));
}

/** The rows shown (joint indices, -1 for the root translation) for `filter` (text or a chain) over `names`. */
export function shownJointRows(names: readonly string[], filter: { text: string; chain: JointChain | null }): number[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: number[] = [];
  const wanted = (name: string): boolean => {
    const n = name.toLowerCase();
    if (filter.chain && !inChain(filter.chain, n)) return false;
    return words.length === 0 || words.some((w) => n.includes(w));
  };
  if (!filter.chain && wanted('root translation')) rows.push(-1);
  names.forEach((name, j) => {
    if (wanted(name)) rows.push(j);
  });
  return rows;
}

/** The groups the timeline folds its rows into (Group by chain): the body chains, then every other joint. */
export type ChainGroup = JointChain | 'other';
export const CHAIN_GROUPS: readonly ChainGroup[] = ['spine', 'arms', 'legs', 'other'];

/** A group's name as the app shows it, capitalised ("Legs"): the timeline's chain buttons, headers and menus. */
export function chainGroupWord(g: ChainGroup): string {
  return g[0].toUpperCase() + g.slice(1);
}

/** The chain a joint's name belongs to (legs before arms before spine, as CHAIN_PARTS reads), or 'other'. */
export function chainOf(name: string): ChainGroup {
  const n = name.toLowerCase();
  for (const c of ['legs', 'arms', 'spine'] as const) if (inChain(c, n)) return c;
  return 'other';
}

/** A timeline row: a joint's (-1: the root translation) or a chain group's header with the joints under it. */
export type TimelineRow =
  { kind: 'joint'; joint: number } | { kind: 'group'; group: ChainGroup; joints: number[]; folded: boolean };

/**
 * The timeline's rows. Ungrouped: the filter's joint rows (shownJointRows). Grouped: the root translation row,
 * then a header per chain group that has rows (in CHAIN_GROUPS order) followed by its joints in skeleton order,
 * unless the user folded it.
 */
export function timelineRows(
  names: readonly string[],
  filter: { text: string; chain: JointChain | null },
  grouping: { grouped: boolean; folded: readonly string[] },
): TimelineRow[] {
  const shown = shownJointRows(names, filter);
  if (!grouping.grouped) return shown.map((joint) => ({ kind: 'joint', joint }));
  const rows: TimelineRow[] = shown.filter((j) => j < 0).map((joint) => ({ kind: 'joint', joint }));
  for (const group of CHAIN_GROUPS) {
    const joints = shown.filter((j) => j >= 0 && chainOf(names[j]) === group);
    if (joints.length === 0) continue;
    const folded = grouping.folded.includes(group);
    rows.push({ kind: 'group', group, joints, folded });
    if (!folded) for (const joint of joints) rows.push({ kind: 'joint', joint });
  }
  return rows;
}

/**
 * The chains a grouped timeline folds when its `rows` do not all fit the `fits` whole rows in view (tried cold, round
 * 18: at 1280x800 the four chain headers, the root row and the first chain's joints left three joint rows): every
 * chain but `joint`'s, so the selected joint's chain is the one open. `whenFolded`: only when `joint`'s chain is folded
 * now (a joint picked elsewhere, in the viewport or the curve view's picker; a click on a row of an open chain moves
 * no row under the pointer). Undefined when nothing changes: the rows fit, the chain is open, or no chain holds the
 * joint (the root translation: on grouping, the first chain is the one open).
 */
export function foldedForSelection(
  rows: readonly TimelineRow[],
  joint: number,
  fits: number,
  whenFolded: boolean,
): ChainGroup[] | undefined {
  if (rows.length <= fits) return undefined;
  const groups = rows.flatMap((r) => (r.kind === 'group' ? [r] : []));
  const own = groups.find((g) => g.joints.includes(joint)) ?? (whenFolded ? undefined : groups[0]);
  if (!own || (whenFolded && !own.folded)) return undefined;
  const folded = CHAIN_GROUPS.filter((g) => g !== own.group);
  return groups.every((g) => g.folded === folded.includes(g.group)) ? undefined : folded;
}

/** The row that shows `joint`: its own, or its folded group's header; -1 when no row does. */
export function rowOfJoint(rows: readonly TimelineRow[], joint: number): number {
  const own = rows.findIndex((r) => r.kind === 'joint' && r.joint === joint);
  if (own >= 0) return own;
  return rows.findIndex((r) => r.kind === 'group' && r.folded && r.joints.includes(joint));
}
