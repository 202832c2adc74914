/**
 * Fuzz target `code-cache`: the head of the commands chunk's code cache file (electron/cli/codeCache.ts; docs/cache.md,
 * "The commands chunk's code cache") as anyone who can write the state folder could leave it. Each input is read as
 * a build reads it before V8 sees any of it (cacheData; nothing is compiled or written).
 *
 * Judged: any throw is a crash; a file kept must have the head of its key, the paths line of names of the tool's
 * shape (what decides whether the run writes it again), and a checksum that holds over the key, that line and the
 * data handed to V8, the data being the input's bytes after the line.
 */
import { createHash } from 'node:crypto';
import { cacheData } from '../../electron/cli/codeCache';
import { choose, mutateBinary, type Rng } from './mutate';
import { FuzzDefect, describeThrown, type FuzzTarget } from './judge';

const KEY = 'cliCommands.cjs\0digest\0v20.0.0\0linux\0x64\0build';

function file(paths: string, data: Uint8Array): Uint8Array {
  const sum = createHash('sha256').update(KEY).update('\0').update(paths).update('\0').update(data).digest('hex');
  return new Uint8Array(Buffer.concat([Buffer.from(`actguy-code-cache 2\n${sum}\n${paths}\n`, 'latin1'), data]));
}

function seeds(): Uint8Array[] {
  const data = new Uint8Array(256).map((_, k) => (k * 37) % 256);
  return [file('full', data), file('carried,few-changed,full,up-to-date', data), file('', data)];
}

/** Mostly the bytes mutated; sometimes a file made again with its checksum, over another paths line. */
function mutate(rnd: Rng, input: Uint8Array): Uint8Array {
  if (rnd() < 0.3) {
    const line = choose(rnd, ['full,', ',', 'FULL', 'a'.repeat(33), 'x,'.repeat(300), 'up-to-date\0', 'é', 'a-', '']);
    return file(line, input.subarray(Math.min(input.length, 90)));
  }
  return mutateBinary(rnd, input, 1 << 16);
}

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

function run(input: Uint8Array): 'accepted' | 'rejected' {
  let got: ReturnType<typeof cacheData>;
  const bytes = Buffer.from(input);
  try {
    got = cacheData(bytes, KEY);
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  if (typeof got === 'string') return 'rejected';
  must(bytes.toString('latin1', 0, 20) === 'actguy-code-cache 2\n', 'kept a file of another head');
  for (const p of got.paths) must(/^[a-z][a-z0-9-]{0,31}$/.test(p), `kept the path name ${JSON.stringify(p)}`);
  const line = got.paths.join(',');
  // The head: 20 bytes of magic, 64 of checksum and a line break; then the paths line and its line break.
  must(bytes.toString('latin1', 85, 85 + line.length + 1) === `${line}\n`, 'kept paths that are not the line read');
  must(got.data.byteLength === bytes.byteLength - 86 - line.length, 'kept data that is not all after the line');
  const sum = createHash('sha256').update(KEY).update('\0').update(line).update('\0').update(got.data).digest('hex');
  must(bytes.toString('latin1', 20, 84) === sum, 'kept a file whose checksum does not hold');
  return 'accepted';
}

export const codeCacheTarget: FuzzTarget = { name: 'code-cache', ext: 'bin', seeds, mutate, run };
