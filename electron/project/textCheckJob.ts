/**
 * The text check itself (SEV and project parsing), as the text-check worker
 * runs it. Only the worker and tests import this file: the main process
 * bundle must not contain the parsers (electron/packaging.test.ts checks).
 */
import { resolveFrom } from '../../shared/project/paths';
import { windowsPathProblem } from '../../shared/windowsNames';
import { projectOutputFiles } from '../../shared/project/outputs';
import { MAX_PROJECT_ENTRIES, parseProject } from '../../shared/project/validate';
import { parseSev } from '../../shared/sev/parse';
import type { TextChecker, TextCheckRequest, TextCheckResult } from './textCheck';

/** The check itself (the worker runs this; tests call it in-process). */
export function checkText(req: TextCheckRequest): TextCheckResult {
  if (req.kind === 'sev')
    return { errors: parseSev(req.text, req.path).errors.map((e) => e.message), named: { inputs: [], outputs: [] } };
  return {
    errors: parseProject(req.text, req.path).errors.map((e) => e.message),
    named: pathsNamedByProject(req.text, req.path),
  };
}

/** Checks on the calling thread (unit tests that need no bundle). */
export const inProcessTextChecker: TextChecker = async (req) => checkText(req);

/** Every path a project text names, resolved (also for a project with validation errors, as far as its JSON goes). */
export function pathsNamedByProject(text: string, projectFile: string): TextCheckResult['named'] {
  const parsed = parseProject(text, projectFile);
  if (parsed.resolved) {
    const r = parsed.resolved;
    const inputs = [...r.motions.flatMap((m) => (m.sevPath ? [m.mtnPath, m.sevPath] : [m.mtnPath]))];
    if (r.slsPath) inputs.push(r.slsPath);
    if (r.seDefinePath) inputs.push(r.seDefinePath);
    return { inputs, outputs: projectOutputFiles(r).map((o) => o.path), report: r.reportPath };
  }
  // A project with errors still opens (the panel lists them): what its JSON plainly names.
  const inputs: string[] = [];
  const outputs: string[] = [];
  try {
    const json = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
    // A path the project may not name grants nothing: resolving `\\host\share\x.sev` (the grant canonicalizes it)
    // makes Windows connect to that host, offering it the user's credentials, when a received project is opened.
    const add = (into: string[], v: unknown) => {
      if (typeof v === 'string' && v && !windowsPathProblem(v)) into.push(resolveFrom(projectFile, v));
    };
    // No more motions than a project may hold: each named path costs the main process a grant (100,000 motions
    // in an invalid 5 MB project held it for 29 s, and a 64 MiB one could list a million), and the parser
    // refuses a project past MAX_PROJECT_ENTRIES anyway.
    if (Array.isArray(json.motions))
      for (const m of (json.motions as Record<string, unknown>[]).slice(0, MAX_PROJECT_ENTRIES))
        if (m && typeof m === 'object') {
          add(inputs, m.mtn);
          add(inputs, m.sev);
        }
    const t = json.seTables as Record<string, unknown> | undefined;
    if (t && typeof t === 'object') {
      add(inputs, t.sls);
      add(inputs, t.seDefine);
    }
    const o = json.outputs as Record<string, unknown> | undefined;
    if (o && typeof o === 'object') {
      add(outputs, o.mar);
      add(outputs, o.sar);
      add(outputs, o.report);
      add(outputs, o.msh);
    }
  } catch {
    // not JSON (or nested too deeply): names nothing
  }
  return { inputs, outputs };
}
