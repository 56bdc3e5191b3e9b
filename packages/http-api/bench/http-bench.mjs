// Throughput of GET /nas_shares/{id} (server vs. bare node:http) and latency of a deep list page.
import { cannon, request } from './lib.mjs';
import { shareName } from './seed.mjs';

function summarize(result) {
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    duration: result.duration,
  };
}

/** Warm-up, then the measured run, both cycling over `paths`. */
export async function throughput({ origin, paths, headers = {}, connections, duration, warmup }) {
  if (warmup > 0) await cannon({ url: origin, connections, duration: warmup, headers, paths });
  return summarize(await cannon({ url: origin, connections, duration, headers, paths }));
}

/** Some show responses must be byte-identical to what the baseline serves. */
export async function checkShowBodies({ base, key, showIds, bodies, sample = 50 }) {
  let contentType;
  for (let i = 0; i < sample; i++) {
    const id = showIds[Math.floor((i * showIds.length) / sample)];
    const res = await request(`${base}/nas_shares/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET /nas_shares/${id} answered ${res.status}: ${res.body}`);
    if (res.body !== bodies.get(id)) throw new Error(`GET /nas_shares/${id} body differs from the baseline body:\n server:   ${res.body}\n baseline: ${bodies.get(id)}`);
    contentType = res.headers['content-type'];
  }
  return contentType;
}

export const listPath = (total) => `/api/v2/nas_shares?name=${encodeURIComponent('~share-%')}&sort_by=${encodeURIComponent('name:desc|id')}&offset=${Math.floor(total / 2)}&limit=20`;

/** The list query must match every seeded share and return the expected page. */
export async function checkList({ origin, key, total }) {
  const res = await request(origin + listPath(total), { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`list answered ${res.status}: ${res.body}`);
  const page = res.json();
  const want = Array.from({ length: 20 }, (_, i) => shareName(total - 1 - Math.floor(total / 2) - i));
  const got = page.nas_shares.map((share) => share.name);
  if (page.count !== total || JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`list page unexpected: count ${page.count} (want ${total}), names ${got.slice(0, 3).join(',')}… (want ${want.slice(0, 3).join(',')}…)`);
  }
}
