/**
 * Export All in the app, timed as main runs it (docs/interchange.md, "Whole project: Export All"): the handler of
 * electron/interchange/projectExportHandlers.ts with the build bundle's worker beside this bundle, on a copy of the
 * sample project (assets/sample.actguy.json). Each run exports into a fresh folder and measures, on this (main)
 * thread: the time from the start to the first progress (the first entry told), the whole export (its commit
 * included), and the longest this thread went without a turn of its event loop (a 1 ms timer's late firings).
 *
 * `node scripts/build.mjs export-bench && node dist/export-bench/benchExportAll.cjs [runs] [msh|gltf|gltf-compressed]`
 * prints one JSON line per run and the medians.
 *
 * `… benchExportAll.cjs [rounds] cache`: the glTF of the compressed motions with the project's build cache, as the app
 * runs it (the cache main hands the worker, docs/interchange.md "Whole project"), cold (a fresh, empty cache and
 * local state: every motion compressed and stored) against warm (a cache filled by one export before, its verdicts
 * remembered: every motion reused), the two alternated in each round, on the sample project and on a generated
 * project of 120 short clips (30..89 frames, a third of them at 15 fps and resampled; benchBuild.ts
 * generateProject). Prints the medians of the whole export and their ratio.
 *
 * `… benchExportAll.cjs [rounds] worker`: the export's thread started fresh for each export (keepWorkerMs 0, as before
 * 2026-12-06) against the one kept between exports (the default), alternated, for glTF and MSH of the sample project:
 * the medians of the first progress and of the whole export, and the load.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DialogPort } from '../electron/dialogPort';
import { createProjectExportHandlers } from '../electron/interchange/projectExportHandlers';
import { keptWorkers } from '../electron/oneShotWorker';
import { createPathPolicy } from '../electron/pathPolicy';
import type { ProjectExportStatus, StartProjectExportRequest } from '../shared/ipc/project';
import { readMtn } from '../shared/mtn/read';
import { generateProject } from './benchBuild';
import { median } from './benchStats';

interface Run {
  firstProgressMs: number;
  wholeMs: number;
  longestStallMs: number;
}

async function oneRun(h: ReturnType<typeof createProjectExportHandlers>, req: StartProjectExportRequest): Promise<Run> {
  let longest = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const t0 = performance.now();
  let first: number | undefined;
  let s: ProjectExportStatus = await h.startProjectExport(req);
  while (s.state === 'exporting' || s.state === 'writing') {
    await new Promise((r) => setTimeout(r, 1));
    s = await h.getProjectExportStatus({ exportId: s.exportId });
    if (first === undefined && s.count > 0) first = performance.now() - t0;
  }
  const whole = performance.now() - t0;
  ticking = false;
  if (s.state !== 'done') throw new Error(`the export ended ${s.state}: ${JSON.stringify(s.errors)}`);
  return { firstProgressMs: first ?? whole, wholeMs: whole, longestStallMs: Math.max(0, longest) };
}

/**
 * The compressed glTF export cold against warm (see the file comment), `rounds` rounds of one each, alternated (the
 * first of a round alternating too), into a fresh folder each; the load average printed with the figures.
 */
async function cacheBench(root: string, rounds: number): Promise<void> {
  const assets = resolve(__dirname, '..', '..', 'assets');
  const sample = join(root, 'sample');
  cpSync(assets, sample, { recursive: true });
  const clips = join(root, 'clips');
  mkdirSync(clips);
  const cmu = readMtn(new Uint8Array(readFileSync(join(assets, 'cmu_01_01.mtn'))));
  const projects: [string, string][] = [
    ['sample project (4 motions, 1 alias)', join(sample, 'sample.actguy.json')],
    ['120 short clips (30..89 frames)', generateProject(clips, [['cmu_01_01', cmu]], 120, { min: 30, span: 60 })],
  ];
  // The worker threads take the state folder (the local verdicts) from this process's environment.
  process.env.ACTGUY_STATE_DIR = join(root, 'state');
  const policy = createPathPolicy();
  policy.allowTree(root);
  const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
  let cacheDir = '';
  const h = createProjectExportHandlers({
    policy,
    dialogs,
    workerPath: join(__dirname, 'buildWorker.cjs'),
    cacheDirOf: () => cacheDir,
  });
  let n = 0;
  const exportOnce = async (projectPath: string, cache: string): Promise<{ ms: number; cache: string }> => {
    cacheDir = cache;
    const out = join(root, `out${n++}`);
    mkdirSync(out);
    const req: StartProjectExportRequest = {
      projectPath,
      projectText: readFileSync(projectPath, 'utf8'),
      format: 'gltf',
      gltfSource: 'compressed',
      path: join(out, 'x.glb'),
    };
    const t0 = performance.now();
    let s = await h.startProjectExport(req);
    while (s.state === 'exporting' || s.state === 'writing') {
      await new Promise((r) => setTimeout(r, 1));
      s = await h.getProjectExportStatus({ exportId: s.exportId });
    }
    if (s.state !== 'done') throw new Error(`the export ended ${s.state}: ${JSON.stringify(s.errors)}`);
    const ms = performance.now() - t0;
    rmSync(out, { recursive: true, force: true });
    return { ms, cache: s.cache ?? 'no cache' };
  };
  const loads: number[] = [loadavg()[0]];
  for (const [what, projectPath] of projects) {
    const warmCache = join(root, `warm-${n}`);
    await exportOnce(projectPath, warmCache);
    const cold: number[] = [];
    const warm: number[] = [];
    for (let k = 0; k < rounds; k++) {
      const runCold = async () => {
        const r = await exportOnce(projectPath, join(root, `cold-${n}`));
        cold.push(r.ms);
        console.log(JSON.stringify({ project: what, run: 'cold', round: k, ms: Math.round(r.ms), cache: r.cache }));
      };
      const runWarm = async () => {
        const r = await exportOnce(projectPath, warmCache);
        warm.push(r.ms);
        console.log(JSON.stringify({ project: what, run: 'warm', round: k, ms: Math.round(r.ms), cache: r.cache }));
      };
      if (k % 2 === 0) {
        await runCold();
        await runWarm();
      } else {
        await runWarm();
        await runCold();
      }
      loads.push(loadavg()[0]);
    }
    const c = median(cold);
    const w = median(warm);
    console.log(
      `${what}: compressed glTF export, median of ${rounds}: cold ${Math.round(c)} ms, warm cache ${Math.round(w)} ms, cold/warm ${(c / w).toFixed(2)}`,
    );
  }
  console.log(`load average (1 min) ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`);
}

