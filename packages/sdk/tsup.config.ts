import { defineConfig } from 'tsup';

// ESM and CJS, each with its own declarations (index.d.ts / index.d.cts), so that both
// `import` and `require` resolve types that match (attw --pack). openapi-fetch stays a
// dependency; the generated types are inlined into the declarations.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  clean: true,
  tsconfig: 'tsconfig.build.json',
});
