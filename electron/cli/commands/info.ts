import { dirname, extname, join } from 'node:path';
import { DEFAULT_GAME_FPS, effectiveDurationMs, formatFps } from '../../../shared/motion/frameRate';
import { projectDurations } from '../../../shared/project/durations';
import { normalizePath } from '../../../shared/project/paths';
import { parseProject } from '../../../shared/project/validate';
import { decodeUtf8Text } from '../../../shared/sev/text';
import { readBuildInput } from '../../build/files';
import { printDiagnostics } from '../../build/inputs';
import { describeMshAnimation } from '../../../shared/msh/describe';
import { parseMshNodesJson } from '../../../shared/msh/nodesJson';
import { escapeControls, FormatError } from '../../../shared/errors';
import { MSH_KEY_BYTES } from '../../../shared/msh/constants';
import { readMshAnimation } from '../../../shared/msh/read';
import { inFile } from '../../../shared/errors';
import { describeMar } from '../../../shared/mar/describe';
import { describeMt3 } from '../../../shared/mt3/describe';
import { readMt3Header } from '../../../shared/mt3/read';
import { KeyFlag, MotionFlag, type Motion } from '../../../shared/motion/types';
import { readMtn } from '../../../shared/mtn/read';
import { describeSar, type SarDisplayNames } from '../../../shared/sar/describe';
import { readBytes, readFileHead, TEXT_LIMIT } from '../../fsutil';
import { readBinaryFile } from '../../io/readBinary';
import { describeFsError } from '../../fsErrors';
import { numberOption, parseArgs, singlePositional, stringOption, UsageError } from '../args';
import { EXIT_FAILED, EXIT_OK, type CliCommand } from '../command';
import { marJson, mshJson, mt3Json, mtnJson, projectJson, sarJson } from '../infoJson';
import { jsonProblem, printJson } from '../json';
import { readMotionNamesFile } from '../motionNames';
import { findProjectOfSar, loadSarDisplayNames } from '../../build/sarNames';
import { projectRedactor } from '../../outsideQuotes';

type Kind = 'mtn' | 'mt3' | 'mar' | 'sar' | 'msh' | 'project';

/** By extension; an unknown extension falls back to the magic (MT3 has none). */
/** The kind a file's name says, or undefined when only its first bytes can tell. */
function kindByName(path: string): Kind | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.res8' || ext === '.res19' || /\.nodes\.json$/i.test(path)) return 'msh';
  if (ext === '.json') return 'project';
  if (ext === '.mtn' || ext === '.mt3' || ext === '.mar' || ext === '.sar') return ext.slice(1) as Kind;
  return undefined;
}

function kindByMagic(path: string, head: Uint8Array): Kind {
  const magic = String.fromCharCode(...head.subarray(0, 4));
  if (magic === 'MTN\0') return 'mtn';
  if (magic === 'MARa') return 'mar';
  if (magic === 'SARa') return 'sar';
  throw new UsageError(
    `${path}: cannot tell the file kind (expected .mtn, .mt3, .mar, .sar or a project .actguy.json)`,
  );
}

