/**
 * For a test that does many pieces of work in a row against real processes (a server started, a request answered, a
 * process ended) on a loaded machine: each piece is waited for by the event that ends it, with a bound of its own far
 * above what it takes there, and a hang says which piece was still pending, not only that the test ran long. The test
 * itself then has no time limit of its own (its pieces' bounds are its limit, derived from its work); a limit on the
 * whole, met by the sum of pieces that are each well, went red on a loaded machine while the product was right
 * (docs/testing.md, "Tests under load, round 3").
 */
import { spawnSync, type SpawnSyncOptionsWithStringEncoding, type SpawnSyncReturns } from 'node:child_process';

/**
 * One piece's bound: a bundled server's start or one request. A whole step of motionSaveKill.test.ts (a server started,
 * two opens and a save) took about 5 s at load 16 on the 2-core machine.
 */
const PIECE_MS = 120_000;

/** Waits for `promise`, the piece of work `what` names; fails naming it if it has not settled within `ms`. */
export function pieceOfWork<T>(what: string, promise: Promise<T>, ms = PIECE_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_ok, fail) => {
    timer = setTimeout(() => fail(new Error(`still pending after ${ms / 1000} s: ${what}`)), ms);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

/**
 * A child run to its end as one piece of work, for a synchronous test (`spawnSync`): vitest cannot end such a test at
 * its limit, only fail it once it returns past it, so a limit on the whole fails a right product under load and only
 * the child's own timeout stops a hung one. The child is given the piece's bound and, run past it, the test fails
 * naming `what` (docs/testing.md, "Tests under load, rounds 5 and 6"). Its cases then have no limit on the whole.
 */
export function pieceOfWorkSync(
  what: string,
  command: string,
  args: readonly string[],
  options: Omit<SpawnSyncOptionsWithStringEncoding, 'encoding' | 'timeout'> = {},
  ms = PIECE_MS,
): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { ...options, encoding: 'utf8', timeout: ms });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT')
    throw new Error(`still pending after ${ms / 1000} s: ${what}`);
  return r;
}
