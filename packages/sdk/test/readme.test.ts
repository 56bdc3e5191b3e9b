import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type DmsClient } from '../src/index.js';
import { startDms, type DmsServer } from './support/dms-server.js';
import { readmeLine, writeExamples } from './support/readme-examples.js';
import { checkResponses } from './support/response-validator.js';
import { typeCheck } from './support/type-check.js';

/**
 * Issue 26.2: every ```ts block of packages/sdk/README.md and of the root README's SDK section
 * type-checks strictly and runs, as written, against a real server. Each block gets a fresh
 * server holding what it takes as given (its "Given …" comment; `fixtures` below, by the
 * heading it is under), and a client `dms` with an API key of every scope.
 */

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const examples = writeExamples(
  [
    { path: join(packageDir, 'README.md'), label: 'packages/sdk/README.md' },
    { path: join(packageDir, '../../README.md'), label: 'README.md', section: 'TypeScript SDK' },
  ],
  join(packageDir, 'test-results/readme-examples'),
);
/** The examples' admin password (`login('…', 'admin', 'admin-password')`). */
const adminPassword = 'admin-password';

interface Given {
  server: DmsServer;
  admin: DmsClient;
}
type Setup = (given: Given) => Promise<void>;

/** NAS 1 (`local`, the first on a fresh server) with these shares, ids 1, 2, … in order, each a directory holding a file. */
const localShares =
  (names: readonly string[]): Setup =>
  async ({ server, admin }) => {
    const nas = await admin.nas.create({ name: 'local', host: 'localhost', type: 'local' });
    for (const name of names) {
      mkdirSync(join(server.localRoot, name), { recursive: true });
      writeFileSync(join(server.localRoot, name, 'file.txt'), 'hello');
      await admin.nasShares.create(nas.id, { name, path: name });
    }
  };
const shares = (count: number) => localShares(Array.from({ length: count }, (_, i) => `share-${i + 1}`));
/** The NAS the NAS example creates. */
const nas1: Setup = async ({ admin }) => {
  await admin.nas.create({ name: 'nas1', host: 'nas1.example.com', type: 'smb_v3' });
};
const pools =
  (...names: string[]): Setup =>
  async ({ admin }) => {
    for (const name of names) await admin.pools.create({ name, content: 'nas' });
  };
/** A saved share whose directory has gone: its test fails, which raises a share_unreachable alert. */
const openAlert: Setup = async ({ server, admin }) => {
  const nas = await admin.nas.create({ name: 'alerting', host: 'localhost', type: 'local' });
  mkdirSync(join(server.localRoot, 'gone'));
  const share = await admin.nasShares.create(nas.id, { name: 'gone', path: 'gone' });
  rmSync(join(server.localRoot, 'gone'), { recursive: true });
  await (await admin.nasShares.retest(share.id)).wait().catch(() => undefined);
  await expect.poll(async () => (await admin.alerts.list()).count, { timeout: 20_000 }).toBeGreaterThan(0);
};
/**
 * The server evaluates RRULEs in a worker thread started at the first rule, and its 1 s deadline
 * counts that start: on a loaded machine a fresh server's first rule can be refused (422 "took
 * longer than 1000 ms"). A rule of the fixture's own, tried until one passes, starts it first,
 * so the example meets the server as a running one would be.
 */
const recurrencesStarted: Setup = async ({ admin }) => {
  await expect
    .poll(
      async () =>
        admin.schedules.create({ name: 'warm-up', action: 'test', all_shares: true, rrule: 'DTSTART:20250601T020000Z\nRRULE:FREQ=DAILY' }).then(
          (schedule) => admin.schedules.delete(schedule.id).then(() => true),
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
};
const all =
  (...setups: Setup[]): Setup =>
  async (given) => {
    for (const setup of setups) await setup(given);
  };

/**
 * What each section's examples take as given; `printsErrors`: the example shows a caught
 * error by printing it (console.error), so it must, or it showed nothing.
 */
const fixtures: Record<string, { setup?: Setup; printsErrors?: boolean }> = {
  Client: {},
  NAS: {},
  Pools: { setup: shares(8) },
  'NAS shares': { setup: all(nas1, pools('projects')) },
  // nas1 is an SMB NAS that does not exist: the unsaved test fails, and the example prints why.
  'Tests and scans are jobs': { setup: all(shares(8), nas1), printsErrors: true },
  Jobs: { setup: shares(8) },
  'Audit events': {},
  Schedules: { setup: all(shares(1), pools('one', 'two', 'three'), recurrencesStarted), printsErrors: true },
  'Share health, scans and capacity': { setup: shares(8) },
  Alerts: { setup: openAlert },
  SNMP: {},
  'API keys, users, CORS rules, settings, login': {},
  'Two-factor sign-in and sessions': {},
  Errors: { setup: nas1 },
  'Anything else': { setup: shares(8) },
  'TypeScript SDK': { setup: localShares(['projects']) },
};

const responses = checkResponses();
afterEach(() => {
  responses.failures.length = 0;
});

describe('the README examples', () => {
  it('are all found: every ts block of the SDK README and of the root README SDK section', () => {
    expect(examples.length).toBeGreaterThanOrEqual(16);
    expect(examples.filter((example) => example.where.startsWith('README.md:'))).toHaveLength(1);
    expect(examples.filter((example) => !(example.heading in fixtures)).map((example) => `${example.where} (${example.heading}): no fixtures`)).toEqual([]);
  });

  it('type-check strictly against the SDK, with no Node types', () => {
    const problems = typeCheck(
      examples.map((example) => example.file),
      join(packageDir, 'test-results/readme-examples'),
    ).map((problem) => readmeLine(problem, examples));
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(examples)(
    '$where ($heading) runs against a real server',
    async (example) => {
      const server = await startDms({ adminPassword });
      try {
        const client = (auth: Parameters<typeof createClient>[0]['auth']) => createClient({ baseUrl: server.url, auth, fetch: responses.fetch });
        const admin = client({ basic: { username: 'admin', password: adminPassword } });
        const fixture = fixtures[example.heading] ?? {};
        await fixture.setup?.({ server, admin });
        const { key } = await admin.apiKeys.create({ name: 'readme', api_key_scopes: [{ controller: '*', action: '*' }] });
        const printed = { log: [] as unknown[][], error: [] as unknown[][] };
        const console = { log: (...data: unknown[]) => printed.log.push(data), error: (...data: unknown[]) => printed.error.push(data) };
        const { default: run } = (await import(example.file)) as { default: (givens: object) => Promise<void> };
        await run({ dms: client({ apiKey: key }), process: { env: { DMS_API_KEY: key } }, console, readmeBaseUrl: server.url });
        expect(printed.error.length > 0, JSON.stringify(printed.error)).toBe(fixture.printsErrors ?? false);
        expect(responses.failures).toEqual([]);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