export const infoCommand: CliCommand = {
  name: 'info',
  usage:
    'info FILE.(mtn|mt3|mar|sar|actguy.json|nodes.json|res8|res19) [--speed S] [--fps F] [--names NAMES.txt] [--skeleton REF.mtn] [--sls default.sls] [--se-define se_define.h] [--project P.actguy.json] [--json]',
  summary:
    'print a readable summary: MTN skeleton and key info, MT3 header and streams, MAR/SAR entries (motion names from --names; MAR durations at --fps, default 30), ' +
    "a project's motions and aliases with their effective durations, an MSH export (its .nodes.json with the .res8 and .res19 beside it)",
  json: true,
  run(argv) {
    const args = parseArgs(argv, ['names', 'skeleton', 'sls', 'se-define', 'project', 'speed', 'fps'], ['json']);
    const json = args.options.has('json');
    const speed = numberOption(args, 'speed', 1);
    const fps = numberOption(args, 'fps', DEFAULT_GAME_FPS);
    if (!(fps > 0 && Number.isFinite(fps))) throw new UsageError(`--fps must be a number above 0, got ${fps}`);
    const path = singlePositional(args, 'file');
    const namesPath = stringOption(args, 'names');
    const names = namesPath ? readMotionNamesFile(namesPath) : undefined;
    const skeletonPath = stringOption(args, 'skeleton');
    const jointNames = skeletonPath
      ? inFile(skeletonPath, () => readMtn(readBinaryFile(skeletonPath, 'MTN'))).joints.map((j) => j.name)
      : undefined;
    // An MSH export is read from its .nodes.json, and a project as a text file (up to TEXT_LIMIT): neither is read
    // whole first (a sparse 1.5 GB .nodes.json took 15 s and 1.5 GB before it was even looked at).
    const kind = kindByName(path) ?? kindByMagic(path, readFileHead(path, 4) ?? readBytes(path));
    if (kind === 'msh') {
      const msh = readMshFiles(path);
      if (json) printJson(mshJson(path, msh.files, msh.source, msh.animation));
      else console.log(`${path}\n${describeMsh(msh)}`);
      return EXIT_OK;
    }
    // A motion or an archive has its header checked before the rest is read (electron/io/readBinary.ts).
    const bytes =
      kind === 'project'
        ? readBytes(path, TEXT_LIMIT)
        : readBinaryFile(path, kind === 'mtn' ? 'MTN' : kind === 'mt3' ? 'MT3' : kind === 'mar' ? 'MAR' : 'SAR');
    /** What is printed: the text, or with --json the document. */
    let text: string | Record<string, unknown>;
    if (kind === 'mtn')
      text = inFile(path, () => {
        const motion = readMtn(bytes);
        return json ? mtnJson(path, motion, bytes.byteLength, speed) : describeMtn(motion, bytes.byteLength, speed);
      });
    else if (kind === 'project') return describeProjectFile(path, bytes, json);
    else if (kind === 'mt3')
      text = inFile(path, () => {
        const name = names?.get(readMt3Header(bytes).name)?.name;
        return json ? mt3Json(path, bytes, name, jointNames) : describeMt3(bytes, name, jointNames);
      });
    else if (kind === 'mar')
      text = inFile(path, () => (json ? marJson(path, bytes, names, fps) : describeMar(bytes, names, { fps })));
    else {
      const motionNames = names ? new Map([...names].map(([h, n]) => [h, n.name])) : undefined;
      // SE codes back to names (--sls/--se-define), motion and joint names (--project): loaded before the SAR so errors name their own file
      const sources = {
        sls: stringOption(args, 'sls'),
        seDefine: stringOption(args, 'se-define'),
        project: stringOption(args, 'project'),
      };
      let display: SarDisplayNames | undefined;
      if (!sources.sls && !sources.seDefine && !sources.project) {
        const found = findProjectOfSar(path); // after `actguy build`, its report beside the .sar names the project
        if (found) {
          // Names found by way of a report are a convenience: the report is a file in a folder anyone may have
          // sent, so a project it names that does not load costs the names, not the listing.
          try {
            display = loadSarDisplayNames({ project: found.project }, motionNames);
            console.error(`(names from ${found.project}, via ${found.report})`);
          } catch (e) {
            console.error(
              `(no names: ${found.project} named by ${found.report} does not load: ${e instanceof Error ? e.message : String(e)})`,
            );
          }
        }
      }
      display ??= loadSarDisplayNames(sources, motionNames);
      text = inFile(path, () => (json ? sarJson(path, bytes, display) : describeSar(bytes, display)));
    }
    if (typeof text === 'string') console.log(`${path}\n${text}`);
    else printJson(text);
    return EXIT_OK;
  },
};

/**
 * A project's motions and aliases with their effective durations (the build's
 * rule, at the project's fps, after resampling), each entry on its own line;
 * an entry without a duration names its problem and the exit status is 1.
 */
