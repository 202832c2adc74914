/**
 * A build worker kept warm between builds (buildRunner.ts workerLauncher) keeps no data of one build for the next
 * (round 22): the files a build hands its commit as read (inputsRead, which the commit's sweep keeps) are its own,
 * not another project's that the worker built before.
 */
import { rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBundledWorker } from '../compress/buildWorkerForTests';
import { identityOf } from '../tempFiles';
import { assetsProjectCopy } from '../testing/projectHarness';
import type { BuildJobMessage } from './buildJob';
import { endsBuild, workerLauncher } from './buildRunner';

const workerPath = useBundledWorker(resolve(__dirname, 'buildWorker.ts'));
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('a build worker kept warm', () => {
  it("hands the second build's commit only the files that build read, not the first project's", async () => {
    const launcher = workerLauncher(workerPath());
    try {
      const build = (project: { dir: string; project: string; text: string }) =>
        new Promise<Extract<BuildJobMessage, { type: 'done' }>>((done, fail) => {
          launcher(
            { projectPath: project.project, projectText: project.text, sevTexts: [], cacheDir: null },
            (m) => {
              if (!endsBuild(m)) return;
              if (m.type === 'done') done(m);
              else fail(new Error(JSON.stringify(m)));
            },
            (message) => fail(new Error(message)),
          );
        });
      const first = assetsProjectCopy('actguy-warm-a-', { motions: ['walk'] });
      const second = assetsProjectCopy('actguy-warm-b-', { motions: ['walk'] });
      dirs.push(first.dir, second.dir);
      const identity = (dir: string, file: string) => identityOf(statSync(join(dir, file)));
      const a = await build(first);
      expect(a.inputsRead).toContain(identity(first.dir, 'walk.mtn'));
      const b = await build(second);
      expect(launcher.started).toBe(1);
      expect(b.inputsRead).toContain(identity(second.dir, 'walk.mtn'));
      const firstFiles = ['walk.mtn', 'walk.sev', 'sample.actguy.json'].map((f) => identity(first.dir, f));
      expect(b.inputsRead!.filter((id) => firstFiles.includes(id))).toEqual([]);
    } finally {
      await launcher.dispose();
    }
  }, 120_000);
});
