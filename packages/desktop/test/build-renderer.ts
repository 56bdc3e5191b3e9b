import { fileURLToPath } from 'node:url';

/** Builds the renderer as `npm run build` does, into `outDir`: tests never depend on a stale dist/. */
export async function buildRenderer(outDir: string): Promise<void> {
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development build).
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build({
      configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
      logLevel: 'warn',
      mode: 'production',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
}
