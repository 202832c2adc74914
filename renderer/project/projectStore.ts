/**
 * The open build project (`*.actguy.json`) in the app: its motions in archive
 * order, validation, the merged SE name table, per-motion status from a dry
 * run, the archive build in progress, and the audition sound folder.
 *
 * The project is edited as its JSON object (reorder, add, remove motions) and
 * validated with shared/project exactly as `actguy build` does; saving writes
 * the text atomically through the API. Project edits are undoable in the
 * window's one undo order (renderer/project/projectHistory.ts) and mark the
 * project dirty until saved (undoing back to the saved text makes it clean).
 */
import { createStore } from 'zustand/vanilla';
import type { BuildMotionResult, BuildProblem, BuildStatus } from '../../shared/ipc';
import { FormatError } from '../../shared/errors';
import { plainFileProblem } from '../../shared/fileProblem';
import { NOT_A_PROJECT_BUT_REPORT, NOT_A_PROJECT_BUT_TUNING, parseProject } from '../../shared/project/validate';
import type { ResolvedProject } from '../../shared/project/types';
import { resolveFrom } from '../../shared/project/paths';
import type { SeNameTable } from '../../shared/se-tables/table';

/** A motion entry as the project file holds it (unknown keys are kept for the validator to report). */
export interface ProjectMotionJson {
  name: string;
  mtn: string;
  sev?: string;
  [key: string]: unknown;
}

export interface ProjectJson {
  motions: ProjectMotionJson[];
  seTables?: { sls?: string; seDefine?: string };
  outputs?: { mar?: string; sar?: string; report?: string };
  [key: string]: unknown;
}

/** The loaded SE tables. */
export interface SeTablesState {
  table: SeNameTable;
  /** Every SE name, sorted (autocomplete). */
  names: string[];
  /** Table problems (conflicts, unreadable files), readable as is. */
  errors: string[];
  warnings: string[];
}

export interface ProjectState {
  /** Absolute path of the project file; null when none is open. */
  path: string | null;
  /** The text on disk (as last opened or saved). */
  savedText: string;
  /** The project being edited; null when its text is not a JSON object. */
  json: ProjectJson | null;
  /** The current text (savedText until the first edit, then JSON.stringify of json). */
  text: string;
  /** Validation of `text` (every problem at once). */
  errors: BuildProblem[];
  resolved: ResolvedProject | null;
  /** Archive index of the motion open in the tuner, or null. */
  current: number | null;
  /** The tuner document opened for `current` (another document in the tuner means the SEV shown is not its). */
  currentDocumentId: string | null;
  tables: SeTablesState | null;
  /** Results of the last dry run by motion name, and its problems. */
  status: Record<string, BuildMotionResult>;
  /**
   * By motion name, the factor the same build or check applied to the motion's tolerances to fit the stage's memory
   * budget (docs/formats.md#budget); a motion it left as set is not listed. The tuner shows a motion at its own
   * tolerances, so its keys and error differ from `status` by this much.
   */
  scales: Record<string, number>;
  problems: BuildProblem[];
  /** Warnings of the last check (the build goes ahead; e.g. two SEs of one name in a .sev). */
  warnings: string[];
  checking: boolean;
  /** When status was last computed (ms since the epoch), or 0. */
  checkedAt: number;
  /**
   * The project text that status was computed from (null: none yet). Other than `text` after a project edit: the list's
   * figures are of the project before it (tried cold, round 28).
   */
  checkedText: string | null;
  /**
   * The build dialog: null when closed. `unsaved`: the files whose unsaved edits the build took as shown (the open
   * .sev, the project file), by name, for the dialog to say so (renderer/project/projectBuild.ts). `savedMotion`: the
   * motion with unsaved edits that the user chose to build from its saved file ("Build the saved file"), by name.
   */
  build: {
    status: BuildStatus | null;
    starting: boolean;
    unsaved?: readonly string[];
    savedMotion?: string;
  } | null;
  /** Audition folder and its sounds by SE name. */
  soundFolder: string | null;
  sounds: Record<string, string>;

