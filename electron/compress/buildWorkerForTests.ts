import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Bundles electron/compressWorker.ts to `<outDir>/compressWorker.cjs` exactly as
 * scripts/build.mjs does, so tests run the real worker without a prior build.
 */
async function buildCompressWorker(outDir: string): Promise<string> {
  const outfile = join(outDir, 'compressWorker.cjs');
  await build({
    entryPoints: [resolve(__dirname, '..', 'compressWorker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

/**
 * For a test file: bundles the worker into a temporary folder before its tests
 * and removes the folder after them. Returns a getter of the bundle's path,
 * valid from the file's first test on.
 */
export function useBuiltCompressWorker(): () => string {
  let workerDir = '';
  let workerPath = '';
  beforeAll(async () => {
    workerDir = mkdtempSync(join(tmpdir(), 'actguy-worker-'));
    workerPath = await buildCompressWorker(workerDir);
  });
  afterAll(() => rmSync(workerDir, { recursive: true, force: true }));
  return () => workerPath;
}
