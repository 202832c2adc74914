/**
 * File › Export glTF's encoding: the page's motion read, the compressed motion decoded onto it when the export is
 * of the compressed one, and the GLB made. On a long capture this is most of a second of work (a 20,000-frame,
 * 31-joint motion: about 0.3 s; the 65,535-frame limit: about 1 s), so the app runs it in a worker of the compress
 * bundle (CompressClient.exportGlb), never on the main thread, where the window would stop answering meanwhile
 * (docs/architecture.md#electron).
 */
import { motionToGlb } from '../../shared/interchange/gltf/export';
import type { Motion } from '../../shared/motion/types';
import { decodeMt3ToMotion } from '../../shared/mt3/decode';
import type { Mt3Motion } from '../../shared/mt3/types';
import { readMtn } from '../../shared/mtn/read';

export interface GlbExportJob {
  /** The page's motion, its edits included: what the export is named and shaped by. */
  mtnBytes: Uint8Array;
  /** The compressed motion to export instead, decoded exactly as the game would play it. */
  mt3?: Mt3Motion;
  animationName: string;
  /** Units per motion unit (> 0). */
  scale: number;
}

export interface GlbExported {
  glb: Uint8Array;
  jointCount: number;
  frameCount: number;
  fps: number;
}

/** The GLB of a job; a motion that does not read is said as such ("the motion is not a valid MTN file (…)"). */
export function encodeGlbExport(job: GlbExportJob): GlbExported {
  let motion: Motion;
  try {
    motion = readMtn(job.mtnBytes);
  } catch (e) {
    throw new Error(`the motion is not a valid MTN file (${(e as Error).message})`);
  }
  const exported = job.mt3 ? decodeMt3ToMotion(job.mt3, motion) : motion;
  return {
    glb: motionToGlb(exported, { animationName: job.animationName, scale: job.scale }),
    jointCount: exported.joints.length,
    frameCount: exported.frameCount,
    fps: exported.fps,
  };
}
