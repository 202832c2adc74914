/**
 * Held-out captures through the real importers and the compressor (`npm run heldout`; not part of the test suite).
 *
 * Imports every .bvh, .fbx, .gltf and .glb under /usr/share/assimp/models (and models-nonbsd when present; the
 * Debian package assimp-testmodels) as File > Import and `actguy import` do (runImportJob: the file read, the
 * importer, the .mtn bytes written), at 30 and 120 fps, every clip of a file with several. Each motion read back
 * from its .mtn bytes is compressed refined (the default), classic and skeleton-aware (object tolerance twice the
 * position tolerance) at 0.05 u / 0.5 deg and at the floor 0.005 u / 0.05 deg, and the MT3 bytes are decoded by the independent decoder (shared/testing/independentDecode.ts,
 * as the guarantee tests do) to find any frame that is not a key and is over its channel's tolerance.
 *
 * Reports per file and rate: imported (frames, joints, keys refined / classic at each level) or refused (the
 * message), then the counts per format. Exit status 1 when any import failed without naming the file and a place
 * (a stack trace, a message of ours that says "defect"), or any guarantee was broken.
 *
 *   npm run heldout [-- --dir D ...] [--fps 30,120] [--json out.json] [--only SUBSTRING]
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { extname, relative } from 'node:path';
import { compressMotion } from '../shared/compress/compress';
import type { CompressOptions } from '../shared/compress/types';
import { precisionFloor } from '../shared/compress/unreachable';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { guaranteeViolations } from '../shared/testing/hostileMotions';
import { independentObjectErrors } from '../shared/testing/independentFk';
import { readMt3 } from '../shared/mt3/read';
import { runImportJob } from '../electron/interchange/importJob';
import { heldOutFiles } from './heldoutFiles';

const DEFAULT_DIRS = ['/usr/share/assimp/models', '/usr/share/assimp/models-nonbsd'];

const LEVELS = [
  { label: '0.05', positionTolerance: 0.05, rotationToleranceDeg: 0.5, offsetTolerance: 0.05 },
  { label: 'floor', positionTolerance: 0.005, rotationToleranceDeg: 0.05, offsetTolerance: 0.005 },
];
const METHODS: { label: string; extra: (positionTolerance: number) => Partial<CompressOptions> }[] = [
  { label: 'refined', extra: () => ({}) },
  { label: 'classic', extra: () => ({ method: 'classic' }) },
  // Skeleton-aware, with an object-space bound of twice the position tolerance (as heldOut.test.ts): at the floor
  // its per-joint tolerances come out at and under 0.005 u / 0.05 deg.
  { label: 'skeleton', extra: (positionTolerance) => ({ objectTolerance: 2 * positionTolerance }) },
];

interface Args {
  dirs: string[];
  fps: number[];
  json?: string;
  only?: string;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { dirs: [], fps: [30, 120] };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--dir':
        a.dirs.push(v);
        i++;
        break;
      case '--fps':
        a.fps = v.split(',').map(Number);
        i++;
        break;
      case '--json':
        a.json = v;
        i++;
        break;
      case '--only':
        a.only = v;
        i++;
        break;
      default:
        throw new Error(`heldout: unknown argument ${argv[i]}`);
    }
  }
  if (a.dirs.length === 0) a.dirs = DEFAULT_DIRS;
  return a;
}

/** A refusal a user can act on names the file and a place: `FILE:LINE:COL: …` or `FILE [KIND] (PLACE): …`. */
export function locatedProblem(message: string, path: string): string | null {
  if (/defect in ActGuy|please report it/i.test(message)) return 'a defect of ours (the importer threw)';
  if (!message.includes(path)) return 'does not name the file';
  const rest = message.slice(message.indexOf(path) + path.length);
  if (/^:\d+:\d+: /.test(rest) || /^ \[[A-Z_]+\] \([^)]*\): /.test(rest)) return null;
  return 'names no place in the file';
}

