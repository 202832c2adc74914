/**
 * The build cache figures of `npm run bench` (docs/cache.md): what verifying
 * shared cache entries costs and how fast rebuilds stay with the local
 * verdicts. `npm run bench -- --cache-only` runs only this. Each build is
 * `actguy build --jobs 2` in a fresh process with its own local state folder
 * (ACTGUY_STATE_DIR); printed as times and ratios measured in this one run,
 * nothing here asserts a time.
 *
 * - 120 generated clips (benchBuild's project): a cold build into a fresh cache, an unchanged rebuild (local
 *   verdicts remembered), and a rebuild from the same cache with an empty local state (every entry verified,
 *   as a CI agent sharing the folder does); 3 rounds, the order of the two rebuilds alternating.
 * - 1,000 short clips (30..89 frames): a cold build, then a rebuild after one .mtn changed.
 * - verify against compress per motion, in-process, on 40 of the clips.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compressOptionsFor } from '../shared/project/plan';
import { verifyCompressed } from '../shared/compress/verify';
import type { Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { compressMtnBytes } from '../electron/build/compressPool';
import { workerLauncher, type WarmBuildLauncher } from '../electron/project/buildRunner';
import { generateProject } from './benchBuild';
import { median } from './benchStats';

export async function benchCache(root: string): Promise<string[]> {
  const cmu = readMtn(new Uint8Array(readFileSync(join(root, 'assets', 'cmu_01_01.mtn'))));
  const captures: [string, Motion][] = [['cmu_01_01', cmu]];
  const dir = mkdtempSync(join(tmpdir(), 'actguy-bench-cache-'));
  const cli = join(root, 'dist', 'cli', 'actguy.cjs');
  /** One `actguy build` in a fresh process; milliseconds and the cache summary it printed. */
  // The builds run without NODE_EXTRA_CA_CERTS, as a default Node does (with it set, Node parses a CA bundle at
  // every start, about 50 ms of CPU here); the 1,000-clip rebuilds are also timed with it, on a line of their own.
  const { NODE_EXTRA_CA_CERTS: extraCa, ...plainEnv } = process.env;
  const build = (project: string, cache: string, state: string, withCa = false): { ms: number; summary: string } => {
    const t0 = performance.now();
    const env = withCa && extraCa ? { ...plainEnv, NODE_EXTRA_CA_CERTS: extraCa } : plainEnv;
    const r = spawnSync(process.execPath, [cli, 'build', project, '--jobs', '2', '--cache', cache], {
      encoding: 'utf8',
      env: { ...env, ACTGUY_STATE_DIR: state },
    });
    const ms = performance.now() - t0;
    if (r.status !== 0)
      throw new Error(
        `actguy build exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`,
      );
    return { ms, summary: /cache: [^\n]*|up to date/.exec(r.stdout)?.[0] ?? '?' };
  };
  try {
    const lines = [
      '',
      'Build cache (docs/cache.md): `actguy build --jobs 2` in a fresh process each, own local state folder each',
    ];

    // 120 clips: cold, unchanged rebuild (verdicts remembered), rebuild with an empty local state (all verified).
    const p120dir = join(dir, 'p120');
    mkdirSync(p120dir);
    const p120 = generateProject(p120dir, captures, 120);
    const cold: number[] = [],
      warm: number[] = [],
      shared: number[] = [],
      warmRatio: number[] = [],
      sharedRatio: number[] = [];
    let summaries = { warm: '', shared: '' };
    for (let round = 0; round < 3; round++) {
      const cache = join(dir, `cache120-${round}`);
      const state = join(dir, `state120-${round}`);
      const c = build(p120, cache, state);
      const rebuild = () => build(p120, cache, state);
      const fresh = () => build(p120, cache, join(dir, `state120-fresh-${round}`));
      const [w, s] =
        round % 2 === 0
          ? [rebuild(), fresh()]
          : (() => {
              const f = fresh();
              return [rebuild(), f];
            })();
      cold.push(c.ms);
      warm.push(w.ms);
      shared.push(s.ms);
      warmRatio.push(w.ms / c.ms);
      sharedRatio.push(s.ms / c.ms);
      summaries = { warm: w.summary, shared: s.summary };
    }
    lines.push(
      '  120 generated clips (60..179 frames; slices of cmu_01_01 at full and half rate), 3 rounds, medians:',
      `    cold build                        ${(median(cold) / 1000).toFixed(2)} s`,
      `    unchanged rebuild                 ${(median(warm) / 1000).toFixed(2)} s   ratio ${median(warmRatio).toFixed(3)}x of cold (target <= 0.1x; rounds ${Math.min(...warmRatio).toFixed(3)}-${Math.max(...warmRatio).toFixed(3)}; ${summaries.warm})`,
      `    rebuild, empty local state        ${(median(shared) / 1000).toFixed(2)} s   ratio ${median(sharedRatio).toFixed(3)}x of cold (every entry verified, as on another machine; ${summaries.shared})`,
    );

    // 1,000 short clips: two cold builds (each into a fresh cache and local state), then three rounds of a
    // rebuild after one .mtn changed (another file each round) and an unchanged rebuild; medians.
    const p1000dir = join(dir, 'p1000');
    mkdirSync(p1000dir);
    const p1000 = generateProject(p1000dir, captures, 1000, { min: 30, span: 60 });
    const files = (JSON.parse(readFileSync(p1000, 'utf8')) as { motions: { mtn: string }[] }).motions.map((m) =>
      join(p1000dir, m.mtn),
    );
    const change = (file: string) => {
      const m = readMtn(new Uint8Array(readFileSync(file)));
      m.translation[0] += 0.5;
      writeFileSync(file, writeMtn(m));
    };
    const cold1000: number[] = [];
    for (const k of [0, 1]) cold1000.push(build(p1000, join(dir, `cache1000-${k}`), join(dir, `state1000-${k}`)).ms);
    const cache = join(dir, 'cache1000-1');
    const state = join(dir, 'state1000-1');
    const one: number[] = [],
      same: number[] = [],
      oneCa: number[] = [],
      sameCa: number[] = [],
      noRecord: number[] = [];
    let oneSummary = '?';
    for (let r = 0; r < 3; r++) {
      change(files[500 + r]);
      const b = build(p1000, cache, state);
      one.push(b.ms);
      oneSummary = b.summary;
      same.push(build(p1000, cache, state).ms);
      // The same unchanged rebuild without the record of the last build (docs/cache.md#up-to-date): every
      // motion looked up in the cache, the outputs assembled and committed.
      rmSync(join(state, 'last-builds'), { recursive: true, force: true });
      noRecord.push(build(p1000, cache, state).ms);
      if (extraCa) {
        change(files[600 + r]);
        oneCa.push(build(p1000, cache, state, true).ms);
        sameCa.push(build(p1000, cache, state, true).ms);
      }
    }
    const c = Math.min(...cold1000); // the faster cold build: the ratios are then the less flattering
    lines.push(
      '  1,000 generated short clips (30..89 frames), cold: the faster of 2; rebuilds: medians of 3 rounds, another file each:',
      `    cold build                        ${(c / 1000).toFixed(2)} s   (${cold1000.map((x) => (x / 1000).toFixed(2)).join(', ')})`,
      `    rebuild, one .mtn changed         ${(median(one) / 1000).toFixed(2)} s   ratio ${(median(one) / c).toFixed(3)}x of cold (target <= 0.05x; rounds ${one.map((x) => (x / c).toFixed(3)).join(', ')}; ${oneSummary})`,
      `    unchanged rebuild                 ${(median(same) / 1000).toFixed(2)} s   ratio ${(median(same) / c).toFixed(3)}x of cold (up to date: nothing written)`,
      `    the same without the last build's record ${(median(noRecord) / 1000).toFixed(2)} s   ratio ${(median(noRecord) / c).toFixed(3)}x of cold (every motion from the cache, outputs written)`,
    );
    // The same rebuild in a `build --watch` process (docs/cli.md#watch): from the save of the file to the end of
    // the build it started (the settle time after the folder's event included), 3 rounds, another file each.
    const watched = await watchRebuilds(
      cli,
      p1000,
      cache,
      state,
      plainEnv,
      [files[700], files[701], files[702]],
      change,
    );
    lines.push(
      `    the same in a \`build --watch\` process, save to built: ${(median(watched) / 1000).toFixed(2)} s   ratio ${(median(watched) / c).toFixed(3)}x of cold (rounds ${watched.map((x) => (x / c).toFixed(3)).join(', ')})`,
    );
    if (extraCa)
      lines.push(
        `    with this environment's NODE_EXTRA_CA_CERTS (parsed at each start): one changed ${(median(oneCa) / 1000).toFixed(2)} s, ${(median(oneCa) / c).toFixed(3)}x; unchanged ${(median(sameCa) / 1000).toFixed(2)} s, ${(median(sameCa) / c).toFixed(3)}x`,
      );

    lines.push(...(await appBuildWorkers(root, dir)));

    // Verify against compress, per motion, in-process, on 40 of the 120 clips (each timed as the median of 3).
    const project = JSON.parse(readFileSync(p120, 'utf8'));
    const vt: number[] = [],
      ct: number[] = [];
    for (const entry of project.motions.slice(0, 40)) {
      const bytes = new Uint8Array(readFileSync(join(p120dir, entry.mtn)));
      const motion = readMtn(bytes);
      if (motion.fps !== 30) continue;
      const options = compressOptionsFor({
        resolved: {
          name: entry.name,
          positionTolerance: entry.tolerances.position,
          rotationToleranceDeg: entry.tolerances.rotationDeg,
          offsetTolerance: 0.5,
          method: 'refined',
        },
        rotationOverridesDeg: {},
      } as never);
      const times = (f: () => unknown) =>
        median(
          [0, 1, 2].map(() => {
            const t0 = performance.now();
            f();
            return performance.now() - t0;
          }),
        );
      const result = compressMtnBytes(bytes, options);
      const { bytes: mt3, ...claim } = result;
      ct.push(times(() => compressMtnBytes(bytes, options)));
      vt.push(
        times(() => {
          const v = verifyCompressed(motion, options, mt3, claim);
          if (!v.ok) throw new Error(`bench: the compressor's own result of ${entry.name} did not verify: ${v.reason}`);
        }),
      );
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    lines.push(
      `  verify vs compress per motion (${vt.length} of the 120 clips at 30 fps, in-process, median of 3 each):`,
      `    compress ${(sum(ct) / ct.length).toFixed(1)} ms, verify ${(sum(vt) / vt.length).toFixed(1)} ms per motion on average: verifying costs ${(sum(vt) / sum(ct)).toFixed(3)}x of compressing`,
    );
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Rebuilds in one `actguy build --watch` process: after its first build, each file of `changes` is saved (`change`)
 * and the time to the end of the build that follows (the next "watching" line) is taken.
 */
async function watchRebuilds(
  cli: string,
  project: string,
  cache: string,
  state: string,
  env: NodeJS.ProcessEnv,
  changes: string[],
  change: (file: string) => void,
): Promise<number[]> {
  const child = spawn(
    process.execPath,
    [cli, 'build', project, '--watch', '--jobs', '2', '--cache', cache, '--quiet'],
    {
      env: { ...env, ACTGUY_STATE_DIR: state },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let pending = '';
  let next: (() => void) | undefined;
  child.stdout.on('data', (d) => {
    pending += d;
    if (/watching \d+ files/.test(pending)) {
      pending = '';
      next?.();
    }
  });
  const built = () => new Promise<void>((r) => (next = r));
  const times: number[] = [];
  try {
    await built();
    for (const file of changes) {
      await new Promise((r) => setTimeout(r, 300));
      const done = built();
      const t0 = performance.now();
      change(file);
      await done;
      times.push(performance.now() - t0);
    }
  } finally {
    child.kill('SIGINT');
  }
  return times;
}

/**
 * The app's Build (electron/project/buildRunner.ts workerLauncher) on a copy of the sample project after one .mtn
 * changed: in the worker the last Build kept warm, and in a fresh worker as every Build had before; 4 rounds,
 * alternating, from the job's start to its end message (the commit, done by main, is not included).
 */
async function appBuildWorkers(root: string, dir: string): Promise<string[]> {
  const workerPath = join(root, 'dist', 'bench', 'buildWorker.cjs');
  const sample = join(dir, 'app-sample');
  mkdirSync(sample);
  for (const f of readdirSync(join(root, 'assets'))) {
    if (/\.(mtn|sev|sls|h|json)$/.test(f)) writeFileSync(join(sample, f), readFileSync(join(root, 'assets', f)));
  }
  const project = join(sample, 'sample.actguy.json');
  const projectText = readFileSync(project, 'utf8');
  const stateBefore = process.env.ACTGUY_STATE_DIR;
  process.env.ACTGUY_STATE_DIR = join(dir, 'app-state');

  const build = (launch: WarmBuildLauncher) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      launch(
        { projectPath: project, projectText, sevTexts: [], cacheDir: join(sample, '.actguy-cache'), dryRun: false },
        (m) => {
          if (m.type === 'failed') reject(new Error(`bench: the app build failed: ${JSON.stringify(m.errors[0])}`));
          else if (m.type === 'done' || m.type === 'upToDate') resolve(performance.now() - t0);
        },
        (message) => reject(new Error(message)),
      );
    });
  const walk = join(sample, 'walk.mtn');
  const change = () => {
    const m = readMtn(new Uint8Array(readFileSync(walk)));
    m.translation[0] += 0.25;
    writeFileSync(walk, writeMtn(m));
  };
  const warm = workerLauncher(workerPath);
  const warmMs: number[] = [];
  const freshMs: number[] = [];
  try {
    await build(warm);
    for (let r = 0; r < 4; r++) {
      change();
      warmMs.push(await build(warm));
      change();
      const fresh = workerLauncher(workerPath);
      try {
        freshMs.push(await build(fresh));
      } finally {
        await fresh.dispose();
      }
    }
  } finally {
    await warm.dispose();
    if (stateBefore === undefined) delete process.env.ACTGUY_STATE_DIR;
    else process.env.ACTGUY_STATE_DIR = stateBefore;
  }
  return [
    `  the app's Build of the sample project after walk.mtn changed (3 motions recompressed), job start to end, 4 rounds alternating:`,
    `    in the worker the last Build kept ${median(warmMs).toFixed(0)} ms, in a fresh worker ${median(freshMs).toFixed(0)} ms: ${(median(warmMs) / median(freshMs)).toFixed(2)}x (rounds ${warmMs.map((w, k) => (w / freshMs[k]).toFixed(2)).join(', ')})`,
  ];
}
