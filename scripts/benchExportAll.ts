/**
 * Export All in the app, timed as main runs it (docs/interchange.md, "Whole project: Export All"): the handler of
 * electron/interchange/projectExportHandlers.ts with the build bundle's worker beside this bundle, on a copy of the
 * sample project (assets/sample.actguy.json). Each run exports into a fresh folder and measures, on this (main)
 * thread: the time from the start to the first progress (the first entry told), the whole export (its commit
 * included), and the longest this thread went without a turn of its event loop (a 1 ms timer's late firings).
 *
 * `node scripts/build.mjs export-bench && node dist/export-bench/benchExportAll.cjs [runs] [msh|gltf|gltf-compressed]`
 * prints one JSON line per run and the medians.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DialogPort } from '../electron/dialogPort';
import { createProjectExportHandlers } from '../electron/interchange/projectExportHandlers';
import { createPathPolicy } from '../electron/pathPolicy';
import type { ProjectExportStatus, StartProjectExportRequest } from '../shared/ipc/project';
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

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 5);
  const kind = process.argv[3] ?? 'gltf';
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
