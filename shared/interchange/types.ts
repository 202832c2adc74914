/** Results shared by the BVH, glTF and FBX importers. */
import type { Motion } from '../motion/types';

/**
 * Something an importer changed or could not carry over. Import still
 * succeeds; the app shows these next to the new motion, the CLI prints them.
 */
export interface InterchangeWarning {
  /** Stable code for tests and UI grouping. */
  code:
    | 'name-truncated'
    | 'name-changed'
    | 'name-duplicate'
    | 'scale-unsupported'
    | 'frames-clamped'
    | 'frames-extra'
    | 'clip-trimmed'
    | 'root-added'
    | 'nodes-as-joints'
    | 'unanimated'
    | 'rate-snapped'
    | 'positions-local'
    | 'positions-added'
    | 'keys-interpolated'
    | 'loader';
  /** One line a user can act on. */
  message: string;
}

export interface ImportResult {
  /** A valid motion (validateMotion passes), frames 0..N at the requested rate. */
  motion: Motion;
  warnings: InterchangeWarning[];
  /** What was read and how, for the import summary (FBX: the clip, bones, duration and unit applied); absent when the frame counts say it all. */
  summary?: string;
  /** The clip imported, for sources that hold several (glTF, FBX). */
  clip?: string;
}

/** Options common to every importer. */
export interface ImportOptions {
  /** Target frames per second (> 0). Default 30, the rate MGS2 motions play at. */
  fps?: number;
  /** Multiplies every position and offset (unit conversion). Default 1. */
  scale?: number;
  /**
   * Set MotionFlag.OFFSETS even when the joint offsets are constant, so the
   * compressed MT3 carries this skeleton's bone offsets. Importers set it on
   * their own whenever offsets are animated.
   */
  offsets?: boolean;
  /** How a BVH's position channels are read (BvhPositionReading); other formats have none. Default 'auto'. */
  bvhPositions?: BvhPositionReading;
}

/**
 * How a BVH's position channels are read (docs/interchange.md#conventions): 'auto' judges each joint by its values
 * (displacements near zero add to the OFFSET, values near the OFFSET replace it); 'added' adds every joint's
 * channels to its OFFSET, as the BVH description says; 'local' reads every joint's channels as its whole local
 * position, replacing its OFFSET on their axes. The override is for the file the judgement reads wrong.
 */
export type BvhPositionReading = 'auto' | 'added' | 'local';

/** Every BvhPositionReading, in the order a choice lists them. */
export const BVH_POSITION_READINGS: readonly BvhPositionReading[] = ['auto', 'added', 'local'];
