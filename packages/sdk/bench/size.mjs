// Size of the whole client as an application ships it: dist/index.js with openapi-fetch,
// bundled and minified by esbuild, then gzipped. Budget: 9 kB (9216 bytes; docs/decisions/071-sdk-build-and-types.md).
// `node bench/size.mjs` prints the numbers and writes bench/results.json;
// `--check` only prints the JSON line and exits 1 over budget (the test runs that).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const budgetBytes = 9216;
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const result = await build({
  stdin: { contents: `export * from ${JSON.stringify(entry)};`, resolveDir: process.cwd(), loader: 'js' },
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  logLevel: 'silent',
});
const code = result.outputFiles[0].contents;
const results = {
  measured_at: new Date().toISOString(),
  what: 'dist/index.js + openapi-fetch, esbuild --bundle --minify, gzip -9',
  minified_bytes: code.byteLength,
  min_gzip_bytes: gzipSync(code, { level: 9 }).byteLength,
  budget_bytes: budgetBytes,
};
const within = results.min_gzip_bytes <= budgetBytes;

if (process.argv.includes('--check')) {
  console.log(JSON.stringify(results));
} else {
  console.log(
    `@dms/sdk: ${(results.min_gzip_bytes / 1024).toFixed(2)} kB min+gz (${results.min_gzip_bytes} bytes; minified ${results.minified_bytes}); budget ${budgetBytes / 1024} kB: ${within ? 'within' : 'OVER'}`,
  );
  writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}
if (!within) process.exitCode = 1;
