import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The server the tests start runs from the TypeScript sources of @dms/core and @dms/http-api
// (their `source` export condition); the SDK's own types come from the built openapi.json.
// README examples import `@dms/sdk` by name: here, this package's source (as the type check maps it).
export default defineConfig({
  resolve: { conditions: ['source'], alias: [{ find: /^@dms\/sdk$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
