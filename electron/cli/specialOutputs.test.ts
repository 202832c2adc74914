import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  lstatSync,
  readFileSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ONLY_BVH } from '../../shared/testing/bvhFixtures';
import { notReplaceableProblem, writeFileAtomic, writeFileAtomicAsync } from '../fsutil';
import { commitOutputs, outputsRefusedBeforeBuild } from '../build/commit';
import { testHandlers, useCompressClientPerTest } from '../testing/handlerHarness';
import { inProcessTextChecker } from '../project/textCheckJob';

/**
 * An output never replaces a device, a pipe or a socket, nor a link to one (docs/security.md, round 38): a write
 * renames its temp over the name, and `actguy import -o /dev/null` run as root replaced the machine's /dev/null with
 * a regular file. A FIFO and a socket stand in for the device here (mknod needs root; the tests run as any user).
 */
const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'cli', 'actguy.cjs');
const linux = process.platform === 'linux';
let dir: string;
let server: Server | undefined;
const compress = useCompressClientPerTest();

function run(...args: string[]): { rc: number; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, encoding: 'utf8' });
  return { rc: r.status ?? -1, err: r.stderr };
}

/** What is at `name`: 'fifo', 'socket', 'link' or 'file'. */
function kindAt(name: string): string {
  const st = lstatSync(join(dir, name));
  return st.isFIFO() ? 'fifo' : st.isSocket() ? 'socket' : st.isSymbolicLink() ? 'link' : 'file';
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'actguy-special-out-'));
  copyFileSync(join(root, 'assets', 'walk.mtn'), join(dir, 'walk.mtn'));
  writeFileSync(join(dir, 'x.bvh'), ROOT_ONLY_BVH);
  if (!linux) return;
  for (const f of ['pipe.mtn', 'pipe.mt3', 'pipe.glb', 'pipe.mar', 'pipe.sar', 'm.res8'])
    execFileSync('mkfifo', [join(dir, f)]);
  symlinkSync('pipe.mtn', join(dir, 'link.mtn'));
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(join(dir, 'sock.mtn'), resolve));
  server = s;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const refused =
  /cannot write (\S+): it is (a link to )?a device, pipe or socket, not a regular file \(an output replaces only a regular file\)/;

