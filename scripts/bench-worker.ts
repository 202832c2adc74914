/**
 * The recompression round trip the user waits for after a key toggle: the
 * request leaves the main thread, the compress worker writes the flags and runs
 * compressMotion, and the response (MT3 stored values, per-frame errors) comes
 * back, structured clone both ways included. Also: what the loopback transport
 * adds to frame that response (npm run web), and the longest stall of the main
 * thread's event loop during the runs (the worker must keep it free).
 * Figures only: nothing here asserts a time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createCompressClient } from '../electron/compressClient';
import { compressRequestForMotion } from '../shared/compress/request';
import type { CompressResponse } from '../shared/ipc/compress';
import { decodeIpcFrame, encodeIpcFrame } from '../shared/ipc/codec';
import { KeyFlag, type Motion } from '../shared/motion/types';
import { readMtn } from '../shared/mtn/read';
import { writeMtn } from '../shared/mtn/write';
import { syntheticMotion } from '../shared/testing/syntheticMotion';

export interface BenchWorkerOptions {
  /** Repository root (default: the current directory, as under npm run). */
  root?: string;
  /** Toggles measured per motion (default 15). */
  runs?: number;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

/** Runs the worker round-trip bench and returns the lines to print. */
export async function benchWorker(options: BenchWorkerOptions = {}): Promise<string[]> {
  const root = options.root ?? process.cwd();
  const runs = options.runs ?? 15;
  // Build the worker bundle the app uses, so the figure is for the current sources.
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), 'electron', '--quiet'], {
    cwd: root,
    encoding: 'utf8',
  });
  const workerPath = join(root, 'dist', 'electron', 'compressWorker.cjs');
  if (built.status !== 0 || !existsSync(workerPath))
    return [`worker round trip: could not build ${workerPath}: ${built.stderr.trim()}`];

  const motions: [string, Motion, string][] = [];
  const samplePath = join(root, 'assets', 'walk.mtn');
  if (existsSync(samplePath))
    motions.push([
      'walk.mtn (sample)',
      readMtn(new Uint8Array(readFileSync(samplePath))),
      '<= 33 ms (two 60 Hz frames)',
    ]);
  motions.push(['synthetic 60x600', syntheticMotion({ frames: 600, joints: 60, seed: 1, noise: 0.002 }), '~100 ms']);

  const lines = [
    '',
    `Recompression after a key toggle, worker round trip (${runs} toggles each; structured clone both ways included):`,
    `${'motion'.padEnd(20)} ${'median ms'.padStart(9)} ${'p90 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'compress'.padStart(8)} ${'loopback'.padStart(8)} ${'stall'.padStart(6)}  target`,
  ];
  const client = createCompressClient({ workerPath });
  try {
    for (const [name, motion, target] of motions) {
      const documentId = client.open({ name: 'bench', mtnBytes: writeMtn(motion) });
      const req = compressRequestForMotion(motion, documentId, 0);
      const J = motion.joints.length;
      await client.compress({ ...req, revision: 1 }); // warm-up: worker start, JIT
      const roundTrips: number[] = [];
      const compressMs: number[] = [];
      const framing: number[] = [];
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      for (let i = 0; i < runs; i++) {
        // Toggle a user key on a different frame and joint each time, as a user clicking around would.
        const frame = 1 + ((i * 37) % (motion.frameCount - 1));
        const joint = 1 + (i % (J - 1));
        const flags = req.jointKeyFlags.slice();
        flags[frame * J + joint] ^= KeyFlag.KEY;
        const t0 = performance.now();
        const outcome = await client.compress({ ...req, revision: i + 2, jointKeyFlags: flags });
        roundTrips.push(performance.now() - t0);
        if (outcome.status !== 'done') throw new Error(`bench: request ${i + 2} was ${outcome.status}`);
        compressMs.push(outcome.compressMs);
        const f0 = performance.now();
        decodeIpcFrame(encodeIpcFrame({ ok: true, value: outcome as CompressResponse }));
        framing.push(performance.now() - f0);
      }
      loop.disable();
      client.close(documentId);
      lines.push(
        `${name.padEnd(20)} ${percentile(roundTrips, 0.5).toFixed(1).padStart(9)} ${percentile(roundTrips, 0.9).toFixed(1).padStart(7)} ${Math.max(
          ...roundTrips,
        )
          .toFixed(1)
          .padStart(7)} ` +
          `${percentile(compressMs, 0.5).toFixed(1).padStart(8)} ${percentile(framing, 0.5).toFixed(1).padStart(8)} ${(loop.max / 1e6).toFixed(1).padStart(6)}  ${target}`,
      );
    }
  } finally {
    await client.dispose();
  }
  lines.push(
    '(compress: median ms inside the worker; loopback: median ms to encode + decode the response frame for npm run web;',
  );
  lines.push(
    ' stall: longest main-thread event-loop delay during the toggles, ms; it also counts time the OS left the process unscheduled)',
  );
  lines.push(
    `(load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores when measured: times on a busy machine are longer and noisier)`,
  );
  return lines;
}
