import { defineConfig } from 'vitest/config';

// The server the tests start runs from the TypeScript sources of @dms/core and @dms/http-api
// (their `source` export condition); the SDK's own types come from the built openapi.json.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
