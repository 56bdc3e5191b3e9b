// The baseline: a bare node:http server answering the pre-rendered JSON of the show set.
// Usage: node baseline-server.mjs BODIES.json PORT [CONTENT_TYPE]; prints "ready" when listening.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [file, portText, contentType = 'application/json'] = process.argv.slice(2);
const bodies = new Map(Object.entries(JSON.parse(readFileSync(file, 'utf8'))).map(([id, body]) => [`/api/v2/nas_shares/${id}`, Buffer.from(body)]));
const notFound = Buffer.from('{"errors":["not found"]}');

const server = http.createServer((req, res) => {
  const body = req.method === 'GET' ? bodies.get(req.url) : undefined;
  res.writeHead(body ? 200 : 404, { 'content-type': contentType, 'content-length': (body ?? notFound).length });
  res.end(body ?? notFound);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(portText), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
