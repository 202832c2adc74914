/**
 * `node dist/electron/loopback.cjs [--workspace DIR] [--renderer DIR] [--port N] [--open FILE] [--user-data DIR]`
 *
 * Serves the built renderer and the ActGuyApi handlers on 127.0.0.1 for a
 * plain browser (npm run web, e2e). Prints one line `ActGuy web: <url>` with
 * the per-run token; stops on SIGINT/SIGTERM or when stdin closes with
 * --exit-with-stdin (so a test runner's child never outlives it).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCompressClient } from '../compressClient';
import { createHandlers } from '../handlers';
import { canonicalPath, createPathPolicy } from '../pathPolicy';
import { createRecentFilesStore } from '../recentFiles';
import { findProjectListingSev } from '../systemFiles';
import { quoteJson } from '../../shared/errors';
import { systemFileKindOfPath } from '../../shared/systemFiles';
import type { StartupFile } from '../../shared/ipc/documents';
import { loopbackDialogPort } from '../dialogPort';
import { startLoopbackServer } from './server';

/** The repository root: this bundle lives in dist/electron. */
const repoRoot = resolve(__dirname, '..', '..');

function usageError(message: string): never {
  process.stderr.write(
    `actguy web: ${message}\nusage: loopback.cjs [--workspace DIR] [--renderer DIR] [--port N] [--open FILE] [--user-data DIR] [--exit-with-stdin]\n`,
  );
  process.exit(2);
}

function parse(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  const withValue = new Set(['workspace', 'renderer', 'port', 'open', 'user-data']);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) usageError(`unexpected argument ${quoteJson(a)}`);
    const name = a.slice(2);
    if (withValue.has(name)) {
      const v = argv[++i];
      if (v === undefined) usageError(`${quoteJson(a)} needs a value`);
      out[name] = v;
    } else if (name === 'exit-with-stdin') out[name] = true;
    else usageError(`unknown option ${quoteJson(a)}`);
  }
  return out;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const workspace = canonicalPath(resolve(String(args.workspace ?? join(repoRoot, 'assets'))));
  if (!existsSync(workspace) || !statSync(workspace).isDirectory())
    usageError(`workspace ${workspace} is not a folder`);
  const rendererDir = resolve(String(args.renderer ?? join(repoRoot, 'dist', 'renderer')));
  if (!existsSync(join(rendererDir, 'index.html')))
    usageError(`the renderer is not built: ${join(rendererDir, 'index.html')} is missing (npm run web builds it)`);
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(`--port must be 0..65535`);
  const samplePath = join(repoRoot, 'assets', 'walk.mtn');
  const inWorkspace = join(workspace, 'walk.mtn');
  // --open takes what `npm start -- FILE` takes: a motion opens in the tuner; a project, or a .sev with the project
  // that lists it, opens after the start-up motion (as Electron opens them).
  const opened = args.open ? resolve(workspace, String(args.open)) : null;
  const openedKind = opened ? systemFileKindOfPath(opened) : null;
  if (opened && !openedKind)
    usageError(`--open ${opened}: ActGuy opens motions (.mtn, .mt3, .mar), .sev files and projects (.actguy.json)`);
  if (opened && !existsSync(opened)) usageError(`--open ${opened}: no such file`);
  const startupPath = opened && openedKind === 'motion' ? opened : existsSync(inWorkspace) ? inWorkspace : samplePath;
  const startupFiles: StartupFile[] = [];
  /** Projects named on the command line are granted as if picked in a dialog (their inputs, sounds and outputs). */
  const chosenProjects = new Set<string>();
  /** A project found beside a .sev named on the command line grants only inside its folder (electron/main.ts). */
  const foundProjects = new Set<string>();
  if (opened && openedKind !== 'motion') {
    const projectPath = openedKind === 'project' ? opened : (findProjectListingSev(opened) ?? undefined);
    if (projectPath) (openedKind === 'project' ? chosenProjects : foundProjects).add(canonicalPath(projectPath));
    startupFiles.push({ path: opened, ...(openedKind === 'sev' && projectPath ? { projectPath } : {}) });
  }
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
  } catch {
    // a missing package.json only loses the version string
  }

  const compress = createCompressClient({ workerPath: join(__dirname, 'compressWorker.cjs') });
  const policy = createPathPolicy();
  for (const f of startupFiles) for (const p of [f.path, f.projectPath]) if (p) policy.allowFile(p);
  const handlers = createHandlers({
    userChoseProject: (canon) => chosenProjects.has(canon) || (foundProjects.has(canon) && 'found'),
    appInfo: {
      version,
      samplePath,
      startupPath,
      startupFiles,
      transport: 'loopback',
      nativeDialogs: false,
      workspaceRoot: workspace,
      platform: process.platform,
    },
    policy,
    recent: createRecentFilesStore(args['user-data'] ? resolve(String(args['user-data'])) : null),
    compress,
    dialogs: loopbackDialogPort,
  });
  const server = await startLoopbackServer({ rendererDir, handlers, port });
  process.stdout.write(`ActGuy web: ${server.url}\n`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await compress.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (args['exit-with-stdin']) {
    process.stdin.on('end', () => void stop());
    process.stdin.on('close', () => void stop());
    process.stdin.resume();
  }
}

main().catch((e) => {
  process.stderr.write(`actguy web: ${(e as Error).message}\n`);
  process.exit(1);
});
