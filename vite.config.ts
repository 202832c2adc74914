import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const rendererRoot = fileURLToPath(new URL('./renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/renderer', import.meta.url));

/**
 * The renderer bundle. `base: './'` keeps every asset URL relative so the same
 * build loads from the app's `actguy://app/` scheme in Electron (never file://) and from the loopback HTTP server.
 * No eval-based source maps: the CSP in index.html forbids eval.
 */
export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react()],
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
