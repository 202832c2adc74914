/**
 * The words of the summary of keys over their tolerance (docs/compression.md, "Keys the format cannot hold"): pure
 * text, apart from unreachable.ts's measuring, so what reads a build's record (electron/build/lastBuild.ts, in the
 * main process) says it without the compressor in its bundle.
 */
import type { ChannelKind, SkeletonModeReport } from './types';
import type { UnreachableChannel, UnreachableSummary } from './unreachable';

/** How many of the worst channels the summary names. */
export const WORST_SHOWN = 3;

/** A channel as a person reads it: `rotation of joint 3 LeftLeg`, `root translation`. */
export function channelName(kind: ChannelKind, joint: number, jointName?: string): string {
  if (kind === 'translation') return 'root translation';
  return `${kind} of joint ${joint}${jointName ? ` ${jointName}` : ''}`;
}

/** A number as the summary shows it: four significant digits. */
const shown = (v: number) =>
  v
    .toPrecision(4)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * A floor as the summary shows it: four significant digits, rounded up, so that the tolerance a person copies from
 * the line is at least the floor and is met (rounded to nearest, 0.030983 deg showed as 0.03098, under it, and
 * that tolerance warned again: docs/compression.md#round-9-the-seams).
 */
function shownUp(v: number): string {
  let s = shown(v);
  if (Number(s) < v) {
    const step = 10 ** (Math.floor(Math.log10(Number(s))) - 3);
    s = shown(Number(s) + step);
    // The step's own rounding can land back on the shown value (or a power of ten can add a digit): once more.
    if (Number(s) < v) s = shown(Number(s) + step);
  }
  return s;
}

/** The channels over tolerance, worst first: error over tolerance (a tolerance of 0 first), then error. */
export function worstChannels(s: UnreachableSummary): UnreachableChannel[] {
  const ratio = (c: UnreachableChannel) => (c.tolerance > 0 ? c.worstError / c.tolerance : Infinity);
  return s.channels
    .map((c, i) => ({ c, i }))
    .sort((a, b) => ratio(b.c) - ratio(a.c) || b.c.worstError - a.c.worstError || a.i - b.i)
    .map((x) => x.c);
}

/**
 * The summary as lines for a terminal: how many keys of how many channels are over their tolerance, the worst
 * WORST_SHOWN channels with their real key frames, the precision floor, and `keptBy` (where the whole list is).
 * `objectTolerance`: the skeleton-aware mode's bound, said beside the object-space floor; `asked`: the bound asked,
 * when the mode held the motion to its floor instead (SkeletonModeReport.requestedObjectTolerance).
 */
export function unreachableLines(
  s: UnreachableSummary,
  jointNames: readonly string[],
  keptBy: string,
  objectTolerance?: number,
  asked: number | undefined = objectTolerance,
): string[] {
  const count = (kind: ChannelKind) => s.channels.filter((c) => c.kind === kind).length;
  const parts: string[] = [];
  if (count('translation')) parts.push('the root translation');
  const rot = count('rotation');
  if (rot) parts.push(`${rot} joint rotation${rot === 1 ? '' : 's'}`);
  const off = count('offset');
  if (off) parts.push(`${off} joint offset${off === 1 ? '' : 's'}`);
  const n = s.channels.length;
  const lines = [
    `tolerance not reachable at ${s.keys} of ${s.totalKeys} keys, in ${n} channel${n === 1 ? '' : 's'} (${parts.join(', ')}` +
      `${objectTolerance !== undefined ? `, at the tolerances the object-space bound ${shown(objectTolerance)} gives them` : ''}): ` +
      `h16/s12 cannot store the source that closely there (stored precision limit); every frame that is not a key is within its tolerance`,
  ];
  const unit = (kind: ChannelKind) => (kind === 'rotation' ? ' deg' : ' units');
  const worst = worstChannels(s).slice(0, WORST_SHOWN);
  lines.push(
    `worst: ` +
      worst
        .map(
          (c) =>
            `${channelName(c.kind, c.joint, jointNames[c.joint])} at frame ${c.worstFrame}, ${shown(c.worstError)}${unit(c.kind)} ` +
            `against ${shown(c.tolerance)}${unit(c.kind)}${c.frames.length > 1 ? ` (${c.frames.length} keys over it)` : ''}`,
        )
        .join('; ') +
      (n > worst.length ? `; and ${n - worst.length} more channel${n - worst.length === 1 ? '' : 's'}` : ''),
  );
  const f = s.floor;
  const floors = [`${shownUp(f.position)} units (root translation)`, `${shownUp(f.rotationDeg)} deg (rotations)`];
  if (f.offset !== null) floors.push(`${shownUp(f.offset)} units (offsets)`);
  const object =
    f.object !== null
      ? `; the smallest object-space bound it can be held to is about ${shown(f.object)} (its object-space error with every frame a key${
          asked !== undefined ? `; the bound asked is ${shown(asked)}` : ''
        })`
      : '';
  lines.push(
    `h16/s12 store every frame of this motion within ${floors.join(', ')}: tolerances from there are met everywhere${object}; ${keptBy}`,
  );
  return lines;
}

/**
 * The line that says the skeleton-aware mode held a motion to its floor because the bound asked was below it
 * (SkeletonModeReport.requestedObjectTolerance); undefined when it was not.
 */
export function objectBoundLine(
  skeleton: Pick<SkeletonModeReport, 'objectTolerance' | 'requestedObjectTolerance' | 'met'>,
): string | undefined {
  const asked = skeleton.requestedObjectTolerance;
  if (asked === undefined) return undefined;
  const floor = shown(skeleton.objectTolerance);
  return (
    `object-space bound ${shown(asked)} is below ${floor}, the least h16/s12 can hold this motion to (its ` +
    `object-space error with every frame a key): held to ${floor} instead` +
    (skeleton.met ? `, which every frame meets` : `, NOT met`)
  );
}