  /** Adopts a project read from disk. */
  adopt(path: string, text: string): void;
  close(): void;
  /** Replaces the JSON (an edit) and revalidates. */
  setJson(json: ProjectJson): void;
  markSaved(text: string): void;
  setCurrent(index: number | null, documentId?: string | null): void;
  setTables(t: SeTablesState | null): void;
  setStatus(
    patch: Partial<
      Pick<ProjectState, 'status' | 'scales' | 'problems' | 'warnings' | 'checking' | 'checkedAt' | 'checkedText'>
    >,
  ): void;
  setBuild(b: ProjectState['build']): void;
  setSounds(folder: string | null, sounds: Record<string, string>): void;
}

/** Validation problems as placed, clickable problems. */
export function problemsOf(
  errors: {
    message: string;
    kind?: string;
    file?: string;
    place: { line?: number; column?: number; where?: string };
  }[],
): BuildProblem[] {
  return errors.map((e) => {
    const p: BuildProblem = { message: e.message };
    if (e.file !== undefined) p.file = e.file;
    if (e.place.line !== undefined) p.line = e.place.line;
    if (e.place.column !== undefined) p.column = e.place.column;
    if (e.place.where !== undefined) p.where = e.place.where;
    if (e instanceof FormatError) p.plain = plainFileProblem(e.kind, e.detail, e.place, e.file);
    return p;
  });
}

function validate(text: string, path: string): { errors: BuildProblem[]; resolved: ResolvedProject | null } {
  const { errors, resolved } = checkedProject(text, path);
  return { errors, resolved };
}

/**
 * The project's problems and resolution, and whether it is no project at all: a motion's tuning file or a build's
 * report (shared/project/validate.ts) is JSON too, and a report's `motions` (each with its .mtn) were listed and
 * opened as the project's, replacing the tuner's motion with one from a file that is not a project.
 */
function checkedProject(
  text: string,
  path: string,
): { errors: BuildProblem[]; resolved: ResolvedProject | null; notProject: boolean } {
  const r = parseProject(text, path);
  const notProject = r.errors.some((e) =>
    [NOT_A_PROJECT_BUT_TUNING, NOT_A_PROJECT_BUT_REPORT].some((d) => e.detail.startsWith(d)),
  );
  return { errors: problemsOf(r.errors), resolved: r.resolved ?? null, notProject };
}

/** The project JSON of a text, or null when it is not a JSON object. */
export function asJson(text: string): ProjectJson | null {
  try {
    const v = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    const o = v as ProjectJson;
    if (!Array.isArray(o.motions)) o.motions = [];
    return o;
  } catch {
    return null;
  }
}

/** The text a project JSON is saved as (2-space JSON, one trailing newline, like the sample). */
export function projectText(json: ProjectJson): string {
  return `${JSON.stringify(json, null, 2)}\n`;
}

export function isProjectDirty(s: ProjectState): boolean {
  return s.path !== null && s.text !== s.savedText;
}

/** Absolute paths of motion `index` (resolved against the project file even when validation failed). */
export function motionPaths(s: ProjectState, index: number): { mtn: string; sev: string | null } | null {
  const m = s.json?.motions[index];
  if (!s.path || !m || typeof m.mtn !== 'string') return null;
  pathReads++;
  return {
    mtn: resolveFrom(s.path, m.mtn),
    sev: typeof m.sev === 'string' && m.sev ? resolveFrom(s.path, m.sev) : null,
  };
}

/** Which motion (archive index) a problem is about: by `motions[i]` in its place, else by file. */
export function motionOfProblem(s: ProjectState, p: BuildProblem): number | null {
  const m = /motions\[(\d+)\]/.exec(p.where ?? p.message);
  if (m) return Number(m[1]);
  if (p.file && s.json) {
    const i = s.json.motions.findIndex((_, k) => {
      const paths = motionPaths(s, k);
      return paths !== null && (paths.mtn === p.file || paths.sev === p.file);
    });
    if (i >= 0) return i;
  }
  return null;
}

let pathReads = 0;

/** How many times a motion's paths were resolved (motionPaths; tests: the project panel's rows find their problems). */
export function motionPathReads(): number {
  return pathReads;
}

