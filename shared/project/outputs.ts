/**
 * Every file a build writes, with the project key that names it: the .mar,
 * the .sar, the report and, when the project lists `outputs.msh`, each
 * entry's MSH export. The clash checks (validate.ts by spelling, the Node
 * side by file identity), the app's write policy and the build itself read
 * this one list, so an MSH file can never slip past them.
 */
import { quoteJson } from '../errors';
import { encodeUtf8 } from '../utf8';
import { FILE_NAME_MAX_BYTES } from '../fileSystemLimits';
import { mshFilesOf } from '../msh/files';
import type { ResolvedProject } from './types';

export interface ProjectOutputFile {
  path: string;
  /** The project key that names it: `outputs.mar`, `outputs.sar`, `outputs.report` or `outputs.msh`. */
  key: string;
  /** How a message names it: the key, with the file name for an MSH file (`outputs.msh walk.res8`). */
  role: string;
}

/** `DIR/<name>` inside the MSH folder (the folder as resolved, without a trailing separator). */
export function mshPrefixIn(mshDir: string, name: string): string {
  return `${mshDir.replace(/[\\/]+$/, '')}/${name}`;
}

/** The MSH files of `outputs.msh`: `<name>.res8`, `.res19`, `.nodes.json` of every motion, then of every alias. */
export function mshOutputFiles(p: Pick<ResolvedProject, 'mshDir' | 'motions' | 'aliases'>): ProjectOutputFile[] {
  const dir = p.mshDir;
  if (dir === undefined) return [];
  return [...p.motions.map((m) => m.name), ...p.aliases.map((a) => a.name)].flatMap((name) => {
    const f = mshFilesOf(mshPrefixIn(dir, name));
    return [f.res8, f.res19, f.nodes].map((path) => ({
      path,
      key: 'outputs.msh',
      role: `outputs.msh ${path.slice(path.lastIndexOf('/') + 1)}`,
    }));
  });
}

/** Every output of a build, in the order the build writes them. */
export function projectOutputFiles(
  p: Pick<ResolvedProject, 'marPath' | 'sarPath' | 'reportPath' | 'mshDir' | 'motions' | 'aliases'>,
): ProjectOutputFile[] {
  return [
    { path: p.marPath, key: 'outputs.mar', role: 'outputs.mar' },
    { path: p.sarPath, key: 'outputs.sar', role: 'outputs.sar' },
    { path: p.reportPath, key: 'outputs.report', role: 'outputs.report' },
    ...mshOutputFiles(p),
  ];
}

/**
 * The extension each output a project names must end in, letter case aside (docs/security.md): a project is a
 * file people receive, and one naming `"report": "notes.md"` would have a build replace the user's notes. The
 * MSH files take theirs from the motion names (`.res8`, `.res19`, `.nodes.json`).
 */
export const OUTPUT_EXTENSIONS = { 'outputs.mar': '.mar', 'outputs.sar': '.sar', 'outputs.report': '.json' } as const;

/**
 * The longest file name an output a project names may have, in UTF-8 bytes. A build writes files of its own beside
 * its outputs, named after them (docs/safety-journal.md): the longest, the journal's temp beside the first output,
 * adds `.actguy-commit.actguy-journal.<host>.<pid>.<random>.tmp`, up to 116 bytes with a host name of 64, and a
 * file name holds at most 255 bytes on every disk ActGuy runs on. A `.mar` named 251 bytes long was compressed in
 * full and then refused at the commit with "ENAMETOOLONG" naming the lock, a file the user never named; and the host
 * name is the machine's, so a project that builds on one machine would fail on a colleague's. Refused by name at
 * validation instead, before any work (docs/security.md, round 11).
 */
export const OUTPUT_NAME_MAX_BYTES = 128;

/** Why `path` cannot be the file of output `key`, or undefined when its name ends in the key's extension and is not too long. */
export function outputNameProblem(key: keyof typeof OUTPUT_EXTENSIONS, path: string): string | undefined {
  const ext = OUTPUT_EXTENSIONS[key];
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  if (!(name.length > ext.length && name.toLowerCase().endsWith(ext)))
    return `must name a ${ext} file (a build replaces the file it names), found ${quoteJson(path)}`;
  const bytes = encodeUtf8(name).length;
  if (bytes > OUTPUT_NAME_MAX_BYTES)
    return (
      `names a file of ${bytes} bytes, ${quoteJson(name)}; an output's name may have at most ${OUTPUT_NAME_MAX_BYTES} ` +
      `(a build's journal and temp files beside it add their own suffix to it, and a file name holds ${FILE_NAME_MAX_BYTES} bytes)`
    );
  return undefined;
}
