/**
 * A packaged app's worker bundle refused by its digest check (workerBundles.ts) is reported as what it is, once, by
 * every caller: the damaged installation, the bundle named, "Reinstall ActGuy", and not as the failure of the
 * motions, the file or the job it was given (docs/security.md, round 25). The real workers are bundled into a temporary
 * folder (as app.asar.unpacked holds them), their digests taken, and one of them given one more byte.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUNDLE_REFUSED, bundleRefusedError } from '../shared/errors';
import type { CompressRequest } from '../shared/compress/request';
import { buildProject } from './build/build';
import { workerCompressor } from './build/compressPool';
import { commandError } from './cli/runCommand';
import type { CliCommand } from './cli/command';
import { bundleWorkerForTests } from './compress/buildWorkerForTests';
import { createCompressClient } from './compressClient';
import { runImportJob } from './interchange/importJob';
import { withPlainFailures, workerImportRunner } from './interchange/importRunner';
import { workerMotionLoader } from './motionLoad';
import { createBuildRunner, workerLauncher } from './project/buildRunner';
import { workerTextChecker } from './project/textCheck';
import { assetsProjectCopy } from './testing/projectHarness';
import { bundleRefusal, requireBundleDigests, type BundleDigests } from './workerBundles';

// three.js's lazy chunk, as the loader refuses it when its file was changed (the import worker's nested require).
vi.mock('../shared/interchange/loadThreeLoaders', () => ({
  loadThreeLoaders: () => Promise.reject(bundleRefusedError(bundleRefusal('/opt/ActGuy/threeLoaders.cjs', 'changed'))),
}));

const ASSETS = resolve(__dirname, '..', 'assets');
/** Stands for app.asar.unpacked/dist/electron. */
const dir = mkdtempSync(join(tmpdir(), 'actguy-refused-'));
let digests: BundleDigests = {};
/** Each bundle as built, to put back after a test changed it. */
const built = new Map<string, Buffer>();

