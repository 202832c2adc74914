/** `actguy export-msh` on the bundled CMU capture, read back by `info` and sampled against the source. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { rotationDistanceDeg } from '../../../shared/msh/export';
import { parseMshNodesJson } from '../../../shared/msh/nodesJson';
import { readMshAnimation } from '../../../shared/msh/read';
import { sampleMshNode } from '../../../shared/msh/sample';
import { readMtn } from '../../../shared/mtn/read';
import { exportMshCommand } from './export-msh';
import { infoCommand } from './info';

const dir = mkdtempSync(join(tmpdir(), 'actguy-msh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cmuPath = join(__dirname, '..', '..', '..', 'assets', 'cmu_01_01.mtn');
const walkPath = join(__dirname, '..', '..', '..', 'assets', 'walk.mtn');

async function run(
  cmd: { run(argv: string[]): Promise<number> | number },
  argv: string[],
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const e = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const l = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    return { code: await cmd.run(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    e.mockRestore();
    l.mockRestore();
  }
}

describe('actguy export-msh', () => {
  it('exports the CMU capture; the files validate, info reads them back, and every frame is within tolerance', async () => {
    const prefix = join(dir, 'cmu');
    const r = await run(exportMshCommand, [cmuPath, '-o', prefix, '--pos-tol', '0.5', '--rot-tol', '0.75']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /cmu\.\{res8,res19,nodes\.json\}: \d+ keys \(\d+ bytes\), \d+ map words, 688 frames, \d+ of 31 nodes animated/,
    );
    const nodesText = readFileSync(`${prefix}.nodes.json`, 'utf8');
    const parsed = parseMshNodesJson(nodesText, `${prefix}.nodes.json`);
    expect(parsed.res8File).toBe('cmu.res8');
    expect(parsed.attrs.res8.attr3).toBe(4);
    expect(parsed.attrs.res19).toMatchObject({ attr2: 688, attr3: 2 });
    expect(JSON.parse(nodesText).nodes[0]).toMatchObject({ name: 'Hips', parent: -1, anim_map_start: 0 });
    const a = readMshAnimation(
      new Uint8Array(readFileSync(`${prefix}.res8`)),
      new Uint8Array(readFileSync(`${prefix}.res19`)),
      parsed.attrs,
      parsed.nodes,
    );
    const m = readMtn(new Uint8Array(readFileSync(cmuPath)));
    const J = m.joints.length;
    let worstPos = 0;
    let worstRot = 0;
    for (let j = 0; j < J; j++) {
      for (let f = 0; f <= m.frameCount; f++) {
        const s = sampleMshNode(a, j, f);
        const p =
          j === 0 ? m.translation.subarray(f * 4, f * 4 + 3) : m.offset.subarray((f * J + j) * 4, (f * J + j) * 4 + 3);
        worstPos = Math.max(worstPos, Math.hypot(s.position[0] - p[0], s.position[1] - p[1], s.position[2] - p[2]));
        worstRot = Math.max(
          worstRot,
          rotationDistanceDeg(s.rotation, m.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4)),
        );
      }
    }
    expect(worstPos).toBeLessThanOrEqual(0.5);
    expect(worstRot).toBeLessThanOrEqual(0.75);
    expect(worstRot).toBeGreaterThan(0);

    const info = await run(infoCommand, [`${prefix}.res8`]);
    expect(info.code).toBe(0);
    expect(info.out).toContain(`MSH animation: Res8 ${a.keys.length} keys`);
    expect(info.out).toMatch(/\n +0 Hips +parent +-1, map +0, fallback \d+, \d+ keys: 0 /);
  }, 60_000);

  it('info names the file and place of a broken export', async () => {
    const prefix = join(dir, 'broken');
    writeFileSync(`${prefix}.res8`, new Uint8Array(25));
    writeFileSync(`${prefix}.res19`, new Uint8Array(2));
    writeFileSync(
      `${prefix}.nodes.json`,
      JSON.stringify({
        format: 'actguy msh-anim nodes',
        version: 1,
        res8: { file: 'broken.res8', attr1: 1, attr3: 4 },
        res19: { file: 'broken.res19', attr1: 1, attr2: 1, attr3: 2 },
        nodes: [],
      }),
    );
    await expect(run(infoCommand, [`${prefix}.nodes.json`])).rejects.toThrow(
      `${prefix}.nodes.json [MSH] (res8): Res8 size 25 is not a multiple of 24`,
    );
    writeFileSync(`${prefix}.nodes.json`, '{"format": "other"}');
    await expect(run(infoCommand, [`${prefix}.nodes.json`])).rejects.toThrow(
      `${prefix}.nodes.json [MSH] (format): not an ActGuy MSH nodes file`,
    );
  });

  it('info of a received export: node names and source shown escaped, payloads only beside the list', async () => {
    const prefix = join(dir, 'sent');
    expect((await run(exportMshCommand, [walkPath, '-o', prefix])).code).toBe(0);
    const list = JSON.parse(readFileSync(`${prefix}.nodes.json`, 'utf8'));
    list.nodes[0].name = 'root\u001b]0;owned\u0007\u009b31m';
    list.source = 'walk\u001b]0;owned\u0007.mtn';
    writeFileSync(`${prefix}.nodes.json`, JSON.stringify(list));
    const info = await run(infoCommand, [`${prefix}.res8`]);
    expect(info.code).toBe(0);
    for (const c of ['\u001b', '\u0007', '\u009b']) expect(info.out).not.toContain(c);
    expect(info.out).toContain('(from walk\\u001b]0;owned\\u0007.mtn)');
    expect(info.out).toContain('    0 root\\u001b]0;owned\\u0007\\u009b31m parent  -1');
    // A payload named by a path (out of the folder, absolute) or with a control character is not read.
    for (const file of ['../sent.res8', '/dev/zero', 'sent\u001b[2J.res8', '..']) {
      writeFileSync(`${prefix}.nodes.json`, JSON.stringify({ ...list, res8: { ...list.res8, file } }));
      await expect(run(infoCommand, [`${prefix}.nodes.json`])).rejects.toThrow(
        `${prefix}.nodes.json [MSH] (res8.file): must be the name of a file beside this one, found ${JSON.stringify(file).replace('\u001b', '\\u001b')}`,
      );
    }
  });

  it("replaces a file at the prefix's names only when it is that file of an export: another tool's .res8 stays", async () => {
    const prefix = join(dir, 'theirs');
    writeFileSync(`${prefix}.res8`, new Uint8Array(48).fill(7));
    await expect(run(exportMshCommand, [walkPath, '-o', prefix])).rejects.toThrow(
      `refused to replace ${prefix}.res8: it is already there and is not the key pool of an ActGuy MSH export (an export's .nodes.json beside it names it, with its size); move that file away or give another -o prefix; nothing was written`,
    );
    expect(readFileSync(`${prefix}.res8`)).toEqual(Buffer.from(new Uint8Array(48).fill(7)));
    expect(existsSync(`${prefix}.nodes.json`)).toBe(false);
    rmSync(`${prefix}.res8`);
    expect((await run(exportMshCommand, [walkPath, '-o', prefix])).code).toBe(0);
    expect((await run(exportMshCommand, [walkPath, '-o', prefix, '--pos-tol', '2'])).code).toBe(0);
  });

  it('refuses an output prefix that would overwrite the input', async () => {
    const input = join(dir, 'walk.res8');
    writeFileSync(input, readFileSync(cmuPath));
    await expect(run(exportMshCommand, [input, '-o', join(dir, 'walk')])).rejects.toThrow(/walk\.res8/);
  });
});
