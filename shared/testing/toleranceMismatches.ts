/** The tolerance check the adversarial and extreme-motion tests share (shared/compress/adversarial.test.ts). */
import type { CompressOptions, CompressResult } from '../compress/types';
import type { Motion } from '../motion/types';

/** Channels whose tolerance is not the one the options ask for (the skeleton-aware mode: at most that). */
export function toleranceMismatches(m: Motion, o: CompressOptions, r: CompressResult): string[] {
  const bad: string[] = [];
  for (const ch of r.channels) {
    const override = ch.kind === 'rotation' ? o.rotationToleranceOverridesDeg?.[ch.joint] : undefined;
    const asked =
      ch.kind === 'translation'
        ? o.positionTolerance
        : ch.kind === 'offset'
          ? o.offsetTolerance
          : (override ?? o.rotationToleranceDeg);
    const ok =
      o.objectTolerance === undefined
        ? ch.tolerance === asked
        : ch.tolerance >= 0 &&
          (ch.kind === 'rotation' ? override === undefined || ch.tolerance <= override : ch.tolerance <= asked);
    if (!ok) bad.push(`${ch.kind} ${ch.joint}: tolerance ${ch.tolerance}, asked ${asked}`);
  }
  if (r.channels.filter((c) => c.kind === 'rotation').length !== m.joints.length)
    bad.push('a rotation channel missing');
  return bad;
}
