/**
 * The check of a motion the page sends to be kept (File › Save, a copy of unsaved work): its MTN bytes read as
 * `readMtn` reads them and, for a save, the tuning file that goes with it parsed against the motion's joints. A
 * 30 MB motion reads in about 0.1 s, which the main process must not spend while the window waits on it, so the
 * app runs this in the text-check worker (project/textCheck.ts, `checkMotion`); tests and a host without the
 * worker's bundle run it in-process (docs/architecture.md#electron).
 */
import { readMtn } from '../shared/mtn/read';
import { parseTuning } from '../shared/tuning/sidecar';

export interface MotionCheckRequest {
  kind: 'motion';
  mtnBytes: Uint8Array;
  /** The tuning file saved with the motion: its path (named in its errors) and text. */
  tuning?: { path: string; text: string };
}

/** Which part does not hold up and the reader's message, or null when both do. */
export type MotionCheckResult = { problem: null } | { problem: 'motion' | 'tuning'; message: string };

/** Runs one check on the calling thread; never throws for a bad motion or tuning (that is the answer). */
export function checkMotion(req: MotionCheckRequest): MotionCheckResult {
  let joints: readonly { name: string }[];
  try {
    joints = readMtn(req.mtnBytes).joints;
  } catch (e) {
    return { problem: 'motion', message: (e as Error).message };
  }
  if (req.tuning)
    try {
      parseTuning(req.tuning.text, req.tuning.path, joints);
    } catch (e) {
      return { problem: 'tuning', message: (e as Error).message };
    }
  return { problem: null };
}

/** Checks a motion; rejects only when the checker itself failed (it stopped, or ran past its budget). */
export type MotionChecker = (req: MotionCheckRequest) => Promise<MotionCheckResult>;

/** On the calling thread (tests, and a host without the text-check worker's bundle). */
export const inProcessMotionChecker: MotionChecker = async (req) => checkMotion(req);
