/**
 * Fuzz target `second-launch`: the command line a second launch hands the running app (Electron's `second-instance`
 * argv and folder, and the argv and folder the launch sends as the lock's additional data), read as main reads it
 * (secondLaunchCommandLine, parseCommandLine, commandLineRefusals, commandLineFilesNotOpened; electron/systemFiles.ts),
 * and the same argv read as a first launch's (firstLaunchFiles, with no look at the files on disk). Anyone who can start
 * the app as the user (a shortcut, a file manager's `%U`, a script handed over) chooses every byte of it.
 *
 * An input is JSON `{ "argv": [...], "cwd": "...", "data": ... }`; text that is not JSON of that shape is taken as
 * Electron's argv, a line each, started in `/`. Judged: any throw is a crash; the command line read must be strings
 * (the data's only when it has the shape sent); every file offered is an absolute path of at most 4096 characters with
 * no NUL; a workspace kept is an absolute path of at most 4096 characters with no control or invisible character; every
 * refusal shows no such character raw, is bounded and ends as the refusals end; a value holding a NUL that names a file
 * is refused and said (docs/security.md, round 46). Accepted when nothing is refused.
 */
import { isAbsolute } from 'node:path';
import { HIDDEN_CHARACTERS } from '../../shared/errors';
import {
  commandLineFilesNotOpened,
  commandLineRefusals,
  firstLaunchFiles,
  parseCommandLine,
  secondLaunchCommandLine,
} from '../../electron/systemFiles';
import { mutateJsonDocument, type Rng } from './mutate';
import { describeThrown, FuzzDefect, type FuzzTarget, type Outcome } from './judge';

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const TOKENS = ['"--workspace"', '"--workspace="', '"\\u0000"', '"\\u202e"', '"\\u200b"', '"\\n"', '"file://"', 'null'];
const STRINGS = [
  '--workspace',
  '--workspace=',
  '--workspace=/ws\u0000/etc',
  '--workspace=ws',
  '--workspace=/p/\u202eslx.mtn',
  '--workspace=..',
  '/p/wa\u0000lk.mtn',
  'wa\u0000lk.mtn',
  'file:///p/r%00un.mtn',
  'file:///p/a%2Fb.mtn',
  'file://host/share/x.mtn',
  'https://evil.example/x.mtn',
  '/p/notes.txt',
  '/p/\u200bwalk.sev',
  '/p/stage.actguy.json',
  '-',
  '--',
  '.',
  '',
  'x'.repeat(5000),
  `/${'a/'.repeat(2100)}w.mtn`,
  '/home/u\u0000',
  'relative/folder',
  '__proto__',
];

function seeds(): Uint8Array[] {
  const sent = { argv: ['/usr/bin/actguy', 'walk.mtn', '--workspace', '/ws'], cwd: '/home/u' };
  return [
    {
      argv: ['/usr/bin/actguy', '--workspace', 'walk.mtn', '/ws', '--original-process-start-time=1'],
      cwd: '/',
      data: sent,
    },
    { argv: ['/usr/bin/actguy', 'file:///p/walk%202.mtn', 'x.sev', '--workspace=ws2', 'notes.txt'], cwd: '/home/u' },
  ].map((s) => new Uint8Array(Buffer.from(JSON.stringify(s))));
}

const mutate = (rnd: Rng, input: Uint8Array): Uint8Array => mutateJsonDocument(rnd, input, TOKENS, STRINGS);

/** Electron's argv, folder and the lock's data from an input (see the file's head). */
function launchOf(input: Uint8Array): { argv: string[]; cwd: string; data: unknown } {
  const text = Buffer.from(input).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const v = value as { argv?: unknown; cwd?: unknown; data?: unknown } | null | undefined;
  if (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.argv) &&
    v.argv.every((a) => typeof a === 'string') &&
    typeof v.cwd === 'string'
  )
    return { argv: v.argv as string[], cwd: v.cwd, data: v.data };
  return { argv: text.split('\n'), cwd: '/', data: undefined };
}

/** The ends of the refusals commandLineRefusals and commandLineFilesNotOpened's callers give. */
const REFUSAL_END = /(Nothing was opened\.|ActGuy opened no workspace folder\.)$/;

function checkRead(argv: readonly string[], cwd: string, refusals: readonly string[]): void {
  const { files, workspace } = parseCommandLine(argv, cwd);
  for (const f of files)
    must(isAbsolute(f) && f.length <= 4096 && !f.includes('\0'), `offered the file ${JSON.stringify(f).slice(0, 120)}`);
  for (const f of commandLineFilesNotOpened(argv, cwd, false))
    must(!f.includes('\0') && f.length <= 4096, `said the file ${JSON.stringify(f).slice(0, 120)} of another kind`);
  if (workspace !== null)
    must(
      isAbsolute(workspace) && workspace.length <= 4096 && !HIDDEN_CHARACTERS.test(workspace),
      `kept the workspace ${JSON.stringify(workspace).slice(0, 120)}`,
    );
  for (const r of refusals) {
    must(!HIDDEN_CHARACTERS.test(r), `a refusal shows a hidden character raw: ${JSON.stringify(r).slice(0, 160)}`);
    must(r.length <= 1000, `a refusal of ${r.length} characters`);
    must(REFUSAL_END.test(r), `a refusal that says nothing of what was done: ${JSON.stringify(r).slice(0, 160)}`);
  }
  // A value naming a file with a NUL in it is said, never passed over nor taken (a `file://` URL of another host or
  // scheme names no file, and a switch is Chromium's).
  let nulFile = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--workspace') i++;
    else if (!a.startsWith('-') && a.includes('\0') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(a)) nulFile = true;
  }
  if (nulFile)
    if (!refusals.some((r) => r.includes('it holds a NUL character, which no file name holds')))
      throw new FuzzDefect('unnamed', 'a file named with a NUL was passed over without a word');
}

function run(input: Uint8Array): Outcome {
  const { argv, cwd, data } = launchOf(input);
  let refused = 0;
  try {
    const launch = secondLaunchCommandLine(argv, cwd, data);
    must(
      Array.isArray(launch.argv) && launch.argv.every((a) => typeof a === 'string') && typeof launch.cwd === 'string',
      'the command line read is not strings',
    );
    must(launch.argv.length <= Math.max(argv.length, 10_000), `${launch.argv.length} arguments read`);
    const refusals = commandLineRefusals(launch.argv, launch.cwd);
    checkRead(launch.argv, launch.cwd, refusals);
    refused += refusals.length;
    // The same argv as a first launch's: its refusals are start-up warnings.
    const first = firstLaunchFiles(argv, cwd, () => undefined, false);
    checkRead(argv, cwd, first.refusals);
    if (first.workspace !== null)
      must(!HIDDEN_CHARACTERS.test(first.workspace), `a first launch kept the workspace ${first.workspace}`);
    refused += first.refusals.length;
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', describeThrown(e));
  }
  return refused > 0 ? 'rejected' : 'accepted';
}

export const secondLaunchTarget: FuzzTarget = { name: 'second-launch', ext: 'json', seeds, mutate, run };
