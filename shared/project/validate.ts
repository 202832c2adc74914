import { DEFAULT_TOLERANCES } from '../compress/types';
import { lineColumnAt } from '../json/lineColumn';
import { bidiWarnings } from '../bidiText';
import { BIDI_CONTROL, FormatError, HIDDEN_CHARACTERS, MAX_LISTED_PROBLEMS, notListed, quoteJson } from '../errors';
import { isMotionName, MOTION_NAME_RULE, motionNameProblem } from '../motionName';
import { formatStrCode, gvStrCode } from '../strcode';
import { findExcessiveNesting, nestedTooDeeply } from '../json/nesting';
import { findJsonSyntaxError } from './jsonPosition';
import { resolveFrom } from './paths';
import { TUNING_SUFFIX } from '../tuning/sidecar';
import { windowsNameProblem, windowsPathProblem } from '../windowsNames';
import { foldedDifference, foldedTwins, foldName } from '../foldedNames';
import { ownFileNameOf } from '../ownFileNames';
import { OUTPUT_NAME_MAX_BYTES, outputNameProblem, projectOutputFiles } from './outputs';
import { PATH_MAX } from '../fileSystemLimits';
import { encodeUtf8 } from '../utf8';
import { DEFAULT_GAME_FPS } from '../motion/frameRate';
import { MAX_BUDGET_BYTES } from './budget';
import type { ActGuyProject, ResolvedAlias, ResolvedMotion, ResolvedProject } from './types';

/** Keys the project format knows at each level (project.schema.json lists the same; a test keeps them equal). */
export const PROJECT_KEYS = [
  '$schema',
  'version',
  'fps',
  'resample',
  'motions',
  'aliases',
  'seTables',
  'outputs',
  'budget',
] as const;
export const MOTION_KEYS = ['name', 'mtn', 'sev', 'tolerances', 'rotationOverridesDeg', 'speed', 'resample'] as const;
export const ALIAS_KEYS = ['name', 'target', 'speed'] as const;
export const TOLERANCE_KEYS = ['position', 'rotationDeg', 'offset', 'object', 'shell', 'method'] as const;
export const SE_TABLE_KEYS = ['sls', 'seDefine'] as const;
export const OUTPUT_KEYS = ['mar', 'sar', 'report', 'msh'] as const;
export const BUDGET_KEYS = ['marBytes'] as const;

const OVERRIDE_KEY = /^(?:[0-9]+|[A-Za-z_][A-Za-z0-9_.:-]*)$/;

export interface ProjectParseResult {
  project?: ActGuyProject;
  /** The project with paths resolved against the project file and defaults filled in (when there are no errors). */
  resolved?: ResolvedProject;
  /** Every problem in the file at once. */
  errors: FormatError[];
  /**
   * What the text allows but hides from a reader: a bidirectional formatting character in a string no check refuses
   * (`$schema`), which reorders how editors show the rest of its line (bidiWarnings, docs/security.md round 12).
   * A path or name holding one is an error.
   */
  warnings?: FormatError[];
}

export { lineColumnAt };

/**
 * Archive entries (motions and aliases together) one project may list: far above a game stage's few hundred
 * motions, and low enough that a hostile list is refused before any entry is looked at (docs/limits.md).
 */
export const MAX_PROJECT_ENTRIES = 4096;

/**
 * Parses and validates a project file and resolves its paths against the
 * project file's folder. Collects every problem (unknown keys, wrong types,
 * bad names, duplicate names or hashes, outputs that would overwrite inputs)
 * so a user fixes them in one pass, listing the first MAX_LISTED_PROBLEMS and
 * counting the rest. Pure: reads no files.
 */
/** The longest path a project may name, in UTF-8 bytes: Linux's PATH_MAX (a longer one can never be opened). */
export const PROJECT_PATH_MAX_BYTES = PATH_MAX;

/** The detail of a project opened that is a motion's tuning file (`walk.mtn.actguy-tuning.json`). */
export const NOT_A_PROJECT_BUT_TUNING =
  "a motion's tuning file (ActGuy keeps one beside each motion it saves), not a project";

