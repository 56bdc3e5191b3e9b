import { defineConfig } from 'vitest/config';
import { postgresUnreachable } from '@dms/core/testing';

/**
 * The suites that go through `createTestApp`: every route, contract and security test. They run
 * twice, once per storage adapter (project `sqlite`, then `postgres` with DMS_TEST_ADAPTER), so
 * both adapters answer the same requests the same way.
 */
const routeSuites = [
  'test/routes/**/*.test.ts',
  'test/api-conventions/**/*.test.ts',
  'test/security/**/*.test.ts',
  'src/routes/**/*.test.ts',
  'src/operations/**/*.test.ts',
  'src/scope-matrix.test.ts',
  'src/app.test.ts',
  'src/bad-input.test.ts',
  'src/http/json-body.test.ts',
  'src/metrics/share-metrics.test.ts',
  'src/capacity-thresholds.test.ts',
  // Not src/secrets-at-rest.test.ts: it reads the SQLite file's bytes (PostgreSQL's rows are sealed by the same stores).
];

const unreachable = await postgresUnreachable();
if (unreachable && process.env['CI'] === 'true') throw new Error(`CI runs the route suites on PostgreSQL too, but ${unreachable}`);
if (unreachable) console.log(`[skip] the route suites on PostgreSQL (project postgres): ${unreachable}`);

// Tests run on the TypeScript sources of the workspace packages (their `source` export
// condition), never on a stale dist/.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      ...(unreachable ? [] : [{ extends: true as const, test: { name: 'postgres', include: routeSuites, env: { DMS_TEST_ADAPTER: 'postgres' } } }]),
    ],
  },
});
