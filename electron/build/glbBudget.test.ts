/**
 * Export All as glTF bounds the sum of its files before it makes any (glbBudget.ts; docs/security.md, round 44): a
 * project's `"resample": true` turns a 12 KB .mtn into 30,000 frames, and every alias of it made another .glb of 31 MB,
 * all held in memory until the commit (4 aliases: 156 MB in 8 s; 4,096 entries would be 127 GB).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { motionToGlb } from '../../shared/interchange/gltf/export';
import { emptyMotion } from '../../shared/motion/types';
import { writeMtn } from '../../shared/mtn/write';
import { exportMshFiles } from '../../shared/msh/files';
import { exportSizeProblem, glbBytesAtMost, mshBytesAtMost } from './glbBudget';
import { exportProject } from './projectExport';

// The bound as it is, or lowered for one test so that a small project is over it.
const lowered = vi.hoisted(() => ({ max: undefined as number | undefined }));
vi.mock('./glbBudget', async (importOriginal) => {
  const real = await importOriginal<typeof import('./glbBudget')>();
  return {
    ...real,
    exportSizeProblem: (...a: Parameters<typeof real.exportSizeProblem>) =>
      real.exportSizeProblem(a[0], a[1], a[2], lowered.max ?? a[3]),
  };
});

const dirs: string[] = [];
afterEach(() => {
  lowered.max = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A chain of `joints` joints over `frames` frames, every joint turning and moving (the largest a .glb gets). */
function moving(frames: number, joints: number) {
  const m = emptyMotion(
    frames,
    Array.from({ length: joints }, (_, i) => ({ parent: i - 1, mirror: i, part: 0, reserved: 0, name: `j${i}` })),
  );
  for (let f = 0; f <= frames; f++)
    for (let j = 0; j < joints; j++) {
      const o = (f * joints + j) * 4;
      m.rotation[o] = Math.sin(0.1 * f + j);
      m.rotation[o + 3] = Math.cos(0.1 * f + j);
      m.offset[o + 1] = 10 + f;
    }
  return m;
}

/**
 * A project folder (removed after the tests) of one 2-frame motion of 16 joints at `fps`, resampled to 30 fps, and two
 * aliases of it: three exports of the same size.
 */
function aliasedWalk(kind: string, fps: number): string {
  const dir = mkdtempSync(join(tmpdir(), `actguy-${kind}-budget-`));
  dirs.push(dir);
  const m = moving(2, 16);
  m.fps = fps;
  writeFileSync(join(dir, 'walk.mtn'), writeMtn(m));
  writeFileSync(
    join(dir, 'p.actguy.json'),
    JSON.stringify({
      version: 1,
      resample: true,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      aliases: [
        { name: 'a', target: 'walk' },
        { name: 'b', target: 'walk' },
      ],
      outputs: { mar: 's.mar', sar: 's.sar' },
    }),
  );
  return dir;
}