/**
 * The detail of a project opened that is a build report (`out/stage.report.json`, written beside the .mar at each
 * build: shared/project/plan.ts BuildReport). Said for what it is: read as a project it gave 88 "problems" and half a
 * project whose motions replaced the tuner's (docs/user-guide.md "Tried cold", seventh round).
 */
export const NOT_A_PROJECT_BUT_REPORT =
  'a build report (ActGuy writes one beside the .mar at each build), not a project';

/** The project a build report names (`"project"`), by its base name, when it reads as a plain file name. */
function reportedProject(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { tool, reportVersion, project } = json as Record<string, unknown>;
  if (tool !== 'actguy build' || typeof reportVersion !== 'number') return undefined;
  const name = typeof project === 'string' ? (project.split(/[\\/]/).pop() ?? '') : '';
  // A name printed in a message: only a plain one (no control or bidi characters, not a screenful).
  return /^[\w .()-]{1,120}\.json$/.test(name) ? name : '';
}

export function parseProject(text: string, projectFile: string): ProjectParseResult {
  const unlisted = { count: 0, lastWhere: '' };
  const result = collectProjectProblems(text, projectFile, unlisted);
  result.warnings = bidiWarnings(text, 'PROJECT', projectFile);
  if (unlisted.count)
    result.errors.push(
      new FormatError('PROJECT', notListed(unlisted.count, 'problems'), { where: unlisted.lastWhere }, projectFile),
    );
  return result;
}

