/**
 * The preload: exposes exactly ActGuyApi as `window.actguy` through
 * contextBridge, and nothing else (no ipcRenderer, no Node). Runs sandboxed, so
 * it is bundled to CommonJS with only `electron` left external.
 *
 * Each invoke member maps to its own fixed channel (never a channel name from
 * the page); replies are IpcReply envelopes turned back into a value or an
 * Error with the handler's message. Menu callbacks receive only the command,
 * never Electron's event object.
 */
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { ACTGUY_INVOKE_MEMBERS, type ActGuyApi } from '../shared/ipc/api';
import type { DroppedFileOutcome } from '../shared/ipc/drop';
import type { MenuCommand } from '../shared/ipc/menu';
import {
  ActGuyApiError,
  DROPPED_FILE_CHANNEL,
  ipcInvokeChannel,
  MENU_COMMAND_CHANNEL,
  type IpcReply,
} from '../shared/ipc/transport';

const api: Record<string, unknown> = {};
for (const member of ACTGUY_INVOKE_MEMBERS) {
  const channel = ipcInvokeChannel(member);
  api[member] = async (arg?: unknown) => {
    const reply = (await ipcRenderer.invoke(channel, arg)) as IpcReply<unknown>;
    if (!reply.ok) throw new ActGuyApiError(reply.error);
    return reply.value;
  };
}

const onMenuCommand: ActGuyApi['onMenuCommand'] = (callback) => {
  if (typeof callback !== 'function') throw new TypeError('onMenuCommand needs a function');
  const listener = (_event: IpcRendererEvent, command: MenuCommand): void => {
    if (typeof command?.command !== 'string') return;
    // Only the fields a MenuCommand has: the file (a recent file, an OS hand-off) and the project of a handed-over .sev.
    const forwarded: MenuCommand = { command: command.command };
    if (typeof command.path === 'string') forwarded.path = command.path;
    if (typeof command.projectPath === 'string') forwarded.projectPath = command.projectPath;
    callback(forwarded);
  };
  ipcRenderer.on(MENU_COMMAND_CHANNEL, listener);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    ipcRenderer.removeListener(MENU_COMMAND_CHANNEL, listener);
  };
};
api.onMenuCommand = onMenuCommand;

/**
 * A file dropped onto the window: the page hands over the `File` itself, never a path. Where it lies is asked of
 * Electron here (webUtils.getPathForFile), out of the page's reach; a File the page made itself (`new File(...)`)
 * has no place on disk and is refused, and so is anything that is not a File. Main grants the path as a pick
 * (electron/droppedFiles.ts) and answers what it granted.
 */
const openDroppedFile: ActGuyApi['openDroppedFile'] = async (file) => {
  if (typeof File !== 'function' || !(file instanceof File))
    throw new ActGuyApiError({ message: 'openDroppedFile takes a file dropped onto the window' });
  const path = webUtils.getPathForFile(file);
  if (typeof path !== 'string' || path === '')
    throw new ActGuyApiError({
      message: `${file.name.slice(0, 200)}: this dropped file has no place on disk (it was not dropped from your computer's files), so ActGuy cannot open it; nothing was opened.`,
    });
  const reply = (await ipcRenderer.invoke(DROPPED_FILE_CHANNEL, path)) as IpcReply<DroppedFileOutcome>;
  if (!reply.ok) throw new ActGuyApiError(reply.error);
  return reply.value;
};
api.openDroppedFile = openDroppedFile;

contextBridge.exposeInMainWorld('actguy', api as unknown as ActGuyApi);