describe.runIf(linux)('an output never replaces a device, pipe or socket', () => {
  it('notReplaceableProblem: a FIFO, a socket and a link to a FIFO; not a file, a folder, a dangling link or nothing', () => {
    expect(notReplaceableProblem(join(dir, 'pipe.mtn'))).toMatch(/^it is a device, pipe or socket/);
    expect(notReplaceableProblem(join(dir, 'sock.mtn'))).toMatch(/^it is a device, pipe or socket/);
    expect(notReplaceableProblem(join(dir, 'link.mtn'))).toMatch(/^it is a link to a device, pipe or socket/);
    expect(notReplaceableProblem(join(dir, 'walk.mtn'))).toBeUndefined();
    expect(notReplaceableProblem(dir)).toBeUndefined();
    expect(notReplaceableProblem(join(dir, 'none.mtn'))).toBeUndefined();
    symlinkSync('nowhere.mtn', join(dir, 'dangling.mtn'));
    expect(notReplaceableProblem(join(dir, 'dangling.mtn'))).toBeUndefined();
  });

  it('writeFileAtomic and writeFileAtomicAsync refuse them, naming the output, and leave them as they were', async () => {
    for (const name of ['pipe.mtn', 'sock.mtn', 'link.mtn']) {
      const before = kindAt(name);
      expect(() => writeFileAtomic(join(dir, name), 'x')).toThrow(refused);
      await expect(writeFileAtomicAsync(join(dir, name), 'x')).rejects.toThrow(refused);
      expect(kindAt(name), name).toBe(before);
    }
    expect(readdirSync(dir).filter((f) => f.includes('actguy-new'))).toEqual([]);
    // A folder that holds no new files: the error says that the temp could not be made, and names the output.
    const temp = /^cannot write \/proc\/actguy-x\.mtn: cannot create a temporary file beside it in \/proc \(/;
    expect(() => writeFileAtomic('/proc/actguy-x.mtn', 'x')).toThrow(temp);
    await expect(writeFileAtomicAsync('/proc/actguy-x.mtn', 'x')).rejects.toThrow(temp);
  });

  it("ActGuy's own records (`own`) replace a FIFO at their name, as before: their folder is the tool's, and heals", async () => {
    execFileSync('mkfifo', [join(dir, 'own-sync.json')]);
    execFileSync('mkfifo', [join(dir, 'own-async.json')]);
    writeFileAtomic(join(dir, 'own-sync.json'), '{}', { own: true });
    await writeFileAtomicAsync(join(dir, 'own-async.json'), '{}', { own: true });
    expect([kindAt('own-sync.json'), kindAt('own-async.json')]).toEqual(['file', 'file']);
  });

  it('a commit refuses them before its work and under its lock, and writes none of its set', () => {
    const mar = join(dir, 'pipe.mar');
    const sar = join(dir, 'ok.sar');
    expect(outputsRefusedBeforeBuild([mar, sar], undefined).map((r) => r.problem)).toEqual([
      expect.stringMatching(refused),
    ]);
    expect(() =>
      commitOutputs([
        { path: sar, bytes: Buffer.from('sar') },
        { path: mar, bytes: Buffer.from('mar') },
      ]),
    ).toThrow(refused);
    expect(kindAt('pipe.mar')).toBe('fifo');
    expect(readdirSync(dir)).not.toContain('ok.sar');
  });

  it('a commit whose lock or temp cannot be made says so and names its outputs, not the lock or the temp', () => {
    const ok = join(dir, 'first.mar');
    expect(() =>
      commitOutputs([
        { path: ok, bytes: Buffer.from('mar') },
        { path: '/proc/actguy-x.sar', bytes: Buffer.from('sar') },
      ]),
    ).toThrow(
      /^cannot write \/proc\/actguy-x\.sar: cannot create a temporary file beside it in \/proc \([^)]+\); nothing was written$/,
    );
    expect(() =>
      commitOutputs([
        { path: '/proc/actguy-x.mar', bytes: Buffer.from('mar') },
        { path: ok, bytes: Buffer.from('sar') },
      ]),
    ).toThrow(
      /^cannot write \/proc\/actguy-x\.mar, \S*first\.mar: cannot create a file beside \/proc\/actguy-x\.mar in \/proc \([^;]+; a commit takes a lock file there before it writes\); nothing was written$/,
    );
    expect(readdirSync(dir)).not.toContain('first.mar');
    const msh = run('export-msh', 'walk.mtn', '-o', '/proc/actguy-m');
    expect(msh.rc).toBe(1);
    expect(msh.err).toContain(
      'cannot write /proc/actguy-m.res8, /proc/actguy-m.res19, /proc/actguy-m.nodes.json: cannot create a file beside /proc/actguy-m.res8 in /proc (',
    );
  });

  it("the app's Save SEV to a FIFO at the file's name is refused, the edits kept, the FIFO unchanged", async () => {
    execFileSync('mkfifo', [join(dir, 'pipe.sev')]);
    const handlers = testHandlers({
      app: { startupPath: join(dir, 'walk.mtn'), workspaceRoot: dir },
      compress: compress(),
      checkText: inProcessTextChecker,
    });
    await expect(
      handlers.saveSev({ path: join(dir, 'pipe.sev'), text: readFileSync(join(root, 'assets', 'walk.sev'), 'utf8') }),
    ).rejects.toThrow(
      /Could not save \S*pipe\.sev: it is not a plain file \(a pipe, socket or device\); the file on disk is unchanged and your edits are kept/,
    );
    expect(kindAt('pipe.sev')).toBe('fifo');
  });

  it('through the CLI: import, compress, export-gltf, export-msh and build refuse them; nothing changes', () => {
    writeFileSync(
      join(dir, 'p.actguy.json'),
      JSON.stringify({
        version: 1,
        motions: [{ name: 'walk', mtn: 'walk.mtn' }],
        outputs: { mar: 'pipe.mar', sar: 'pipe.sar' },
      }),
    );
    const cases: [string[], string][] = [
      [['import', 'x.bvh', '-o', 'pipe.mtn'], 'pipe.mtn'],
      [['import', 'x.bvh', '-o', 'sock.mtn'], 'sock.mtn'],
      [['import', 'x.bvh', '-o', 'link.mtn'], 'link.mtn'],
      [['compress', 'walk.mtn', '-o', 'pipe.mt3'], 'pipe.mt3'],
      [['export-gltf', 'walk.mtn', '-o', 'pipe.glb'], 'pipe.glb'],
      [['export-msh', 'walk.mtn', '-o', 'm'], 'm.res8'],
      [['build', 'p.actguy.json', '--no-cache'], 'pipe.mar'],
    ];
    for (const [args, out] of cases) {
      const before = kindAt(out);
      const { rc, err } = run(...args);
      expect(rc, args.join(' ')).toBe(1);
      expect(err, args.join(' ')).toMatch(refused);
      expect(err).toMatch(/nothing was written/);
      expect(err).toContain(out);
      expect(kindAt(out), args.join(' ')).toBe(before);
    }
  }, 60000);

  it('-o /proc/self/fd/1 is refused as a link to a pipe; -o /proc/x.mtn says that no temporary file can be made beside it', () => {
    const fd1 = run('import', 'x.bvh', '-o', '/proc/self/fd/1');
    expect(fd1.rc).toBe(1);
    expect(fd1.err).toMatch(/cannot write \/proc\/self\/fd\/1: it is a link to a device, pipe or socket/);
    const proc = run('import', 'x.bvh', '-o', '/proc/actguy-x.mtn');
    expect(proc.rc).toBe(1);
    expect(proc.err).toMatch(
      /cannot write \/proc\/actguy-x\.mtn: cannot create a temporary file beside it in \/proc \([^)]+\); an output is written to a temporary file in its folder and then renamed over its name; nothing was written/,
    );
  });
});
