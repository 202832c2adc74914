/**
 * Names for showing a SAR (`actguy info stage.sar`): SE codes back to names
 * through the SE tables, motion hashes back to names and joint numbers back
 * to joint names through a project file. Everything is optional.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { escapeControls, FormatError, inFile } from '../../shared/errors';
import { readMtn } from '../../shared/mtn/read';
import { parseProject } from '../../shared/project/validate';
import { normalizePath } from '../../shared/project/paths';
import type { SarDisplayNames } from '../../shared/sar/describe';
import { readInputFile } from './files';
import { loadSeTables, readTextFile } from './inputs';
import { projectRedactor } from '../outsideQuotes';

export interface SarNameSources {
  /** default.sls path. */
  sls?: string;
  /** se_define.h path. */
  seDefine?: string;
  /** A project file: supplies motion names, joint names and (unless given above) the table paths. */
  project?: string;
}

/** Loads the display names; a table, project or MTN that cannot be read throws its FormatError. */
export function loadSarDisplayNames(src: SarNameSources, motionNames?: ReadonlyMap<number, string>): SarDisplayNames {
  /** The files the project named (not those the command line did), and the redactor of its folder. */
  const named = new Set<string>();
  const redact = src.project === undefined ? undefined : projectRedactor(normalizePath(src.project));
  try {
    return loadNames(src, named, motionNames);
  } catch (e) {
    // A problem in a file the project names outside its folder is told by its place only (docs/security.md round 34).
    if (redact && e instanceof FormatError && e.file !== undefined && named.has(e.file)) throw redact(e);
    throw e;
  }
}

function loadNames(
  src: SarNameSources,
  named: Set<string>,
  motionNames?: ReadonlyMap<number, string>,
): SarDisplayNames {
  const names = new Map<number, string>(motionNames ?? []);
  const jointNames = new Map<number, readonly string[]>();
  let sls = src.sls;
  let seDefine = src.seDefine;
  if (src.project) {
    const file = normalizePath(src.project);
    const text = readTextFile(file, 'PROJECT');
    if (text.error) throw text.error;
    const parsed = parseProject(text.text!, file);
    if (!parsed.resolved) throw parsed.errors[0];
    const p = parsed.resolved;
    if (sls === undefined && p.slsPath !== undefined) named.add((sls = p.slsPath));
    if (seDefine === undefined && p.seDefinePath !== undefined) named.add((seDefine = p.seDefinePath));
    for (const m of p.motions) {
      if (!names.has(m.hash)) names.set(m.hash, m.name);
      named.add(m.mtnPath);
      const motion = inFile(m.mtnPath, () => readMtn(readInputFile(m.mtnPath)));
      jointNames.set(
        m.hash,
        motion.joints.map((j) => j.name),
      );
    }
  }
  const out: SarDisplayNames = { motionNames: names, jointNames };
  if (sls !== undefined || seDefine !== undefined) {
    const tables = loadSeTables(sls, seDefine);
    if (tables.errors.length) throw tables.errors[0];
    out.seTable = tables.table;
  }
  return out;
}

/** A build report lists each motion in a few hundred bytes; one of 4096 motions stays well within this. */
export const MAX_REPORT_BYTES = 64 * 1024 * 1024;

/**
 * The project a SAR was built from, found through the build report beside it
 * (`stage.sar` -> `stage.report.json`, which records the project's absolute
 * path). Undefined when there is no such report or the project is gone.
 */
export function findProjectOfSar(sarPath: string): { project: string; report: string } | undefined {
  const report = join(dirname(sarPath), `${basename(sarPath, extname(sarPath))}.report.json`);
  if (!existsSync(report)) return undefined;
  try {
    // A file in an output folder is input too: a FIFO must not hold `info`, nor a huge file be read whole.
    if (statSync(report).size > MAX_REPORT_BYTES) return undefined;
    // The limit holds for the file opened too: one swapped in after the stat was read whole, up to 1 GiB (round 14).
    const bytes = readInputFile(report, { bytes: MAX_REPORT_BYTES, of: 'a build report' });
    const r = JSON.parse(new TextDecoder().decode(bytes)) as {
      tool?: string;
      projectAbsolute?: string;
      outputs?: { sar?: { path?: string } };
    };
    const named = r.projectAbsolute;
    // The tool writes an absolute path, and `info` prints it: a relative one would be looked for wherever `info` runs,
    // and one holding a control character (a file of that name sent along) would drive the terminal.
    if (r.tool !== 'actguy build' || typeof named !== 'string' || !isAbsolute(named) || escapeControls(named) !== named)
      return undefined;
    if (!existsSync(named)) return undefined;
    return { project: named, report };
  } catch {
    return undefined; // not our report, or damaged: names are a convenience, so go on without them
  }
}
