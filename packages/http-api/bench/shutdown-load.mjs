// The load of the shutdown bench (shutdown.mjs), as a process of its own: keep-alive connections
// each creating NAS one after another, plus long-polls (wait=30) on a job, until told to stop.
// Usage: node shutdown-load.mjs SPEC.json, with an IPC channel; SPEC is
//   { origin, auth, connections, longPollUrls: [url…], acknowledgedFile, loadedAfter }
// Sends { phase: 'loaded' } once `loadedAfter` creates were acknowledged. On { signalled: true }
// (the parent has just sent SIGTERM to the server) it starts counting answers as "after the
// signal"; on { stop: true } it ends, writes every acknowledged NAS name to acknowledgedFile
// and sends a summary message.
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
const acknowledged = [];
let signalledAt = Number.POSITIVE_INFINITY;
let running = true;
let loadedSent = false;
const after = { acknowledged: 0, keepAlive: 0, lastAckMs: 0, errors: 0 };

const sinceSignal = () => performance.now() - signalledAt;

function create(name) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ name, host: 'nas.example', type: 'local' });
    const req = http.request(
      `${spec.origin}/api/v2/nas`,
      { method: 'POST', agent, headers: { authorization: spec.auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.once('error', reject);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function loop(connection) {
  for (let n = 0; running; n++) {
    const name = `load-${connection}-${n}`;
    try {
      const { status, connection: kept } = await create(name);
      if (status < 200 || status >= 300) continue;
      acknowledged.push(name);
      if (performance.now() > signalledAt) {
        after.acknowledged += 1;
        after.lastAckMs = Math.max(after.lastAckMs, sinceSignal());
        if (kept === 'keep-alive') after.keepAlive += 1;
      }
      if (!loadedSent && acknowledged.length >= spec.loadedAfter) {
        loadedSent = true;
        process.send({ phase: 'loaded' });
      }
    } catch {
      // Refused or closed once the server stops: like a real client, try again a little later.
      if (performance.now() > signalledAt) after.errors += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function longPoll(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { authorization: spec.auth } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.once('end', () => {
        let status;
        try {
          status = JSON.parse(Buffer.concat(chunks).toString('utf8')).status;
        } catch {
          status = undefined;
        }
        resolve({ http: res.statusCode, status, connection: res.headers.connection, afterSignalMs: sinceSignal() });
      });
    });
    req.once('error', (error) => resolve({ error: error.code ?? error.message, afterSignalMs: sinceSignal() }));
  });
}

const polls = spec.longPollUrls.map(longPoll);
const loops = Array.from({ length: spec.connections }, (_, i) => loop(i));

process.on('message', async (message) => {
  if (message.signalled) signalledAt = performance.now();
  if (!message.stop) return;
  running = false;
  await Promise.all(loops);
  const longPolls = await Promise.all(polls);
  agent.destroy();
  writeFileSync(spec.acknowledgedFile, JSON.stringify(acknowledged));
  process.send({ phase: 'done', acknowledged: acknowledged.length, after, longPolls }, () => process.exit(0));
});
