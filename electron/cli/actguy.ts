import { FormatError } from '../../shared/errors';
import { UsageError } from './args';
import { commands } from './registry';

function usage(): string {
  const lines = ['usage: actguy <command> [options]', '', 'commands:'];
  for (const c of commands) lines.push(`  ${c.usage}`, `      ${c.summary}`);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const cmd = commands.find((c) => c.name === name);
  if (!cmd) {
    console.error(`actguy: unknown command ${JSON.stringify(name)} (try: actguy help)`);
    return 2;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`actguy ${name}: ${e.message}\nusage: ${cmd.usage}`);
      return 2;
    }
    if (e instanceof FormatError) {
      console.error(`actguy ${name}: ${e.message}`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    // A raw Node error (`ENOENT: ..., open 'x'`) gets words; one of ours (`cannot write x: ...`) already has them.
    if (err && typeof err.code === 'string' && err.path && err.message.startsWith(`${err.code}:`)) {
      console.error(`actguy ${name}: ${err.path}: ${describeFsError(err)}`);
      return 1;
    }
    console.error(`actguy ${name}: ${err?.message ?? String(e)}`);
    return 1;
  }
}

function describeFsError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a path component is not a directory';
    default: return err.message;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
