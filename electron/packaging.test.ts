import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');

/** The source files esbuild pulls into a bundle (as scripts/build.mjs builds it). */
async function bundleInputs(entry: string): Promise<string[]> {
  const r = await build({
    entryPoints: [resolve(root, entry)], bundle: true, platform: 'node', format: 'cjs', external: ['electron'], write: false, metafile: true, logLevel: 'silent',
  });
  return Object.keys(r.metafile.inputs);
}

describe('packaged app', () => {
  it('ships main, preload, worker and renderer, and never the loopback server or node_modules', () => {
    const yml = readFileSync(resolve(root, 'electron-builder.yml'), 'utf8');
    const files = yml.slice(yml.indexOf('\nfiles:'), yml.indexOf('\nextraResources:')).split('\n').map((l) => l.trim().replace(/^- /, '').replace(/"/g, ''));
    for (const wanted of ['package.json', 'dist/electron/main.cjs', 'dist/electron/preload.cjs', 'dist/electron/compressWorker.cjs', 'dist/renderer/**/*'])
      expect(files).toContain(wanted);
    expect(files).toContain('!dist/electron/loopback.cjs');
    expect(files).toContain('!node_modules/**/*');
    expect(files.some((f) => f === 'dist/electron/**/*' || f === 'dist/**/*')).toBe(false);
    expect(yml).toMatch(/extraResources:\n\s+- from: assets\/walk\.mtn\n\s+to: assets\/walk\.mtn/);
  });

  it('main and preload bundles contain no loopback code; the preload bundles nothing from Node or the handlers', async () => {
    const main = await bundleInputs('electron/main.ts');
    expect(main.filter((f) => f.includes('loopback'))).toEqual([]);
    expect(main).toContain('electron/handlers.ts');
    const preload = await bundleInputs('electron/preload.ts');
    expect(preload.sort()).toEqual(['electron/preload.ts', 'shared/ipc.ts']);
  });
});
