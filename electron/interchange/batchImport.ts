/**
 * Many clips at once (docs/import.md): every source file (BVH, glTF/GLB, FBX)
 * through the import job, one .mtn per clip in an output folder, named under
 * the motion-name rule, and optionally added to a project, all or nothing.
 * `actguy import A.bvh B.fbx -o DIR [--project P]` and the app's import of
 * several files share it; each file runs through the same ImportRunner as a
 * single import (the app: a worker per file, with its budget and cancellation).
 *
 * What is written:
 * - without a project: every motion that imported, each atomically; a file
 *   that failed is reported and written nothing;
 * - with a project: all the .mtn files and the project, as one unit
 *   (commitOutputs), only when every file imported; otherwise nothing at all.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { quoteJson } from '../../shared/errors';
import type { PlainFileProblem } from '../../shared/fileProblem';
import { motionNameProblem } from '../../shared/motionName';
import type { BvhPositionReading, InterchangeWarning } from '../../shared/interchange/types';
import type { ProjectParseResult } from '../../shared/project/validate';
import { readMtn } from '../../shared/mtn/read';
import { decodeUtf8Text } from '../../shared/sev/text';
import { commitOutputs, commitOutputsAsync, type CommitOptions, type OutputFile } from '../build/commit';
import { systemReason } from '../fsErrors';
import { readBytes, TEXT_LIMIT, writeFileAtomic, writeFileAtomicAsync, type FolderPin } from '../fsutil';
import { sameFile } from '../pathIdentity';
import type { ImportRunner } from './importRunner';

interface BatchImportOptions {
  fps: number;
  scale: number;
  offsets?: boolean;
  /** How BVH position channels are read (shared/interchange/types.ts BvhPositionReading); other formats ignore it. */
  bvhPositions?: BvhPositionReading;
  /** One clip (name or index) from every glTF/FBX; without it every clip of a file becomes a motion. */
  clip?: string | number;
  /** Folder the .mtn files go to (made when missing). */
  outDir: string;
  /** A project file to add the new motions to, in the order given, all or nothing. */
  project?: string;
  /**
   * Reads the project (shared/project/validate.ts's parseProject): given by the CLI, which alone takes `project`.
   * Passed in rather than imported, so the app's main process, which imports into the open project in the page,
   * never carries the project parser (that runs only in the text-check worker there).
   */
  parseProject?: (text: string, file: string) => ProjectParseResult;
  /** Replace .mtn files that already exist in the folder (otherwise such a file is refused, so nothing made by hand is lost). */
  overwrite?: boolean;
  /** Write nothing unless every file imports, and the .mtn files as one unit (implied by `project`). */
  allOrNothing?: boolean;
  /** Motion names already taken elsewhere (the app's open project): refused like a project's names. */
  reservedNames?: readonly string[];
  /** Refuses an output path by throwing (the app's path policy); the message becomes that file's error. */
  checkOutput?: (path: string) => void;
  /**
   * `outDir` as the caller checked it before the imports (fsutil.ts FolderPin; the app): a motion written on its own
   * is not written once it resolves elsewhere. Each output is checked (checkOutput) when its import ends, but one
   * whose later neighbours failed is written after their imports: a folder swapped for a link meanwhile had it
   * written where the link led (docs/security.md, round 17). All or nothing writes only when the last import, just
   * checked, succeeded.
   */
  folder?: FolderPin;
  /**
   * Write on the calling thread, synchronously (`actguy import`: its Ctrl+C handling counts on writes no signal is
   * handled in the middle of, cli/interrupt.ts). Otherwise (the app) the files are written in Node's thread pool
   * (writeFileAtomicAsync, commitOutputsAsync), so that the window answers while many motions are written.
   */
  writeSync?: boolean;
}

