// Hostile input: an "NFS server" on 127.0.0.1 that answers every RPC call with a flood. One
// peer sends zero-length non-final record fragments (4 bytes each, never ending the record),
// the other an endless stream of 1 MiB non-final fragments. A NAS per protocol version points
// at each (share option `port=`), and share tests are queued through REST and waited for.
import net from 'node:net';

const floodMs = 8_000;
const testsPerShare = 3;
const waitDeadlineMs = 10_000;

/** What a peer answers a call with: one chunk, written again and again as the socket drains. */
const floods = {
  'zero-length fragments': Buffer.alloc(64 * 1024),
  '1 MiB fragments': (() => {
    const fragment = Buffer.alloc(4 + (1 << 20));
    fragment.writeUInt32BE(1 << 20); // last-fragment bit clear: the record never ends
    return fragment;
  })(),
};

/** A TCP server that floods whoever sends it anything, for at most floodMs per connection. */
async function startPeer(chunk) {
  const sockets = new Set();
  const peer = { port: 0, connections: 0, bytes: 0 };
  const server = net.createServer((socket) => {
    peer.connections += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      const until = Date.now() + floodMs;
      const more = () => {
        while (!socket.destroyed && Date.now() < until) {
          peer.bytes += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', more);
        }
        socket.destroy();
      };
      more();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  peer.port = server.address().port;
  peer.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return peer;
}

async function call(target, method, path, body) {
  const res = await fetch(`${target.base}${path}`, {
    method,
    headers: { authorization: target.adminAuth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(35_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

/** Long-polls a job until it ends or the deadline passes; answers its last status. */
async function waitForJob(target, shareId, jobId, deadline) {
  for (;;) {
    const left = Math.ceil((deadline - Date.now()) / 1000);
    const job = await call(target, 'GET', `/nas_shares/${shareId}/test?job_id=${jobId}&wait=${Math.max(0, Math.min(30, left))}`);
    if (job.status === 'completed' || job.status === 'failed' || left <= 0) return job;
  }
}

export async function attack(target) {
  const peers = new Map();
  const created = [];
  try {
    for (const [name, chunk] of Object.entries(floods)) peers.set(name, await startPeer(chunk));
    const shares = [];
    for (const [name, peer] of peers) {
      for (const type of ['nfs_v4', 'nfs_v3']) {
        const nas = await call(target, 'POST', '/nas', { name: `hostile-nfs-${type}-${peer.port}`, host: '127.0.0.1', type });
        const share = await call(target, 'POST', `/nas/${nas.id}/nas_shares`, {
          name: 'flooded',
          path: '/export',
          options: `port=${peer.port},mountport=${peer.port}`,
        });
        created.push({ nas, share });
        shares.push({ name, type, share });
      }
    }
    target.log(`queueing ${shares.length * testsPerShare} share tests against ${peers.size} flooding peers`);
    const jobs = [];
    for (let round = 0; round < testsPerShare; round += 1) {
      for (const { name, type, share } of shares) {
        const job = await call(target, 'PUT', `/nas_shares/${share.id}/test`);
        jobs.push({ name, type, share, job });
      }
    }
    const deadline = Date.now() + waitDeadlineMs;
    const ends = await Promise.all(jobs.map(({ share, job }) => waitForJob(target, share.id, job.job_id, deadline)));
    const outcomes = new Map();
    for (const end of ends) {
      const key = `${end.status}: ${end.message ?? ''}`.replace(/port \d+/, 'port P');
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    const sent = [...peers].map(([name, peer]) => `${name} ${peer.connections} connections, ${(peer.bytes / 2 ** 20).toFixed(1)} MiB written`).join('; ');
    const seen = [...outcomes].map(([outcome, count]) => `${count}x ${outcome}`).join(' | ');
    return `${jobs.length} NFS v3/v4 share tests against flooding peers (${sent}): ${seen}`;
  } finally {
    await Promise.all([...peers.values()].map((peer) => peer.close()));
    for (const { nas, share } of created) {
      await call(target, 'DELETE', `/nas_shares/${share.id}`).catch(() => {});
      await call(target, 'DELETE', `/nas/${nas.id}`).catch(() => {});
    }
  }
}
