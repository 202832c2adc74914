/**
 * Checks of the arguments a handler receives from the renderer. The renderer
 * is untrusted, so every handler checks the shape of its argument before using
 * it; these throw a plain Error naming the member and the field at fault.
 */
import { escapeControls, quoteJson } from '../shared/errors';
import { FILE_NAME_MAX_BYTES } from '../shared/fileSystemLimits';
import type { CompressRequest } from '../shared/ipc/compress';
import { MAX_PATH_LENGTH } from './pathPolicy';

/** The argument as an object (not null, not an array), else an Error. */
export function requireObject<T>(v: unknown, what: string): T {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what}: expected an object argument`);
  return v as T;
}

/** A non-empty string, else an Error. */
export function requireString(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new Error(`${what} must be a non-empty string`);
  return v;
}

/**
 * A path the page names (a file to open, save or list), else an Error: a non-empty string of at most MAX_PATH_LENGTH
 * characters, the longest the path policy grants. Refused here, before any look at it: a page's 16 MB path cost the
 * main process 0.09-0.14 s per call (resolved, looked up, quoted) before the policy refused it, and came back as up to
 * 16 KiB of message (docs/architecture.md#electron, round 5).
 */
export function requirePath(v: unknown, what: string): string {
  const path = requireString(v, what);
  if (path.length > MAX_PATH_LENGTH)
    throw new Error(
      `${what} is longer than ${MAX_PATH_LENGTH} characters: no file ActGuy opens or writes has so long a path`,
    );
  return path;
}

/**
 * The longest id a page sends that main looks up (a document's, a build's): main makes ids of 36 characters at most
 * (compressClient.ts newDocumentId, buildRunner.ts randomUUID), so a longer one names nothing and is not looked up.
 */
export const PAGE_ID_MAX = 64;

/**
 * An id the page sent, as a message quotes it: at most PAGE_ID_MAX characters (a page's 16 MB id came back as 16 KiB
 * of message after 0.09-0.19 s of the main process: docs/architecture.md, rounds 5 and 6), hidden characters escaped;
 * anything but a string by its type.
 */
export function shownPageId(id: unknown): string {
  if (typeof id === 'string') return escapeControls(id.length > PAGE_ID_MAX ? `${id.slice(0, PAGE_ID_MAX)}…` : id);
  if (id === null || typeof id !== 'object') return String(id);
  return Array.isArray(id) ? '(an array)' : '(an object)';
}

/** A Uint8Array, else an Error. */
export function requireBytes(v: unknown, what: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new Error(`${what} must be a Uint8Array`);
  return v;
}

/** The longest name the page may propose for a save dialog, in characters (no file name holds more bytes). */
export const OFFERED_NAME_MAX = FILE_NAME_MAX_BYTES;

/**
 * The file name the page proposes for a save dialog (Save As, Export MT3, glTF and MSH: its document's name) when it
 * is one plain name in the document's folder, else `fallback`, the document's own: a non-empty string with no `/` or
 * `\`, not `.` or `..` (which made the dialog open on the folder, or the folder above, rather than propose a file),
 * no control character (a NUL, a line break or an ESC is in no file name the user meant), and at most
 * OFFERED_NAME_MAX characters (a page's 16 MB string went to the dialog as it was).
 */
export function offeredFileName(given: unknown, fallback: string): string {
  return typeof given === 'string' &&
    given.length > 0 &&
    given.length <= OFFERED_NAME_MAX &&
    given !== '.' &&
    given !== '..' &&
    // eslint-disable-next-line no-control-regex -- control characters are what it refuses
    !/[\\/\u0000-\u001f\u007f]/.test(given)
    ? given
    : fallback;
}

/** The most rotation tolerance overrides a request may carry: four times the joints a motion may have (MTN_MAX_JOINTS). */
export const MAX_ROTATION_OVERRIDES = 4096;

/**
 * A request's rotation tolerance overrides (`rotationToleranceOverridesDeg` of a compression, an MT3 export or an MSH
 * export), else an Error naming the member and the entry at fault: an object of at most MAX_ROTATION_OVERRIDES
 * entries, each keyed by a joint index (digits, at most 5) and giving a finite number of degrees, > 0 (or >= 0 when
 * `zeroAllowed`, as `actguy export-msh` takes them). One check for both: the compression's took any key and any
 * number of them (a page's million went to both compress lanes), where the MSH export's refused them.
 */
export function requireRotationOverrides(
  v: unknown,
  what: string,
  { zeroAllowed }: { zeroAllowed: boolean },
): Record<number, number> {
  const o = requireObject<Record<string, unknown>>(v, `${what}.rotationToleranceOverridesDeg`);
  const entries = Object.entries(o);
  if (entries.length > MAX_ROTATION_OVERRIDES)
    throw new Error(`${what}: at most ${MAX_ROTATION_OVERRIDES} rotation tolerance overrides, found ${entries.length}`);
  const overrides: Record<number, number> = {};
  for (const [joint, deg] of entries) {
    if (!/^(0|[1-9][0-9]{0,4})$/.test(joint))
      throw new Error(`${what}: rotation tolerance override key ${quoteJson(joint.slice(0, 40))} is not a joint index`);
    if (!(typeof deg === 'number' && Number.isFinite(deg) && (zeroAllowed ? deg >= 0 : deg > 0)))
      throw new Error(
        `${what}: rotation tolerance override for joint ${joint} must be a number ${zeroAllowed ? '>=' : '>'} 0`,
      );
    overrides[Number(joint)] = deg;
  }
  return overrides;
}

/** A compression request (compressMotion, and the one inside an MT3, glTF or MSH export), else an Error. */
export function requireCompressRequest(v: unknown, what: string): CompressRequest {
  const r = requireObject<CompressRequest>(v, what);
  requireString(r.documentId, `${what}.documentId`);
  if (!Number.isFinite(r.revision)) throw new Error(`${what}.revision must be a number`);
  if (!Number.isInteger(r.motionFlags) || !Number.isInteger(r.waistJoint))
    throw new Error(`${what}: motionFlags and waistJoint must be integers`);
  const t = requireObject<CompressRequest['tolerances']>(r.tolerances, `${what}.tolerances`);
  for (const key of ['positionTolerance', 'rotationToleranceDeg', 'offsetTolerance'] as const)
    if (!(Number.isFinite(t[key]) && t[key] > 0))
      throw new Error(`${what}: tolerance ${key} must be a number > 0, found ${quoteJson(t[key])}`);
  for (const key of ['objectTolerance', 'shell'] as const)
    if (t[key] !== undefined && !(Number.isFinite(t[key]) && t[key]! > 0))
      throw new Error(`${what}: ${key} must be a number > 0 when given, found ${quoteJson(t[key])}`);
  if (t.method !== undefined && t.method !== 'classic' && t.method !== 'refined')
    throw new Error(`${what}: method must be "classic" or "refined", found ${quoteJson(t.method)}`);
  if (r.knownRevision !== undefined && !Number.isInteger(r.knownRevision))
    throw new Error(`${what}.knownRevision must be an integer when given, found ${quoteJson(r.knownRevision)}`);
  if (r.rotationToleranceOverridesDeg !== undefined)
    requireRotationOverrides(r.rotationToleranceOverridesDeg, what, { zeroAllowed: false });
  return r;
}