/** One motion the batch makes, or one file (or clip) it could not. */
interface BatchItem {
  input: string;
  /** The clip's name when the file held several (or one was chosen), else null. */
  clip: string | null;
  /** The motion name (and .mtn base name), when one could be given. */
  name: string | null;
  output: string | null;
  /** The motion as MTN bytes, when it imported. */
  mtnBytes?: Uint8Array;
  /** What went wrong, when it did. */
  error?: string;
  /** A bad file's problem in plain words, when the error was one (shared/fileProblem.ts). */
  plain?: PlainFileProblem;
  warnings: InterchangeWarning[];
  summary: string | null;
  /** "31 joints, frames 0..687 at 30 fps" for the report. */
  shape?: string;
}

interface BatchOutcome {
  items: BatchItem[];
  /** Files (and clips) that failed. */
  failed: number;
  /** The paths written (every .mtn, then the project), empty when nothing was. */
  written: string[];
  /** What happened, in one sentence, for the end of the report. */
  conclusion: string;
  cancelled: boolean;
}

export interface BatchProgress {
  done: number;
  count: number;
  item: BatchItem;
}

/** The motion name a file (and clip) gets: the file's base name, plus `_<clip>` for a clip among several. */
function batchMotionName(input: string, clip: string | null): string {
  const stem = basename(input, extname(input));
  return clip === null ? stem : `${stem}_${clip}`;
}

/**
 * Imports every input (each clip of a multi-clip file unless `clip` is set),
 * then writes as the module comment says. `signal` stops the batch between
 * and during files (nothing is written then). Never throws for a bad input:
 * each one's problem is in its item.
 */