beforeAll(async () => {
  for (const entry of [
    'build/compressPoolWorker.ts',
    'project/buildWorker.ts',
    'motionLoadWorker.ts',
    'interchange/importWorker.ts',
    'project/textCheckWorker.ts',
    'compressWorker.ts',
  ])
    await bundleWorkerForTests(resolve(__dirname, entry), dir);
  const names = readdirSync(dir).filter((f) => f.endsWith('.cjs'));
  for (const f of names) built.set(f, readFileSync(join(dir, f)));
  digests = Object.fromEntries(names.map((f) => [f, createHash('sha256').update(built.get(f)!).digest('hex')]));
}, 120_000);
afterEach(() => {
  requireBundleDigests(null);
  for (const [f, bytes] of built) writeFileSync(join(dir, f), bytes);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A packaged app whose `name` is one byte longer than the file it was built with; returns the bundle's path. */
function tampered(name: string): string {
  requireBundleDigests(digests);
  const path = join(dir, name);
  appendFileSync(path, '\n');
  return path;
}

/** What the user is told, whole, for the bundle at `path`. */
const refusal = (path: string) => bundleRefusal(path, 'changed');

describe('a refused worker bundle is said once, as a damaged installation (round 25)', () => {
  it('the refusal names the bundle, the damaged installation and the remedy', () => {
    const text = refusal('/opt/ActGuy/resources/app.asar.unpacked/dist/electron/buildWorker.cjs');
    expect(text).toContain("ActGuy's installation is damaged");
    expect(text).toContain('/opt/ActGuy/resources/app.asar.unpacked/dist/electron/buildWorker.cjs');
    expect(text).toMatch(/Reinstall ActGuy\.$/);
  });

  it('a build on a pool whose worker is refused fails once with the refusal, not once per motion (actguy build, build.ts)', async () => {
    const { dir: project, project: file } = assetsProjectCopy('actguy-refused-build-');
    const pool = tampered('compressPoolWorker.cjs');
    const compressor = workerCompressor(pool, 3);
    try {
      const failed = await buildProject(file, { compressor, cacheDir: null, dryRun: true }).then(
        (outcome) => ({ outcome }),
        (error: unknown) => ({ error }),
      );
      // Thrown, not N motions' "compression failed": the CLI prints it once and exits 1.
      expect(failed).toEqual({ error: expect.objectContaining({ message: refusal(pool), code: BUNDLE_REFUSED }) });
      const cli = commandError({ name: 'build' } as CliCommand, (failed as { error: unknown }).error);
      expect(cli).toEqual({ text: `actguy build: ${refusal(pool)}`, status: 1 });
      // The pool starts no further worker: every later request is refused at once, with the same words.
      await expect(compressor.compress(new Uint8Array(8), {} as never)).rejects.toMatchObject({
        message: refusal(pool),
      });
    } finally {
      await compressor.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("the pool's channel shares and MSH node fits fail with the refusal, not as a share to redo whole", async () => {
    const pool = tampered('compressPoolWorker.cjs');
    const compressor = workerCompressor(pool, 2);
    const mtn = new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn')));
    try {
      const said = { message: refusal(pool), code: BUNDLE_REFUSED };
      await expect(compressor.channelShares(mtn, {} as never)).rejects.toMatchObject(said);
      await expect(compressor.mshNodeFits(mtn, {} as never)).rejects.toMatchObject(said);
    } finally {
      await compressor.close();
    }
  });

  /** Runs a Check of the sample project in the app's build worker at `buildWorker`; resolves with its end. */
  async function appCheck(buildWorker: string) {
    const { dir: project, project: file, text } = assetsProjectCopy('actguy-refused-app-');
    const launch = workerLauncher(buildWorker);
    try {
      const runner = createBuildRunner(launch);
      const { buildId } = runner.start({
        projectPath: file,
        projectText: text,
        sevTexts: [],
        cacheDir: null,
        dryRun: true,
      });
      for (;;) {
        const s = runner.status(buildId);
        if (s.state === 'done' || s.state === 'failed' || s.state === 'cancelled') return s;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await launch.dispose();
      rmSync(project, { recursive: true, force: true });
    }
  }

  // The build worker starts a pool of one thread per core; with one core it compresses in its own thread.
  it.runIf(availableParallelism() > 1)(
    "the app's build: a refused pool worker inside the build worker is the build's one problem",
    async () => {
      const pool = tampered('compressPoolWorker.cjs');
      const end = await appCheck(join(dir, 'buildWorker.cjs'));
      expect(end.state).toBe('failed');
      expect(end.errors).toEqual([{ message: refusal(pool) }]);
    },
    60_000,
  );

  it("the app's build: a refused build worker is the build's one problem, said as it is", async () => {
    const worker = tampered('buildWorker.cjs');
    const end = await appCheck(worker);
    expect(end.state).toBe('failed');
    expect(end.errors).toEqual([{ message: refusal(worker) }]);
  }, 60_000);

  it('open: a refused reader is not the opened file’s failure', async () => {
    const worker = tampered('motionLoadWorker.cjs');
    const open = workerMotionLoader(worker);
    await expect(open({ path: join(ASSETS, 'walk.mtn'), readableBeside: null })).rejects.toThrow(
      new Error(refusal(worker)),
    );
  });

  it('import: a refused importer fails with the refusal, in plain words that blame the installation', async () => {
    const worker = tampered('importWorker.cjs');
    const run = withPlainFailures(workerImportRunner(worker));
    const result = await run({ path: join(ASSETS, 'walk.mtn'), fps: 30, scale: 1 });
    expect(result).toEqual({
      status: 'failed',
      message: refusal(worker),
      plain: expect.objectContaining({
        lead: expect.stringContaining("ActGuy's installation is damaged"),
        advice: 'Reinstall ActGuy, then import it again.',
      }),
    });
  });

  it("import: three.js's chunk refused inside the importer is not the glTF's defect", async () => {
    const gltf = join(dir, 'one.gltf');
    writeFileSync(gltf, JSON.stringify({ asset: { version: '2.0' } }));
    const result = await withPlainFailures(runImportJob)({ path: gltf, fps: 30, scale: 1 });
    expect(result).toEqual({
      status: 'failed',
      message: refusal('/opt/ActGuy/threeLoaders.cjs'),
      plain: expect.objectContaining({ advice: 'Reinstall ActGuy, then import it again.' }),
    });
  });

  it('text check: a refused checker rejects with the refusal, not as a problem of the file checked', async () => {
    const worker = tampered('textCheckWorker.cjs');
    const check = workerTextChecker(worker);
    await expect(check({ kind: 'sev', path: join(ASSETS, 'walk.sev'), text: '' })).rejects.toMatchObject({
      message: refusal(worker),
      code: BUNDLE_REFUSED,
    });
  });

  it('compress and MSH export: a refused compressor is said as it is, not "the next edit restarts it"', async () => {
    const worker = tampered('compressWorker.cjs');
    const client = createCompressClient({
      workerPath: worker,
      pool: { workerPath: join(dir, 'compressPoolWorker.cjs') },
    });
    try {
      const documentId = client.open({
        name: 'walk',
        mtnBytes: new Uint8Array(readFileSync(join(ASSETS, 'walk.mtn'))),
      });
      const request = {
        documentId,
        revision: 1,
        translationKeyFlags: new Uint32Array(1),
        jointKeyFlags: new Uint32Array(1),
        motionFlags: 0,
        waistJoint: -1,
        tolerances: { positionTolerance: 1, rotationToleranceDeg: 1, offsetTolerance: 1 },
      } as unknown as CompressRequest;
      const said = { message: refusal(worker), code: BUNDLE_REFUSED };
      await expect(client.compress(request)).rejects.toMatchObject(said);
      await expect(
        client.exportMsh({ documentId, options: {} as never, names: { source: 'walk.mtn', baseName: 'walk' } }),
      ).rejects.toMatchObject(said);
    } finally {
      await client.dispose();
    }
  });
});
