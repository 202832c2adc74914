/** The repository root. */
export const root: string;
/** Builds the renderer (Vite) and the Electron bundles (esbuild); rejects with a one-line reason. */
export function buildApp(options?: { quiet?: boolean }): Promise<void>;
