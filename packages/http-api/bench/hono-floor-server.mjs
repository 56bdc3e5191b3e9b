// A reference, not the product: the least a Hono app on @hono/node-server does to answer
// GET /api/v2/nas_shares/{id} from the SQLite file (one prepared point read, JSON), with no
// authentication, rate limit, request id, ETag, metrics or log. It tells how much of the
// gap to the bare node:http baseline the framework and the database take on this machine.
// Given a postgres:// URL instead of a file, the same read goes to PostgreSQL: a pg.Pool of
// 10 (the server's default DMS_PG_POOL_MAX) and one named prepared statement.
// Usage: node hono-floor-server.mjs DB_FILE|POSTGRES_URL PORT [--contract API_KEY [--access-log]];
// prints "ready" when listening.
//
// --contract API_KEY: the contract floor. On top of the read, what the API contract asks of every
// show and nothing more, each in its plainest form: the bearer key checked by its SHA-256 against
// the one known key and its scope, a fixed-window rate limit with its three RateLimit-* headers,
// X-Request-Id (kept when valid, else a random UUID), nosniff, a strong ETag answering 304 to
// If-None-Match, and a request counter. What dms spends beyond this is its own structure (the
// pipeline, the ports, the router of 78 routes, the access service's accounting).
//
// --access-log (with --contract): and an access line per request as a Hono app logging with pino
// writes it, `logger.info({ req_id, method, path, status, ms, principal }, 'request')` on pino's
// asynchronous destination: what one line a request costs on this machine, dms's design aside.
import { hash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));

const [file, portText, contractFlag, contractKey, logFlag] = process.argv.slice(2);
const contract = contractFlag === '--contract';
const accessLog = logFlag === '--access-log';
if ((contractFlag !== undefined && !(contract && contractKey)) || (logFlag !== undefined && !accessLog)) {
  throw new Error('usage: hono-floor-server.mjs DB PORT [--contract API_KEY [--access-log]]');
}
// The columns in the order the API presents them (no password without get_password).
const columns =
  'id, nas_id, pool_id, name, path, options, username, file_count, file_size_sum, health, last_tested_at, last_test_status, last_scanned_at, ' +
  'capacity_bytes, free_bytes, capacity_checked_at, capacity_forecast, capacity_warning_percent, capacity_critical_percent, ' +
  'case when capacity_bytes > 0 then round(100.0 * (capacity_bytes - free_bytes) / capacity_bytes, 1) end as used_percent, null as days_until_full';

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

function contractChecks() {
  // A one-shot SHA-256 in hex, as dms stores and looks up its keys (api-key-token.ts).
  const keyHash = hash('sha256', contractKey, 'hex');
  const principals = new Map([[keyHash, { scopes: new Set(['nas_shares/show', 'nas_shares/index']) }]]);
  const limit = 1_000_000;
  const windowMs = 60_000;
  const windows = new Map();
  const counts = new Map();
  const validRequestId = /^[\w\-.:]{1,255}$/;
  // Node's own parsed headers: Hono's c.req.header() would build a fetch Headers object of them all.
  const header = (c, name) => c.env.incoming.headers[name];
  const refuse = (status, code) => new Response(JSON.stringify({ errors: [code] }), { status, headers: { 'Content-Type': 'application/json' } });
  return (c, row) => {
    counts.set('show', (counts.get('show') ?? 0) + 1);
    const given = header(c, 'x-request-id');
    const requestId = given !== undefined && validRequestId.test(given) ? given : randomUUID();
    c.set('requestId', requestId);
    const authorization = header(c, 'authorization') ?? '';
    if (!authorization.startsWith('Bearer ')) return refuse(401, 'unauthorized');
    const hashed = hash('sha256', authorization.slice(7), 'hex');
    const principal = principals.get(hashed);
    if (!principal) return refuse(401, 'unauthorized');
    const now = Date.now();
    let window = windows.get(hashed);
    if (!window || window.endsAt <= now) windows.set(hashed, (window = { endsAt: now + windowMs, used: 0 }));
    window.used++;
    if (window.used > limit) return refuse(429, 'rate_limited');
    if (!principal.scopes.has('nas_shares/show')) return refuse(403, 'forbidden');
    if (!row) return refuse(404, 'not_found');
    const text = JSON.stringify(row);
    const tag = `"${hash('sha1', text, 'base64url')}"`;
    const headers = {
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(limit - window.used),
      'RateLimit-Reset': String(Math.ceil((window.endsAt - now) / 1000)),
      'Content-Type': 'application/json',
      ETag: tag,
    };
    if (header(c, 'if-none-match') === tag) return new Response(null, { status: 304, headers });
    return new Response(text, { headers });
  };
}

function logged(respondTo) {
  const logger = pino({ base: { service: 'dms' } }, pino.destination({ sync: false }));
  return (c, row) => {
    const started = performance.now();
    const response = respondTo(c, row);
    const ms = Math.round((performance.now() - started) * 100) / 100;
    const fields = { req_id: c.get('requestId'), method: c.req.method, path: c.req.path, status: response.status, ms, principal: 'api_key:1' };
    logger.info(fields, 'request');
    return response;
  };
}

const respond = contract ? (accessLog ? logged(contractChecks()) : contractChecks()) : answer;
const app = new Hono();
// SQLite answers synchronously (no promise per request); PostgreSQL cannot.
if (onPostgres) app.get('/api/v2/nas_shares/:id', async (c) => respond(c, await reader.get(Number(c.req.param('id')))));
else app.get('/api/v2/nas_shares/:id', (c) => respond(c, reader.get(Number(c.req.param('id')))));
const server = serve({ fetch: app.fetch, port: Number(portText), hostname: '127.0.0.1' }, () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => void Promise.resolve(reader.close()).finally(() => process.exit(0))));