export async function runBatchImport(
  inputs: readonly string[],
  options: BatchImportOptions,
  run: ImportRunner,
  onProgress?: (p: BatchProgress) => void,
  signal?: AbortSignal,
): Promise<BatchOutcome> {
  const outDir = resolve(options.outDir);
  const items: BatchItem[] = [];
  let projectText: string | undefined;
  const projectNames = new Set<string>(options.reservedNames ?? []);
  let projectProblem: string | undefined;
  if (options.project !== undefined) {
    try {
      if (!options.parseProject) throw new Error('a project import needs the project parser');
      // As the project is read everywhere else (docs/limits.md): a plain file only (a FIFO waited for a writer
      // forever), at most 64 MiB, strict UTF-8 (a malformed byte became U+FFFD and was written back so).
      projectText = decodeUtf8Text(readBytes(options.project, TEXT_LIMIT), 'PROJECT', options.project);
      const parsed = options.parseProject(projectText, options.project);
      if (parsed.errors.length)
        projectProblem = `the project has ${parsed.errors.length} error(s); fix them first: ${parsed.errors[0].message}`;
      else
        for (const n of [
          ...(parsed.project?.motions ?? []).map((m) => m.name),
          ...(parsed.project?.aliases ?? []).map((a) => a.name),
        ])
          projectNames.add(n);
    } catch (e) {
      projectProblem = `cannot read the project ${options.project}: ${systemReason(e)}`;
    }
  }

  // Every file (and clip) imported in memory first: nothing is written before all are known.
  /** By the motion name in lower case: names that differ only in case are refused (accept), so one item each. */
  const planned = new Map<string, BatchItem>();
  let count = inputs.length;
  let done = 0;
  const report = (item: BatchItem) => {
    items.push(item);
    done++;
    onProgress?.({ done, count, item });
  };
  const base = { fps: options.fps, scale: options.scale, offsets: options.offsets, bvhPositions: options.bvhPositions };
  /** External buffers read by any import of the batch, with the file that named them: inputs too. */
  const buffers = new Map<string, string>();
  const noteBuffers = (paths: readonly string[], input: string) => {
    for (const b of paths) if (!buffers.has(b)) buffers.set(b, input);
  };
  for (const input of inputs) {
    if (signal?.aborted) break;
    const first = await run({ path: resolve(input), ...base, clip: options.clip }, signal);
    if (first.status === 'cancelled') break;
    if (first.status === 'failed') {
      report({
        input,
        clip: null,
        name: null,
        output: null,
        error: first.message,
        ...(first.plain ? { plain: first.plain } : {}),
        warnings: [],
        summary: null,
      });
      continue;
    }
    if (first.status === 'imported') {
      noteBuffers(first.buffers, input);
      // One clip chosen with --clip: named after the file alone (the clip is still reported).
      const item = accept(input, null, first.mtnBytes, first.warnings, first.summary);
      item.clip = options.clip !== undefined ? first.clipName : null;
      report(item);
      continue;
    }
    // Several clips and none chosen: each becomes a motion of its own.
    count += first.clips.length - 1;
    for (const c of first.clips) {
      if (signal?.aborted) break;
      const r = await run({ path: resolve(input), ...base, clip: c.index }, signal);
      if (r.status === 'cancelled') break;
      if (r.status === 'imported') {
        noteBuffers(r.buffers, input);
        report(accept(input, c.name, r.mtnBytes, r.warnings, r.summary));
      } else
        report({
          input,
          clip: c.name,
          name: null,
          output: null,
          error: r.status === 'failed' ? r.message : `clip ${c.index} asked for a clip choice`,
          ...(r.status === 'failed' && r.plain ? { plain: r.plain } : {}),
          warnings: [],
          summary: null,
        });
    }
  }
  const cancelled = signal?.aborted === true;
  // A .gltf's buffers are known only once it is read, perhaps after the output they clash with was planned.
  for (const item of planned.values())
    for (const [buffer, input] of buffers)
      if (item.mtnBytes && sameFile(buffer, item.output!)) {
        item.error = `its output ${item.output} is an external buffer of the input ${input}; an output never overwrites an input`;
        delete item.mtnBytes;
      }

  // A file may have appeared at an output while later files imported (a long batch takes minutes): checked again
  // just before the write, so a motion saved meanwhile is not replaced unasked.
  if (!options.overwrite)
    for (const item of planned.values())
      if (item.mtnBytes && existsSync(item.output!)) {
        item.error = alreadyExists(item.output!);
        delete item.mtnBytes;
      }

  function alreadyExists(output: string): string {
    return `${output} already exists; ${options.checkOutput ? 'remove or rename it first' : 'pass --overwrite to replace it, or choose another folder'}`;
  }

  function outputRefusal(output: string): string | undefined {
    try {
      options.checkOutput?.(output);
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  function accept(
    input: string,
    clip: string | null,
    mtnBytes: Uint8Array,
    warnings: InterchangeWarning[],
    summary: string | null,
  ): BatchItem {
    const name = batchMotionName(input, clip);
    const output = join(outDir, `${name}.mtn`);
    const item: BatchItem = { input, clip, name, output, warnings, summary };
    const m = readMtn(mtnBytes);
    item.shape = `${m.joints.length} joints, frames 0..${m.frameCount} at ${m.fps} fps`;
    const problem = motionNameProblem(name);
    const known = planned.get(name.toLowerCase());
    const clash = known?.name === name ? known : undefined;
    // `Walk` and `walk` are two motion names but one .mtn file where the folder ignores case (macOS, Windows): the
    // second import replaced the first there, and the report said both were written (docs/security.md, round 14).
    // Refused on every system, as the files and the project travel.
    const twin = clash ? undefined : known;
    if (problem)
      item.error = `${problem}; rename the file${clip !== null ? ' (or import one clip with --clip, which keeps the file name)' : ''}`;
    else if (clash)
      item.error = `the motion name ${quoteJson(name)} is already taken by ${clash.input}${clash.clip ? ` clip ${quoteJson(clash.clip)}` : ''}`;
    else if (twin)
      item.error = `the motion name ${quoteJson(name)} differs only in letter case from ${quoteJson(twin.name!)} (${twin.input}${twin.clip ? ` clip ${quoteJson(twin.clip)}` : ''}): their .mtn files are one file where the folder ignores case (macOS, Windows); rename one of the files`;
    else if (projectNames.has(name))
      item.error = `the project ${options.project ?? ''}${options.project ? ' ' : ''}already has a motion named ${quoteJson(name)}`;
    else if (inputs.some((i) => sameFile(i, output))) item.error = `its output ${output} is one of the inputs`;
    else if (!options.overwrite && existsSync(output)) item.error = alreadyExists(output);
    else if (outputRefusal(output)) item.error = outputRefusal(output);
    else {
      item.mtnBytes = mtnBytes;
      planned.set(name.toLowerCase(), item);
    }
    return item;
  }

  /** All or nothing: as one unit, into the folder pinned before the imports (checked again before the renames). */
  async function commit(files: OutputFile[]): Promise<void> {
    const pins: CommitOptions = { folders: options.folder ? [options.folder] : undefined };
    if (options.writeSync) commitOutputs(files, pins);
    else await commitOutputsAsync(files, pins);
  }

  const failed = items.filter((i) => i.error !== undefined).length;
  const ok = items.filter((i) => i.mtnBytes);
  const written: string[] = [];
  /** The batch's result, `written` as it stands: `failedBesides` counts a failure that is no item's (the project). */
  const result = (conclusion: string, failedBesides = 0) => ({
    items,
    failed: failed + failedBesides,
    written,
    cancelled,
    conclusion,
  });
  if (cancelled) return result('cancelled; nothing was written');
  if (options.project !== undefined) {
    if (projectProblem) return result(`${projectProblem}; nothing was written`, 1);
    if (failed)
      return result(
        `${failed} of ${items.length} failed; nothing was written and ${options.project} is unchanged (all or nothing with --project)`,
      );
    const text = projectWithMotions(projectText!, options.project, ok, options.parseProject!);
    const files: OutputFile[] = [
      ...ok.map((i) => ({ path: i.output!, bytes: i.mtnBytes! })),
      { path: options.project, bytes: Buffer.from(text, 'utf8') },
    ];
    await commit(files);
    written.push(...files.map((f) => f.path));
    return result(
      `wrote ${ok.length} motion(s) to ${outDir} and added them to ${options.project} (${ok.map((i) => i.name).join(', ')})`,
    );
  }
  if (options.allOrNothing) {
    if (failed) return result(`${failed} of ${items.length} failed; nothing was written (all or nothing)`);
    await commit(ok.map((i) => ({ path: i.output!, bytes: i.mtnBytes! })));
    written.push(...ok.map((i) => i.output!));
    return result(`wrote ${ok.length} motion(s) to ${outDir}`);
  }
  for (const i of ok) {
    try {
      if (options.writeSync) writeFileAtomic(i.output!, i.mtnBytes!, { folder: options.folder });
      else await writeFileAtomicAsync(i.output!, i.mtnBytes!, { folder: options.folder });
      written.push(i.output!);
    } catch (e) {
      i.error = `cannot write ${i.output}: ${systemReason(e)}`;
      delete i.mtnBytes;
    }
  }
  const nowFailed = items.filter((i) => i.error !== undefined).length;
  const conclusion = nowFailed
    ? `${nowFailed} of ${items.length} failed (nothing written for them); the other ${written.length} were written to ${outDir}`
    : `wrote ${written.length} motion(s) to ${outDir}`;
  return { items, failed: nowFailed, written, cancelled, conclusion };
}

/**
 * The project text with the motions appended, in order: `mtn` relative to the
 * project's folder when inside it (forward slashes), checked again as a whole
 * (a refused result means a bug here, and nothing is written).
 */
function projectWithMotions(
  text: string,
  projectPath: string,
  items: readonly BatchItem[],
  parseProject: (text: string, file: string) => ProjectParseResult,
): string {
  const json = JSON.parse(text.replace(/^\uFEFF/, '')) as { motions: { name: string; mtn: string }[] };
  const folder = dirname(resolve(projectPath));
  for (const i of items) {
    const rel = relative(folder, i.output!);
    const mtn = rel.startsWith('..') || resolve(folder, rel) !== i.output ? i.output! : rel.split(sep).join('/');
    json.motions.push({ name: i.name!, mtn });
  }
  const out = `${JSON.stringify(json, null, 2)}\n`;
  const check = parseProject(out, projectPath);
  if (check.errors.length)
    throw new Error(
      `the project with the new motions does not validate (${check.errors[0].message}); nothing was written`,
    );
  return out;
}
