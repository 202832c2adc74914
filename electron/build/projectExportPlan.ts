/**
 * What an export of a whole project (projectExport.ts) reads and writes, planned from the project text alone, and
 * what its commit would refuse of its outputs: the part of the export the app's main thread runs, before its worker
 * reads a motion (interchange/projectExportHandlers.ts), and the CLI's too. Nothing here reads an input, fits an MSH or
 * encodes a GLB.
 */
import { resolve as resolvePath, join } from 'node:path';
import { FormatError } from '../../shared/errors';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { mshFilesOf } from '../../shared/msh/files';
import { normalizePath } from '../../shared/project/paths';
import type { ResolvedProject } from '../../shared/project/types';
import { parseProject } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { TEXT_LIMIT } from '../fsutil';
import { projectRedactor } from '../outsideQuotes';
import { findOutputClashes, type RolePath } from '../pathIdentity';
import { quotePath } from '../pathPolicy';
import { projectAsBuilt } from './asBuilt';
import {
  journalRefusedBeforeBuild,
  otherKindProblem,
  outputFolderProblem,
  type OutputFile,
  type OutputKind,
} from './commit';
import { lockRefusedBeforeBuild } from './commitLock';
import { readInputFile } from './files';
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
function projectExportFiles(format: ProjectExportFormat, dir: string, name: string): string[] {
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
 * Plans the export of the project at `projectPath` (its text `projectText`, or the file's) into `outDir`: the project
 * text is parsed, no input is read.
 */
export function planProjectExport(
  projectPath: string,
  format: ProjectExportFormat,
  outDir: string,
  projectText?: string,
): { ok: true; plan: ProjectExportPlan } | ProjectExportFailure {
  const projectFile = normalizePath(projectPath);
  let text: string;
  try {
    text = projectText ?? decodeUtf8Text(readInputFile(projectFile, TEXT_LIMIT), 'PROJECT', projectFile);
  } catch (e) {
    if (e instanceof FormatError) return exportFailure(projectFile, [e]);
    const problem = `cannot read the project file: ${(e as Error).message}`;
    return exportFailure(projectFile, [new FormatError('PROJECT', problem, {}, projectFile)]);
  }
  const parsed = parseProject(text, projectFile);
  if (!parsed.resolved) return exportFailure(projectFile, parsed.errors);
  const project = projectAsBuilt(parsed.resolved, projectFile);
  const motionsOnly: ResolvedProject = {
    ...project,
    motions: project.motions.map((m) => ({ ...m, sevPath: undefined })),
    slsPath: undefined,
    seDefinePath: undefined,
  };
  const dir = normalizePath(outDir);
  const entries: ProjectExportPlan['entries'] = [
    ...project.motions.map((m) => ({ name: m.name, motion: m.index, files: projectExportFiles(format, dir, m.name) })),
    ...project.aliases.map((a) => ({
      name: a.name,
      of: a.target,
      motion: a.targetIndex,
      files: projectExportFiles(format, dir, a.name),
    })),
  ];
  const inputs: RolePath[] = [
    { path: projectFile, role: 'the project file' },
    ...project.motions.flatMap((m) => [
      { path: m.mtnPath, role: `motions[${m.index}].mtn` },
      ...(m.sevPath ? [{ path: m.sevPath, role: `motions[${m.index}].sev` }] : []),
    ]),
    ...(project.slsPath ? [{ path: project.slsPath, role: 'seTables.sls' }] : []),
    ...(project.seDefinePath ? [{ path: project.seDefinePath, role: 'seTables.seDefine' }] : []),
  ];
  const writes = entries.flatMap((e) => e.files);
  return {
    ok: true,
    plan: { projectFile, format, motionsOnly, inputs, entries, writes, warnings: parsed.warnings ?? [] },
  };
}

/**
 * What the commit would refuse of the plan's outputs, each located at the export folder: one that is an input of the
 * project, however spelled (a link, another letter case), two outputs one file, one `checkWrite` refuses (the app's
 * path policy, with what it throws), a folder or an existing file the commit refuses. A journal or a lock the commit
 * would meet is thrown, as `actguy build` throws it.
 */
export function refusedOutputs(plan: ProjectExportPlan, checkWrite?: (path: string) => void): FormatError[] {
  const located = (problem: string) =>
    new FormatError('PROJECT', problem, { where: 'export folder' }, plan.projectFile);
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

function fileEnding(path: string): string {
  const m = /\.(res8|res19|nodes\.json|glb)$/.exec(path);
  return m ? `.${m[1]}` : path;
}

/** The refusal of a read the app's path policy did not allow (main's words and the job's). */
export function readRefusal(path: string): string {
  return `ActGuy refused to read ${quotePath(path)}: it is not in the workspace, not named by a project you opened with Open Project, and not a file you chose`;
}
