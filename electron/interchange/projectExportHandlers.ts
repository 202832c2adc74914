/**
 * Project › Export All as MSH… / Export All as glTF… in the app: every motion and alias of the open project into one
 * folder (electron/build/projectExport.ts, the code of `actguy export-msh --project`), polled for progress like a
 * build, cancellable until its commit, all the files written as one unit or none.
 *
 * The renderer is untrusted: the project text it sends names what is read, and each of those files must be one the
 * path policy allows (the project's own, granted when it was opened); each file written must pass the policy for
 * writing, granted by the save picker's answer for the files beside it in its folder (a link out grants nothing).
 * The MSH fits run on the compression pool's worker threads, none on this thread (a resampled motion aside).
 */
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import type {
  ProjectExportFormat,
  ProjectExportStatus,
  StartProjectExportDialogRequest,
  StartProjectExportRequest,
} from '../../shared/ipc/project';
import { exportProject } from '../build/projectExport';
import { readBuildInput } from '../build/files';
import type { DialogPort } from '../dialogPort';
import { offeredFileName, requireObject, requirePath, requireString } from '../ipcArgs';
import { allowDialogAnswer, quotePath, type PathPolicy } from '../pathPolicy';
import { toBuildProblem } from '../project/buildJob';
import type { ApiHandlersOf } from '../project/types';
import type { CommitOptions } from '../build/commit';

/** Finished exports kept for a late poll; the oldest goes first. */
const KEPT_EXPORTS = 8;

interface ProjectExportContext {
  policy: PathPolicy;
  dialogs: DialogPort;
  /** How the files are committed; a test seam, the real file system by default. */
  commit?: CommitOptions;
}

type ProjectExportHandlers = ApiHandlersOf<
  'startProjectExport' | 'startProjectExportDialog' | 'getProjectExportStatus' | 'cancelProjectExport'
>;

const FORMATS: Record<ProjectExportFormat, { title: string; extension: string; filter: string }> = {
  msh: {
    title:
      'Export All as MSH: name a file in the folder to export into (every motion gets its .res8, .res19, .nodes.json)',
    extension: 'res8',
    filter: 'MSH animation key pool (.res8)',
  },
  gltf: {
    title: 'Export All as glTF: name a file in the folder to export into (every motion gets its .glb)',
    extension: 'glb',
    filter: 'glTF binary (.glb)',
  },
};

export function createProjectExportHandlers(ctx: ProjectExportContext): ProjectExportHandlers {
  const { policy, dialogs } = ctx;
  const exports = new Map<string, { status: ProjectExportStatus; controller: AbortController }>();

  const requireFormat = (format: unknown, what: string): ProjectExportFormat => {
    if (format !== 'msh' && format !== 'gltf') throw new Error(`${what}: format must be "msh" or "gltf"`);
    return format;
  };

  const start = (req: StartProjectExportRequest, chosen?: string): ProjectExportStatus => {
    const format = requireFormat(req.format, 'startProjectExport');
    const given = requirePath(req.projectPath, 'startProjectExport: projectPath');
    policy.check(given, 'read');
    if (typeof req.projectText !== 'string') throw new Error('startProjectExport: projectText must be a string');
    const folder = dirname(requirePath(req.path, 'startProjectExport: path'));
    const status: ProjectExportStatus = {
      exportId: randomUUID(),
      format,
      state: 'exporting',
      folder,
      done: 0,
      count: 0,
      current: null,
      written: [],
      errors: [],
      warnings: [],
    };
    const controller = new AbortController();
    for (const id of [...exports.keys()].slice(0, Math.max(0, exports.size + 1 - KEPT_EXPORTS)))
      if (exports.get(id)!.status.state !== 'exporting') exports.delete(id);
    exports.set(status.exportId, { status, controller });
    void run(status, controller.signal, req, chosen);
    return { ...status };
  };

  const run = async (
    status: ProjectExportStatus,
    signal: AbortSignal,
    req: StartProjectExportRequest,
    chosen: string | undefined,
  ): Promise<void> => {
    try {
      const outcome = await exportProject(req.projectPath, status.format, status.folder, {
        projectText: req.projectText,
        signal,
        async: true,
        offThread: true,
        commit: ctx.commit,
        readFile: (path, as) => {
          if (!policy.isAllowed(path))
            throw new Error(
              `ActGuy refused to read ${quotePath(path)}: it is not in the workspace, not named by a project you opened with Open Project, and not a file you chose`,
            );
          return readBuildInput(path, as);
        },
        checkWrite: (path) => {
          if (chosen !== undefined) allowDialogAnswer(policy, chosen, path);
          policy.check(path, 'write');
        },
        onCommitStart: () => {
          // From here Cancel no longer stops it: every file is written, or none.
          status.done = status.count;
          status.current = null;
          status.state = 'writing';
        },
        onEntry: (done, count, name) => {
          status.done = done;
          status.count = count;
          status.current = name;
        },
      });
      status.current = null;
      if (outcome.ok) {
        status.done = status.count = outcome.entries.length;
        status.written = outcome.entries.map((e) => ({
          name: e.name,
          ...(e.of && { of: e.of }),
          files: e.files.map((path, k) => ({ path, bytes: e.sizes[k] })),
        }));
        status.warnings = [
          ...outcome.warnings.map((w) => w.message),
          ...outcome.entries.flatMap((e) => e.warnings.map((w) => `${e.name}: ${w}`)),
          ...(outcome.note ? [`note: ${outcome.note}`] : []),
        ];
        status.state = 'done';
      } else if (outcome.cancelled) status.state = 'cancelled';
      else {
        status.errors = outcome.errors.map(toBuildProblem);
        status.warnings = outcome.warnings.map((w) => w.message);
        status.state = 'failed';
      }
    } catch (e) {
      status.current = null;
      status.errors = [toBuildProblem(e)];
      status.state = 'failed';
    }
  };

  const requireExport = (raw: unknown, what: string) => {
    const id = requireString(requireObject<{ exportId: string }>(raw, what).exportId, `${what}: exportId`);
    const found = exports.get(id);
    // Not quoted back: the id is the page's, of any length.
    if (!found) throw new Error(`${what}: no such export (it never began, or it ended and was dropped)`);
    return found;
  };

  return {
    startProjectExport: async (raw) => start(requireObject<StartProjectExportRequest>(raw, 'startProjectExport')),

    startProjectExportDialog: async (raw) => {
      const req = requireObject<StartProjectExportDialogRequest>(raw, 'startProjectExportDialog');
      const format = requireFormat(req.format, 'startProjectExportDialog');
      const projectPath = requirePath(req.projectPath, 'startProjectExportDialog: projectPath');
      const f = FORMATS[format];
      const chosen = await dialogs.chooseFileToSave({
        title: f.title,
        filters: [{ name: f.filter, extensions: [f.extension] }],
        defaultPath: join(dirname(projectPath), offeredFileName(req.defaultName, `motion.${f.extension}`)),
      });
      if (!chosen) return { status: 'cancelled' };
      const { projectText } = req;
      return start({ projectPath, projectText, format, path: chosen }, chosen);
    },

    getProjectExportStatus: async (raw) => ({ ...requireExport(raw, 'getProjectExportStatus').status }),

    cancelProjectExport: async (raw) => {
      const found = requireExport(raw, 'cancelProjectExport');
      found.controller.abort();
      // Before the commit the export stops at its next step; wait for it to say so.
      while (found.status.state === 'exporting') await new Promise((r) => setTimeout(r, 20));
      return { ...found.status };
    },
  };
}
