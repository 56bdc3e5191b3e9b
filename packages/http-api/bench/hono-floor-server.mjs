// A reference, not the product: the least a Hono app on @hono/node-server does to answer
// GET /api/v2/nas_shares/{id} from the SQLite file (one prepared point read, JSON), with no
// authentication, rate limit, request id, ETag, metrics or log. It tells how much of the
// gap to the bare node:http baseline the framework and the database take on this machine.
// Usage: node hono-floor-server.mjs DB_FILE PORT; prints "ready" when listening.
import { createRequire } from 'node:module';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const requireFromCore = createRequire(import.meta.resolve('@dms/core'));
const BetterSqlite3 = requireFromCore('better-sqlite3');

const [file, portText] = process.argv.slice(2);
const db = new BetterSqlite3(file, { readonly: true });
// The columns in the order the API presents them (no password without get_password).
const byId = db.prepare('select id, nas_id, pool_id, name, path, options, username, file_count, file_size_sum from nas_shares where id = ?');

const app = new Hono();
app.get('/api/v2/nas_shares/:id', (c) => {
  const row = byId.get(Number(c.req.param('id')));
  if (!row) return c.json({ errors: ['not found'] }, 404);
  return new Response(JSON.stringify(row), { headers: { 'Content-Type': 'application/json' } });
});
const server = serve({ fetch: app.fetch, port: Number(portText), hostname: '127.0.0.1' }, () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