function collectProjectProblems(
  text: string,
  projectFile: string,
  unlisted: { count: number; lastWhere: string },
): ProjectParseResult {
  const errors: FormatError[] = [];
  const fail = (where: string, detail: string): void => {
    // Past the listed ones only counted: building 200,000 messages nobody reads costs more than the parse.
    if (errors.length < MAX_LISTED_PROBLEMS) errors.push(new FormatError('PROJECT', detail, { where }, projectFile));
    else {
      unlisted.count++;
      unlisted.lastWhere = where;
    }
  };
  // ActGuy's own tuning file beside a motion is JSON too, and sits among the projects in an open dialog: said for
  // what it is, rather than as a project with four mistakes to fix in a text editor.
  if (projectFile.toLowerCase().endsWith(TUNING_SUFFIX))
    return { errors: [new FormatError('PROJECT', NOT_A_PROJECT_BUT_TUNING, {}, projectFile)] };
  let json: unknown;
  const deep = findExcessiveNesting(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (deep)
    return {
      errors: [new FormatError('PROJECT', nestedTooDeeply(), { line: deep.line, column: deep.column }, projectFile)],
    };
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const at = findJsonSyntaxError(body);
    const place = at ? lineColumnAt(body, at.offset) : { line: 1, column: 1 };
    const found = at && at.offset < body.length ? `\`${body[at.offset]}\`` : 'the end of the file';
    const detail = at
      ? `not valid JSON: expected ${at.expected}, found ${found}`
      : `not valid JSON: ${(e as Error).message}`;
    return { errors: [new FormatError('PROJECT', detail, place, projectFile)] };
  }
  const report = reportedProject(json);
  if (report !== undefined)
    return {
      errors: [
        new FormatError(
          'PROJECT',
          report ? `${NOT_A_PROJECT_BUT_REPORT}; it reports on ${report}` : NOT_A_PROJECT_BUT_REPORT,
          {},
          projectFile,
        ),
      ],
    };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const unknownKeys = (obj: Record<string, unknown>, known: readonly string[], where: string) => {
    for (const k of Object.keys(obj))
      if (!known.includes(k))
        fail(where ? `${where}.${k}` : k, `unknown key ${quoteJson(k)} (expected one of ${known.join(', ')})`);
  };
  const path = (v: unknown, where: string, required: boolean): string | undefined => {
    if (v === undefined) {
      if (required) fail(where, 'is required (a path)');
      return undefined;
    }
    if (typeof v !== 'string' || v === '') {
      fail(where, `must be a non-empty path string, found ${quoteJson(v)}`);
      return undefined;
    }
    // A path is printed in messages: a NUL or a terminal escape in it would reach the terminal raw.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f-\u009f]/.test(v)) {
      fail(where, `must not hold control characters (a NUL, a line break, a terminal escape), found ${quoteJson(v)}`);
      return undefined;
    }
    // A path longer than a system opens (PATH_MAX, 4096 bytes on Linux) fails only when it is used: an output's at
    // the commit, after every motion was compressed, with a message holding the whole path (8 KB of `b/b/…`). An
    // output also needs room for the suffix of the files a build writes beside it (OUTPUT_NAME_MAX_BYTES).
    const max = where.startsWith('outputs.') ? PROJECT_PATH_MAX_BYTES - OUTPUT_NAME_MAX_BYTES : PROJECT_PATH_MAX_BYTES;
    const bytes = encodeUtf8(v).length;
    if (bytes > max) {
      fail(where, `is a path of ${bytes} bytes, ${quoteJson(v)}; a path here may have at most ${max}`);
      return undefined;
    }
    // A bidirectional override or isolate reorders how the rest of the path displays, in the app and in a
    // terminal: a received project's `x\u202Elqs.sev` shows as `xves.lqs`, a path posing as another.
    if (BIDI_CONTROL.test(v)) {
      fail(
        where,
        `must not hold a bidirectional formatting character (it makes a path display as another), found ${quoteJson(v)}`,
      );
      return undefined;
    }
    // A character that displays as nothing (a zero-width space or joiner, a soft hyphen, a word joiner, a BOM) or as
    // a line break (U+2028, U+2029) makes a key read as another: `cm\u200Bu_01_01.sev` printed as the sample's own
    // `cmu_01_01.sev`. A key is refused for every character a message escapes (HIDDEN_CHARACTERS), as the app's
    // remembered paths are and the CLI's arguments (docs/security.md, round 54); ZWNJ and ZWJ, which some scripts
    // spell names with, too: a name that shows as another is a file name no project needs.
    if (HIDDEN_CHARACTERS.test(v)) {
      fail(
        where,
        `must not hold a character that displays as nothing or as a line break (a zero-width space or joiner, a soft hyphen, U+2028): it makes a path read as another, found ${quoteJson(v)}`,
      );
      return undefined;
    }
    // ActGuy ships for Windows and projects travel: a name Windows reads as another file (or a device, or a
    // network host) is refused on every platform (shared/windowsNames.ts).
    const windows = windowsPathProblem(v);
    if (windows) {
      fail(where, `${windows}; projects are shared with Windows, so rename it`);
      return undefined;
    }
    // A Windows full path in a project on a system whose paths start with "/" names no file there: Node reads
    // `C:\x.mtn` (or `\x.mtn`) as a relative name, a file so named in the folder ActGuy runs in, not the project's.
    if (projectFile.startsWith('/') && /^(?:[A-Za-z]:[\\/]|\\)/.test(v)) {
      fail(
        where,
        `is a Windows full path, found ${quoteJson(v)}; this project is on a system whose paths start with "/", where it names no file: name it relative to the project`,
      );
      return undefined;
    }
    // A build deletes files of its own naming beside its outputs (a stale temp, a stale lock): an input named so was
    // swept by the very build that read it (docs/security.md, round 13). An output's name must end in its kind's
    // extension, which no such name does (outputNameProblem says so).
    const own = where.startsWith('outputs.')
      ? undefined
      : ownFileNameOf(v.slice(Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\')) + 1));
    if (own) {
      fail(where, `${own} (ActGuy deletes such files as its own); rename the file`);
      return undefined;
    }
    return v;
  };
  const positive = (v: unknown, where: string): number | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      fail(where, `must be a number greater than 0, found ${quoteJson(v)}`);
      return undefined;
    }
    return v;
  };
  /** A playback factor: positive, finite and with a finite reciprocal (1 / 5e-324 is Infinity). */
  const speedOf = (v: unknown, where: string): number | undefined => {
    if (v === undefined) return 1;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || !Number.isFinite(1 / v)) {
      fail(where, `must be a positive, finite playback factor with a finite reciprocal, found ${quoteJson(v)}`);
      return undefined;
    }
    return v;
  };
  const flag = (v: unknown, where: string): boolean | undefined => {
    if (v === undefined || typeof v === 'boolean') return v;
    fail(where, `must be true or false, found ${quoteJson(v)}`);
    return undefined;
  };

  if (!isObject(json)) {
    fail('(top level)', 'a project file holds one JSON object');
    return { errors };
  }
  unknownKeys(json, PROJECT_KEYS, '');
  if (json.version !== 1) fail('version', `must be 1, found ${quoteJson(json.version)}`);
  if (json.$schema !== undefined && typeof json.$schema !== 'string') fail('$schema', 'must be a string');
  const fps = json.fps === undefined ? DEFAULT_GAME_FPS : positive(json.fps, 'fps');
  const projectResample = flag(json.resample, 'resample') ?? false;

  const motions: ResolvedMotion[] = [];
  const entries =
    (Array.isArray(json.motions) ? json.motions.length : 0) + (Array.isArray(json.aliases) ? json.aliases.length : 0);
  if (entries > MAX_PROJECT_ENTRIES) {
    fail(
      Array.isArray(json.motions) && json.motions.length > MAX_PROJECT_ENTRIES ? 'motions' : 'aliases',
      `lists ${Array.isArray(json.motions) ? json.motions.length : 0} motions and ${Array.isArray(json.aliases) ? json.aliases.length : 0} aliases; a project holds at most ${MAX_PROJECT_ENTRIES} archive entries (split it into several projects)`,
    );
    return { errors };
  }
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
        fail(
          `${where}.name`,
          typeof name === 'string'
            ? motionNameProblem(name)!
            : `must be a motion name (${MOTION_NAME_RULE}), found ${quoteJson(name)}`,
        );
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
          fail(
            `${where}.name`,
            `motions ${other} (motions[${clash}]) and ${name} (motions[${i}]) have the same GV_StrCode ${formatStrCode(hash)}; rename one`,
          );
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
      if (
        (tol.position !== undefined && position === undefined) ||
        (tol.rotationDeg !== undefined && rotationDeg === undefined) ||
        (tol.offset !== undefined && offset === undefined)
      )
        ok = false;
      if ((tol.object !== undefined && object === undefined) || (tol.shell !== undefined && shell === undefined))
        ok = false;
      if (tol.shell !== undefined && tol.object === undefined) {
        fail(
          `${where}.tolerances.shell`,
          'needs tolerances.object (the shell is where the object-space error is measured)',
        );
        ok = false;
      }
      if (tol.method !== undefined && tol.method !== 'classic' && tol.method !== 'refined') {
        fail(`${where}.tolerances.method`, `must be "refined" or "classic", found ${quoteJson(tol.method)}`);
        ok = false;
      }
      // No prototype: a joint named "__proto__" is a key like any other (on {} its override vanished unread).
      const overrides: Record<string, number> = Object.create(null) as Record<string, number>;
      if (m.rotationOverridesDeg !== undefined) {
        if (!isObject(m.rotationOverridesDeg)) {
          fail(`${where}.rotationOverridesDeg`, 'must be an object of joint index or name -> degrees');
          ok = false;
        } else {
          for (const [k, v] of Object.entries(m.rotationOverridesDeg)) {
            const w = `${where}.rotationOverridesDeg.${k}`;
            if (!OVERRIDE_KEY.test(k)) {
              fail(w, `${quoteJson(k)} is neither a joint index nor a joint name`);
              ok = false;
              continue;
            }
            const deg = positive(v, w);
            if (deg === undefined) ok = false;
            else overrides[k] = deg;
          }
        }
      }
      const speed = speedOf(m.speed, `${where}.speed`);
      if (speed === undefined) ok = false;
      const resample = flag(m.resample, `${where}.resample`);
      if (m.resample !== undefined && resample === undefined) ok = false;
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
        speed: speed!,
        resample: resample ?? projectResample,
      });
    });
  }

  const aliases = resolveAliases(json.aliases, json.motions, motions.length, fail, speedOf, unknownKeys, isObject);

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
  let mshDir: string | undefined;
  if (!isObject(json.outputs)) fail('outputs', 'is required: an object with mar and sar paths (and optionally report)');
  else {
    unknownKeys(json.outputs, OUTPUT_KEYS, 'outputs');
    const mar = path(json.outputs.mar, 'outputs.mar', true);
    const sar = path(json.outputs.sar, 'outputs.sar', true);
    const report = path(json.outputs.report, 'outputs.report', false);
    const msh = path(json.outputs.msh, 'outputs.msh', false);
    for (const [key, v] of [
      ['outputs.mar', mar],
      ['outputs.sar', sar],
      ['outputs.report', report],
    ] as const) {
      const problem = v === undefined ? undefined : outputNameProblem(key, v);
      if (problem) fail(key, problem);
    }
    if (msh !== undefined) mshDir = resolveFrom(projectFile, msh);
    if (mar !== undefined) marPath = resolveFrom(projectFile, mar);
    if (sar !== undefined) sarPath = resolveFrom(projectFile, sar);
    if (report !== undefined) reportPath = resolveFrom(projectFile, report);
    else if (marPath !== undefined) reportPath = defaultReportPath(marPath);
  }

  let budget: ResolvedProject['budget'];
  if (json.budget !== undefined) {
    if (!isObject(json.budget)) fail('budget', `must be an object { "marBytes": N }, found ${quoteJson(json.budget)}`);
    else {
      unknownKeys(json.budget, BUDGET_KEYS, 'budget');
      const n = json.budget.marBytes;
      if (n === undefined) fail('budget.marBytes', 'is required: the largest .mar size in bytes');
      else if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_BUDGET_BYTES)
        fail('budget.marBytes', `must be a whole number of bytes from 1 to ${MAX_BUDGET_BYTES}, found ${quoteJson(n)}`);
      else budget = { marBytes: n };
    }
  }

  if (errors.length) return { errors };
  const resolved: ResolvedProject = {
    projectFile,
    fps: fps!,
    motions,
    aliases: aliases!,
    slsPath,
    seDefinePath,
    marPath: marPath!,
    sarPath: sarPath!,
    reportPath: reportPath!,
    mshDir,
    ...(budget ? { budget } : {}),
  };
  errors.push(...checkOutputPaths(resolved));
  if (errors.length) return { errors };
  return { project: json as unknown as ActGuyProject, resolved, errors };
}

