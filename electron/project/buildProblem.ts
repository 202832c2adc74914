import { FormatError } from '../../shared/errors';
import { plainFileProblem } from '../../shared/fileProblem';
import type { BuildProblem } from '../../shared/ipc/project';

/**
 * A FormatError (or any Error) as a problem the renderer can place and click. A module of its own: the app's main
 * thread words Export All's refusals with it (interchange/projectExportHandlers.ts) without taking in the build.
 */
export function toBuildProblem(e: unknown): BuildProblem {
  if (e instanceof FormatError) {
    const p: BuildProblem = { message: e.message, kind: e.kind };
    if (e.file !== undefined) p.file = e.file;
    if (e.place.line !== undefined) p.line = e.place.line;
    if (e.place.column !== undefined) p.column = e.place.column;
    if (e.place.where !== undefined) p.where = e.place.where;
    p.plain = plainFileProblem(e.kind, e.detail, e.place, e.file);
    return p;
  }
  return { message: e instanceof Error ? e.message : String(e) };
}
