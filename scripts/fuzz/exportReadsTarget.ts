/**
 * Fuzz target `export-reads` (added 2026-12-06): the files Export All's thread may read, as main hands them over
 * (`ProjectExportAllowed.reads`: each motion's path with its identity when main's policy allowed it, as build/files.ts
 * judgeFile gives it), and the thread's reads of them (electron/interchange/projectExportJob.ts: planExportJob, then
 * runProjectExportJob with the real reader, readBuildInput). Each input is a project text (mutated as the `project`
 * target's) naming files in a scratch project folder: motions, a link to one of them, a motion in a subfolder, a
 * name that is missing, a link out of the folder. Main's part is played as main plays it: a path outside the
 * project folder is refused before the work, the others judged; then, chosen by the input's bytes, the folder
 * changes between main's judging and the thread's reading, as whoever may write it could change it: `a.mtn` replaced
 * by another file of the same bytes, `b.mtn` replaced by a link to a file outside, `missing.mtn` made.
 *
 * Judged: the thread never throws; it reads only paths main listed, each with the identity main judged it by; an
 * export that ends `done` read no file changed since it was judged, and hands back exactly the files planned, each
 * once, none outside the export folder; one that read a changed file ends `failed`, naming that file. Nothing is
 * written: the project folder holds what it held. Accepted: `done`; rejected: refused by main, or `failed`.
 */
import { mkdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeMtn } from '../../shared/mtn/write';
import { syntheticMotion } from '../../shared/testing/syntheticMotion';
import { readBuildInput, type JudgedFile } from '../../electron/build/files';
import {
  planExportJob,
  runProjectExportJob,
  type ProjectExportAllowed,
} from '../../electron/interchange/projectExportJob';
import { FuzzDefect, describeThrown, type FuzzTarget, type Outcome } from './judge';
import type { Rng } from './mutate';
import { namesIn, withScratchAsync } from './scratch';

function must(cond: boolean, what: string): void {
  if (!cond) throw new FuzzDefect('invalid', what);
}

const OUTPUTS = '"outputs":{"mar":"o/s.mar","sar":"o/s.sar"}';
const SEEDS = [
  `{"version":1,"motions":[{"name":"a","mtn":"a.mtn"},{"name":"b","mtn":"b.mtn"},{"name":"c","mtn":"c.mtn"}],"aliases":[{"name":"x","target":"a"}],${OUTPUTS}}`,
  `{"version":1,"motions":[{"name":"d","mtn":"sub/d.mtn"},{"name":"b","mtn":"b.mtn"}],${OUTPUTS}}`,
  `{"version":1,"motions":[{"name":"c","mtn":"c.mtn"},{"name":"a2","mtn":"./sub/../a.mtn"}],${OUTPUTS}}`,
  `{"version":1,"motions":[{"name":"m","mtn":"missing.mtn"},{"name":"e","mtn":"e.mtn"}],${OUTPUTS}}`,
];

/** The project folder's files: two motions, a link to one, one in a subfolder, a link out to the sentinel. */
function makeProject(dir: string): void {
  mkdirSync(join(dir, 'sub'));
  mkdirSync(join(dir, 'out'));
  writeFileSync(join(dir, 'a.mtn'), writeMtn(syntheticMotion({ frames: 3, joints: 2, seed: 1 })));
  writeFileSync(join(dir, 'b.mtn'), writeMtn(syntheticMotion({ frames: 2, joints: 1, seed: 2 })));
  writeFileSync(join(dir, 'sub', 'd.mtn'), writeMtn(syntheticMotion({ frames: 4, joints: 2, seed: 3 })));
  symlinkSync('a.mtn', join(dir, 'c.mtn'));
  symlinkSync(join('..', '..', 'outside', 'sentinel.txt'), join(dir, 'e.mtn'));
}

/**
 * Main's judgement of an allowed path, played: the identity (`dev:ino`, links followed) of the file there now, null
 * where nothing is (build/files.ts judgeFile gives the same for a path its policy allows).
 */
function judged(path: string): JudgedFile {
  try {
    const st = statSync(path, { bigint: true });
    return { path, identity: `${st.dev}:${st.ino}` };
  } catch {
    return { path, identity: null };
  }
}

/**
 * Which changes the folder sees between main's judging and the thread's reading (bits 1, 2 and 4), a function of the
 * input: none for half the inputs.
 */
function changesOf(input: Uint8Array): number {
  let h = 0;
  for (const b of input) h = (h * 31 + b) >>> 0;
  return h % 16 < 8 ? 0 : h % 8;
}

