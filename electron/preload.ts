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
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { ACTGUY_INVOKE_MEMBERS, type ActGuyApi } from '../shared/ipc/api';
import type { MenuCommand } from '../shared/ipc/menu';
import { ActGuyApiError, ipcInvokeChannel, MENU_COMMAND_CHANNEL, type IpcReply } from '../shared/ipc/transport';

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

contextBridge.exposeInMainWorld('actguy', api as unknown as ActGuyApi);
