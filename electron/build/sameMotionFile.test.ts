/**
 * A project naming one motion file many times (docs/security.md, round 14): the build reads and decodes the file
 * once, whatever the number of motions naming it, and writes the very bytes it writes for a project of as many
 * copies of the file. Reads are counted by the reader given to the build, never timed.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyMotion, type Motion } from '../../shared/motion/types';
import { writeMtn } from '../../shared/mtn/write';
import { readMtn } from '../../shared/mtn/read';
import { prepareBuild, type KnownMotion } from '../../shared/project/plan';
import { parseProject } from '../../shared/project/validate';
import { buildProject } from './build';
import { readBuildInput } from './files';

const ASSETS = join(__dirname, '..', '..', 'assets');
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function oneJointMotion(frames: number, fps = 30): Motion {
  return emptyMotion(frames, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }], fps);
}

function resolvedOf(motions: { name: string; mtn: string; resample?: boolean }[]) {
  const parsed = parseProject(
    JSON.stringify({ version: 1, motions, outputs: { mar: 'o/s.mar', sar: 'o/s.sar' } }),
    '/p/p.actguy.json',
  );
  if (!parsed.resolved) throw new Error(parsed.errors.map((e) => e.message).join('\n'));
  return parsed.resolved;
}

const fileName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

describe('prepareBuild: one motion file named by many motions', () => {
  it('reads and decodes the file once, and every motion naming it has the decoded motion', () => {
    // Mutation killed: the per-path memo in prepareBuild (motionFile) removed, each motion reading its file
    // itself: the reads are ['same.mtn', 'same.mtn', 'same.mtn', 'same.mtn', 'other.mtn'].
    const bytes = writeMtn(oneJointMotion(30));
    const resolved = resolvedOf([
      ...Array.from({ length: 4 }, (_, k) => ({ name: `m${k}`, mtn: 'same.mtn' })),
      { name: 'm4', mtn: 'other.mtn' },
    ]);
    const reads: string[] = [];
    const prep = prepareBuild(resolved, (path) => {
      reads.push(fileName(path));
      return bytes;
    });
    expect(reads).toEqual(['same.mtn', 'other.mtn']);
    if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
    const [a, b, c, d, other] = prep.prepared.motions;
    // One decode: the motions of one file share the motion as read.
    expect(a.motion).toBe(b.motion);
    expect(a.motion).toBe(c.motion);
    expect(a.motion).toBe(d.motion);
    expect(other.motion).not.toBe(a.motion);
    expect(prep.prepared.motions.map((p) => p.frameCount)).toEqual([30, 30, 30, 30, 30]);
  });

  it('a file that fails is read once and reported at the key of every motion naming it', () => {
    // Mutation killed: the failure not kept (only the first motion naming the file reports it): one error, not three.
    const resolved = resolvedOf([
      { name: 'a', mtn: 'gone.mtn' },
      { name: 'b', mtn: 'bad.mtn' },
      { name: 'c', mtn: 'gone.mtn' },
      { name: 'd', mtn: 'bad.mtn' },
    ]);
    const reads: string[] = [];
    const prep = prepareBuild(resolved, (path) => {
      reads.push(fileName(path));
      if (path.endsWith('gone.mtn')) throw new Error('no such file or directory');
      return new Uint8Array(40); // not an MTN: a decode error naming the file
    });
    expect(reads).toEqual(['gone.mtn', 'bad.mtn']);
    expect(prep.ok).toBe(false);
    if (prep.ok) return;
    const messages = prep.errors.map((e) => e.message);
    expect(messages.filter((m) => m.includes('motions[0].mtn') && m.includes('cannot read'))).toHaveLength(1);
    expect(messages.filter((m) => m.includes('motions[2].mtn') && m.includes('cannot read'))).toHaveLength(1);
    expect(messages.filter((m) => m.includes('bad.mtn') && !m.includes('cannot read'))).toHaveLength(2);
  });

  it('a file known from the local verdicts is decoded once when its samples are needed, resampled or not', () => {
    // Mutation killed: loadOnce returning the known motion as it is (each motion's `motion` decoding the file
    // again): four loads, not one.
    const bytes = writeMtn(oneJointMotion(60, 60));
    const resolved = resolvedOf([
      { name: 'a', mtn: 'same.mtn', resample: true },
      { name: 'b', mtn: 'same.mtn', resample: true },
      { name: 'c', mtn: 'same.mtn', resample: true },
      { name: 'd', mtn: 'same.mtn', resample: true },
    ]);
    let loads = 0;
    let asked = 0;
    const known = (): KnownMotion => {
      asked++;
      return {
        fps: 60,
        frameCount: 60,
        joints: oneJointMotion(60, 60).joints,
        load: () => {
          loads++;
          return readMtn(bytes);
        },
      };
    };
    const prep = prepareBuild(
      resolved,
      () => {
        throw new Error('a known file is not read');
      },
      known,
    );
    if (!prep.ok) throw new Error(prep.errors.map((e) => e.message).join('\n'));
    expect(asked).toBe(1);
    expect(prep.prepared.motions.map((p) => p.motion.frameCount)).toEqual([30, 30, 30, 30]);
    expect(loads).toBe(1);
  });
});

describe('actguy build of a project naming one .mtn many times', () => {
  it('reads it once and writes the bytes a project of as many copies gets', async () => {
    // Mutation killed: as above (the memo in prepareBuild removed): walk.mtn is read 5 times. Outputs compared with
    // the copies' build: the MAR, the SAR and the MSH export (which reads each motion's samples) byte for byte.
    const dir = mkdtempSync(join(tmpdir(), 'actguy-samefile-'));
    dirs.push(dir);
    copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, 'walk.mtn'));
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const n of names) copyFileSync(join(ASSETS, 'walk.mtn'), join(dir, `${n}.mtn`));
    const write = (file: string, mtn: (n: string) => string, out: string) =>
      writeFileSync(
        join(dir, file),
        JSON.stringify({
          version: 1,
          motions: names.map((n, k) => ({
            name: n,
            mtn: mtn(n),
            ...(k === 3 ? { tolerances: { rotationDeg: 0.5 } } : {}),
          })),
          outputs: { mar: `${out}/stage.mar`, sar: `${out}/stage.sar`, msh: `${out}/msh` },
        }),
      );
    write('same.actguy.json', () => 'walk.mtn', 'same');
    write('copies.actguy.json', (n) => `${n}.mtn`, 'copies');
    const reads: string[] = [];
    const build = async (file: string) => {
      const r = await buildProject(join(dir, file), {
        jobs: 1,
        cacheDir: null,
        lastBuild: false,
        readFile: (p, as) => {
          if (p.endsWith('.mtn')) reads.push(fileName(p));
          return readBuildInput(p, as);
        },
      });
      if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
      return r;
    };
    await build('same.actguy.json');
    expect(reads).toEqual(['walk.mtn']);
    await build('copies.actguy.json');
    const outputs = ['stage.mar', 'stage.sar', ...names.flatMap((n) => [`msh/${n}.res8`, `msh/${n}.res19`])];
    for (const f of outputs)
      expect(Buffer.compare(readFileSync(join(dir, 'same', f)), readFileSync(join(dir, 'copies', f))), f).toBe(0);
    // The node lists differ only in the source file they name.
    const nodes = (out: string, n: string) => {
      const j = JSON.parse(readFileSync(join(dir, out, 'msh', `${n}.nodes.json`), 'utf8')) as { source: string };
      return { ...j, source: fileName(j.source) };
    };
    for (const n of names) expect(nodes('same', n)).toEqual({ ...nodes('copies', n), source: 'walk.mtn' });
  });
});