/** Makes the changes `flags` asks for; returns the paths changed since main judged them. */
function change(dir: string, outside: string, flags: number): string[] {
  const changed: string[] = [];
  if (flags & 1) {
    // Another file of the same bytes at a.mtn's name (renamed over it: another inode).
    const a = join(dir, 'a.mtn');
    writeFileSync(`${a}.new`, writeMtn(syntheticMotion({ frames: 3, joints: 2, seed: 1 })));
    renameSync(`${a}.new`, a);
    changed.push(a);
  }
  if (flags & 2) {
    const b = join(dir, 'b.mtn');
    symlinkSync(join(outside, 'sentinel.txt'), `${b}.link`);
    renameSync(`${b}.link`, b);
    changed.push(b);
  }
  if (flags & 4) {
    const m = join(dir, 'missing.mtn');
    writeFileSync(m, writeMtn(syntheticMotion({ frames: 2, joints: 1, seed: 4 })));
    changed.push(m);
  }
  return changed;
}

async function runIn(dir: string, outside: string, input: Uint8Array): Promise<Outcome> {
  makeProject(dir);
  const projectPath = join(dir, 'p.actguy.json');
  const folder = join(dir, 'out');
  const text = Buffer.from(input).toString('utf8');
  const format = input.byteLength % 4 === 0 ? 'msh' : 'gltf';
  const { answer, plan } = planExportJob({ projectPath, projectText: text, format, folder });
  if (answer.type === 'failed') {
    must(answer.errors.length > 0 && answer.errors.every((e) => !!e.message), 'the plan failed without a message');
    return 'rejected';
  }
  must(!!plan, 'planned without a plan');
  // Main's policy, played: only files in the project folder (a path elsewhere is refused before the work).
  if (answer.reads.some((r) => dirname(r.path) !== dir && dirname(r.path) !== join(dir, 'sub'))) return 'rejected';
  const allowed: ProjectExportAllowed = {
    reads: [...new Set(answer.reads.map((m) => m.path))].map(judged),
    writes: answer.outline.writes,
  };
  const identities = new Map(allowed.reads.map((r) => [r.path, r.identity]));
  const changed = change(dir, outside, changesOf(input));
  const before = namesIn(dir);
  const read: string[] = [];
  let end: Awaited<ReturnType<typeof runProjectExportJob>>;
  try {
    end = await runProjectExportJob(plan!, { jobs: 1 }, allowed, () => undefined, {
      readFile: (path, as, identity) => {
        must(identities.has(path), `reads ${path}, which main did not list`);
        must(identity === identities.get(path), `reads ${path} as ${identity}, main judged it ${identities.get(path)}`);
        read.push(path);
        return readBuildInput(path, as, identity);
      },
    });
  } catch (e) {
    if (e instanceof FuzzDefect) throw e;
    throw new FuzzDefect('crash', `the export's work threw: ${describeThrown(e)}`);
  }
  must(namesIn(dir).join() === before.join(), `the project folder changed: ${namesIn(dir).join(', ')}`);
  const readChanged = changed.filter((p) => read.includes(p));
  if (end.type === 'done') {
    must(readChanged.length === 0, `read ${readChanged.join(', ')}, changed since main judged it, and went on`);
    const handed = end.files.map((f) => f.path);
    must(new Set(handed).size === handed.length, 'hands back a file twice');
    must(handed.slice().sort().join('\n') === plan!.writes.slice().sort().join('\n'), 'hands back other files');
    for (const p of handed) must(dirname(p) === folder, `hands back ${p}, outside the export folder`);
    return 'accepted';
  }
  must(end.errors.length > 0 && end.errors.every((e) => !!e.message), 'failed without a message');
  for (const p of readChanged.slice(0, 1))
    must(
      end.errors.some((e) => e.message.includes(p) || e.file === p),
      `read ${p} after it changed; the failure does not name it: ${end.errors[0].message.slice(0, 200)}`,
    );
  return 'rejected';
}

/** The target; `mutate` is the `project` target's (token and tree edits with a project's names and paths). */
export function exportReadsTarget(mutate: (rnd: Rng, seed: Uint8Array) => Uint8Array): FuzzTarget {
  return {
    name: 'export-reads',
    ext: 'json',
    seeds: () => SEEDS.map((s) => new Uint8Array(Buffer.from(s))),
    mutate,
    run: (input) => withScratchAsync('export-reads', ({ state, outside }) => runIn(state, outside, input)),
  };
}
