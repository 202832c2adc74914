/** The repository root. */
export const root: string;
/**
 * Builds the renderer (Vite) and the Electron bundles (esbuild) unless nothing they are made from changed since
 * the last successful build (`force` rebuilds anyway); rejects with a one-line reason. Resolves to whether it built.
 */
export function buildApp(options?: { quiet?: boolean; force?: boolean }): Promise<boolean>;
/** A fingerprint (path, size, mtime) of everything the app bundles are built from. */
export function sourceFingerprint(): string;
/** True when the last successful build was made from the current inputs and its outputs exist. */
export function appBuildIsFresh(): boolean;