/**
 * Checks `aliases` against the motions (raw, so names that failed other checks
 * still count as taken): each alias has a valid, unique name that is not a
 * motion's, and its target is a motion, reached in exactly one step. Returns
 * undefined when any alias is bad (the errors are reported through `fail`).
 */
function resolveAliases(
  raw: unknown,
  rawMotions: unknown,
  motionCount: number,
  fail: (where: string, detail: string) => void,
  speedOf: (v: unknown, where: string) => number | undefined,
  unknownKeys: (obj: Record<string, unknown>, known: readonly string[], where: string) => void,
  isObject: (v: unknown) => v is Record<string, unknown>,
): ResolvedAlias[] | undefined {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    fail('aliases', 'must be an array of { name, target, speed? }');
    return undefined;
  }
  const motionIndex = new Map<string, number>();
  const motionByHash = new Map<number, string>();
  if (Array.isArray(rawMotions))
    rawMotions.forEach((m: unknown, i) => {
      if (isObject(m) && typeof m.name === 'string' && !motionIndex.has(m.name)) {
        motionIndex.set(m.name, i);
        if (isMotionName(m.name)) motionByHash.set(gvStrCode(m.name), m.name);
      }
    });
  const aliasIndex = new Map<string, number>();
  raw.forEach((a: unknown, k) => {
    if (isObject(a) && typeof a.name === 'string' && !aliasIndex.has(a.name)) aliasIndex.set(a.name, k);
  });
  const out: ResolvedAlias[] = [];
  const aliasByHash = new Map<number, number>();
  let ok = true;
  raw.forEach((a: unknown, k) => {
    const where = `aliases[${k}]`;
    if (!isObject(a)) {
      fail(where, 'must be an object with name and target');
      ok = false;
      return;
    }
    unknownKeys(a, ALIAS_KEYS, where);
    const { name, target } = a;
    let good = true;
    if (typeof name !== 'string' || !isMotionName(name)) {
      fail(
        `${where}.name`,
        typeof name === 'string'
          ? motionNameProblem(name)!
          : `must be a motion name (${MOTION_NAME_RULE}), found ${quoteJson(name)}`,
      );
      good = false;
    } else if (motionIndex.has(name)) {
      fail(
        `${where}.name`,
        `alias ${name} shadows motion ${name} (motions[${motionIndex.get(name)}]); an alias needs a name of its own`,
      );
      good = false;
    } else if (aliasIndex.get(name) !== k) {
      fail(`${where}.name`, `alias ${name} is listed twice (aliases[${aliasIndex.get(name)}] and aliases[${k}])`);
      good = false;
    } else {
      const hash = gvStrCode(name);
      const clash =
        motionByHash.get(hash) ??
        (aliasByHash.has(hash) ? (raw[aliasByHash.get(hash)!] as { name: string }).name : undefined);
      if (clash !== undefined) {
        fail(`${where}.name`, `alias ${name} and ${clash} have the same GV_StrCode ${formatStrCode(hash)}; rename one`);
        good = false;
      } else aliasByHash.set(hash, k);
    }
    const shownName = typeof name === 'string' ? name : `aliases[${k}]`;
    if (typeof target !== 'string' || target === '') {
      fail(`${where}.target`, `must name a motion of the project, found ${quoteJson(target)}`);
      good = false;
    } else if (!motionIndex.has(target)) {
      if (aliasIndex.has(target))
        fail(
          `${where}.target`,
          `alias ${shownName} points at alias ${target} (aliases[${aliasIndex.get(target)}]); aliases resolve in one step, so point ${shownName} at a motion`,
        );
      else fail(`${where}.target`, `alias ${shownName} points at ${target}, which is not a motion of this project`);
      good = false;
    }
    const speed = speedOf(a.speed, `${where}.speed`);
    if (speed === undefined) good = false;
    if (!good) {
      ok = false;
      return;
    }
    out.push({
      aliasIndex: k,
      index: motionCount + out.length,
      name: name as string,
      hash: gvStrCode(name as string),
      target: target as string,
      targetIndex: motionIndex.get(target as string)!,
      speed: speed!,
    });
  });
  return ok ? out : undefined;
}