interface CompressRow {
  method: string;
  level: string;
  keys: number;
  /** The .mt3's bytes and the compression's milliseconds (round 4). */
  bytes: number;
  ms: number;
  /** Keys of the rotation channels alone (what the refined removal pass works on). */
  rotationKeys: number;
  /**
   * Skeleton-aware: the bound the mode held (the floor when the one asked was below it: `requested`), whether it
   * was met, the motion's object-space floor, and the written file's object-space error by an independent decoder
   * and FK (shared/testing/independentFk.ts), every frame.
   */
  object?: { tolerance: number; requested?: number; met: boolean; error: number; floor: number; independent: number };
  violations: string[];
  keysOverFloor: number;
  /** Keys over their tolerance by channel kind (translation, rotation, offset). */
  overByKind: Record<string, number>;
}
interface Row {
  file: string;
  format: string;
  fps: number;
  clip: string | null;
  status: 'imported' | 'refused' | 'failed';
  message?: string;
  /** Why a refusal is a defect (unlocated, a crash); absent for a proper refusal. */
  problem?: string;
  warnings?: string[];
  frames?: number;
  joints?: number;
  compress?: CompressRow[];
  ms: number;
}

function compressAll(m: Motion): CompressRow[] {
  const rows: CompressRow[] = [];
  for (const level of LEVELS)
    for (const method of METHODS) {
      const { label, ...tol } = level;
      let r;
      try {
        r = compressMotion(m, { ...tol, ...method.extra(tol.positionTolerance), name: 'heldout' });
      } catch (e) {
        rows.push({
          method: method.label,
          level: label,
          keys: -1,
          bytes: -1,
          ms: 0,
          rotationKeys: -1,
          violations: [`compress threw: ${(e as Error).stack ?? String(e)}`],
          keysOverFloor: 0,
          overByKind: {},
        });
        continue;
      }
      const violations = guaranteeViolations(m, r);
      const keysOverFloor = r.warnings.reduce((s, w) => s + (w.keyFrames?.length ?? 1), 0);
      const overByKind: Record<string, number> = {};
      for (const w of r.warnings) overByKind[w.kind] = (overByKind[w.kind] ?? 0) + (w.keyFrames?.length ?? 1);
      const rotationKeys = r.channels.filter((c) => c.kind === 'rotation').reduce((n, c) => n + c.keyFrames.length, 0);
      const object = r.skeleton
        ? {
            tolerance: r.skeleton.objectTolerance,
            met: r.skeleton.met,
            error: r.objectError!.maxError,
            floor: precisionFloor(m, r.skeleton.shell).object!,
            ...(r.skeleton.requestedObjectTolerance !== undefined
              ? { requested: r.skeleton.requestedObjectTolerance }
              : {}),
            independent: independentObjectErrors(m, readMt3(r.bytes), r.skeleton.shell).reduce(
              (w, perJoint) => perJoint.reduce((x, e) => Math.max(x, e), w),
              0,
            ),
          }
        : undefined;
      // A bound the mode says it met is met at every frame by the independent check.
      if (object?.met && !(object.independent <= object.tolerance + 1e-9))
        violations.push(`object-space error ${object.independent} over the bound it says it met, ${object.tolerance}`);
      rows.push({
        method: method.label,
        level: label,
        keys: r.totalKeys,
        bytes: r.mt3Bytes,
        ms: r.ms,
        rotationKeys,
        ...(object ? { object } : {}),
        violations,
        keysOverFloor,
        overByKind,
      });
    }
  return rows;
}

async function importOne(path: string, fps: number, clip?: number): Promise<Row[]> {
  const t0 = performance.now();
  const format = extname(path).slice(1).toLowerCase() === 'glb' ? 'gltf' : extname(path).slice(1).toLowerCase();
  const base = { file: path, format, fps, clip: null as string | null };
  let res;
  try {
    res = await runImportJob({ path, fps, scale: 1, clip });
  } catch (e) {
    return [
      { ...base, status: 'failed', message: (e as Error).stack ?? String(e), problem: 'runImportJob threw', ms: 0 },
    ];
  }
  if (res.status === 'chooseClip') {
    const rows: Row[] = [];
    for (const c of res.clips) rows.push(...(await importOne(path, fps, c.index)));
    return rows;
  }
  if (res.status === 'cancelled') return [{ ...base, status: 'failed', message: 'cancelled', ms: 0 }];
  if (res.status === 'failed') {
    const problem = locatedProblem(res.message, path);
    return [
      {
        ...base,
        status: problem ? 'failed' : 'refused',
        message: res.message,
        ...(problem ? { problem } : {}),
        ms: performance.now() - t0,
      },
    ];
  }
  let m: Motion;
  try {
    m = readMtn(res.mtnBytes);
  } catch (e) {
    return [
      {
        ...base,
        clip: res.clipName,
        status: 'failed',
        message: `the imported .mtn does not read back: ${(e as Error).message}`,
        problem: 'import wrote an unreadable .mtn',
        ms: performance.now() - t0,
      },
    ];
  }
  const compress = compressAll(m);
  return [
    {
      ...base,
      clip: res.clipName,
      status: 'imported',
      warnings: res.warnings.map((w) => w.message),
      frames: m.frameCount + 1,
      joints: m.joints.length,
      compress,
      ms: performance.now() - t0,
    },
  ];
}