/** Fresh against kept export threads (see the file comment), `rounds` rounds alternated, on the sample project. */
async function workerBench(root: string, rounds: number): Promise<void> {
  const ws = join(root, 'ws');
  cpSync(resolve(__dirname, '..', '..', 'assets'), ws, { recursive: true });
  const projectPath = join(ws, 'sample.actguy.json');
  const projectText = readFileSync(projectPath, 'utf8');
  const policy = createPathPolicy();
  policy.allowTree(root);
  const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
  const workerPath = join(__dirname, 'buildWorker.cjs');
  const fresh = createProjectExportHandlers({ policy, dialogs, workers: keptWorkers(workerPath, 0) });
  const kept = createProjectExportHandlers({ policy, dialogs, workerPath });
  let n = 0;
  const once = (h: typeof fresh, format: 'gltf' | 'msh') => {
    const out = join(root, `out${n++}`);
    mkdirSync(out);
    return oneRun(h, { projectPath, projectText, format, path: join(out, format === 'msh' ? 'x.res8' : 'x.glb') });
  };
  const loads = [loadavg()[0]];
  for (const format of ['gltf', 'msh'] as const) {
    // The kept thread's first export starts it: not one of the timed runs.
    await once(kept, format);
    const runs: Record<'fresh' | 'kept', Run[]> = { fresh: [], kept: [] };
    for (let k = 0; k < rounds; k++) {
      for (const which of k % 2 === 0 ? (['fresh', 'kept'] as const) : (['kept', 'fresh'] as const)) {
        const r = await once(which === 'fresh' ? fresh : kept, format);
        runs[which].push(r);
        console.log(JSON.stringify({ format, thread: which, round: k, ...r }));
      }
      loads.push(loadavg()[0]);
    }
    const m = (rs: Run[], f: (r: Run) => number) => Math.round(median(rs.map(f)));
    console.log(
      `${format}, sample project, median of ${rounds}: first progress ${m(runs.fresh, (r) => r.firstProgressMs)} → ${m(runs.kept, (r) => r.firstProgressMs)} ms, ` +
        `whole export ${m(runs.fresh, (r) => r.wholeMs)} → ${m(runs.kept, (r) => r.wholeMs)} ms, ` +
        `longest stall ${m(runs.fresh, (r) => r.longestStallMs)} → ${m(runs.kept, (r) => r.longestStallMs)} ms (fresh thread → kept thread)`,
    );
  }
  console.log(`load average (1 min) ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`);
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const kind = process.argv[3] ?? 'gltf';
  if (kind === 'worker') {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-export-bench-'));
    try {
      return await workerBench(dir, runs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (kind === 'cache') {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-export-bench-'));
    try {
      return await cacheBench(dir, runs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const root = mkdtempSync(join(tmpdir(), 'actguy-export-bench-'));
  try {
    const assets = resolve(__dirname, '..', '..', 'assets');
    const ws = join(root, 'ws');
    cpSync(assets, ws, { recursive: true });
    const projectPath = join(ws, 'sample.actguy.json');
    const projectText = readFileSync(projectPath, 'utf8');
    const policy = createPathPolicy();
    policy.allowTree(root);
    const dialogs = { chooseFileToSave: async () => null } as unknown as DialogPort;
    const h = createProjectExportHandlers({ policy, dialogs, workerPath: join(__dirname, 'buildWorker.cjs') });
    const format = kind === 'msh' ? 'msh' : 'gltf';
    const all: Run[] = [];
    for (let k = 0; k < runs; k++) {
      const out = join(root, `out${k}`);
      const req = {
        projectPath,
        projectText,
        format,
        path: join(out, format === 'msh' ? 'x.res8' : 'x.glb'),
        ...(kind === 'gltf-compressed' && { gltfSource: 'compressed' }),
      } as StartProjectExportRequest;
      mkdirSync(out);
      const r = await oneRun(h, req);
      all.push(r);
      console.log(JSON.stringify({ kind, run: k, ...r }));
    }
    const m = (f: (r: Run) => number) => Number(median(all.map(f)).toFixed(1));
    console.log(
      JSON.stringify({
        kind,
        runs,
        median: {
          firstProgressMs: m((r) => r.firstProgressMs),
          wholeMs: m((r) => r.wholeMs),
          longestStallMs: m((r) => r.longestStallMs),
        },
      }),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