/** What a build report's name ends in when the project names none (`outputs.report`). */
export const BUILD_REPORT_SUFFIX = '.report.json';

/** `stage.mar` -> `stage.report.json`. */
export function defaultReportPath(marPath: string): string {
  return /\.mar$/i.test(marPath) ? marPath.replace(/\.mar$/i, BUILD_REPORT_SUFFIX) : `${marPath}${BUILD_REPORT_SUFFIX}`;
}

/**
 * Outputs (the .mar, .sar, report and every MSH file of `outputs.msh`) must
 * be different files, none of them an input (a build must never overwrite the
 * project, an MTN, a SEV or a table). Paths compare after normalisation,
 * case-sensitively; two outputs, an output and an input, or two inputs that differ only in case or Unicode form are
 * refused too (one file where case is ignored, or where the forms are taken for one).
 */
export function checkOutputPaths(p: ResolvedProject): FormatError[] {
  const errors: FormatError[] = [];
  const inputs = new Map<string, string>([[p.projectFile, 'the project file']]);
  // The first input at each folded path: on macOS and Windows `Sample.actguy.json` is the project file
  // `sample.actguy.json`, and `Walk.sev` and `walk.sev` are one file (docs/security.md, round 54).
  const foldedInputs = new Map<string, { path: string; role: string }>([
    [foldName(p.projectFile), { path: p.projectFile, role: 'the project file' }],
  ]);
  const input = (path: string, role: string, where: string) => {
    const twin = inputs.has(path) ? undefined : foldedInputs.get(foldName(path));
    if (twin)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path} (${role}) and ${twin.path} (${twin.role}) differ only in ${foldedDifference(twin.path, path)}: ` +
            'one file on macOS and Windows, where projects are shared, and two here; name one file the same way, or rename one',
          { where },
          p.projectFile,
        ),
      );
    if (inputs.has(path)) return;
    inputs.set(path, role);
    if (!twin) foldedInputs.set(foldName(path), { path, role });
  };
  for (const m of p.motions) {
    input(m.mtnPath, `the .mtn of motion ${m.name}`, `motions[${m.index}].mtn`);
    if (m.sevPath) input(m.sevPath, `the .sev of motion ${m.name}`, `motions[${m.index}].sev`);
  }
  if (p.slsPath) input(p.slsPath, 'seTables.sls', 'seTables.sls');
  if (p.seDefinePath) input(p.seDefinePath, 'seTables.seDefine', 'seTables.seDefine');
  const outs = projectOutputFiles(p);
  // The first output at each path, and at each folded path: one lookup an output.
  const firstAt = new Map<string, (typeof outs)[number]>();
  const twins = foldedTwins<(typeof outs)[number]>();
  outs.forEach((out) => {
    const { key, path, role } = out;
    const overwritten = inputs.get(path);
    const who = role === key ? '' : ` (${role})`;
    if (overwritten)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path}${who} is ${overwritten}; a build never overwrites its inputs`,
          { where: key },
          p.projectFile,
        ),
      );
    // An output whose path folds as an input's does (a report `Sample.actguy.json` beside the project
    // `sample.actguy.json`) is a second file here and the input itself on macOS and Windows, where the build replaces it.
    const inputTwin = overwritten ? undefined : foldedInputs.get(foldName(path));
    if (inputTwin)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path}${who} and ${inputTwin.path} (${inputTwin.role}) differ only in ${foldedDifference(inputTwin.path, path)}: ` +
            'one file on macOS and Windows, where projects are shared and the build would overwrite its input; rename the output',
          { where: key },
          p.projectFile,
        ),
      );
    // An MSH file is named after its motion: a motion `nul` is the null device on Windows (shared/windowsNames.ts).
    const windows = key === 'outputs.msh' ? windowsNameProblem(path.slice(path.lastIndexOf('/') + 1)) : undefined;
    if (windows)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path}${who}: ${windows}; projects are shared with Windows, so rename the motion`,
          { where: key },
          p.projectFile,
        ),
      );
    const earlier = firstAt.get(path);
    if (earlier)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path}${who} is also ${earlier.role}; each output needs its own file`,
          { where: key },
          p.projectFile,
        ),
      );
    // A project travels: two outputs whose paths fold alike (the MSH files of motions `walk` and `Walk`) are two
    // files on Linux and one on macOS and Windows, where one build's file replaces the other's.
    const twin = twins.earlierTwin(path, out);
    const folded = earlier ? undefined : twin;
    if (folded)
      errors.push(
        new FormatError(
          'PROJECT',
          `${path}${who} and ${folded.path} (${folded.role}) differ only in ${foldedDifference(folded.path, path)}: ` +
            `one file on macOS and Windows, where projects are shared; ${key === 'outputs.msh' ? 'rename the motion' : 'rename one'}`,
          { where: key },
          p.projectFile,
        ),
      );
    if (!firstAt.has(path)) firstAt.set(path, out);
  });
  return errors;
}

/** Places the outputs in another folder (the CLI's `-o outdir`), keeping their file names. */
export function withOutputDir(
  p: ResolvedProject,
  outDir: string,
  join: (dir: string, name: string) => string,
): ResolvedProject {
  const name = (x: string) => x.slice(Math.max(x.lastIndexOf('/'), x.lastIndexOf('\\')) + 1);
  return {
    ...p,
    marPath: join(outDir, name(p.marPath)),
    sarPath: join(outDir, name(p.sarPath)),
    reportPath: join(outDir, name(p.reportPath)),
    mshDir: p.mshDir === undefined ? undefined : join(outDir, name(p.mshDir)),
  };
}
