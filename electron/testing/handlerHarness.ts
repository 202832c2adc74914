/**
 * The one setup of the main-process handlers for tests: createHandlers with a fresh path policy, no
 * recent-files folder and dialogs that choose nothing unless a test says otherwise, an AppInfo for the
 * loopback transport, the temporary workspace most handler tests start from, a compress client per test,
 * and a motion opened through the handlers. The project handlers' setup is projectHarness.ts.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { AppInfo, OpenedMotion, OpenMotionRequest } from '../../shared/ipc/documents';
import { useBuiltCompressWorker } from '../compress/buildWorkerForTests';
import { createCompressClient, type CompressClient } from '../compressClient';
import type { DialogPort } from '../dialogPort';
import { createHandlers, type ApiHandlers, type HandlerContext } from '../handlers';
import { createPathPolicy } from '../pathPolicy';
import { createRecentFilesStore } from '../recentFiles';

export const ASSETS = resolve(__dirname, '..', '..', 'assets');
/** The bundled walk, the motion every handler test opens. */
export const SAMPLE_MTN = join(ASSETS, 'walk.mtn');

/** An AppInfo of the loopback transport without native dialogs on this platform; the sample is the start-up file unless given. */
export function testAppInfo(app: Partial<AppInfo> & Pick<AppInfo, 'workspaceRoot'>): AppInfo {
  return {
    version: '0.0.0-test',
    samplePath: SAMPLE_MTN,
    startupPath: SAMPLE_MTN,
    transport: 'loopback',
    nativeDialogs: false,
    platform: process.platform,
    ...app,
  };
}

/** Dialogs that choose nothing and decline every confirmation. */
export const noDialogs: DialogPort = {
  chooseFileToOpen: async () => null,
  chooseFileToSave: async () => null,
  confirm: async () => false,
};

export interface ScriptedDialogs extends DialogPort {
  /** The answers of the next dialogs, in order; a dialog with none queued fails the test. */
  answers: (string | boolean | null)[];
  /** The options each file dialog was shown with, in order. */
  shown: { title: string; defaultPath?: string; extensions: string[] }[];
}

/** Dialogs answering from a queue the test fills; `confirm` answers from the queue too unless given. */
export function scriptedDialogs(options: { confirm?: DialogPort['confirm'] } = {}): ScriptedDialogs {
  const answers: (string | boolean | null)[] = [];
  const shown: ScriptedDialogs['shown'] = [];
  const next = async <T>(): Promise<T> => {
    if (answers.length === 0) throw new Error('test dialog: no answer queued');
    return answers.shift() as T;
  };
  const file = (o: {
    title: string;
    defaultPath?: string;
    filters: { extensions: string[] }[];
  }): Promise<string | null> => {
    shown.push({ title: o.title, defaultPath: o.defaultPath, extensions: o.filters.flatMap((f) => f.extensions) });
    return next();
  };
  return { answers, shown, chooseFileToOpen: file, chooseFileToSave: file, confirm: options.confirm ?? (() => next()) };
}

export type TestHandlerOptions = Omit<HandlerContext, 'appInfo' | 'policy' | 'recent' | 'dialogs'> &
  Partial<Pick<HandlerContext, 'policy' | 'recent' | 'dialogs'>> & {
    /** The AppInfo's fields that differ from testAppInfo's. */
    app: Partial<AppInfo> & Pick<AppInfo, 'workspaceRoot'>;
    /** Where the recent files are kept (default: nowhere); ignored when `recent` is given. */
    recentDir?: string | null;
  };

/** createHandlers with testAppInfo(app), a fresh path policy, recent files in `recentDir` (default none) and noDialogs unless given. */
export function testHandlers({
  app,
  recentDir = null,
  policy,
  recent,
  dialogs,
  ...rest
}: TestHandlerOptions): ApiHandlers {
  return createHandlers({
    appInfo: testAppInfo(app),
    policy: policy ?? createPathPolicy(),
    recent: recent ?? createRecentFilesStore(recentDir),
    dialogs: dialogs ?? noDialogs,
    ...rest,
  });
}

/** A fresh temporary folder holding `workspace/` with a copy of the walk, and `outside/`, empty unless `walkOutside`. */
export function tempWorkspace(
  prefix: string,
  options: { walkOutside?: boolean } = {},
): { dir: string; workspace: string; outside: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(dir, 'workspace');
  const outside = join(dir, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  copyFileSync(SAMPLE_MTN, join(workspace, 'walk.mtn'));
  if (options.walkOutside) copyFileSync(SAMPLE_MTN, join(outside, 'walk.mtn'));
  return { dir, workspace, outside };
}

/** Opens a motion through the handlers (`path`, or the whole request) and returns it; any other outcome fails the test. */
export async function openedMotion(
  handlers: Pick<ApiHandlers, 'openMotion'>,
  request: string | OpenMotionRequest,
): Promise<OpenedMotion> {
  const r = await handlers.openMotion(typeof request === 'string' ? { path: request } : request);
  if (r.status !== 'opened') throw new Error(`expected the motion to open, got ${r.status}`);
  return r.motion;
}

/**
 * For a test file: a compress client on the bundled compress worker for each test, disposed after it. Call it at
 * the top of the file, before the file's own beforeEach, which then passes `compress()` to testHandlers.
 */
export function useCompressClientPerTest(): () => CompressClient {
  const workerPath = useBuiltCompressWorker();
  let client: CompressClient | null = null;
  beforeEach(() => {
    client = createCompressClient({ workerPath: workerPath() });
  });
  afterEach(async () => {
    await client?.dispose();
    client = null;
  });
  return () => {
    if (!client) throw new Error('useCompressClientPerTest: the client exists only while a test runs');
    return client;
  };
}
