// A reference, not the product: the least a Hono app on @hono/node-server does to answer
// GET /api/v2/nas_shares/{id} from the SQLite file (one prepared point read, JSON), with no
// authentication, rate limit, request id, ETag, metrics or log. It tells how much of the
// gap to the bare node:http baseline the framework and the database take on this machine.
// Given a postgres:// URL instead of a file, the same read goes to PostgreSQL: a pg.Pool of
// 10 (the server's default DMS_PG_POOL_MAX) and one named prepared statement.
// Usage: node hono-floor-server.mjs DB_FILE|POSTGRES_URL PORT; prints "ready" when listening.
import { createRequire } from 'node:module';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));

const [file, portText] = process.argv.slice(2);
// The columns in the order the API presents them (no password without get_password).
const columns = 'id, nas_id, pool_id, name, path, options, username, file_count, file_size_sum, health, last_tested_at, last_test_status, last_scanned_at';

function sqliteReader() {
  const BetterSqlite3 = requireFromCore('better-sqlite3');
  const db = new BetterSqlite3(file, { readonly: true });
  const byId = db.prepare(`select ${columns} from nas_shares where id = ?`);
  return { get: (id) => byId.get(id), close: () => db.close() };
}

function postgresReader() {
  const pg = requireFromCore('pg');
  // int8 (file_count, file_size_sum) as numbers, as the server answers them.
  const types = { getTypeParser: (oid, format) => (oid === 20 && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format)) };
  const pool = new pg.Pool({ connectionString: file, max: 10, types });
  pool.on('error', () => {});
  const query = { name: 'floor_share_by_id', text: `select ${columns} from nas_shares where id = $1` };
  return { get: async (id) => (await pool.query({ ...query, values: [id] })).rows[0], close: () => pool.end() };
}

const onPostgres = /^postgres(ql)?:\/\//.test(file);
const reader = onPostgres ? postgresReader() : sqliteReader();

const answer = (c, row) =>
  row ? new Response(JSON.stringify(row), { headers: { 'Content-Type': 'application/json' } }) : c.json({ errors: ['not found'] }, 404);

const app = new Hono();
// SQLite answers synchronously (no promise per request); PostgreSQL cannot.
if (onPostgres) app.get('/api/v2/nas_shares/:id', async (c) => answer(c, await reader.get(Number(c.req.param('id')))));
else app.get('/api/v2/nas_shares/:id', (c) => answer(c, reader.get(Number(c.req.param('id')))));
const server = serve({ fetch: app.fetch, port: Number(portText), hostname: '127.0.0.1' }, () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => void Promise.resolve(reader.close()).finally(() => process.exit(0))));