function describeRow(r: Omit<Row, 'fps'> & { fps: number | string }, root: string): string {
  const name = `${relative(root, r.file)} @${r.fps}${r.clip !== null ? ` clip ${JSON.stringify(r.clip)}` : ''}`;
  if (r.status !== 'imported') return `${r.status === 'refused' ? 'refused' : 'FAILED '} ${name}: ${r.message}`;
  const keys = LEVELS.map(
    (l) =>
      `${l.label} ${METHODS.map((m) => r.compress!.find((c) => c.level === l.label && c.method === m.label)!.keys).join('/')}`,
  ).join(', ');
  const bad = r.compress!.filter((c) => c.violations.length > 0);
  const floor = r.compress!.filter((c) => c.level === 'floor').map((c) => c.keysOverFloor);
  return (
    `ok      ${name}: ${r.frames} frames, ${r.joints} joints, keys refined/classic/skeleton ${keys}` +
    `${floor.some((n) => n > 0) ? `; keys over the floor refined/classic/skeleton ${floor.join('/')}` : ''}` +
    `${r.warnings!.length ? `; ${r.warnings!.length} warning(s)` : ''}` +
    `${bad.length ? `\n  VIOLATIONS: ${bad.map((c) => `${c.method} ${c.level}: ${c.violations.slice(0, 5).join('; ')}${c.violations.length > 5 ? ` (+${c.violations.length - 5})` : ''}`).join('\n  ')}` : ''}`
  );
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dirs = args.dirs.filter((d) => existsSync(d) && statSync(d).isDirectory());
  if (dirs.length === 0) {
    console.log(`heldout: none of ${args.dirs.join(', ')} exists (install the Debian package assimp-testmodels)`);
    return;
  }
  const rows: Row[] = [];
  for (const dir of dirs) {
    const files = heldOutFiles(dir).filter((f) => !args.only || f.includes(args.only));
    console.log(`${dir}: ${files.length} files`);
    for (const f of files) {
      const ofFile: Row[] = [];
      for (const fps of args.fps) ofFile.push(...(await importOne(f, fps)));
      rows.push(...ofFile);
      // A file refused alike at every rate is one line.
      const same = ofFile.every((r) => r.status === 'refused' && r.message === ofFile[0].message);
      if (same) console.log(describeRow({ ...ofFile[0], fps: ofFile.map((r) => r.fps).join(',') }, dir));
      else for (const r of ofFile) console.log(describeRow(r, dir));
    }
  }
  // Counts per format: files imported at every rate, refused, failed; guarantee violations.
  console.log('\nper format (file x rate x clip):');
  const formats = [...new Set(rows.map((r) => r.format))].sort();
  for (const f of formats) {
    const of = rows.filter((r) => r.format === f);
    const files = new Set(of.map((r) => r.file)).size;
    const imported = of.filter((r) => r.status === 'imported');
    const violating = imported.filter((r) => r.compress!.some((c) => c.violations.length > 0));
    console.log(
      `  ${f}: ${files} files; ${imported.length} imported, ${of.filter((r) => r.status === 'refused').length} refused, ` +
        `${of.filter((r) => r.status === 'failed').length} failed; ${violating.length} with a guarantee violation`,
    );
  }
  const reasons = new Map<string, number>();
  for (const r of rows.filter((x) => x.status === 'refused')) {
    const why = r
      .message!.replace(/^.*?: /, '')
      .replace(/"[^"]*"/g, '"…"')
      .replace(/\d+(\.\d+)?/g, 'N');
    reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  console.log('\nrefusals by reason:');
  for (const [why, n] of [...reasons].sort((a, b) => b[1] - a[1])) console.log(`  ${n} x ${why}`);
  if (args.json) writeFileSync(args.json, JSON.stringify(rows, null, 1));
  const failed = rows.filter((r) => r.status === 'failed').length;
  const violations = rows.filter((r) => r.compress?.some((c) => c.violations.length > 0)).length;
  console.log(
    `\n${rows.length} imports: ${failed} failed without a located refusal, ${violations} broke the guarantee`,
  );
  if (failed || violations) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
