/**
 * What an export of a whole project (projectExport.ts) reads and writes, and what its commit would refuse of its
 * outputs: the part of the export the app's main thread runs, before its worker reads a motion
 * (interchange/projectExportHandlers.ts), and the CLI's too. Nothing here parses a project, reads an input, fits an
 * MSH or encodes a GLB: the plan itself is made from the project text in projectExportParse.ts, which the main
 * process bundle never takes in (electron/project/textCheck.test.ts checks it holds no project parser).
 */
import { basename, resolve as resolvePath, join } from 'node:path';
import type { ResolvedProject } from '../../shared/project/types';
import { FormatError } from '../../shared/errors';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { mshFilesOf } from '../../shared/msh/files';
import { windowsNameProblem } from '../../shared/windowsNames';
import { foldedTwins } from '../../shared/foldedNames';
import { projectRedactor } from '../outsideQuotes';
import { findOutputClashes, type RolePath } from '../pathIdentity';
import { quotePath } from '../pathPolicy';
import { outputFolderProblem } from '../fsErrors';
import { journalRefusedBeforeBuild, otherKindProblem, type OutputFile, type OutputKind } from './commit';
import { lockRefusedBeforeBuild } from './commitLock';
import { mshOutputKind } from './mshOutputKinds';

/** What a refusal to replace a file in the export's folder tells the user to do. */
const INSTEAD = 'move that file away or export into another folder';

/** The first bytes of every GLB ActGuy writes: the magic, then its JSON chunk opening with the asset's generator. */
const GLB_GENERATOR = '"generator":"ActGuy motion exporter"';

/**
 * An existing `.glb` in the export's folder is replaced only when it is one ActGuy wrote (its asset's generator):
 * a folder of the user's own glTF files keeps them.
 */
const ACTGUY_GLB_KIND: OutputKind = {
  name: 'a glTF file ActGuy exported',
  told: `those start "glTF" and name ${GLB_GENERATOR} in their JSON`,
  headBytes: 256,
  accepts: (head) => {
    if (head.length < 20 || new TextDecoder().decode(head.subarray(0, 4)) !== 'glTF') return false;
    return new TextDecoder().decode(head.subarray(20)).includes(GLB_GENERATOR);
  },
  instead: INSTEAD,
};

export type ProjectExportFailure = { ok: false; errors: FormatError[]; warnings: FormatError[] };

/**
 * An export as the project text plans it, before any input is read: what it reads and what it writes. The app's main
 * thread makes it to decide, before its worker starts, what that worker may read and write.
 */
export interface ProjectExportPlan {
  projectFile: string;
  format: ProjectExportFormat;
  /** The project as built, its `.sev` files and SE tables left out: they shape no MSH or glTF (a broken one stops nothing). */
  motionsOnly: ResolvedProject;
  /** The project's inputs, as named (the project file, every .mtn, .sev and SE table): no output may be one of them. */
  inputs: RolePath[];
  /** Every motion, then every alias, each with its files (`motion`: the index of the motion it exports). */
  entries: { name: string; of?: string; motion: number; files: string[] }[];
  /** Every file the export writes, in the order they are committed. */
  writes: string[];
  /** The project text's own warnings. */
  warnings: FormatError[];
}

/**
 * What main needs of a plan to decide the export's reads and writes (the plan without the parsed project): the
 * app's main thread has it from its worker's first call (interchange/projectExportJob.ts `planExportJob`).
 */
export type ExportPlanOutline = Pick<ProjectExportPlan, 'projectFile' | 'format' | 'inputs' | 'entries' | 'writes'>;

/** A failure with its problems told as a build tells them: one in a file outside the project's folder by its place. */
export function exportFailure(
  projectFile: string,
  errors: FormatError[],
  warnings: FormatError[] = [],
): ProjectExportFailure {
  const redact = projectRedactor(projectFile);
  return { ok: false, errors: errors.map(redact), warnings: warnings.map(redact) };
}

/** The file names of entry `name` in `dir`. */
export function projectExportFiles(format: ProjectExportFormat, dir: string, name: string): string[] {
  if (format === 'gltf') return [join(dir, `${name}.glb`)];
  const f = mshFilesOf(join(dir, name));
  return [f.res8, f.res19, f.nodes];
}

