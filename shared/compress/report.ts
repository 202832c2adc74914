import type { Motion } from '../motion/types';
import type { CompressResult } from './types';

/** The JSON written by `actguy compress --report` and by project builds. */
export interface CompressReportJson {
  input: string;
  output: string;
  frames: number;
  joints: number;
  totalKeys: number;
  mt3Bytes: number;
  mtnBytes: number;
  ratio: number;
  milliseconds: number;
  warnings: string[];
  channels: {
    kind: string;
    joint: number;
    jointName: string | null;
    keyFrames: number[];
    userKeyFrames: number[];
    tolerance: number;
    maxError: number;
    maxErrorFrame: number;
    toleranceMet: boolean;
  }[];
}

export function compressReport(motion: Motion, r: CompressResult, input: string, output: string): CompressReportJson {
  return {
    input,
    output,
    frames: motion.frameCount,
    joints: motion.joints.length,
    totalKeys: r.totalKeys,
    mt3Bytes: r.mt3Bytes,
    mtnBytes: r.mtnBytes,
    ratio: r.ratio,
    milliseconds: r.ms,
    warnings: r.warnings.map((w) => w.message),
    channels: r.channels.map((c) => ({
      kind: c.kind,
      joint: c.joint,
      jointName: c.joint >= 0 ? motion.joints[c.joint].name : null,
      keyFrames: c.keyFrames,
      userKeyFrames: c.userKeyFrames,
      tolerance: c.tolerance,
      maxError: c.maxError,
      maxErrorFrame: c.maxErrorFrame,
      toleranceMet: c.met,
    })),
  };
}
