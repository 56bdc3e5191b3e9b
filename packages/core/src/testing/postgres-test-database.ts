import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the tests find PostgreSQL: DMS_TEST_PG_URL, or the local server with trust auth. */
export const testServerUrl = process.env['DMS_TEST_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  /** One query on its own connection: what a test reads behind the service's back. */
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Why PostgreSQL cannot serve the tests, or undefined when it can. */
export async function postgresUnreachable(serverUrl = testServerUrl): Promise<string | undefined> {
  try {
    await onServer(serverUrl, (client) => client.query('select 1'));
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${serverUrl.replace(/\/\/[^@]*@/, '//***@')} unreachable: ${String(error)}`;
  }
}

/**
 * pg-pool's end() resolves before its sockets have closed: a forced drop at once can terminate a
 * session that is still closing, and its client, no longer listened to by the pool, throws the
 * termination as an uncaught error into whichever test runs then. So the drop waits (up to 2 s)
 * for the database's sessions to end, and forces out only what is left after that.
 */
async function dropOnceClosed(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ open: number }>('select count(*)::int as open from pg_stat_activity where datname = $1', [name]);
    if (rows[0]?.open === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await client.query(`drop database if exists ${name} with (force)`);
}

/** A database of its own for one test run, dropped afterwards (with whatever still connects). */
export async function createTestDatabase(serverUrl = testServerUrl): Promise<TestDatabase> {
  const name = `dms_test_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`create database ${name}`));
  const url = withDatabase(serverUrl, name);
  return {
    url,
    query: <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
      onServer(url, async (client) => (await client.query<Row>(text, values)).rows),
    drop: () => onServer(serverUrl, (client) => dropOnceClosed(client, name)),
  };
}

/**
 * Whether a test file's PostgreSQL half runs: undefined when the test server answers; otherwise
 * why not, printed as the reason `skipping` skips. On CI (CI=true) a missing server fails the
 * file instead, as a missing tool does (require-tool.ts).
 */
export async function postgresOrSkip(skipping?: string): Promise<string | undefined> {
  const unreachable = await postgresUnreachable();
  if (unreachable && process.env['CI'] === 'true') throw new Error(`CI needs ${unreachable} (install: apt-get install -y postgresql)`);
  if (unreachable) console.warn(`[skip] ${skipping ? `${skipping}: ` : ''}${unreachable}`);
  return unreachable;
}