/** The kind an existing file at an output's name must be for the commit to replace it. */
function exportOutputKind(format: ProjectExportFormat, path: string): OutputKind | undefined {
  return format === 'gltf' ? ACTGUY_GLB_KIND : mshOutputKind(path, INSTEAD);
}

/** The made files as the commit takes them (`path` one of the plan's writes). */
export function exportOutputFiles(
  format: ProjectExportFormat,
  files: readonly { path: string; bytes: Uint8Array }[],
): OutputFile[] {
  return files.map((f) => ({ path: f.path, bytes: f.bytes, kind: exportOutputKind(format, f.path) }));
}

/**
 * What the commit would refuse of the plan's outputs, each located at the export folder: one that is an input of the
 * project, however spelled (a link, another letter case), two outputs one file, one `checkWrite` refuses (the app's
 * path policy, with what it throws), a folder or an existing file the commit refuses. A journal or a lock the commit
 * would meet is thrown, as `actguy build` throws it.
 */
export function refusedOutputs(plan: ExportPlanOutline, checkWrite?: (path: string) => void): FormatError[] {
  const located = (problem: string) =>
    new FormatError('PROJECT', problem, { where: 'export folder' }, plan.projectFile);
  const names = entryNameProblems(plan.entries);
  if (names.length) return names.map(located);
  const clashes = findOutputClashes(
    plan.inputs,
    plan.entries.flatMap((e) => e.files.map((path) => ({ path, role: `${e.name}'s ${fileEnding(path)}` }))),
  );
  if (clashes.length) return clashes.map(located);
  const refused: string[] = [];
  for (const path of plan.writes) {
    try {
      checkWrite?.(path);
    } catch (e) {
      refused.push((e as Error).message);
      continue;
    }
    const problem =
      outputFolderProblem(resolvePath(path), path) ??
      otherKindProblem({ path, kind: exportOutputKind(plan.format, path) });
    if (problem) refused.push(problem);
  }
  if (refused.length) return refused.map(located);
  const journal = journalRefusedBeforeBuild(plan.writes);
  if (journal) throw journal;
  const lock = lockRefusedBeforeBuild(plan.writes);
  if (lock) throw lock;
  return [];
}

/**
 * The entries whose files no folder could keep wherever the project goes, as a build refuses its MSH outputs
 * (shared/project/validate.ts checkOutputPaths): a Windows device name (`nul.glb` is the null device there), and two
 * names that differ only in letter case (`walk`, `Walk`), one file on macOS, Windows and a FAT or exFAT disk, however
 * mounted: there the second's files replaced the first's inside the one commit, and the list said both were written.
 * This disk's own case rule (findOutputClashes) cannot be told from a Linux mount of such a disk (docs/security.md,
 * round 43). The fold is the build's (shared/foldedNames.ts); motion names are ASCII (shared/motionName.ts), so it
 * folds letter case alone here.
 */
function entryNameProblems(entries: ExportPlanOutline['entries']): string[] {
  const problems: string[] = [];
  const twins = foldedTwins<string>();
  for (const e of entries) {
    const what = e.of === undefined ? 'motion' : 'alias';
    const windows = windowsNameProblem(basename(e.files[0]));
    if (windows)
      problems.push(`${what} ${e.name}: ${windows}; projects are shared with Windows, so rename the ${what}`);
    const earlier = twins.earlierTwin(e.name, e.name);
    if (earlier !== undefined)
      problems.push(
        `${earlier} and ${e.name} differ only in letter case: their files are one file on macOS, Windows and FAT or exFAT ` +
          `disks (a USB stick), where one would replace the other: rename one (nothing was written)`,
      );
  }
  return problems;
}

function fileEnding(path: string): string {
  const m = /\.(res8|res19|nodes\.json|glb)$/.exec(path);
  return m ? `.${m[1]}` : path;
}

/** The refusal of a read the app's path policy did not allow (main's words and the job's). */
export function readRefusal(path: string): string {
  return `ActGuy refused to read ${quotePath(path)}: it is not in the workspace, not named by a project you opened with Open Project, and not a file you chose`;
}