/**
 * The problems of each motion (archive index), in their order: where motionOfProblem places each, the motions' paths
 * resolved once for all. The project panel asked motionOfProblem of every problem for each row at each render, and
 * it resolved every motion's paths for a problem placed by its file: rows x problems x motions paths
 * (docs/architecture.md, "Renderer review, round 11").
 */
export function problemsByMotion(s: ProjectState, problems: readonly BuildProblem[]): Map<number, BuildProblem[]> {
  const byFile = new Map<string, number>();
  let indexed = false;
  const byMotion = new Map<number, BuildProblem[]>();
  for (const p of problems) {
    const m = /motions\[(\d+)\]/.exec(p.where ?? p.message);
    let index: number | undefined = m ? Number(m[1]) : undefined;
    if (index === undefined && p.file && s.json) {
      // The first motion naming the file, as motionOfProblem's search finds it.
      if (!indexed)
        for (let k = s.json.motions.length - 1; k >= 0; k--) {
          const paths = motionPaths(s, k);
          if (!paths) continue;
          if (paths.sev !== null) byFile.set(paths.sev, k);
          byFile.set(paths.mtn, k);
        }
      indexed = true;
      index = byFile.get(p.file);
    }
    if (index === undefined) continue;
    const list = byMotion.get(index);
    if (list) list.push(p);
    else byMotion.set(index, [p]);
  }
  return byMotion;
}

export function createProjectStore() {
  return createStore<ProjectState>()((set, get) => ({
    path: null,
    savedText: '',
    json: null,
    text: '',
    errors: [],
    resolved: null,
    current: null,
    currentDocumentId: null,
    tables: null,
    status: {},
    scales: {},
    problems: [],
    warnings: [],
    checking: false,
    checkedAt: 0,
    checkedText: null,
    build: null,
    soundFolder: null,
    sounds: {},

    adopt(path, text) {
      const { errors, resolved, notProject } = checkedProject(text, path);
      set({
        path,
        savedText: text,
        text,
        json: notProject ? null : asJson(text),
        errors,
        resolved,
        current: null,
        tables: null,
        status: {},
        scales: {},
        problems: [],
        warnings: [],
        checking: false,
        checkedAt: 0,
        checkedText: null,
        build: null,
        soundFolder: null,
        sounds: {},
      });
    },
    close() {
      set({
        path: null,
        savedText: '',
        text: '',
        json: null,
        errors: [],
        resolved: null,
        current: null,
        tables: null,
        status: {},
        scales: {},
        problems: [],
        warnings: [],
        checkedText: null,
        build: null,
        soundFolder: null,
        sounds: {},
      });
    },
    setJson(json) {
      const path = get().path;
      if (!path) return;
      const text = projectText(json);
      set({ json, text, ...validate(text, path) });
    },
    markSaved(text) {
      set({ savedText: text });
    },
    setCurrent(index, documentId) {
      set(documentId === undefined ? { current: index } : { current: index, currentDocumentId: documentId });
    },
    setTables(tables) {
      set({ tables });
    },
    setStatus(patch) {
      set(patch);
    },
    setBuild(build) {
      // What the build took unsaved (or left out) is known at its start; the progress updates keep it.
      set((st) => ({
        build: build && {
          ...build,
          unsaved: build.unsaved ?? st.build?.unsaved,
          savedMotion: build.savedMotion ?? st.build?.savedMotion,
        },
      }));
    },
    setSounds(soundFolder, sounds) {
      set({ soundFolder, sounds });
    },
  }));
}

export const projectStore = createProjectStore();

/**
 * The sounds of a folder listing by SE name, the first of each name. Without a prototype: an SE may be named
 * `constructor` or `__proto__`, which a plain object answers (or swallows) itself.
 */
export function soundsByName(list: readonly { name: string; path: string }[]): Record<string, string> {
  const sounds = Object.create(null) as Record<string, string>;
  for (const s of list) if (!Object.hasOwn(sounds, s.name)) sounds[s.name] = s.path;
  return sounds;
}

/** The sound file of an SE name, or null; only the map's own entries count (`constructor` is no sound). */
export function soundPathOf(sounds: Record<string, string>, name: string): string | null {
  return Object.hasOwn(sounds, name) ? sounds[name] : null;
}
