import { DEFAULT_TOLERANCES } from '../compress/types';
import { FormatError } from '../errors';
import { isMotionName, MOTION_NAME_RULE, motionNameProblem } from '../motionName';
import { formatStrCode, gvStrCode } from '../strcode';
import { findExcessiveNesting, nestedTooDeeply } from '../json/nesting';
import { findJsonSyntaxError } from './jsonPosition';
import { resolveFrom } from './paths';
import type { ActGuyProject, ResolvedMotion, ResolvedProject } from './types';

/** Keys the project format knows at each level (project.schema.json lists the same; a test keeps them equal). */
export const PROJECT_KEYS = ['$schema', 'version', 'motions', 'seTables', 'outputs'] as const;
export const MOTION_KEYS = ['name', 'mtn', 'sev', 'tolerances', 'rotationOverridesDeg'] as const;
export const TOLERANCE_KEYS = ['position', 'rotationDeg', 'offset', 'object', 'shell', 'method'] as const;
export const SE_TABLE_KEYS = ['sls', 'seDefine'] as const;
export const OUTPUT_KEYS = ['mar', 'sar', 'report'] as const;

const OVERRIDE_KEY = /^(?:[0-9]+|[A-Za-z_][A-Za-z0-9_.:-]*)$/;

export interface ProjectParseResult {
  project?: ActGuyProject;
  /** The project with paths resolved against the project file and defaults filled in (when there are no errors). */
  resolved?: ResolvedProject;
  /** Every problem in the file at once. */
  errors: FormatError[];
}

/** Line and column of a character offset (for JSON syntax errors). */
function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') { line++; start = i + 1; }
  return { line, column: offset - start + 1 };
}

/**
 * Parses and validates a project file and resolves its paths against the
 * project file's folder. Collects every problem (unknown keys, wrong types,
 * bad names, duplicate names or hashes, outputs that would overwrite inputs)
 * so a user fixes them in one pass. Pure: reads no files.
 */
