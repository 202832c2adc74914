/**
 * Checks of the arguments a handler receives from the renderer. The renderer
 * is untrusted, so every handler checks the shape of its argument before using
 * it; these throw a plain Error naming the member and the field at fault.
 */

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

/** A Uint8Array, else an Error. */
export function requireBytes(v: unknown, what: string): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new Error(`${what} must be a Uint8Array`);
  return v;
}
