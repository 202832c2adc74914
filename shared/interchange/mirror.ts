/**
 * Guesses mirror metadata for an imported skeleton from joint names: which
 * joint is swapped with which when the runtime mirrors a motion, and which
 * joints belong to the lower body (part 0) or the upper body (part 1).
 * Pure; used by every importer so BVH and glTF imports agree.
 */
import { JointPart } from '../motion/types';

/** Side markers we recognise, each with the text for the opposite side. */
const SIDE_PATTERNS: { re: RegExp; swap: (m: string) => string }[] = [
  // Whole words anywhere: LeftArm, left_arm, Arm_Left, mixamorig:LeftHand.
  { re: /left/gi, swap: (m) => caseLike(m, 'right') },
  { re: /right/gi, swap: (m) => caseLike(m, 'left') },
];

/** Copies the letter case of `model` onto `word` (Left -> Right, LEFT -> RIGHT). */
function caseLike(model: string, word: string): string {
  if (model === model.toUpperCase()) return word.toUpperCase();
  if (model[0] === model[0].toUpperCase()) return word[0].toUpperCase() + word.slice(1);
  return word;
}

/**
 * The name of the mirrored counterpart of `name`, or undefined when the name
 * carries no side marker. Handles Left/Right words, and single-letter L/R
 * tokens: as a separated prefix or suffix (L_Arm, Arm_L, arm.l, hand_r, "R Hand"),
 * as a prefix before an upper-case letter (LHipJoint, RThumb, lShldr, rThigh).
 */
export function mirroredName(name: string): string | undefined {
  for (const p of SIDE_PATTERNS) {
    if (p.re.test(name)) {
      p.re.lastIndex = 0;
      return name.replace(p.re, p.swap);
    }
    p.re.lastIndex = 0;
  }
  const flip = (c: string) => ({ L: 'R', R: 'L', l: 'r', r: 'l' })[c] as string;
  // Prefix after an optional namespace (mixamorig:, Bip01 ): L_Arm, l.arm, R Hand.
  let m = /^(.*?[:|])?([LRlr])([_.\- ])(.+)$/.exec(name);
  if (m) return `${m[1] ?? ''}${flip(m[2])}${m[3]}${m[4]}`;
  // Suffix: Arm_L, hand.r, Foot-R, "Hand R".
  m = /^(.+[_.\- ])([LRlr])$/.exec(name);
  if (m) return `${m[1]}${flip(m[2])}`;
  // Separated infix token: Bip01_L_Thigh, Bip01 R Calf.
  m = /^(.+[_.\- ])([LRlr])([_.\- ].+)$/.exec(name);
  if (m) return `${m[1]}${flip(m[2])}${m[3]}`;
  // Glued prefix before an upper-case letter: LHipJoint, RFoot, lShldr, rThigh.
  m = /^(.*?[:|])?([LRlr])([A-Z].*)$/.exec(name);
  if (m) return `${m[1] ?? ''}${flip(m[2])}${m[3]}`;
  return undefined;
}

/**
 * For each joint, the index of the joint it mirrors with (itself when no
 * counterpart is found). Pairs are symmetric: mirror[mirror[j]] === j.
 */
export function guessMirrorPairs(names: readonly string[]): number[] {
  const index = new Map<string, number>();
  names.forEach((n, i) => {
    if (!index.has(n)) index.set(n, i);
  });
  const mirror = names.map((_, i) => i);
  for (let i = 0; i < names.length; i++) {
    if (mirror[i] !== i) continue;
    const other = mirroredName(names[i]);
    if (other === undefined || other === names[i]) continue;
    const k = index.get(other);
    if (k === undefined || k === i || mirror[k] !== k) continue;
    mirror[i] = k;
    mirror[k] = i;
  }
  return mirror;
}

/** Names that belong to a leg chain (hip joint, thigh, knee, shin, foot, toes). */
const LEG_NAME = /(up)?leg|thigh|knee|shin|calf|foot|ankle|toe|hipjoint|femur|tibia|heel/i;

/**
 * Lower (0) or upper (1) body per joint: the root, every joint on the way from
 * the root to a leg joint, the leg joints and everything below them are lower;
 * the rest (spine, neck, head, arms) is upper. `parents[j]` < j, -1 for the root.
 */
export function guessBodyParts(names: readonly string[], parents: readonly number[]): number[] {
  const J = names.length;
  const lower = new Array<boolean>(J).fill(false);
  // A leg joint, or any joint below one (End Sites, toe nubs): parents come first.
  const inLeg = new Array<boolean>(J).fill(false);
  for (let j = 0; j < J; j++) {
    const p = parents[j];
    inLeg[j] = p >= 0 && (LEG_NAME.test(names[j]) || inLeg[p]);
    if (p < 0 || inLeg[j]) lower[j] = true;
  }
  // Ancestors of leg joints (a pelvis or hip joint between root and thighs) are lower too.
  for (let j = J - 1; j > 0; j--)
    if (inLeg[j]) for (let a = parents[j]; a >= 0 && !lower[a]; a = parents[a]) lower[a] = true;
  return lower.map((l) => (l ? JointPart.LOWER : JointPart.UPPER));
}
