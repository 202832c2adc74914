/**
 * `node dist/electron/loopback.cjs [--workspace DIR] [--renderer DIR] [--port N] [--any-port-if-taken] [--open FILE]
 * [--user-data DIR | --keep-state]`
 *
 * Serves the built renderer and the ActGuyApi handlers on 127.0.0.1 for a
 * plain browser (npm run web, e2e). Prints one line `ActGuy web: <url>` with
 * the per-run token; stops on SIGINT/SIGTERM or when stdin closes with
 * --exit-with-stdin (so a test runner's child never outlives it).
 *
 * npm run web asks for the same port every time with --any-port-if-taken (the browser keeps the app's preferences
 * per address: a new port each run would start each run without them) and keeps the recent files and the copies
 * of unsaved work in the user's state folder with --keep-state (scripts/start-support.mjs webArgs; docs/tuner.md).
 * Tests give neither.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createCompressClient } from '../compressClient';
import { createHandlers } from '../handlers';
import { canonicalPath, createPathPolicy } from '../pathPolicy';
import { defaultStateDir } from '../build/verdicts';
import { makeStateFolder } from '../build/buildCache';
import { createRecentFilesStore } from '../recentFiles';
import { BACKUPS_FOLDER, createBackupStore, deferredBackupStore } from '../unsavedBackups';
import { findProjectListingSev } from '../systemFiles';
import { quoteJson } from '../../shared/errors';
import { refuseHiddenCharacters, UsageError } from '../cli/args';
import { systemFileKindOfPath } from '../../shared/systemFiles';
import type { StartupFile } from '../../shared/ipc/documents';
import { loopbackDialogPort } from '../dialogPort';
import { startLoopbackServer } from './server';
import { portHolders, portTakenMessage } from './portHolder';
import { commitsInFlight, writesInFlight } from '../writeTurns';
import { userDataFolder } from '../userDataFolder';
import { appWorkerStops, waitForWritesBeforeQuit } from '../quitWaits';
import { createWebStop } from './webStop';
import { keptWorkers } from '../oneShotWorker';
import { besideBundleCheckers } from '../project/textCheck';
import { defaultBuildWorkerPath } from '../project/projectHandlers';
import { BUILD_WORKER_KEEP_MS } from '../project/buildRunner';

/** The repository root: this bundle lives in dist/electron. */
const repoRoot = resolve(__dirname, '..', '..');

function usageError(message: string): never {
  process.stderr.write(
    `actguy web: ${message}\nusage: loopback.cjs [--workspace DIR] [--renderer DIR] [--port N] [--any-port-if-taken] [--open FILE] [--user-data DIR | --keep-state] [--exit-with-stdin]\n`,
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
    } else if (name === 'exit-with-stdin' || name === 'any-port-if-taken' || name === 'keep-state') out[name] = true;
    else usageError(`unknown option ${quoteJson(a)}`);
  }
  // The CLI's check (docs/security.md, rounds 11 and 12): a path or number holding a control or bidirectional
  // formatting character is refused, and so is a current folder holding one. Every start-up message prints these
  // paths (the workspace, --open), so a folder named with an ESC sequence set the terminal's title, one with a line
  // break forged an `ActGuy web:` line, and a U+202E showed --open's file as another.
  hidden(() => refuseHiddenCharacters(Object.values(out).filter((v): v is string => typeof v === 'string')));
  return out;
}

/** Runs a hidden-character check; its refusal is a usage error of this command. */
function hidden(check: () => void): void {
  try {
    check();
  } catch (e) {
    if (e instanceof UsageError) usageError(e.message);
    throw e;
  }
}

/**
 * Where this run keeps what outlasts it (the recent files; the copies of unsaved work, see below): --user-data DIR;
 * with --keep-state, `web` in the user's state folder (beside the build's local verdicts, electron/build/verdicts.ts
 * defaultStateDir); else nowhere: memory, for this run. A folder that cannot be made costs only that: the server
 * starts, and says so.
 */
function stateDirOf(args: Record<string, string | true>): string | null {
  if (args['user-data']) {
    // Named by the user, and checked all the same (docs/security.md, round 39): a folder in /tmp that another user
    // made first, or one under a folder others may write, held copies of "unsaved work" the page offered to restore
    // (one naming a workspace file, which Save then replaced) and recent files the user never opened, and received
    // the user's own.
    const named = resolve(String(args['user-data']));
    const checked = userDataFolder(named);
    if ('dir' in checked) {
      for (const m of checked.notes) process.stderr.write(`actguy web: ${m}\n`);
      return checked.dir;
    }
    process.stderr.write(
      `actguy web: recent files and copies of unsaved work are kept for this run only: --user-data ${named} cannot be used (${checked.why}); nothing was read from it or written to it; name a folder of yours (one not there yet is made for you alone)\n`,
    );
    return null;
  }
  if (!args['keep-state']) return null;
  const dir = join(defaultStateDir(), 'web');
  // As the build's state folders: the user's alone (0700 whatever the umask; one of before made so), never a link or
  // another user's, whose recent list or copies of "unsaved work" the page would be offered (docs/security.md, round 30).
  const why = makeStateFolder(dir);
  if (!why) return dir;
  process.stderr.write(
    `actguy web: recent files and copies of unsaved work are kept for this run only: ${dir} cannot be used (${why})\n`,
  );
  return null;
}

/**
 * The folder of this run's copies of unsaved work (docs/install.md#unsaved-work-after-a-crash), so that work
 * survives the server stopping (Ctrl+C, a closed terminal, a crash) as it survives an app crash in Electron. The
 * copies follow the address, as the browser's preferences do: one folder per port, used only when this run holds
 * the port it asked for, so two servers never read or replace each other's copies (only one process can hold a
 * port) and a run on another port starts with none. Null: kept in memory for this run.
 */
