/**
 * The one envelope a handler's outcome crosses a transport in (Electron IPC in main.ts, the loopback server): a value,
 * or an error the page can show, never an exception raw or a stack.
 */
import { escapeControls, FormatError } from '../shared/errors';
import { plainFileProblem, type PlainFileProblem } from '../shared/fileProblem';
import { ActGuyApiError, isInvokeMember, type IpcReply } from '../shared/ipc/transport';
import type { ApiHandlers } from './handlers';
import { ChangedOnDiskError } from './loadedFiles';
import { PathNotAllowedError, quotePath } from './pathPolicy';

/** Longest error message a reply carries: a handler that quotes its input must not send back megabytes. */
const REPLY_MESSAGE_MAX = 16 * 1024;

/** The file an invoke argument is about (its path), for messages of unexpected failures. */
function fileOfArgument(arg: unknown): string | null {
  if (typeof arg !== 'object' || arg === null) return null;
  const a = arg as Record<string, unknown>;
  for (const key of ['path', 'projectPath', 'folder'])
    if (typeof a[key] === 'string' && a[key]) return quotePath(a[key] as string);
  return null;
}

/**
 * An error as the message a user sees. Errors the handlers raise already
 * name the file; anything else (a TypeError from a bug) is reported as
 * `FILE: message` (or `member: message`), never as a bare JS message or a stack.
 */
function replyMessage(e: unknown, member: string, arg: unknown): string {
  const deliberate = e instanceof Error && (e.constructor === Error || e instanceof PathNotAllowedError);
  const text = e instanceof Error ? e.message : String(e);
  return clipMessage(deliberate ? text : `${fileOfArgument(arg) ?? member}: ${text}`);
}

/** A bad file's problem in plain words (shared/fileProblem.ts), its quoted pieces clipped as the message is. */
function plainOf(e: FormatError): PlainFileProblem {
  const p = plainFileProblem(e.kind, e.detail, e.place, e.file);
  return { file: clipMessage(p.file), lead: clipMessage(p.lead), advice: p.advice };
}

/**
 * A message as the page shows it: clipped, and every character that hides or reorders text (a bidi override, a
 * terminal escape, a zero-width space: escapeControls) as `\uXXXX`, line breaks and tabs aside, which messages use.
 * Handlers name files as their paths are (`Could not save ${path}: …`), and a received folder's file may be named
 * `walk\u202Eves.mtn`: raw, its override reordered the rest of the sentence (docs/security.md, round 51).
 */
function clipMessage(message: string): string {
  // Clipped before and after the escapes: a handler's message may quote megabytes of the page's input.
  const shown = message.slice(0, REPLY_MESSAGE_MAX + 1).replace(/[^\n\t]+/g, escapeControls);
  return shown.length <= REPLY_MESSAGE_MAX ? shown : `${shown.slice(0, REPLY_MESSAGE_MAX)}… (message shortened)`;
}

/**
 * Runs one invoke member for a transport and wraps the outcome in a reply, so
 * no exception crosses a transport raw and both transports report failures alike.
 */
export async function dispatchInvoke(handlers: ApiHandlers, member: string, arg: unknown): Promise<IpcReply<unknown>> {
  if (!isInvokeMember(member))
    return { ok: false, error: { message: `unknown API member ${JSON.stringify(member.slice(0, 64))}` } };
  const handler = handlers[member] as ((a: unknown) => Promise<unknown>) | undefined;
  if (typeof handler !== 'function')
    return { ok: false, error: { message: `API member ${member} has no handler in this build` } };
  return replyOf(member, arg, handler);
}

/**
 * The reply to one call from the page: its value, or its failure in the envelope every channel answers in (main's
 * dropped-file channel too): the message clipped, a bad file's kind and plain words, a change on disk for the page's
 * question, and anything unexpected worded `FILE: message` (or `member: message`), never a stack.
 */
export async function replyOf(
  member: string,
  arg: unknown,
  run: (arg: unknown) => unknown | Promise<unknown>,
): Promise<IpcReply<unknown>> {
  try {
    return { ok: true, value: await run(arg) };
  } catch (e) {
    if (e instanceof FormatError)
      return { ok: false, error: { message: clipMessage(e.message), formatKind: e.kind, plain: plainOf(e) } };
    // A save refused over a change on disk: the page asks whether to reload or replace it (loadedFiles.ts).
    if (e instanceof ChangedOnDiskError)
      return {
        ok: false,
        error: { message: clipMessage(e.message), changedOnDisk: { path: e.path, change: e.change } },
      };
    if (e instanceof ActGuyApiError)
      return {
        ok: false,
        error: { message: clipMessage(e.message), formatKind: e.formatKind, ...(e.plain ? { plain: e.plain } : {}) },
      };
    return { ok: false, error: { message: replyMessage(e, member, arg) } };
  }
}
