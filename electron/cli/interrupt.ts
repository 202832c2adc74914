/**
 * Ctrl+C (SIGINT) and SIGTERM during a command that writes files (compress, build, import, export-msh): one line on
 * stderr, `interrupted: ` and what was and was not written, then exit 130 / 143 (128 + the signal's number, as a
 * shell reports a process a signal ended; docs/cli.md, "Exit status").
 *
 * Every write of these commands is synchronous (writeFileAtomic, commitOutputs), so a signal is handled either before
 * a write began or after it ended, never halfway: a temp file is removed by the write that made it or renamed into
 * place, and the line can say which. A signal that comes in while a command computes on this thread (a compression)
 * is handled when the computation is done: `checkpoint()` lets it be handled then, before anything is written.
 */

/** The exit status after a signal: 128 + its number. */
const SIGNAL_STATUS = { SIGINT: 130, SIGTERM: 143 } as const;

interface Interruption {
  /**
   * Lets a signal that came in while this thread was busy be handled now (the process then ends, nothing written):
   * awaited before a command writes. Two turns of the event loop, so that a poll for the signal lies between.
   */
  checkpoint(): Promise<void>;
  /** Removes the handlers (the command is done; a later signal ends the process as Node does). */
  dispose(): void;
}

/**
 * Until `dispose`, SIGINT and SIGTERM print `interrupted: <state()>` and end the process with 130 / 143. `state` says
 * what was and was not written at that moment; `stop` (optional) ends what the command started that would outlive it
 * (worker threads) first.
 */
export function onInterrupt(
  state: () => string,
  options: {
    stop?: () => void;
    exit?: (status: number) => never;
    say?: (line: string) => void;
    on?: Pick<NodeJS.Process, 'on' | 'off'>;
  } = {},
): Interruption {
  const { stop, exit = process.exit, say = (line) => console.error(line), on = process } = options;
  let handled = false;
  const handler = (signal: NodeJS.Signals) => {
    // A second signal while the first is handled changes nothing: the line is said once.
    if (handled) return;
    handled = true;
    try {
      stop?.();
    } finally {
      say(`interrupted: ${state()}`);
      exit(signal === 'SIGTERM' ? SIGNAL_STATUS.SIGTERM : SIGNAL_STATUS.SIGINT);
    }
  };
  on.on('SIGINT', handler);
  on.on('SIGTERM', handler);
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    async checkpoint() {
      await turn();
      await turn();
    },
    dispose() {
      on.off('SIGINT', handler);
      on.off('SIGTERM', handler);
    },
  };
}

/** `a, b and c` */
export function listed(paths: readonly string[]): string {
  return paths.length <= 1 ? (paths[0] ?? '') : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;
}

/** The line for outputs not written yet: they are as they were, and no temp file is left. */
export function untouched(paths: readonly string[]): string {
  return `nothing was written; ${listed(paths)} ${paths.length === 1 ? 'is' : 'are'} as before, and no temp file is left`;
}
