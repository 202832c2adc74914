import { exitOnceFlushed } from './exitOnceFlushed';
import { runCli } from './main';

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
  // (docs/testing.md). process.exit stays as the fallback for a handle left open, EXIT_FALLBACK_MS after stdout and
  // stderr are flushed (exitOnceFlushed.ts: armed before, it cut a slow reader's output); electron/cli/exit.test.ts
  // checks that the commands never need it.
  void exitOnceFlushed(code, {
    streams: [process.stdout, process.stderr],
    exit: (c) => process.exit(c),
    arm: (fallback, ms) => setTimeout(fallback, ms).unref(),
  });
});
