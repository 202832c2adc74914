/**
 * A one-motion project (the bundled walk, its .sev and SE tables) in `folder`, built once by `actguy build
 * --no-cache` from dist/cli, so that its outputs exist: the tests of what a later build does beside them copy it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export function writeBuiltWalkProject(folder: string): void {
  for (const f of ['walk.mtn', 'walk.sev', 'default.sls', 'se_define.h'])
    copyFileSync(join(root, 'assets', f), join(folder, f));
  writeFileSync(
    join(folder, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' }],
      seTables: { sls: 'default.sls', seDefine: 'se_define.h' },
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    }),
  );
  const cli = join(root, 'dist', 'cli', 'actguy.cjs');
  const first = spawnSync(process.execPath, [cli, 'build', 'p.actguy.json', '--quiet', '--no-cache'], {
    cwd: folder,
    encoding: 'utf8',
  });
  if (first.status !== 0) throw new Error(`first build failed: ${first.stderr}`);
}
