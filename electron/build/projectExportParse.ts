/**
 * An export of a whole project planned from the project text (its motions and aliases, the files each makes, the
 * project's inputs), before any input is read. Only the CLI and the export's worker take this module in: the app's main
 * process bundle holds no project parser (electron/project/textCheck.test.ts), so its main thread has the plan's
 * outline from the worker (interchange/projectExportJob.ts `planExportJob`).
 */
import { FormatError } from '../../shared/errors';
import type { ProjectExportFormat } from '../../shared/ipc/project';
import { normalizePath } from '../../shared/project/paths';
import type { ResolvedProject } from '../../shared/project/types';
import { parseProject } from '../../shared/project/validate';
import { decodeUtf8Text } from '../../shared/sev/text';
import { TEXT_LIMIT } from '../fsutil';
import type { RolePath } from '../pathIdentity';
import { projectAsBuilt } from './asBuilt';
import { readInputFile } from './files';
import {
  exportFailure,
  projectExportFiles,
  type ProjectExportFailure,
  type ProjectExportPlan,
} from './projectExportPlan';

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
