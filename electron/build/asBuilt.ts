import { resolve } from 'node:path';
import type { ResolvedProject } from '../../shared/project/types';

/**
 * The project as a build takes it: `actguy build` and the app's Build (project/buildJob.ts) alike, so that the plan
 * they digest, and with it the record of the last build (lastBuild.ts planDigest), is the same whoever built. The
 * app's Build left out the absolute project file, so a project built by the CLI was never up to date in the app, nor
 * the other way round. A module of its own: the app's main thread plans an Export All with it (projectExportPlan.ts)
 * without taking in the build's compressor.
 */
export function projectAsBuilt(resolved: ResolvedProject, projectFile: string): ResolvedProject {
  return { ...resolved, projectFileAbsolute: resolve(projectFile) };
}
