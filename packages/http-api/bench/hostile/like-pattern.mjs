// Hostile input (issue 40 item 1): list filters whose LIKE costs pattern length × text length per
// row. 100 shares with 4,096-character paths, then the review's request, GET /nas_shares with
// six `path=!~%a{2048}b` terms, 12 at a time; then the costliest request the pattern bounds let
// through (as many terms as allowed, each as long as allowed, one `%` before a literal that
// matches at every position), 12 at a time, as one key would send them (each phase its own key).
import http from 'node:http';

const shares = 100;
const pathLength = 4096;
const concurrency = 12;
const phaseMs = 3_000;
// As list-query/parse-list-query.ts bounds a pattern (patternBounds): at most 4 terms of 64 characters.
const allowedTerms = 4;
const allowedLength = 64;

function call(url, method, authorization, body) {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method,
      agent: false,
      headers: { authorization, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      timeout: 60_000,
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 'error', text: '' }));
    req.end(body);
  });
}

/** Shares whose paths are 4,096 characters of `a` under the local root, before the window opens. */
export async function prepare(target) {
  // The first admin is created once the port listens: wait for it to sign in.
  while ((await call(`${target.base}/nas?limit=1`, 'GET', target.adminAuth)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
  const nas = await call(`${target.base}/nas`, 'POST', target.adminAuth, JSON.stringify({ name: 'like-filer', host: 'localhost', type: 'local' }));
  if (nas.status !== 201) throw new Error(`POST /nas: ${nas.status} ${nas.text}`);
  const nasId = JSON.parse(nas.text).id;
  const head = `${target.localRoot}/`;
  for (let i = 0; i < shares; i += 1) {
    const tail = `${String(i).padStart(3, '0')}`;
    const path = head + 'a'.repeat(pathLength - head.length - tail.length) + tail;
    const share = await call(`${target.base}/nas/${nasId}/nas_shares`, 'POST', target.adminAuth, JSON.stringify({ name: `like-${i}`, path }));
    if (share.status !== 201) throw new Error(`POST share: ${share.status} ${share.text.slice(0, 300)}`);
  }
  // One user and key per phase, each with its own rate-limit budget (600 a minute; a key's requests
  // count against its owner too): the costliest allowed phase measures what the list bounds let one
  // user cost, not the 429s the first phase earned.
  target.phaseKeys = [];
  for (const name of ['like-review', 'like-costliest']) {
    const password = `${name}-password-1`;
    const user = await call(`${target.base}/users`, 'POST', target.adminAuth, JSON.stringify({ username: name, password }));
    if (user.status !== 201) throw new Error(`POST /users: ${user.status} ${user.text}`);
    const basic = `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
    const key = await call(`${target.base}/api_keys`, 'POST', basic, JSON.stringify({ name, api_key_scopes: [{ controller: 'nas_shares', action: 'index' }] }));
    if (key.status !== 201) throw new Error(`POST /api_keys: ${key.status} ${key.text}`);
    target.phaseKeys.push(`Bearer ${JSON.parse(key.text).key}`);
  }
  // Whatever the new shares set going (jobs) ends before the window opens.
  for (;;) {
    const jobs = await call(`${target.base}/jobs?status=${encodeURIComponent('><queued|working')}&limit=1`, 'GET', target.adminAuth);
    if (jobs.status === 200 && JSON.parse(jobs.text).count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function phase(target, query, authorization) {
  const statuses = new Map();
  let sent = 0;
  const deadline = Date.now() + phaseMs;
  const sender = async () => {
    while (Date.now() < deadline) {
      sent += 1;
      const { status } = await call(`${target.base}/nas_shares?${query}`, 'GET', authorization);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, sender));
  return `${sent} (${[...statuses].map(([status, count]) => `${count}x ${status}`).join(', ')})`;
}

export async function attack(target) {
  const terms = (count, pattern) => Array.from({ length: count }, () => `path=${encodeURIComponent(pattern)}`).join('&');
  const [reviewKey, costliestKey] = target.phaseKeys;
  const review = await phase(target, terms(6, `!~%${'a'.repeat(2048)}b`), reviewKey);
  target.log(`the review's request: ${review}`);
  const allowed = await phase(target, terms(allowedTerms, `!~%${'a'.repeat(allowedLength - 2)}b`), costliestKey);
  target.log(`the costliest allowed: ${allowed}`);
  return `${shares} shares with ${pathLength}-character paths; ${concurrency} at a time for ${phaseMs / 1000} s each: the review's six path=!~%a{2048}b terms ${review}; ${allowedTerms} terms of !~%a{${allowedLength - 2}}b, the costliest the bounds allow, ${allowed}`;
}
