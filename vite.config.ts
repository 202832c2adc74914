import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const rendererRoot = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

/**
 * The entry script blocks the window's first paint until it has run (`blocking="render"`): index.html's "ActGuy did not
 * start", for a script that never runs, is taken away by it before anything is painted (docs/architecture.md,
 * "Maintainer's read, round 14"). Vite writes the entry's tag anew and drops the attribute, so it is set again here.
 */
const entryBlocksFirstPaint: Plugin = {
  name: 'actguy-entry-blocks-first-paint',
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html.replace(/<script type="module"(?![^>]*\bblocking=)/g, '<script type="module" blocking="render"'),
  },
};

/**
 * The renderer bundle. `base: './'` keeps every asset URL relative so the same
 * build loads from the app's `actguy://app/` scheme in Electron (never file://) and from the loopback HTTP server.
 * No eval-based source maps: the CSP in index.html forbids eval.
 */
export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react(), entryBlocksFirstPaint],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
  worker: { format: 'es' },
  server: { strictPort: false },
});
