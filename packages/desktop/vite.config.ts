import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The renderer bundle: static files the main process loads from disk (`base: './'`). */
export default defineConfig({
  root: fileURLToPath(new URL('./src/renderer', import.meta.url)),
  base: './',
  resolve: { conditions: ['source'] },
  build: { outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)), emptyOutDir: true },
});