describe('Export All as glTF: the sum of its files, bounded before any is made', () => {
  it("glbBytesAtMost holds a motion's .glb, every key flag set and its bone mesh made", () => {
    for (const [frames, joints] of [
      [1, 1],
      [200, 20],
      [30, 300],
    ]) {
      const m = moving(frames, joints);
      // Every key flag set: the most JSON a motion's keys take.
      m.jointKeyInfo.fill(255);
      m.translationKeyInfo.fill(255);
      const made = motionToGlb(m, { boneMesh: true }).byteLength;
      expect(made).toBeLessThanOrEqual(glbBytesAtMost(frames + 1, joints));
      // Not loose where the samples dominate.
      if (frames * joints > 1000) expect(made).toBeGreaterThan(glbBytesAtMost(frames + 1, joints) / 2);
    }
  });

  // Mutation that fails: the sum compared with the largest entry alone (one entry, never over).
  it('counts every entry, an alias at its target size', () => {
    const entry = { name: 'walk', frames: 30001, joints: 64, nameChars: 128 };
    const one = glbBytesAtMost(30001, 64);
    const n = Math.floor((2 * 1024 ** 3) / one);
    expect(exportSizeProblem('/p/p.actguy.json', 'gltf', Array(n).fill(entry))).toBeUndefined();
    expect(exportSizeProblem('/p/p.actguy.json', 'gltf', Array(n + 1).fill(entry))?.message).toBe(
      `/p/p.actguy.json [PROJECT] (export): its ${n + 1} glTF files would be up to ${(n + 1) * one} bytes (the largest, walk, 30001 frames of 64 joints), more than the 2147483648 bytes Export All makes at once; nothing was exported: export fewer motions (a project of part of them), or resample to a lower "fps"`,
    );
  });

  // Mutation that fails: exportEntries without the check (the files are made and written).
  it('a project over it is refused before any file is made, by the CLI and the app alike (exportEntries)', async () => {
    const dir = aliasedWalk('glb', 0.02); // 2 frames: 3,000 at 30 fps
    const one = glbBytesAtMost(3001, 16);
    lowered.max = 3 * one - 1;
    const refused = await exportProject(join(dir, 'p.actguy.json'), 'gltf', join(dir, 'out'), { jobs: 1 });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.map((e) => e.message)).toEqual([
      `${join(dir, 'p.actguy.json')} [PROJECT] (export): its 3 glTF files would be up to ${3 * one} bytes (the largest, walk, 3001 frames of 16 joints), more than the ${3 * one - 1} bytes Export All makes at once; nothing was exported: export fewer motions (a project of part of them), or resample to a lower "fps"`,
    ]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    lowered.max = 3 * one;
    const done = await exportProject(join(dir, 'p.actguy.json'), 'gltf', join(dir, 'out'), { jobs: 1 });
    expect(done.ok).toBe(true);
  });
});

describe('Export All as MSH: the sum of its files, bounded as well (round 45)', () => {
  it("mshBytesAtMost holds an entry's three files, a key at every frame, long names and every override", () => {
    for (const [frames, joints] of [
      [1, 1],
      [200, 20],
      [30, 300],
    ]) {
      const m = moving(frames, joints);
      m.joints.forEach((j, i) => (j.name = `"\\${i}`.padEnd(31, '\u0001')));
      const overrides = Object.fromEntries(m.joints.map((_, i) => [i, 1.234567890123456e-7]));
      const made = exportMshFiles(
        m,
        { positionTolerance: 0, rotationToleranceDeg: 0, rotationToleranceOverridesDeg: overrides },
        { source: `${'"'.repeat(4096)}.mtn`, baseName: 'a'.repeat(31) },
      );
      const bytes = made.res8.byteLength + made.res19.byteLength + Buffer.byteLength(made.nodesJson);
      const nameChars = m.joints.reduce((n, j) => n + j.name.length, 0);
      expect(bytes).toBeLessThanOrEqual(mshBytesAtMost(frames + 1, joints, nameChars));
      // Not loose where the keys dominate.
      if (frames * joints > 1000) expect(bytes).toBeGreaterThan(mshBytesAtMost(frames + 1, joints, nameChars) / 2);
    }
  });

  // Mutation that fails: the MSH entries left uncounted (the glTF check alone, as before round 45: the files are made).
  it('a project over it is refused before any file is made or fitted, and done at the bound', async () => {
    const dir = aliasedWalk('msh', 0.2); // 2 frames: 300 at 30 fps
    const one = mshBytesAtMost(301, 16, 38);
    lowered.max = 3 * one - 1;
    const refused = await exportProject(join(dir, 'p.actguy.json'), 'msh', join(dir, 'out'), { jobs: 1 });
    expect(!refused.ok && refused.errors.map((e) => e.message)).toEqual([
      `${join(dir, 'p.actguy.json')} [PROJECT] (export): its 3 MSH exports (.res8, .res19 and .nodes.json each) would be up to ${3 * one} bytes (the largest, walk, 301 frames of 16 joints), more than the ${3 * one - 1} bytes Export All makes at once; nothing was exported: export fewer motions (a project of part of them), or resample to a lower "fps"`,
    ]);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    lowered.max = 3 * one;
    const done = await exportProject(join(dir, 'p.actguy.json'), 'msh', join(dir, 'out'), { jobs: 1 });
    expect(done.ok && done.entries.map((e) => e.name)).toEqual(['walk', 'a', 'b']);
  });
});
