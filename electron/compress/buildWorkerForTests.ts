import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Bundles a worker entry point (a .ts under electron/) to `<outDir>/<entry
 * name>.cjs` exactly as scripts/build.mjs does, so tests run the real worker
 * without a prior build. Returns the bundle's path.
 */
export async function bundleWorkerForTests(entryPoint: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${basename(entryPoint, '.ts')}.cjs`);
  await build({
    entryPoints: [entryPoint],
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
 * For a test file: bundles the worker entry into a temporary folder before its
 * tests and removes the folder after them. Returns a getter of the bundle's
 * path, valid from the file's first test on.
 */
export function useBundledWorker(entryPoint: string): () => string {
  let workerDir = '';
  let workerPath = '';
  beforeAll(async () => {
    workerDir = mkdtempSync(join(tmpdir(), `actguy-${basename(entryPoint, '.ts')}-`));
    workerPath = await bundleWorkerForTests(entryPoint, workerDir);
  });
  afterAll(() => rmSync(workerDir, { recursive: true, force: true }));
  return () => workerPath;
}

/** useBundledWorker for electron/compressWorker.ts, the worker behind compressMotion. */
export function useBuiltCompressWorker(): () => string {
  return useBundledWorker(resolve(__dirname, '..', 'compressWorker.ts'));
}
