import { build } from 'esbuild';
import { join, resolve } from 'node:path';

/**
 * Bundles electron/compressWorker.ts to `<outDir>/compressWorker.cjs` exactly as
 * scripts/build.mjs does, so tests run the real worker without a prior build.
 */
export async function buildCompressWorker(outDir: string): Promise<string> {
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
