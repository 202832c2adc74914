/**
 * Round 12 (docs/compression.md#round-12-2026-12-06-the-seams-and-held-out-captures-through-the-cli-and-the-pool): the
 * seam cases and the held-out captures through the built CLI and project builds (`npm run cli-sweep`; not part of the
 * test suite, whose cheap part is electron/cli/cliSweep.test.ts). What is checked: electron/testing/cliSweep.ts.
 *
 * Seam cases: shared/testing/seamMotions.ts's seeds (default 0-43), each at every rate asked (its samples as they
 * are, its rate set: an MT3 stores none). Held-out captures: every .bvh, .fbx, .gltf and .glb under
 * /usr/share/assimp/models that imports (as `npm run heldout`: runImportJob, every clip), at every rate asked.
 *
 *   npm run cli-sweep [-- --fps 30,120] [--levels 0.05,0.01,0.005,floor] [--modes refined,classic,skeleton]
 *     [--seeds N] [--first S] [--no-seams] [--no-captures] [--no-app] [--exports] [--no-project] [--rebuilds]
 *     [--no-project-exports] [--no-rebuild-changes] [--settings position,method,override,speed,resample,rate]
 *     [--files sls,events] [--only SUBSTRING] [--skip SUBSTRING] [--max-frames N] [--keep DIR]
 *
 * Round 14 (docs/compression.md#round-14-2026-12-06-single-motion-exports-and-the-apps-export-dialogs): `--exports`
 * adds each motion's single-motion exports (`actguy export-msh`, `actguy export-gltf` of the source and of each MT3,
 * the app's Export MSH and Export glTF); `--no-project` leaves the projects out (rounds 12 and 13 ran them).
 *
 * Round 15 (docs/compression.md#round-15-2026-12-06-up-to-date-rebuilds-and-the-exports-on-the-rest-of-the-data):
 * `--rebuilds` rebuilds each level's project where its cold builds left their outputs (up to date; after one motion
 * file changed, carried and compressed; against a cold build of the changed project: electron/testing/cliSweep.ts,
 * rebuildChecks); `--no-project-exports` leaves out the projects' `export-msh --project` and `export-gltf --project`
 * (round 13's).
 *
 * Round 16 (docs/compression.md#round-16-2026-12-06-rebuilds-after-a-setting-sev-or-se-table-change): with `--rebuilds`
 * each project also lists a .sev per case and SE tables, and after the motion file a setting, a .sev event and an SE
 * table's code change in turn, each rebuilt against a cold build's bytes; `--no-rebuild-changes` runs round 15's
 * rebuilds only.
 *
 * Round 17 (docs/compression.md#round-17-2026-12-07-rebuilds-after-a-method-or-override-change-on-the-rest-of-the-data):
 * the settings changed in turn are the first run's position tolerance, a run's method and a run's per-joint rotation
 * override (`--settings` picks which; all three by default here, the position only in the unit test).
 *
 * Round 18 (docs/compression.md#round-18-2026-12-07-positions-held-at-their-floor-and-the-tight-sweeps): after round
 * 16's .sev and SE-table changes, the .sls's code and an event added to a .sev (`--files` picks which; both by default
 * here, neither in the unit test).
 *
 * Round 19 (docs/compression.md#round-19-2026-12-07-held-runs-measured-on-the-held-out-clips-and-the-rebuild-sweeps):
 * `--settings` also takes `speed` (the first run's playback speed), `resample` (the project's, at the motions' own
 * rate) and `rate` (the project's doubled, every motion resampled to it; after the file changes); all six by default.
 *
 * Exit status 1 when anything broke.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { seamCase } from '../shared/testing/seamMotions';
import { runImportJob } from '../electron/interchange/importJob';
import { heldOutFiles } from './heldoutFiles';
import {
  appCompressPath,
  clipMotion,
  LEVEL_LABELS,
  MODES,
  noSweepCounts,
  runCliSweep,
  type SweepCase,
  type SweepCounts,
  type SweepMode,
  SETTING_CHANGES,
  type SettingChange,
  FILE_CHANGES,
  type FileChange,
} from '../electron/testing/cliSweep';

const HELD_OUT = '/usr/share/assimp/models';

interface Args {
  fps: number[];
  levels: string[];
  modes: SweepMode[];
  seeds: number;
  first: number;
  seams: boolean;
  captures: boolean;
  only?: string;
  skip?: string;
  maxFrames?: number;
  keep?: string;
  app: boolean;
  exports: boolean;
  project: boolean;
  rebuilds: boolean;
  rebuildChanges: boolean;
  projectExports: boolean;
  settings: SettingChange[];
  files: FileChange[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    fps: [30, 120],
    levels: [...LEVEL_LABELS],
    modes: [...MODES],
    seeds: 44,
    first: 0,
    seams: true,
    captures: true,
    app: true,
    exports: false,
    project: true,
    rebuilds: false,
    rebuildChanges: true,
    projectExports: true,
    settings: [...SETTING_CHANGES],
    files: [...FILE_CHANGES],
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--fps':
        a.fps = v.split(',').map(Number);
        i++;
        break;
      case '--levels':
        a.levels = v.split(',');
        i++;
        break;
      case '--modes':
        a.modes = v.split(',') as SweepMode[];
        i++;
        break;
      case '--seeds':
        a.seeds = Number(v);
        i++;
        break;
      case '--first':
        a.first = Number(v);
        i++;
        break;
      case '--no-seams':
        a.seams = false;
        break;
      case '--no-captures':
        a.captures = false;
        break;
      case '--no-app':
        a.app = false;
        break;
      case '--exports':
        a.exports = true;
        break;
      case '--no-project':
        a.project = false;
        break;
      case '--rebuilds':
        a.rebuilds = true;
        break;
      case '--no-rebuild-changes':
        a.rebuildChanges = false;
        break;
      case '--no-project-exports':
        a.projectExports = false;
        break;
      case '--settings':
        a.settings = v.split(',') as SettingChange[];
        if (a.settings.some((x) => !SETTING_CHANGES.includes(x))) throw new Error(`cli-sweep: --settings ${v}`);
        i++;
        break;
      case '--files':
        a.files = v.split(',') as FileChange[];
        if (a.files.some((x) => !FILE_CHANGES.includes(x))) throw new Error(`cli-sweep: --files ${v}`);
        i++;
        break;
      case '--only':
        a.only = v;
        i++;
        break;
      case '--skip':
        a.skip = v;
        i++;
        break;
      case '--max-frames':
        a.maxFrames = Number(v);
        i++;
        break;
      case '--keep':
        a.keep = v;
        i++;
        break;
      default:
        throw new Error(`cli-sweep: unknown argument ${argv[i]}`);
    }
  }
  return a;
}

/** Every clip of a held-out file at `fps` that imports, as read back from its .mtn bytes. */
async function importAll(
  path: string,
  fps: number,
  clip?: number,
): Promise<{ clip: string | null; motion: ReturnType<typeof readMtn> }[]> {
  const res = await runImportJob({ path, fps, scale: 1, clip });
  if (res.status === 'chooseClip') {
    const out = [];
    for (const c of res.clips) out.push(...(await importAll(path, fps, c.index)));
    return out;
  }
  if (res.status !== 'imported') return [];
  return [{ clip: res.clipName, motion: readMtn(res.mtnBytes) }];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const cli = join(__dirname, '..', 'cli', 'actguy.cjs');
  if (!existsSync(cli)) throw new Error(`cli-sweep: build the CLI first (${cli})`);
  const root = args.keep ?? mkdtempSync(join(tmpdir(), 'actguy-cli-sweep-'));
  mkdirSync(root, { recursive: true });
  // The build cache's local verdicts go to the scratch folder, never the user's own state.
  process.env.ACTGUY_STATE_DIR = join(root, 'state');
  const total = noSweepCounts();
  // The app's compress path: its handlers over the compress worker and the pool's worker bundled beside this script.
  const app = args.app
    ? appCompressPath({
        workspace: root,
        workerPath: join(__dirname, 'compressWorker.cjs'),
        pool: { workerPath: join(__dirname, 'compressPoolWorker.cjs'), jobs: 2 },
      })
    : undefined;
  const bad: string[] = [];
  let group = 0;
  const t0 = performance.now();
  const run = async (label: string, cases: SweepCase[]) => {
    if (cases.length === 0) return;
    const t = performance.now();
    const dir = join(root, `g${group++}`);
    const r = await runCliSweep(cases, {
      cli,
      dir,
      levels: args.levels,
      modes: args.modes,
      app,
      exports: args.exports,
      project: args.project,
      rebuilds: args.rebuilds,
      rebuildChanges: args.rebuildChanges,
      projectExports: args.projectExports,
      settingChanges: args.settings,
      fileChanges: args.files,
    });
    for (const k of Object.keys(total) as (keyof SweepCounts)[]) total[k] += r.counts[k];
    bad.push(...r.bad.map((b) => `${label}: ${b}`));
    const frames = cases.reduce((n, c) => n + c.motion.frameCount + 1, 0);
    console.log(
      `${r.bad.length ? 'BROKEN' : 'ok    '} ${label}: ${cases.length} motions, ${frames} frames; ${r.counts.compressions} compressions, ` +
        `${r.counts.cliRuns} actguy compress, ${r.counts.appRuns} through the app, ${r.counts.builds} builds, ${r.counts.entries} .mar entries, ` +
        `${r.counts.mshEntries} MSH and ${r.counts.glbEntries} glTF entries` +
        (args.exports
          ? `; ${r.counts.mshMotions} export-msh, ${r.counts.mshRefused} MSH refusals, ${r.counts.gltfFiles} export-gltf, ${r.counts.appExports} app exports`
          : '') +
        (args.rebuilds
          ? `; ${r.counts.rebuilds} rebuilds (${r.counts.upToDate} up to date, ${r.counts.carried} motions carried)`
          : '') +
        `${r.counts.long ? `, ${r.counts.long} over 512 KiB` : ''} (${((performance.now() - t) / 1000).toFixed(0)} s)`,
    );
    for (const b of r.bad.slice(0, 20)) console.log(`    ${b}`);
    if (r.bad.length > 20) console.log(`    (+${r.bad.length - 20})`);
    if (!args.keep && r.bad.length === 0) rmSync(dir, { recursive: true, force: true });
  };
  for (const fps of args.fps) {
    if (args.seams) {
      const cases: SweepCase[] = [];
      for (let s = args.first; s < args.first + args.seeds; s++) {
        const c = seamCase(s);
        cases.push({ name: `s${s}`, motion: { ...c.motion, fps } });
      }
      // In groups of 11 (one of each shape): a project of each.
      for (let i = 0; i < cases.length; i += 11)
        await run(
          `seams ${cases[i].name}-${cases[Math.min(i + 10, cases.length - 1)].name} @${fps}`,
          cases.slice(i, i + 11),
        );
    }
    if (args.captures) {
      // Each capture over 512 KiB of MTN in a project of its own; the short clips (FBX, glTF) together in one.
      const short: SweepCase[] = [];
      let shortFiles = 0;
      for (const [k, file] of heldOutFiles(HELD_OUT).entries()) {
        if ((args.only && !file.includes(args.only)) || (args.skip && file.includes(args.skip))) continue;
        let clips;
        try {
          clips = await importAll(file, fps);
        } catch (e) {
          console.log(`skip   ${relative(HELD_OUT, file)} @${fps}: the import threw ${(e as Error).message}`);
          continue;
        }
        const cases = clips.map((c, i) => ({
          name: `h${k}_${i}`,
          motion:
            args.maxFrames !== undefined && c.motion.frameCount > args.maxFrames
              ? clipMotion(c.motion, 0, args.maxFrames)
              : c.motion,
        }));
        if (cases.some((c) => writeMtn(c.motion).byteLength >= 512 * 1024))
          await run(`${relative(HELD_OUT, file)} @${fps}`, cases);
        else if (cases.length) {
          shortFiles++;
          short.push(...cases);
          console.log(
            `       ${relative(HELD_OUT, file)} @${fps}: ${cases.map((c) => `${c.name} ${c.motion.frameCount + 1} frames x ${c.motion.joints.length} joints`).join(', ')}`,
          );
        }
      }
      await run(`${shortFiles} files' short clips @${fps}`, short);
    }
  }
  console.log(
    `\n${total.compressions} compressions in-process, ${total.cliRuns} actguy compress, ${total.appRuns} through the app, ` +
      `${total.builds} builds (${total.entries} .mar entries, ${total.long} motions over 512 KiB of MTN), ` +
      `${total.mshEntries} MSH and ${total.glbEntries} glTF project entries` +
      (args.exports
        ? `; single motions: ${total.mshMotions} actguy export-msh (each --jobs 1 and 2), ${total.mshRefused} MSH refusals at the u16 limits, ` +
          `${total.gltfFiles} actguy export-gltf, ${total.appExports} app exports`
        : '') +
      (args.rebuilds
        ? `; ${total.rebuilds} rebuilds and cold builds of a changed project (${total.upToDate} up to date, ${total.carried} motions carried)`
        : '') +
      `: ${bad.length} problems ` +
      `(${((performance.now() - t0) / 1000).toFixed(0)} s)`,
  );
  await app?.dispose();
  if (!args.keep) rmSync(root, { recursive: true, force: true });
  if (bad.length) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 2;
});
