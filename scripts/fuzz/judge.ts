/**
 * How the fuzz harness judges one run of a reader or importer (see targets.ts for the outcomes): the defect
 * type, the target shape, and the judging helpers every target uses. Targets in their own files import this
 * module, and targets.ts lists them, so nothing imports in a circle.
 */
import { FormatError } from '../../shared/errors';
import type { Motion } from '../../shared/motion/types';
import { readMtn } from '../../shared/mtn/read';
import { validateMotion } from '../../shared/mtn/validate';
import { writeMtn } from '../../shared/mtn/write';
import type { Rng } from './mutate';

export const equalBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** A finding: what went wrong, in one line (the signature reproducers are grouped and minimized by). */
export class FuzzDefect extends Error {
  constructor(
    readonly kind: DefectKind,
    message: string,
  ) {
    super(message);
    this.name = 'FuzzDefect';
  }
}

/**
 * What counts as a defect:
 * - crash: the reader threw something other than a FormatError;
 * - invalid: it accepted an input whose result fails validation or the round trip;
 * - unnamed: an importer's error does not start with the file name, or names no place in it (line, offset or part);
 * - hang: one input took longer than the time limit (judged by the runner);
 * - memory: the process grew past the memory limit (judged by the runner).
 */
export type DefectKind = 'crash' | 'invalid' | 'unnamed' | 'hang' | 'memory';
export const DEFECT_KINDS: readonly DefectKind[] = ['crash', 'invalid', 'unnamed', 'hang', 'memory'];

export type Outcome = 'accepted' | 'rejected';

export interface FuzzTarget {
  /** Format name as given to --format. */
  name: string;
  /** File extension of saved reproducers. */
  ext: string;
  /** Valid inputs to mutate. */
  seeds(): Uint8Array[];
  /** One mutated input from a seed. */
  mutate(rnd: Rng, seed: Uint8Array): Uint8Array;
  /** Runs the reader/importer on one input; throws FuzzDefect for a defect. */
  run(input: Uint8Array): Outcome | Promise<Outcome>;
  /**
   * Inputs of the short pass in CI (scripts/fuzz.test.ts) where 2000 would not fit its time: a target whose every
   * input is a whole motion compressed and decoded (round5). `npm run fuzz` runs --count of every target all the same.
   */
  ciCount?: number;
}

/** Runs `read`; a FormatError is a rejection, anything else a crash. */
export function judge<T>(read: () => T, check: (value: T) => Outcome | void): Outcome {
  let value: T;
  try {
    value = read();
  } catch (e) {
    if (e instanceof FormatError) return 'rejected';
    throw new FuzzDefect('crash', describeThrown(e));
  }
  let outcome: Outcome | void;
  try {
    outcome = check(value);
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('invalid', `accepted, then: ${describeThrown(e)}`);
  }
  return outcome ?? 'accepted';
}

export async function judgeAsync<T>(
  read: () => Promise<T>,
  check: (value: T) => void,
  fileName: string,
): Promise<Outcome> {
  let value: T;
  try {
    value = await read();
  } catch (e) {
    if (e instanceof FormatError) {
      if (!namesFile(e.message, fileName))
        throw new FuzzDefect('unnamed', `error does not name ${fileName}: ${e.message.slice(0, 200)}`);
      if (!namesPlace(e))
        throw new FuzzDefect('unnamed', `error names no place in ${fileName}: ${e.message.slice(0, 200)}`);
      return 'rejected';
    }
    throw new FuzzDefect('crash', describeThrown(e));
  }
  try {
    check(value);
  } catch (e) {
    throw new FuzzDefect('invalid', `accepted, then: ${describeThrown(e)}`);
  }
  return 'accepted';
}

/** A refusal says where: a line (and column), a byte offset, or the part of the file (a key path, a section). */
export const namesPlace = (e: FormatError) =>
  e.place.line !== undefined || e.place.offset !== undefined || (e.place.where ?? '') !== '';

/** The project's error shapes: `FILE:line:column: detail` or `FILE [KIND] (place): detail`. */
export const namesFile = (message: string, file: string) =>
  message.startsWith(`${file}:`) || message.startsWith(`${file} [`);

export function describeThrown(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message.slice(0, 300)}`;
  return `non-error thrown: ${String(e).slice(0, 300)}`;
}

export function must(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

/** A motion read back from its own MTN bytes must be equal (the importer's output is a savable motion). */
export function checkMotionSaves(m: Motion): void {
  validateMotion(m);
  const bytes = writeMtn(m);
  must(equalBytes(writeMtn(readMtn(bytes)), bytes), 'the imported motion does not survive an MTN round trip');
}