export function parseProject(text: string, projectFile: string): ProjectParseResult {
  const errors: FormatError[] = [];
  const fail = (where: string, detail: string) => errors.push(new FormatError('PROJECT', detail, { where }, projectFile));
  let json: unknown;
  const deep = findExcessiveNesting(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (deep) return { errors: [new FormatError('PROJECT', nestedTooDeeply(), { line: deep.line, column: deep.column }, projectFile)] };
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const at = findJsonSyntaxError(body);
    const place = at ? lineColumnAt(body, at.offset) : { line: 1, column: 1 };
    const found = at && at.offset < body.length ? `\`${body[at.offset]}\`` : 'the end of the file';
    const detail = at ? `not valid JSON: expected ${at.expected}, found ${found}` : `not valid JSON: ${(e as Error).message}`;
    return { errors: [new FormatError('PROJECT', detail, place, projectFile)] };
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const unknownKeys = (obj: Record<string, unknown>, known: readonly string[], where: string) => {
    for (const k of Object.keys(obj)) if (!known.includes(k)) fail(where ? `${where}.${k}` : k, `unknown key ${JSON.stringify(k)} (expected one of ${known.join(', ')})`);
  };
  const path = (v: unknown, where: string, required: boolean): string | undefined => {
    if (v === undefined) {
      if (required) fail(where, 'is required (a path)');
      return undefined;
    }
    if (typeof v !== 'string' || v === '') {
      fail(where, `must be a non-empty path string, found ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  };
  const positive = (v: unknown, where: string): number | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      fail(where, `must be a number greater than 0, found ${JSON.stringify(v)}`);
      return undefined;
    }
    return v;
  };

  if (!isObject(json)) {
    fail('(top level)', 'a project file holds one JSON object');
    return { errors };
  }
  unknownKeys(json, PROJECT_KEYS, '');
  if (json.version !== 1) fail('version', `must be 1, found ${JSON.stringify(json.version)}`);
  if (json.$schema !== undefined && typeof json.$schema !== 'string') fail('$schema', 'must be a string');

  const motions: ResolvedMotion[] = [];
  if (!Array.isArray(json.motions) || json.motions.length === 0) {
    fail('motions', 'must be a non-empty array of motions (archive order)');
  } else {
    const byName = new Map<string, number>();
    const byHash = new Map<number, number>();
    json.motions.forEach((m: unknown, i: number) => {
      const where = `motions[${i}]`;
      if (!isObject(m)) {
        fail(where, 'must be an object with name and mtn');
        return;
      }
      unknownKeys(m, MOTION_KEYS, where);
      let ok = true;
      const name = m.name;
      if (typeof name !== 'string' || !isMotionName(name)) {
        fail(`${where}.name`, typeof name === 'string' ? motionNameProblem(name)! : `must be a motion name (${MOTION_NAME_RULE}), found ${JSON.stringify(name)}`);
        ok = false;
      } else {
        const prev = byName.get(name);
        const hash = gvStrCode(name);
        const clash = byHash.get(hash);
        if (prev !== undefined) {
          fail(`${where}.name`, `motion ${name} is listed twice (motions[${prev}] and motions[${i}])`);
          ok = false;
        } else if (clash !== undefined) {
          const other = (json.motions as { name: string }[])[clash].name;
          fail(`${where}.name`, `motions ${other} (motions[${clash}]) and ${name} (motions[${i}]) have the same GV_StrCode ${formatStrCode(hash)}; rename one`);
          ok = false;
        } else {
          byName.set(name, i);
          byHash.set(hash, i);
        }
      }
      const mtn = path(m.mtn, `${where}.mtn`, true);
      const sev = path(m.sev, `${where}.sev`, false);
      if (m.sev !== undefined && sev === undefined) ok = false;
      if (mtn === undefined) ok = false;
      let tol: Record<string, unknown> = {};
      if (m.tolerances !== undefined) {
        if (!isObject(m.tolerances)) {
          fail(`${where}.tolerances`, 'must be an object with position, rotationDeg and/or offset');
          ok = false;
        } else {
          unknownKeys(m.tolerances, TOLERANCE_KEYS, `${where}.tolerances`);
          tol = m.tolerances;
        }
      }
      const position = positive(tol.position, `${where}.tolerances.position`);
      const rotationDeg = positive(tol.rotationDeg, `${where}.tolerances.rotationDeg`);
      const offset = positive(tol.offset, `${where}.tolerances.offset`);
      const object = positive(tol.object, `${where}.tolerances.object`);
      const shell = positive(tol.shell, `${where}.tolerances.shell`);
      if ((tol.position !== undefined && position === undefined) || (tol.rotationDeg !== undefined && rotationDeg === undefined) || (tol.offset !== undefined && offset === undefined)) ok = false;
      if ((tol.object !== undefined && object === undefined) || (tol.shell !== undefined && shell === undefined)) ok = false;
      if (tol.shell !== undefined && tol.object === undefined) {
        fail(`${where}.tolerances.shell`, 'needs tolerances.object (the shell is where the object-space error is measured)');
        ok = false;
      }
      if (tol.method !== undefined && tol.method !== 'classic' && tol.method !== 'refined') {
        fail(`${where}.tolerances.method`, `must be "refined" or "classic", found ${JSON.stringify(tol.method)}`);
        ok = false;
      }
      const overrides: Record<string, number> = {};
      if (m.rotationOverridesDeg !== undefined) {
        if (!isObject(m.rotationOverridesDeg)) {
          fail(`${where}.rotationOverridesDeg`, 'must be an object of joint index or name -> degrees');
          ok = false;
        } else {
          for (const [k, v] of Object.entries(m.rotationOverridesDeg)) {
            const w = `${where}.rotationOverridesDeg.${k}`;
            if (!OVERRIDE_KEY.test(k)) {
              fail(w, `${JSON.stringify(k)} is neither a joint index nor a joint name`);
              ok = false;
              continue;
            }
            const deg = positive(v, w);
            if (deg === undefined) ok = false;
            else overrides[k] = deg;
          }
        }
      }
      if (!ok) return;
      motions.push({
        index: i,
        name: name as string,
        hash: gvStrCode(name as string),
        mtnPath: resolveFrom(projectFile, mtn!),
        sevPath: sev === undefined ? undefined : resolveFrom(projectFile, sev),
        positionTolerance: position ?? DEFAULT_TOLERANCES.positionTolerance,
        rotationToleranceDeg: rotationDeg ?? DEFAULT_TOLERANCES.rotationToleranceDeg,
        offsetTolerance: offset ?? DEFAULT_TOLERANCES.offsetTolerance,
        method: tol.method === 'classic' ? 'classic' : 'refined',
        ...(object !== undefined ? { objectTolerance: object } : {}),
        ...(shell !== undefined ? { shell } : {}),
        rotationOverridesDeg: overrides,
      });
    });
  }

  let slsPath: string | undefined;
  let seDefinePath: string | undefined;
  if (json.seTables !== undefined) {
    if (!isObject(json.seTables)) fail('seTables', 'must be an object with sls and/or seDefine paths');
    else {
      unknownKeys(json.seTables, SE_TABLE_KEYS, 'seTables');
      const s = path(json.seTables.sls, 'seTables.sls', false);
      const d = path(json.seTables.seDefine, 'seTables.seDefine', false);
      if (s !== undefined) slsPath = resolveFrom(projectFile, s);
      if (d !== undefined) seDefinePath = resolveFrom(projectFile, d);
    }
  }

  let marPath: string | undefined;
  let sarPath: string | undefined;
  let reportPath: string | undefined;
  if (!isObject(json.outputs)) fail('outputs', 'is required: an object with mar and sar paths (and optionally report)');
  else {
    unknownKeys(json.outputs, OUTPUT_KEYS, 'outputs');
    const mar = path(json.outputs.mar, 'outputs.mar', true);
    const sar = path(json.outputs.sar, 'outputs.sar', true);
    const report = path(json.outputs.report, 'outputs.report', false);
    if (mar !== undefined) marPath = resolveFrom(projectFile, mar);
    if (sar !== undefined) sarPath = resolveFrom(projectFile, sar);
    if (report !== undefined) reportPath = resolveFrom(projectFile, report);
    else if (marPath !== undefined) reportPath = defaultReportPath(marPath);
  }

  if (errors.length) return { errors };
  const resolved: ResolvedProject = { projectFile, motions, slsPath, seDefinePath, marPath: marPath!, sarPath: sarPath!, reportPath: reportPath! };
  errors.push(...checkOutputPaths(resolved));
  if (errors.length) return { errors };
  return { project: json as unknown as ActGuyProject, resolved, errors };
}

/** `stage.mar` -> `stage.report.json`. */
export function defaultReportPath(marPath: string): string {
  return /\.mar$/i.test(marPath) ? marPath.replace(/\.mar$/i, '.report.json') : `${marPath}.report.json`;
}

/**
 * Outputs must be three different files, none of them an input (a build must
 * never overwrite the project, an MTN, a SEV or a table). Paths compare after
 * normalisation, case-sensitively.
 */
export function checkOutputPaths(p: ResolvedProject): FormatError[] {
  const errors: FormatError[] = [];
  const inputs = new Map<string, string>([[p.projectFile, 'the project file']]);
  for (const m of p.motions) {
    inputs.set(m.mtnPath, `the .mtn of motion ${m.name}`);
    if (m.sevPath) inputs.set(m.sevPath, `the .sev of motion ${m.name}`);
  }
  if (p.slsPath) inputs.set(p.slsPath, 'seTables.sls');
  if (p.seDefinePath) inputs.set(p.seDefinePath, 'seTables.seDefine');
  const outs: [string, string][] = [['outputs.mar', p.marPath], ['outputs.sar', p.sarPath], ['outputs.report', p.reportPath]];
  outs.forEach(([key, path], k) => {
    const input = inputs.get(path);
    if (input) errors.push(new FormatError('PROJECT', `${path} is ${input}; a build never overwrites its inputs`, { where: key }, p.projectFile));
    for (let o = 0; o < k; o++)
      if (outs[o][1] === path) errors.push(new FormatError('PROJECT', `${path} is also ${outs[o][0]}; each output needs its own file`, { where: key }, p.projectFile));
  });
  return errors;
}

/** Places the outputs in another folder (the CLI's `-o outdir`), keeping their file names. */
export function withOutputDir(p: ResolvedProject, outDir: string, join: (dir: string, name: string) => string): ResolvedProject {
  const name = (x: string) => x.slice(Math.max(x.lastIndexOf('/'), x.lastIndexOf('\\')) + 1);
  return { ...p, marPath: join(outDir, name(p.marPath)), sarPath: join(outDir, name(p.sarPath)), reportPath: join(outDir, name(p.reportPath)) };
}
