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
  arms: ['arm', 'shoulder', 'clavicle', 'collar', 'elbow', 'wrist', 'hand', 'finger', 'thumb', 'index', 'pinky', 'ring', 'middle'],
  spine: ['hips', 'pelvis', 'root', 'spine', 'chest', 'torso', 'neck', 'head', 'waist', 'abdomen'],
};

/** The rows shown (joint indices, -1 for the root translation) for `filter` (text or a chain) over `names`. */
export function shownJointRows(names: readonly string[], filter: { text: string; chain: JointChain | null }): number[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: number[] = [];
  const wanted = (name: string): boolean => {
    const n = name.toLowerCase();
    if (filter.chain && !CHAIN_PARTS[filter.chain].some((p) => n.includes(p))) return false;
    return words.length === 0 || words.some((w) => n.includes(w));
  };
  if (!filter.chain && wanted('root translation')) rows.push(-1);
  names.forEach((name, j) => {
    if (wanted(name)) rows.push(j);
  });
  return rows;
}
