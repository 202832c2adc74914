import { runCli } from './main';

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
