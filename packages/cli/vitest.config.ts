import { defineConfig } from 'vitest/config';

// Tests run on the TypeScript sources of the workspace packages (their `source` export
// condition), never on a stale dist/. The suites that touch storage run on both adapters
// themselves (test/support/cli-run.ts: cliAdapters).
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
