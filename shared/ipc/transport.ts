/**
 * The glue both transports share (Electron IPC and loopback HTTP, shared/ipc/api.ts): channel names, the check
 * that a name is a member, and how a failure travels.
 */
import type { FileKind } from '../errors';
import type { PlainFileProblem } from '../fileProblem';
import { ACTGUY_INVOKE_MEMBERS, type ActGuyApi, type ActGuyInvokeMember } from './api';

/** The Electron IPC channel of an invoke member. */
export function ipcInvokeChannel(member: ActGuyInvokeMember): string {
  return `actguy:${member}`;
}

/** The Electron IPC channel main sends menu commands on. */
export const MENU_COMMAND_CHANNEL = 'actguy:event:menuCommand';

/**
 * The Electron IPC channel the preload sends a dropped file's path on (shared/ipc/drop.ts): only the preload finds
 * that path (webUtils.getPathForFile of a dropped File), never a string from the page.
 */
export const DROPPED_FILE_CHANNEL = 'actguy:droppedFile';

/** Whether a string names an invoke member (transports refuse every other name). */
export function isInvokeMember(name: string): name is ActGuyInvokeMember {
  return (ACTGUY_INVOKE_MEMBERS as readonly string[]).includes(name);
}

/** Argument and result types of an invoke member. */
export type InvokeArg<M extends ActGuyInvokeMember> = Parameters<ActGuyApi[M]> extends [infer A] ? A : undefined;
export type InvokeResult<M extends ActGuyInvokeMember> = Awaited<ReturnType<ActGuyApi[M]>>;

/**
 * How a handler failure travels over a transport: the message (readable as is)
 * plus the FormatError kind when the failure was a bad file.
 */
export interface IpcErrorPayload {
  message: string;
  /** Set when the failure was a FormatError. */
  formatKind?: FileKind;
  /**
   * The problem in plain words, read before `message` (shared/fileProblem.ts): set when the failure was a FormatError,
   * and for a File > Import that failed otherwise (plainImportFailure).
   */
  plain?: PlainFileProblem;
  /**
   * Set when a save was refused because its file changed on disk since the page loaded it (electron/loadedFiles.ts):
   * the path main refused to write and what it found there. Nothing was written; the page asks what to do.
   */
  changedOnDisk?: ChangedOnDisk;
}

/** How a file differs on disk from what the page loaded: its content, gone, made since, or replaced by another kind. */
export type ChangeOnDisk = 'changed' | 'deleted' | 'created' | 'link' | 'folder' | 'special';

/** A save refused over a change on disk (IpcErrorPayload.changedOnDisk). */
export interface ChangedOnDisk {
  path: string;
  change: ChangeOnDisk;
}

/** A transport's reply envelope: handlers never let an exception cross a transport raw. */
export type IpcReply<T> = { ok: true; value: T } | { ok: false; error: IpcErrorPayload };

/** The error a transport client rejects with; its message is the handler's message. */
export class ActGuyApiError extends Error {
  readonly formatKind: FileKind | undefined;
  readonly plain: PlainFileProblem | undefined;
  readonly changedOnDisk: ChangedOnDisk | undefined;
  constructor(payload: IpcErrorPayload) {
    super(payload.message);
    this.name = 'ActGuyApiError';
    this.formatKind = payload.formatKind;
    this.plain = payload.plain;
    this.changedOnDisk = payload.changedOnDisk;
  }
}