function backupsDirOf(stateDir: string | null, askedPort: number, servedPort: number): string | null {
  if (!stateDir || askedPort === 0 || servedPort !== askedPort) return null;
  return join(stateDir, `${BACKUPS_FOLDER}-${servedPort}`);
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const workspace = canonicalPath(resolve(String(args.workspace ?? join(repoRoot, 'assets'))));
  // A workspace named plainly may be a link to a folder whose name holds one: its resolved path is what is printed.
  hidden(() => refuseHiddenCharacters([workspace], undefined));
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
  const stateDir = stateDirOf(args);
  const recent = createRecentFilesStore(stateDir, Date.now, (message) =>
    process.stderr.write(`actguy web: ${message}\n`),
  );
  // In memory until the server holds its port (backupsDirOf).
  const backups = deferredBackupStore(createBackupStore(null));
  // Made here, not left to createHandlers' defaults, so that the stop ends them (below), as the app's quit does.
  const buildWorkers = keptWorkers(defaultBuildWorkerPath(), BUILD_WORKER_KEEP_MS);
  const checkers = besideBundleCheckers();
  const handlers = createHandlers({
    buildWorkers,
    checkers,
    backups: backups.store,
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
      ...(recent.startupProblem ? { startupWarnings: [recent.startupProblem] } : {}),
    },
    policy,
    recent,
    compress,
    dialogs: loopbackDialogPort,
  });
  const server = await startLoopbackServer({
    rendererDir,
    handlers,
    port,
    anyPortIfTaken: !!args['any-port-if-taken'],
  });
  if (port && server.port !== port)
    // Whose program holds it is said: another user's is reached by every tab and bookmark of that address
    // (docs/security.md round 40).
    process.stderr.write(
      `actguy web: ${portTakenMessage(port, server.port, portHolders(port), process.getuid?.(), !!stateDir)}\n`,
    );
  const backupsDir = backupsDirOf(stateDir, port, server.port);
  if (backupsDir) backups.use(createBackupStore(backupsDir, (m) => process.stderr.write(`actguy web: ${m}\n`)));
  else if (stateDir && !port)
    process.stderr.write(
      `actguy web: copies of unsaved work are kept for this run only: they are kept on disk for a fixed --port\n`,
    );

  const say = (m: string): void => void process.stderr.write(`actguy web: ${m}\n`);
  // The app's quit, step by step (webStop.ts): each step runs whatever the one before did, and the threads' stop is
  // bounded (maintainer's read, rounds 18 and 19).
  const webStop = createWebStop({
    closeServer: () => server.close(),
    // As the app's quit: a copy of unsaved work or a save still being written is waited for, a few seconds at most
    // (electron/quitWaits.ts); the server takes no new request meanwhile. A commit (a build's or an export's files)
    // is not cut unasked: waited for until it ends, or until the user stops again once told how.
    waitForWrites: (cutNow) =>
      waitForWritesBeforeQuit(writesInFlight, say, undefined, {
        inFlight: commitsInFlight,
        cutNow,
        howToCut: 'press Ctrl+C again',
      }),
    // Then the threads, as the app's quit stops them (maintainer's read, round 18): each waited for, WORKERS_STOP_MS
    // at most. The process's end waits for every thread (Node joins them at process.exit too), so one held in native
    // code (an open's or an import's read of a network folder that stopped answering) kept the server from ending,
    // and every Ctrl+C after the first did nothing. Past the bound the process is killed, the one end that does not
    // join them: its writes have ended (above), and the server keeps nothing else.
    stops: () => appWorkerStops({ compress, buildWorkers, checkers }),
    say,
    kill: () => process.kill(process.pid, 'SIGKILL'),
    exit: (code) => process.exit(code),
  });
  // An error nothing caught stops the server as a Ctrl+C does, said and with status 1 (webStop.ts): Node's default
  // ended it at once, cutting the files a build was putting in place.
  process.on('uncaughtException', (thrown) => webStop.uncaught('uncaughtException', thrown));
  process.on('unhandledRejection', (reason) => webStop.uncaught('unhandledRejection', reason));
  // The first signal stops; one after the stop said "press Ctrl+C again" cuts the wait for a commit; the copies of a
  // terminal's Ctrl+C that npm and scripts/web.mjs pass on do neither (quitWaits.ts createStopSignals). stdin's end
  // and close both come once it closes: a stop, never a cut.
  process.on('SIGINT', webStop.signal);
  process.on('SIGTERM', webStop.signal);
  // A closed terminal (maintainer's read, round 19): its SIGHUP ended the server at once, Node's default, cutting the
  // files a build was putting in place; now a stop as Ctrl+C's (what it says goes nowhere, and is not said again).
  process.on('SIGHUP', webStop.signal);
  if (args['exit-with-stdin']) {
    process.stdin.on('end', webStop.stop);
    process.stdin.on('close', webStop.stop);
    process.stdin.resume();
  }
  // Last, once every way to stop is listened to (maintainer's read, round 19): the line is the sign that the server is
  // ready, and a test runner or a script that stopped it on seeing the line, before the listeners, ended it by the
  // signal's default (a SIGHUP at once, unstopped), not by the stop.
  process.stdout.write(`ActGuy web: ${server.url}\n`);
}

main().catch((e) => {
  process.stderr.write(`actguy web: ${(e as Error).message}\n`);
  process.exit(1);
});
