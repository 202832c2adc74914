/**
 * The asynchronous writes of this process, counted and put in order: writesInFlight (what a quit waits for, bounded,
 * with settleWrites), and inTurn (two writes of one file land in the order they were asked for). fsutil.ts
 * writeFileAtomicAsync and build/commit.ts commitOutputsAsync run every write through both.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Every asynchronous write of this process still running (writeFileAtomicAsync, build/commit.ts commitOutputsAsync):
 * main waits for them, bounded, before it quits (settleWrites), so a quit does not cut off the copy of unsaved work
 * or the save being written (docs/architecture.md#electron). An entry goes when its write ends, however it ends.
 */
export const writesInFlight = new Set<Promise<unknown>>();

/**
 * The commits among writesInFlight (build/commit.ts commitOutputsAsync: a build's outputs, an Export All's or an MSH
 * export's files, a save with its tuning file, each set written as one unit). A quit whose wait runs out while one
 * runs asks before it cuts it (quitWaits.ts): a cut commit keeps the old files, but the build or export that made the
 * new ones is lost with it.
 */
export const commitsInFlight = new Set<Promise<unknown>>();

/**
 * Runs `write` as one of writesInFlight (and of commitsInFlight, for a `commit`) until it ends; its result or error is
 * the caller's, as it is.
 */
export function trackWrite<T>(write: () => Promise<T>, options: { commit?: boolean } = {}): Promise<T> {
  const p = write();
  const entry = p.then(
    () => undefined,
    () => undefined,
  );
  writesInFlight.add(entry);
  if (options.commit) commitsInFlight.add(entry);
  void entry.then(() => {
    writesInFlight.delete(entry);
    commitsInFlight.delete(entry);
  });
  return p;
}

/**
 * The last write queued for each target (its absolute path), for inTurn: a later write of the same file starts when
 * it has ended.
 */
const writeTurns = new Map<string, Promise<void>>();

/** A write queued by inTurn with `coalesce`, until it starts: a later one of the same files takes its place. */
interface WaitingTurn {
  write: () => Promise<unknown>;
  started: boolean;
  result: Promise<unknown>;
  ended: Promise<void>;
}
/** The waiting coalescable write of each set of files (its sorted absolute paths). */
const waitingTurns = new Map<string, WaitingTurn>();

/**
 * The file a write of `path` replaces, as inTurn keys it: its folder as the system resolves it (links followed), and
 * its name (a link at the name itself is replaced by the write, not followed). The app's handlers pass canonical
 * paths (pathPolicy's check), but inTurn ordered by the path as spelled: two writes of one file by two spellings
 * through a linked folder ran side by side, and the first, ending last, put the older bytes on disk (docs/security.md,
 * round 37). A folder that cannot be resolved (not there yet) keys by the path as given.
 */
function turnKey(path: string): string {
  const abs = resolve(path);
  try {
    return join(realpathSync.native(dirname(abs)), basename(abs));
  } catch {
    return abs;
  }
}

/**
 * Runs `write` once every asynchronous write of any of `paths` started before it has ended, so that writes of one file
 * are renamed into place in the order they were asked for. Without it, two saves of one file (Save, an edit, Save
 * again while the first was flushed) raced in the thread pool, and the first, ending last, put the older text over
 * the newer one, which the page had marked saved and whose copy of unsaved work was removed (docs/security.md,
 * round 35). A write that fails lets the next one go as one that succeeds does.
 */
export function inTurn<T>(
  paths: readonly string[],
  write: () => Promise<T>,
  /**
   * A later write of exactly the same files replaces this one while it waits for its turn behind another write (it has
   * not started): both callers get the later one's outcome. Each Save sent the whole motion, and holding Ctrl+S (or saving again and
   * again while a large save was flushed) queued one copy per key repeat, each held until its turn: memory without
   * bound. Now at most one write per set of files runs and one waits (docs/security.md, round 36). The older bytes
   * would have been replaced by the newer at once anyway, so what ends on disk is the same.
   */
  coalesce = false,
): Promise<T> {
  const keys = [...new Set(paths.map(turnKey))];
  const sig = [...keys].sort().join('\0');
  const waiting = coalesce ? waitingTurns.get(sig) : undefined;
  if (waiting && !waiting.started && keys.every((k) => writeTurns.get(k) === waiting.ended)) {
    waiting.write = write;
    return waiting.result as Promise<T>;
  }
  const before = keys.flatMap((k) => writeTurns.get(k) ?? []);
  const turn: WaitingTurn = { write, started: false, result: undefined!, ended: undefined! };
  const result = Promise.all(before).then(() => {
    turn.started = true;
    if (waitingTurns.get(sig) === turn) waitingTurns.delete(sig);
    return (turn.write as () => Promise<T>)();
  });
  const ended = result.then(
    () => undefined,
    () => undefined,
  );
  turn.result = result;
  turn.ended = ended;
  // Only one waiting behind another write: one with none before it starts at once, and is not held in memory.
  if (coalesce && before.length > 0) waitingTurns.set(sig, turn);
  for (const k of keys) writeTurns.set(k, ended);
  void ended.then(() => {
    for (const k of keys) if (writeTurns.get(k) === ended) writeTurns.delete(k);
  });
  return result;
}

/**
 * Waits for `pending` (writesInFlight) to end, those started meanwhile included, for at most `timeoutMs` (null: until
 * they have); resolves how many were still running then (0: all ended). Never rejects: a write's failure is its
 * caller's to report.
 */
export async function settleWrites(pending: ReadonlySet<Promise<unknown>>, timeoutMs: number | null): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<'time'>((resolve) => {
    if (timeoutMs !== null) timer = setTimeout(() => resolve('time'), timeoutMs);
  });
  try {
    while (pending.size > 0) {
      const ended = await Promise.race([Promise.allSettled([...pending]), timeUp]);
      if (ended === 'time') return pending.size;
      // A settled entry leaves the set a turn later (its own then): let it go before looking again.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return 0;
  } finally {
    clearTimeout(timer);
  }
}