function describeProjectFile(path: string, bytes: Uint8Array, json: boolean): number {
  const projectFile = normalizePath(path);
  const parsed = parseProject(decodeUtf8Text(bytes, 'PROJECT', projectFile), projectFile);
  if (!parsed.resolved) {
    if (json) {
      const errors = parsed.errors.map((e) => jsonProblem(e));
      printJson({ error: errors[0] ?? null, errors });
    }
    printDiagnostics(parsed.errors, []);
    console.error(`${parsed.errors.length} error${parsed.errors.length === 1 ? '' : 's'} in the project`);
    return EXIT_FAILED;
  }
  const p = parsed.resolved;
  // A problem in a motion file outside the project's folder is told by its place only (docs/security.md round 34).
  const redact = projectRedactor(projectFile);
  const entries = projectDurations(p, readBuildInput, (e) => redact(e).message);
  const bad = entries.filter((e) => e.durationMs === undefined).length;
  const badLine = `${bad} entr${bad === 1 ? 'y has' : 'ies have'} no effective duration`;
  if (json) {
    const first = entries.find((e) => e.durationMs === undefined);
    printJson({
      ...projectJson(path, p, entries),
      ...(first
        ? {
            error: { file: path, place: { where: first.name }, message: `${badLine}: ${first.name}: ${first.problem}` },
          }
        : {}),
    });
    if (bad) console.error(badLine);
    return bad ? EXIT_FAILED : EXIT_OK;
  }
  const width = Math.max(...entries.map((e) => e.name.length));
  const lines = [
    `${path}`,
    `project: ${p.motions.length} motion${p.motions.length === 1 ? '' : 's'}, ${p.aliases.length} alias${p.aliases.length === 1 ? '' : 'es'}, played at ${formatFps(p.fps)} fps`,
    'entries (archive index, name, frames at the project rate, speed, effective duration = round(frames / fps / speed * 1000)):',
  ];
  for (const e of entries) {
    const what = e.target !== undefined ? `alias of ${e.target}, ` : '';
    const frames =
      e.frameCount === undefined
        ? ''
        : `frames 0..${e.frameCount}${e.resampledFrom ? ` (resampled from ${formatFps(e.resampledFrom.fps)} fps, 0..${e.resampledFrom.frameCount})` : ''}, `;
    const result = e.durationMs !== undefined ? `${e.durationMs} ms` : `no duration: ${e.problem}`;
    lines.push(`  [${e.index}] ${e.name.padEnd(width)}  ${what}${frames}speed ${e.speed}: ${result}`);
  }
  console.log(lines.join('\n'));
  if (bad === 0) return EXIT_OK;
  console.error(badLine);
  return EXIT_FAILED;
}

/** How far past the size its .nodes.json gives a payload is still read, to be described as damaged. */
const MSH_PAYLOAD_SLACK = 1024 * 1024;

/** An MSH export read back: its three files, the motion it came from, the animation. */
interface MshFilesRead {
  files: { nodes: string; res8: string; res19: string };
  source: string;
  animation: ReturnType<typeof readMshAnimation>;
}

/** The text `info` prints of an MSH export. */
function describeMsh(m: MshFilesRead): string {
  const { nodes, res8, res19 } = m.files;
  return `${nodes} + ${res8} + ${res19}${m.source ? ` (from ${escapeControls(m.source)})` : ''}\n${describeMshAnimation(m.animation)}`;
}

/** Reads an MSH export back (the .nodes.json and the two payloads beside it, from any of the three). */
function readMshFiles(path: string): MshFilesRead {
  const nodesPath = path.replace(/\.(res8|res19|nodes\.json)$/i, '.nodes.json');
  // Every file here may have come with a received folder: each is read only up to what it can be (a sparse 1.5 GB
  // .nodes.json took 30 s and 3 GB, then failed naming no file), and a failure names the file.
  const read = (file: string, limit: { bytes: number; of: string }) => {
    try {
      return readBytes(file, limit);
    } catch (e) {
      throw new FormatError('MSH', `cannot read: ${describeFsError(e)}`, {}, file);
    }
  };
  const parsed = parseMshNodesJson(new TextDecoder().decode(read(nodesPath, TEXT_LIMIT)), nodesPath);
  const res8 = join(dirname(nodesPath), parsed.res8File);
  const res19 = join(dirname(nodesPath), parsed.res19File);
  // A payload is the size its attributes give: one much larger is not read (a small slip is left for
  // readMshAnimation to name exactly).
  const { res8: a8, res19: a19 } = parsed.attrs;
  const upTo = (bytes: number, of: string) => ({ bytes: Math.max(bytes, MSH_PAYLOAD_SLACK), of });
  const res8Bytes = read(res8, upTo(a8.attr1 * MSH_KEY_BYTES, `the key pool ${nodesPath} describes`));
  const res19Bytes = read(res19, upTo(a19.attr1 * 2, `the frame map ${nodesPath} describes`));
  const animation = inFile(nodesPath, () => readMshAnimation(res8Bytes, res19Bytes, parsed.attrs, parsed.nodes));
  return { files: { nodes: nodesPath, res8, res19 }, source: parsed.source, animation };
}

