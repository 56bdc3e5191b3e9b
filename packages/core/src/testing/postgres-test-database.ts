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

/** A database of its own for one test run, dropped afterwards (with whatever still connects). */
export async function createTestDatabase(serverUrl = testServerUrl): Promise<TestDatabase> {
  const name = `dms_test_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`create database ${name}`));
  const url = withDatabase(serverUrl, name);
  return {
    url,
    query: <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
      onServer(url, async (client) => (await client.query<Row>(text, values)).rows),
    drop: () => onServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
