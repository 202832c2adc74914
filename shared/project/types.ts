/**
 * The build project file (`*.actguy.json`): which motions go into the archive,
 * in archive order, with their MTN, optional SEV and compression tuning, the
 * SE tables, and where the .mar/.sar/report go. Relative paths resolve
 * against the project file's folder. The JSON Schema is project.schema.json.
 */
import type { CompressMethod, CompressTolerances } from '../compress/types';

/** Compression tolerances of one motion; any omitted value takes DEFAULT_TOLERANCES. */
export interface ProjectTolerances {
  /** Root translation tolerance, motion units (> 0). */
  position?: number;
  /** Joint rotation tolerance, degrees (> 0). */
  rotationDeg?: number;
  /** Joint offset tolerance, motion units (> 0); used only by motions with OFFSETS. */
  offset?: number;
  /** Skeleton-aware mode: object-space error bound, motion units (> 0); replaces rotationDeg (see CompressOptions.objectTolerance). */
  object?: number;
  /** Virtual-point distance for `object`, motion units (> 0); default a tenth of the skeleton size. */
  shell?: number;
  /** "refined" (default) or "classic" (ActGuy's original greedy rule). */
  method?: 'classic' | 'refined';
}

export interface ProjectMotion {
  /** Motion name (docs/formats.md 2.6: 1-31 of `[A-Za-z0-9_.-]`, not starting with `.` or `-`), hashed with GV_StrCode into the MT3/MAR/SAR; unique. */
  name: string;
  /** Path of the .mtn. */
  mtn: string;
  /** Path of the .sev; without one the motion gets an empty SAR entry. */
  sev?: string;
  tolerances?: ProjectTolerances;
  /** Rotation tolerance overrides in degrees, keyed by joint index ("17") or joint name ("LeftFoot"). */
  rotationOverridesDeg?: Record<string, number>;
  /** Authored playback factor (positive, finite, with a finite reciprocal; default 1): the effective duration is frames / fps / speed. */
  speed?: number;
  /** Resample this motion to the project's fps when its MTN is at another rate (default: the project's `resample`). */
  resample?: boolean;
}

/** Another archive entry that reuses a motion's compressed data (and its .sev) under its own name. */
export interface ProjectAlias {
  /** The alias's own motion name (docs/formats.md 2.6); must not be a motion's name. */
  name: string;
  /** The motion it reuses: a name from `motions` (never another alias). */
  target: string;
  /** Its own playback factor (default 1; not the target's). */
  speed?: number;
}

export interface ProjectSeTables {
  /** Path of default.sls (resident SEs). */
  sls?: string;
  /** Path of se_define.h (non-resident SEs). */
  seDefine?: string;
}

export interface ProjectOutputs {
  /** Path of the .mar to write. */
  mar: string;
  /** Path of the .sar to write (same order as the .mar). */
  sar: string;
  /** Path of the JSON build report; defaults to the .mar path with `.report.json` in place of `.mar`. */
  report?: string;
  /** Extra output: a folder that gets every motion (and alias) exported as MSH animation, `<name>.res8`, `.res19`, `.nodes.json`. */
  msh?: string;
}

/** The project file as written by users (version 1). */
export interface ActGuyProject {
  /** Optional pointer to the schema, for editors. */
  $schema?: string;
  /** Project format version: 1. */
  version: 1;
  /** The rate the game plays motions at (frames per second, default 30): an MT3 stores no rate, so every motion must be at this one. */
  fps?: number;
  /** Resample every motion whose MTN is at another rate (a motion's own `resample` wins). Default false: such a motion is an error. */
  resample?: boolean;
  /** Motions in archive order: index i of the .mar and the .sar. */
  motions: ProjectMotion[];
  /** Extra archive entries after the motions, in this order, each reusing one motion's data. */
  aliases?: ProjectAlias[];
  seTables?: ProjectSeTables;
  outputs: ProjectOutputs;
  /** Fit the .mar in a memory budget by loosening tolerances where it costs least (docs/formats.md#budget). */
  budget?: ProjectBudget;
}

/** The stage's memory budget (docs/formats.md#budget). */
export interface ProjectBudget {
  /** Largest .mar size in bytes: a whole number from 1 to MAX_BUDGET_BYTES. */
  marBytes: number;
}

/** A project motion with paths resolved and tolerances filled in. */
export interface ResolvedMotion extends CompressTolerances {
  /** Archive index. */
  index: number;
  name: string;
  /** GV_StrCode of name. */
  hash: number;
  mtnPath: string;
  sevPath?: string;
  method: CompressMethod;
  /** Overrides as written (joint index or name -> degrees); joint names resolve once the MTN is read. */
  rotationOverridesDeg: Record<string, number>;
  /** Playback factor (1 when not set). */
  speed: number;
  /** Resample to the project's fps when the MTN's rate differs (the motion's setting, else the project's). */
  resample: boolean;
}

/** An alias with its target resolved (exactly one step: the target is a motion). */
export interface ResolvedAlias {
  /** Index in the project's `aliases`. */
  aliasIndex: number;
  /** Archive index: after every motion. */
  index: number;
  name: string;
  /** GV_StrCode of name. */
  hash: number;
  /** The target motion's name and its index in `motions`. */
  target: string;
  targetIndex: number;
  speed: number;
}

/** A validated project with every path resolved against the project file's folder. */
export interface ResolvedProject {
  projectFile: string;
  /** The project file as an absolute path, when the host knows it (recorded in the build report so tools can find the project again). */
  projectFileAbsolute?: string;
  /** The game's playback rate (frames per second). */
  fps: number;
  motions: ResolvedMotion[];
  aliases: ResolvedAlias[];
  slsPath?: string;
  seDefinePath?: string;
  marPath: string;
  sarPath: string;
  reportPath: string;
  /** Folder for the MSH animation export of every entry, when the project asks for it. */
  mshDir?: string;
  /** The .mar's memory budget, when the project sets one. */
  budget?: ProjectBudget;
}
