/**
 * The names Export All makes from motion and alias names (docs/security.md, round 43): every entry's files are named
 * `<name>.<ending>` in one folder, and a name that no folder keeps wherever the project goes is refused before
 * anything is read, as a build refuses it for its MSH outputs.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportProject } from './projectExport';
import { planProjectExport } from './projectExportParse';
import { refusedOutputs } from './projectExportPlan';

const root = mkdtempSync(join(tmpdir(), 'actguy-export-names-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
copyFileSync(join(__dirname, '..', '..', 'assets', 'walk.mtn'), join(root, 'walk.mtn'));

function project(motions: string[], aliases: string[] = []): string {
  const path = join(root, `${motions.join('-')}.actguy.json`);
  writeFileSync(
    path,
    JSON.stringify({
      version: 1,
      motions: motions.map((name) => ({ name, mtn: 'walk.mtn' })),
      aliases: aliases.map((name) => ({ name, target: motions[0] })),
      outputs: { mar: 's.mar', sar: 's.sar' },
    }),
  );
  return path;
}

function refused(path: string, format: 'msh' | 'gltf', out: string): string[] {
  const planned = planProjectExport(path, format, out);
  if (!planned.ok) throw new Error(planned.errors.map((e) => e.message).join('\n'));
  return refusedOutputs(planned.plan).map((e) => e.message);
}

describe("Export All's names", () => {
  // Mutation that fails: refusedOutputs without entryNameProblems (this disk tells the two names apart, so the
  // clash check passes them, and the CLI's export writes both).
  it('two names that differ only in letter case are refused, even into a folder of this case-sensitive disk', async () => {
    const out = join(root, 'out-case');
    mkdirSync(out);
    const path = project(['walk', 'Walk'], ['WALK']);
    expect(refused(path, 'gltf', out)).toEqual([
      `${path} [PROJECT] (export folder): walk and Walk differ only in letter case: their files are one file on macOS, Windows and FAT or exFAT disks (a USB stick), where one would replace the other: rename one (nothing was written)`,
      `${path} [PROJECT] (export folder): walk and WALK differ only in letter case: their files are one file on macOS, Windows and FAT or exFAT disks (a USB stick), where one would replace the other: rename one (nothing was written)`,
    ]);
    const r = await exportProject(path, 'msh', out, { jobs: 1 });
    expect(r.ok).toBe(false);
    expect(readdirSync(out)).toEqual([]);
  });

  // Mutation that fails: entryNameProblems without the Windows name check.
  it('a motion or alias with a Windows device name is refused, as a build refuses it for outputs.msh', () => {
    const out = join(root, 'out-nul');
    mkdirSync(out);
    const path = project(['nul'], ['com1']);
    expect(refused(path, 'msh', out)).toEqual([
      `${path} [PROJECT] (export folder): motion nul: "nul.res8" is a Windows device name (NUL), not a file there; projects are shared with Windows, so rename the motion`,
      `${path} [PROJECT] (export folder): alias com1: "com1.res8" is a Windows device name (COM1), not a file there; projects are shared with Windows, so rename the alias`,
    ]);
  });

  it('names that differ in more than case are exported, each to its own files', async () => {
    const out = join(root, 'out-fine');
    mkdirSync(out);
    const path = project(['walk', 'walk.nodes', 'walk.res8'], ['walk_2']);
    expect(refused(path, 'msh', out)).toEqual([]);
    const r = await exportProject(path, 'gltf', out);
    expect(r.ok && r.written.length).toBe(4);
    expect(readdirSync(out).sort()).toEqual(['walk.glb', 'walk.nodes.glb', 'walk.res8.glb', 'walk_2.glb']);
  });
});
