/**
 * `actguy export-msh --project P -o DIR` and `actguy export-gltf --project P -o DIR`: every motion and alias of a
 * project, one output set each named after it, committed as one unit (electron/build/projectExport.ts,
 * docs/cli.md#whole-project-export).
 */
import { resolve } from 'node:path';
import { cacheUse } from '../build/buildCache';
import { exportProject, type ProjectExportFormat } from '../build/projectExport';
import { diagnosticLines } from '../build/inputs';
import { requiredOption, stringOption, UsageError, type ParsedArgs } from './args';
import { EXIT_FAILED, EXIT_OK } from './command';
import { onInterrupt } from './interrupt';
import { canonicalPath, isInside, quotePath } from '../pathPolicy';

/** Entry lines printed at most; the rest are counted in one line (a project of 1,000 motions prints 21 lines). */
const LISTED_ENTRIES = 20;

/** The options the single export takes that a project export does not: each motion brings its own. */
export function refuseWithProject(args: ParsedArgs, notWith: readonly string[]): string {
  const project = stringOption(args, 'project')!;
  if (args.positionals.length)
    throw new UsageError(
      `--project exports every motion of the project: give no input file as well (got ${args.positionals.join(' ')})`,
    );
  for (const o of notWith)
    if (args.options.has(o))
      throw new UsageError(`--${o} does not apply with --project: each motion takes its own settings from the project`);
  return project;
}

export async function runProjectExport(
  args: ParsedArgs,
  format: ProjectExportFormat,
  extra: {
    jobs?: number;
    glb?: { scale: number; boneMesh: boolean; compressed?: boolean };
    /** The compressed motions' build cache: `dir` undefined for the default beside the project, null for none. */
    cache?: { dir: string | null | undefined };
  } = {},
): Promise<number> {
  const project = stringOption(args, 'project')!;
  const dir = requiredOption(args, 'o', 'DIR');
  const quiet = args.options.has('quiet');
  const linked = outDirLinkNote(dir);
  if (linked) console.error(`note: ${linked}`);
  let committed: string[] | undefined;
  // Ctrl+C: handled between motions and while the pool fits, before the one commit (synchronous, as the build's).
  const interruption = onInterrupt(() =>
    committed
      ? `the export was committed before the signal: ${committed.length} files written in ${dir}`
      : `nothing was written in ${dir}, and no temp file is left`,
  );
  let outcome;
  try {
    const { cache, ...work } = extra;
    outcome = await exportProject(project, format, dir, {
      ...work,
      ...(cache?.dir !== undefined && { cache: { dir: cache.dir } }),
      checkpoint: () => interruption.checkpoint(),
      onCommitted: (paths) => (committed = paths),
    });
  } finally {
    interruption.dispose();
  }
  if (!outcome.ok) {
    console.error(
      [
        ...diagnosticLines(outcome.errors, outcome.warnings),
        `${outcome.errors.length} error${outcome.errors.length === 1 ? '' : 's'}; nothing was written`,
      ].join('\n'),
    );
    return EXIT_FAILED;
  }
  const warned = [
    ...diagnosticLines([], outcome.warnings),
    ...outcome.entries.flatMap((e) => e.warnings.map((w) => `warning: ${e.name}: ${w}`)),
    ...(outcome.note ? [`note: ${outcome.note}`] : []),
  ];
  if (warned.length)
    console.error(
      [
        ...warned.slice(0, LISTED_ENTRIES),
        ...(warned.length > LISTED_ENTRIES ? [`… and ${warned.length - LISTED_ENTRIES} more warnings`] : []),
      ].join('\n'),
    );
  if (!quiet) {
    const lines = outcome.entries.map(
      (e) => `${e.name}${e.of ? ` (alias of ${e.of})` : ''}: ${e.files.join(', ')} (${e.bytes} bytes)`,
    );
    const aliases = outcome.entries.filter((e) => e.of).length;
    console.log(
      [
        ...lines.slice(0, LISTED_ENTRIES),
        ...(lines.length > LISTED_ENTRIES ? [`… and ${lines.length - LISTED_ENTRIES} more`] : []),
        `exported ${outcome.entries.length - aliases} motion${outcome.entries.length - aliases === 1 ? '' : 's'}` +
          (aliases ? ` and ${aliases} alias${aliases === 1 ? '' : 'es'}` : '') +
          ` as ${format === 'msh' ? 'MSH' : extra.glb?.compressed ? 'glTF of the compressed motions' : 'glTF'} into ${dir}: ${outcome.written.length} files, written as one unit` +
          (outcome.cache && !outcome.cache.unusable ? `; ${cacheUse(outcome.cache)}` : ''),
      ].join('\n'),
    );
  }
  return EXIT_OK;
}

/**
 * `-o DIR` as typed is followed wherever its links lead, as `cp` and `tar -C` follow theirs: the user named it, and a
 * link of their own (`out` -> a larger disk) is common. Where a name inside the current folder leads out of it (a
 * received project's planted `ex` -> `~/.config`, met by a command copied from its README), the note says where the
 * outputs go before anything is written (docs/security.md, round 47); undefined otherwise (a loop is refused later).
 * Judged by where the typed path lies, relative or absolute alike (round 48): `-o $PWD/ex` is noted as `-o ex` is; an
 * absolute `-o` elsewhere is not, since a command copied from a README could name any folder that way without a link.
 */
export function outDirLinkNote(dir: string, cwd = process.cwd()): string | undefined {
  const spelled = resolve(cwd, dir);
  if (!isInside(resolve(cwd), spelled)) return undefined;
  let real: string;
  try {
    real = canonicalPath(spelled);
  } catch {
    return undefined;
  }
  if (isInside(canonicalPath(resolve(cwd)), real)) return undefined;
  return `-o ${quotePath(dir)} is led by a symbolic link out of the current folder, to ${quotePath(real)}; the outputs are written there`;
}
