import { runCli } from './main';

/** How long the CLI waits, once its command is done, for Node to exit by itself before it calls process.exit. */
const EXIT_FALLBACK_MS = 1000;

// A reader that stops reading (`actguy build --watch | head -1`, `actguy info big.mar | less` quit early) ends the
// command quietly, as other command-line tools end: not with an unhandled EPIPE error and its stack.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Everything a command does is awaited by now, so the event loop empties and Node exits by itself, tearing the
  // isolate down in order, once stdout and stderr are flushed. process.exit at that point (as before 2026-12-03)
  // saved tens of ms after a large build, but it could hang forever: once in about 300 runs it waited for a V8
  // background compile job that was itself waiting for a garbage collection the exiting thread never ran
  // (docs/testing.md). process.exit stays as the fallback for a handle left open, after EXIT_FALLBACK_MS;
  // electron/cli/exit.test.ts checks that the commands never need it.
  setTimeout(() => process.exit(code), EXIT_FALLBACK_MS).unref();
});
