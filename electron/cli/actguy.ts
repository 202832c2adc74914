import { runCli } from './main';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // Everything a command does is awaited by now: exit as soon as stdout and stderr are flushed (a pipe is written
  // asynchronously), without waiting for V8 to free the heap first (tens of ms after a large build; docs/cache.md).
  let open = 2;
  const flushed = () => {
    if (--open === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
});