/** MTN summary: header, effective duration, joints with parents, and counts of user keys, locks and trace keys. */
function describeMtn(m: Motion, size: number, speed = 1): string {
  const N = m.frameCount;
  const J = m.joints.length;
  const flagNames = Object.entries(MotionFlag)
    .filter(([, b]) => m.flags & b)
    .map(([n]) => n);
  const unknown = m.flags & ~Object.values(MotionFlag).reduce((a, b) => a | b, 0);
  if (unknown) flagNames.push(`0x${(unknown >>> 0).toString(16)}`);
  let transKeys = 0;
  let traceKeys = 0;
  const traceFrames: number[] = [];
  for (let f = 0; f <= N; f++) {
    const fl = m.translationKeyInfo[f * 4];
    if (fl & KeyFlag.KEY) transKeys++;
    if (fl & KeyFlag.TRACE) {
      traceKeys++;
      traceFrames.push(f);
    }
  }
  const jointKeys = new Array<number>(J).fill(0);
  let lockFrames = 0;
  const lockRanges: string[] = [];
  let open: { joint: number; first: number; last: number } | null = null;
  for (let f = 0; f <= N; f++) {
    let locked = -1;
    for (let j = 0; j < J; j++) {
      const fl = m.jointKeyInfo[(f * J + j) * 4];
      if (fl & KeyFlag.KEY) jointKeys[j]++;
      if (fl & KeyFlag.LOCK) locked = j;
    }
    if (locked >= 0) lockFrames++;
    if (open && (locked !== open.joint || f !== open.last + 1)) {
      lockRanges.push(`${open.first === open.last ? open.first : `${open.first}..${open.last}`} joint ${open.joint}`);
      open = null;
    }
    if (locked >= 0) {
      if (open) open.last = f;
      else open = { joint: locked, first: f, last: f };
    }
  }
  if (open)
    lockRanges.push(`${open.first === open.last ? open.first : `${open.first}..${open.last}`} joint ${open.joint}`);
  const lines = [
    `MTN v1: ${size} bytes`,
    `  frames     ${N + 1} samples (0..${N}) at ${m.fps} fps`,
    `  duration   ${durationLine(N, m.fps, speed)}`,
    `  joints     ${J}`,
    `  flags      0x${(m.flags >>> 0).toString(16)}${flagNames.length ? ` (${flagNames.join(' | ')})` : ''}`,
    `  waist      ${m.waistJoint < 0 ? 'none' : `${m.waistJoint} ${m.joints[m.waistJoint].name}`}`,
    `  user keys  ${transKeys} on the root translation, ${jointKeys.reduce((a, b) => a + b, 0)} on joints`,
    `  locks      ${lockFrames} frames in ${lockRanges.length} range${lockRanges.length === 1 ? '' : 's'}${lockRanges.length ? `: ${lockRanges.join(', ')}` : ''}`,
    `  trace keys ${traceKeys}${traceFrames.length ? `: ${traceFrames.join(' ')}` : ''}`,
    'joints (index name, parent, mirror, part, user keys):',
  ];
  m.joints.forEach((j, i) => {
    lines.push(
      `  ${String(i).padStart(3)} ${j.name.padEnd(20)} parent ${String(j.parent).padStart(3)}${j.parent >= 0 ? ` (${m.joints[j.parent].name})` : ''}, mirror ${j.mirror}, ${j.part === 1 ? 'upper' : j.part === 0 ? 'lower' : `part ${j.part}`}, ${jointKeys[i]} keys`,
    );
  });
  return lines.join('\n');
}

/** `4400 ms (132 frames / 30 fps / speed 1)`, or why the duration is invalid. */
function durationLine(frames: number, fps: number, speed: number): string {
  try {
    return `${effectiveDurationMs(frames, fps, speed)} ms (${frames} frames / ${fps} fps / speed ${speed})`;
  } catch (e) {
    return `invalid: ${(e as Error).message}`;
  }
}
