/**
 * The renderer-side client of the loopback transport (electron/loopback):
 * the same ActGuyApi as `window.actguy`, carried over HTTP on 127.0.0.1.
 * Each invoke member is `POST /rpc/<member>` with the per-run token in the
 * X-ActGuy-Token header and the argument as an ipc-codec frame; the reply is
 * an IpcReply frame. Dialog members never reach the server: there is no native
 * UI behind it, so they run the in-app dialogs the renderer registered
 * (setInAppDialogs) over the workspace listing.
 */
import { dropKindOf, menuItemFor, shownName } from '../../shared/dropFiles';
import { decodeIpcFrame, encodeIpcFrame } from '../../shared/ipc/codec';
import { mshFilesOf, mshPrefixOf } from '../../shared/msh/files';
import { TUNING_SUFFIX } from '../../shared/tuning/sidecar';
import { BUILD_REPORT_SUFFIX } from '../../shared/project/validate';
import { joinPath } from '../../shared/project/paths';
import { ACTGUY_INVOKE_MEMBERS, type ActGuyApi, type ActGuyInvokeMember } from '../../shared/ipc/api';
import type { WorkspaceListing } from '../../shared/ipc/documents';
import { ActGuyApiError, type InvokeArg, type InvokeResult, type IpcReply } from '../../shared/ipc/transport';

/** Header carrying the per-run token on every RPC. */
export const LOOPBACK_TOKEN_HEADER = 'X-ActGuy-Token';

/** What the in-app file picker is asked. */
export interface InAppPickRequest {
  /** 'open' picks an existing file; 'save' picks or names a file under listing.root; 'folder' chooses a folder there. */
  mode: 'open' | 'save' | 'folder';
  title: string;
  /** Lower-case extensions without the dot that fit. */
  extensions: string[];
  /** For 'save': the suggested file name. */
  defaultName?: string;
  /** Files under the workspace root with those extensions. */
  listing: WorkspaceListing;
  /** 'folder': the names of the files that will be written into it, said in the picker before anything is. */
  willWrite?: string[];
}

export interface InAppConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
}

/** The in-app dialogs the renderer provides over loopback. */
export interface InAppDialogs {
  /** Resolves an absolute path (under listing.root for 'save'), or null when cancelled. */
  pickPath(req: InAppPickRequest): Promise<string | null>;
  /** Several files at once (File > Import); resolves the chosen paths in order, or null. Without it, one file is asked for. */
  pickPaths?(req: Omit<InAppPickRequest, 'mode' | 'defaultName'>): Promise<string[] | null>;
  /** Resolves true to go ahead. Defaults to window.confirm. */
  confirm?(req: InAppConfirmRequest): Promise<boolean>;
}

let inAppDialogs: InAppDialogs | null = null;

/** Registers the in-app picker used for dialog members over loopback (call once at start-up; harmless under Electron). */
export function setInAppDialogs(dialogs: InAppDialogs | null): void {
  inAppDialogs = dialogs;
}

/** The token of this page: `?token=` in the query, or `#token=` in the hash. */
export function tokenFromLocation(loc: { search: string; hash: string }): string | null {
  const fromQuery = new URLSearchParams(loc.search).get('token');
  if (fromQuery) return fromQuery;
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, '')).get('token');
  return fromHash || null;
}

/** Where a tab keeps its token once the page has read it from its URL (sessionStorage: this tab and origin only). */
export const TOKEN_STORAGE_KEY = 'actguy-token';

/** The URL without its token: `token=` taken out of the query and the hash, every other part kept as it was. */
export function urlWithoutToken(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('token');
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  if (hash.has('token')) {
    hash.delete('token');
    const rest = hash.toString();
    url.hash = rest ? `#${rest}` : '';
  }
  // Part by part: an empty query or hash ('?', '#') is left out, as `search` and `hash` give them.
  return `${url.origin}${url.pathname}${url.search}${url.hash}`;
}

