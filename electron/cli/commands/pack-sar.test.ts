import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compressMotion } from '../../../shared/compress/compress';
import { DEFAULT_TOLERANCES } from '../../../shared/compress/types';
import { writeMar } from '../../../shared/mar/write';
import { emptyMotion } from '../../../shared/motion/types';
import { writeMtn } from '../../../shared/mtn/write';
import { readSar } from '../../../shared/sar/read';
import { gvStrCode } from '../../../shared/strcode';
import { checkSevCommand } from './check-sev';
import { packSarCommand } from './pack-sar';

let dir: string;
let out: string[];
let err: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-sar-cli-'));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const joints = ['hips', 'leg', 'foot'].map((name, i) => ({ parent: i - 1, mirror: i, part: 0, reserved: 0, name }));
const f = (name: string) => join(dir, name);

function setup(): void {
  const mar = writeMar(
    ['idle', 'walk', 'run'].map(
      (name, k) => compressMotion(emptyMotion(10 + k * 10, joints), { ...DEFAULT_TOLERANCES, name }).bytes,
    ),
  );
  writeFileSync(f('stage.mar'), mar);
  writeFileSync(f('walk.mtn'), writeMtn(emptyMotion(20, joints)));
  writeFileSync(f('default.sls'), 'SE_STEP 0x100\n');
  writeFileSync(f('se_define.h'), '#ifndef G\n#define G\n#define SE_SWISH (0x100 + 1)\n#define SE_TEXT "x"\n#endif\n');
  writeFileSync(f('walk.sev'), 'sev 1\nse 0 SE_STEP\nse 1 SE_SWISH\nevent 20 1 2\nevent 3 0 -\n');
  writeFileSync(f('sprint.sev'), 'sev 1\nmotion run\nse 0 SE_SWISH\nevent 30 0 1\n');
}

describe('pack-sar', () => {
  it('pairs .sev files in any order with the .mar and writes empty entries for the rest', async () => {
    setup();
    const code = await packSarCommand.run([
      '-o',
      f('stage.sar'),
      '--mar',
      f('stage.mar'),
      '--sls',
      f('default.sls'),
      '--se-define',
      f('se_define.h'),
      f('sprint.sev'),
      f('walk.sev'),
    ]);
    expect(err).toEqual([
      `warning: ${f('se_define.h')}:4:17: skipped SE_TEXT: not an integer constant expression (unexpected \`"\`)`,
    ]);
    expect(code).toBe(0);
    expect(out).toEqual([`${f('stage.sar')}: 3 entries (2 from .sev files, 1 empty), 3 events, 144 bytes`]);
    const sar = readSar(new Uint8Array(readFileSync(f('stage.sar'))));
    expect(sar.entries.map((e) => [e.name, e.events.map((v) => v.frame)])).toEqual([
      [gvStrCode('idle'), []],
      [gvStrCode('walk'), [3, 20]],
      [gvStrCode('run'), [30]],
    ]);
  });

  it('refuses unpaired and doubled .sev files, naming them, and writes nothing', async () => {
    setup();
    writeFileSync(f('jump.sev'), 'sev 1\nse 0 SE_STEP\n');
    writeFileSync(f('run.sev'), 'sev 1\nse 0 SE_STEP\nevent 31 0 -\n');
    const code = await packSarCommand.run([
      '-o',
      f('stage.sar'),
      '--mar',
      f('stage.mar'),
      '--sls',
      f('default.sls'),
      '--se-define',
      f('se_define.h'),
      f('jump.sev'),
      f('sprint.sev'),
      f('run.sev'),
    ]);
    expect(code).toBe(1);
    expect(err.filter((l) => !l.startsWith('warning:'))).toEqual([
      `${f('jump.sev')} [SEV] (motion name jump from the file name): motion jump (0x${gvStrCode('jump').toString(16).padStart(6, '0')}) is not in ${f('stage.mar')}`,
      `${f('run.sev')} [SEV] (motion name run from the file name): ${f('sprint.sev')} and ${f('run.sev')} are both for motion run (${f('stage.mar')} entry 2); give each motion one .sev`,
      `2 errors; ${f('stage.sar')} was not written`,
    ]);
    expect(existsSync(f('stage.sar'))).toBe(false);
  });

  it('checks event frames against the paired motion in the .mar', async () => {
    setup();
    writeFileSync(f('walk.sev'), 'sev 1\nse 0 SE_STEP\nevent 21 0 -\n');
    const code = await packSarCommand.run([
      '-o',
      f('stage.sar'),
      '--mar',
      f('stage.mar'),
      '--sls',
      f('default.sls'),
      f('walk.sev'),
    ]);
    expect(code).toBe(1);
    expect(err).toContain(`${f('walk.sev')}:3:7: event frame 21 is past the end of motion walk (frames 0..20)`);
    expect(existsSync(f('stage.sar'))).toBe(false);
  });
});

describe('check-sev', () => {
  it('exits 0 on a clean file', async () => {
    setup();
    const code = await checkSevCommand.run([
      f('walk.sev'),
      '--sls',
      f('default.sls'),
      '--se-define',
      f('se_define.h'),
      '--mtn',
      f('walk.mtn'),
    ]);
    expect(code).toBe(0);
    expect(out).toEqual(['ok: 1 file, 2 events (checked SE names, frames and joints)']);
  });

  it('prints every error as FILE:LINE:COL and exits non-zero', async () => {
    setup();
    writeFileSync(f('walk.sev'), 'sev 1\nse 0 SE_NOPE\nse 1 SE_STEP\nevent 21 1 3\nevent 2 5 -\n');
    const code = await checkSevCommand.run([f('walk.sev'), '--sls', f('default.sls'), '--mtn', f('walk.mtn')]);
    expect(code).toBe(1);
    expect(err).toEqual([
      `${f('walk.sev')}:2:6: SE name SE_NOPE is not defined in ${f('default.sls')}`,
      `${f('walk.sev')}:4:7: event frame 21 is past the end of motion walk (frames 0..20)`,
      `${f('walk.sev')}:4:12: event joint 3 does not exist in motion walk (joints 0..2)`,
      `${f('walk.sev')}:5:9: event uses undefined SE index 5`,
      '4 errors',
    ]);
  });
});