/** What takeToken needs of the page (window's own members in the browser; plain objects in tests). */
export interface TokenHome {
  location: { href: string; search: string; hash: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  /** Throws where the browser gives no storage (then the token stays in the URL, so that a reload still works). */
  sessionStorage(): { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

/**
 * The page's token, taken out of its address (docs/security.md round 40). The URL `npm run web` prints carries it as
 * `?token=`; once read it is kept in this tab's sessionStorage and the address is replaced by one without it, so that
 * the address bar, a copied URL and the browser's history hold no token, and a reload of the tab finds it again (the
 * page's cookie opens the page itself, electron/loopback/server.ts). A token in the URL replaces a kept one: a new
 * run's URL opened in the same tab. Null when neither holds one.
 */
export function takeToken(home: TokenHome): string | null {
  const fromUrl = tokenFromLocation(home.location);
  let storage: ReturnType<TokenHome['sessionStorage']> | null = null;
  try {
    storage = home.sessionStorage();
  } catch {
    storage = null;
  }
  if (!fromUrl) {
    try {
      return storage?.getItem(TOKEN_STORAGE_KEY) || null;
    } catch {
      return null;
    }
  }
  try {
    if (!storage) return fromUrl;
    storage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    // Only once it is kept: a token taken out but not kept would leave a reload with none.
    if (storage.getItem(TOKEN_STORAGE_KEY) !== fromUrl) return fromUrl;
  } catch {
    return fromUrl;
  }
  home.history.replaceState(home.history.state, '', urlWithoutToken(home.location.href));
  return fromUrl;
}

/**
 * Why a request did not reach the server, its cause included: Node's fetch says only "fetch failed" and keeps the
 * reason (a connection reset, the other side closing a kept-alive connection, a refused port) in `cause`, which the
 * message dropped (docs/testing.md, "Tests under load, round 2"). A browser's error has no cause: its message alone.
 */
export function unreachableDetail(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const parts = [e.message];
  const seen = new Set<unknown>([e]);
  for (let c: unknown = e.cause; c instanceof Error && !seen.has(c); c = c.cause) {
    seen.add(c);
    const code = (c as { code?: unknown }).code;
    parts.push(typeof code === 'string' && !c.message.includes(code) ? `${c.message} (${code})` : c.message);
  }
  return parts.join(': ');
}

export interface LoopbackClientOptions {
  /** Base URL of the server (defaults to the page's origin). */
  baseUrl?: string;
  token: string;
  fetchImpl?: typeof fetch;
}

/** Creates a loopback client implementing ActGuyApi. */
export function createLoopbackClient(options: LoopbackClientOptions): ActGuyApi {
  const fetchImpl = options.fetchImpl ?? fetch.bind(globalThis);
  const base = (options.baseUrl ?? '').replace(/\/$/, '');

  async function invoke<M extends ActGuyInvokeMember>(member: M, arg: InvokeArg<M>): Promise<InvokeResult<M>> {
    let response: Response;
    try {
      response = await fetchImpl(`${base}/rpc/${member}`, {
        method: 'POST',
        headers: { [LOOPBACK_TOKEN_HEADER]: options.token, 'Content-Type': 'application/octet-stream' },
        // A Uint8Array is a valid fetch body in browsers and Node; the cast spans both lib typings.
        body: encodeIpcFrame(arg) as unknown as RequestInit['body'],
      });
    } catch (e) {
      throw new ActGuyApiError({
        message: `ActGuy's local server is not reachable (${unreachableDetail(e)}); is \`npm run web\` still running?`,
      });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new ActGuyApiError({
        message: `ActGuy's local server refused ${member}: HTTP ${response.status} ${text}`.trim(),
      });
    }
    const reply = decodeIpcFrame(new Uint8Array(await response.arrayBuffer())) as IpcReply<InvokeResult<M>>;
    if (!reply.ok) throw new ActGuyApiError(reply.error);
    return reply.value;
  }

  const invokeByName = (member: string, arg: unknown): Promise<unknown> =>
    (invoke as (m: string, a: unknown) => Promise<unknown>)(member, arg);

  const requireDialogs = (): InAppDialogs => {
    if (!inAppDialogs)
      throw new ActGuyApiError({
        message: 'no in-app file picker registered (setInAppDialogs) for the loopback transport',
      });
    return inAppDialogs;
  };

  const pick = async (
    mode: 'open' | 'save',
    title: string,
    extensions: string[],
    defaultName?: string,
    /** Files of those extensions the list leaves out (a motion's tuning file among the projects). */
    leaveOut?: (path: string) => boolean,
  ): Promise<string | null> => {
    const dialogs = requireDialogs();
    const listed = await invoke('listWorkspace', { extensions });
    const listing = leaveOut ? { ...listed, files: listed.files.filter((f) => !leaveOut(f.path)) } : listed;
    return dialogs.pickPath({ mode, title, extensions, defaultName, listing });
  };

  const withExtension = (path: string, ext: string): string =>
    path.toLowerCase().endsWith(`.${ext}`) ? path : `${path}.${ext}`;

  /**
   * Dialog members, served in the page. Keyed by name and applied only when
   * the contract lists the member, so families added to shared/ipc/ later
   * (projects, SEV) can register theirs here without breaking older builds.
   */
  const inPage: Record<string, (arg: never) => Promise<unknown>> = {
    openMotionDialog: async () => {
      const path = await pick('open', 'Open motion', ['mtn', 'mt3', 'mar']);
      return path ? invoke('openMotion', { path }) : { status: 'cancelled' };
    },
    chooseSkeletonDialog: async () => {
      const path = await pick('open', 'Choose the skeleton (.mtn) this motion was made from', ['mtn']);
      return path ? { status: 'chosen', path } : { status: 'cancelled' };
    },
    saveMotionAsDialog: async (req: InvokeArg<'saveMotionAsDialog'>) => {
      const path = await pick('save', 'Save motion as', ['mtn'], req.defaultName);
      return path
        ? invoke('saveMotion', {
            documentId: req.documentId,
            mtnBytes: req.mtnBytes,
            path: withExtension(path, 'mtn'),
            ...(req.tuningText !== undefined ? { tuningText: req.tuningText } : {}),
          })
        : { status: 'cancelled' };
    },
    exportMt3Dialog: async (req: InvokeArg<'exportMt3Dialog'>) => {
      const path = await pick('save', 'Export compressed motion', ['mt3'], req.defaultName);
      return path
        ? invoke('exportMt3', { compress: req.compress, path: withExtension(path, 'mt3') })
        : { status: 'cancelled' };
    },
    confirmDiscardChanges: async (req: InvokeArg<'confirmDiscardChanges'>) => {
      const message = `${req.documentName} has unsaved changes. Discard them and ${req.action}?`;
      const confirm = inAppDialogs?.confirm;
      if (confirm) return confirm({ title: 'Unsaved changes', message, confirmLabel: 'Discard changes' });
      return (globalThis as unknown as { confirm(text: string): boolean }).confirm(message);
    },
    // Projects: the same pattern, over the workspace listing.
    openProjectDialog: async () => {
      // A motion's tuning file (walk.mtn.actguy-tuning.json) and a build's report (out/stage.report.json, the name a
      // build gives it by default) are JSON but never a project: not offered. Opened anyway they are said for what
      // they are (shared/fileProblem.ts).
      const path = await pick('open', 'Open project', ['json'], undefined, (p) => {
        const lower = p.toLowerCase();
        return lower.endsWith(TUNING_SUFFIX) || lower.endsWith(BUILD_REPORT_SUFFIX);
      });
      return path ? invokeByName('openProject', { path }) : { status: 'cancelled' };
    },
    chooseProjectFileDialog: async (req: { purpose: string }) => {
      const byPurpose: Record<string, [string, string[]]> = {
        mtn: ['Add a motion', ['mtn']],
        sev: ['Attach a sound-event file', ['sev']],
        sound: ['Choose a sound in the audition folder', ['wav', 'ogg', 'mp3', 'flac']],
      };
      const [title, extensions] = byPurpose[req.purpose] ?? ['Choose a file', []];
      const path = await pick('open', title, extensions);
      return path ? { status: 'chosen', path } : { status: 'cancelled' };
    },
    // Interchange: import a .bvh/.glb/.gltf/.fbx, export a .glb.
    importMotionDialog: async (req: InvokeArg<'importMotionDialog'>) => {
      const extensions = ['bvh', 'glb', 'gltf', 'fbx'];
      const title = 'Import motion (BVH, glTF, FBX; several files: one .mtn each)';
      const dialogs = requireDialogs();
      const paths = dialogs.pickPaths
        ? await dialogs.pickPaths({ title, extensions, listing: await invoke('listWorkspace', { extensions }) })
        : await pick('open', title, extensions).then((p) => (p ? [p] : null));
      if (!paths?.length) return { status: 'cancelled' };
      return paths.length > 1 ? { status: 'chosenMany', paths } : invoke('importMotion', { ...req, path: paths[0] });
    },
    exportGltfDialog: async (req: InvokeArg<'exportGltfDialog'>) => {
      const title =
        req.source === 'compressed' ? 'Export glTF of the compressed motion' : 'Export glTF of the source motion';
      const path = await pick('save', title, ['glb'], req.defaultName);
      if (!path) return { status: 'cancelled' };
      const { documentId, source, mtnBytes, compress, scale } = req;
      return invoke('exportGltf', { documentId, source, mtnBytes, compress, scale, path: withExtension(path, 'glb') });
    },
    // Project › Export All as MSH… / glTF… chooses the folder to export into, the files it will write named there
    // first (tried cold, round 18: it asked for a file name and took its folder); main writes every motion's there.
    startProjectExportDialog: async (req: InvokeArg<'startProjectExportDialog'>) => {
      const [what, extensions] = req.format === 'gltf' ? ['glTF', ['glb']] : ['MSH', ['res8', 'res19', 'json']];
      const willWrite = Array.isArray(req.fileNames) ? req.fileNames.filter((n) => typeof n === 'string') : [];
      const folder = await requireDialogs().pickPath({
        mode: 'folder',
        title: `Export All as ${what}: choose the folder to export into`,
        extensions,
        // The kinds it writes (a .json only as a .nodes.json: the project's own text is no export's).
        listing: await invoke('listWorkspace', { extensions }).then((l) => ({
          ...l,
          files: l.files.filter((f) => f.extension !== 'json' || f.path.toLowerCase().endsWith('.nodes.json')),
        })),
        willWrite,
      });
      if (!folder) return { status: 'cancelled' };
      const { projectPath, projectText, format, gltfSource } = req;
      // Main exports into the folder of the path it is given (the file named is one of those written).
      const path = joinPath(folder, willWrite[0] ?? `motion.${extensions[0]}`);
      return invoke('startProjectExport', {
        projectPath,
        projectText,
        format,
        ...(gltfSource && { gltfSource }),
        path,
      });
    },
    // File > Export MSH names the .res8; the .res19 and .nodes.json go beside it (main derives them).
    exportMshDialog: async (req: InvokeArg<'exportMshDialog'>) => {
      const path = await pick('save', 'Export MSH animation (.res8, .res19, .nodes.json)', ['res8'], req.defaultName);
      if (!path) return { status: 'cancelled' };
      const { documentId, positionTolerance, rotationToleranceDeg, rotationToleranceOverridesDeg } = req;
      return invoke('exportMsh', {
        documentId,
        positionTolerance,
        rotationToleranceDeg,
        rotationToleranceOverridesDeg,
        path: mshFilesOf(mshPrefixOf(path)).res8,
      });
    },
  };

  const api: Record<string, unknown> = {};
  // Every other invoke member is a plain RPC: new contract members work without edits here.
  for (const member of ACTGUY_INVOKE_MEMBERS)
    api[member] = inPage[member] ?? ((arg?: unknown) => invokeByName(member, arg));
  // No native menu over loopback: the page's own menu bar drives the same actions.
  const onMenuCommand: ActGuyApi['onMenuCommand'] = () => () => {};
  api.onMenuCommand = onMenuCommand;
  // A browser never tells a page where a dropped file lies, and opening goes by path: Open's in-app picker is the
  // way here (docs/tuner.md#drag-and-drop).
  const openDroppedFile: ActGuyApi['openDroppedFile'] = async (file) => {
    const name = String(file?.name ?? '');
    return {
      status: 'unavailable',
      message: `${shownName(name) || 'The dropped file'}: opening a dropped file needs the ActGuy desktop app (in this browser build a page cannot learn where a dropped file is on disk); nothing was opened. Choose it with ${menuItemFor(dropKindOf(name))} instead: it lists the workspace's files.`,
    };
  };
  api.openDroppedFile = openDroppedFile;
  return api as unknown as ActGuyApi;
}
