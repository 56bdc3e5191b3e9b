// Throughput of GET /nas_shares/{id} (server vs. bare node:http) and latency of a deep list page.
import { cannon, percentile, processCpuSeconds, processThreadCpuSeconds, request, round } from './lib.mjs';
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** The first and third quartiles. */
const quartiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return [percentile(sorted, 25), percentile(sorted, 75)];
};

/**
 * The show load on several servers, alternated round by round so that a change in background
 * load hits all of them: per round and contender `warmup` s, then `duration` s measured with the
 * contender's CPU (/proc/<pid>/stat) read around it. Answers, per contender in order, the
 * medians over the rounds (rps, p99, cpuUsPerReq), the non-2xx and error sums and `all`, the
 * req/s of each round joined by '/'. A contender's optional `otherCpu()` (async, CPU seconds
 * of processes serving it, such as PostgreSQL's) gives `otherCpuUsPerReq` too.
 * @param contenders {{ target: { origin: string, pid: number }, headers: object, otherCpu?: () => Promise<number> }[]}
 */
export async function alternatedShow(contenders, { paths, rounds, connections, duration, warmup }) {
  const runs = contenders.map(() => []);
  for (let pass = 0; pass < rounds; pass++) {
    for (const [index, contender] of contenders.entries()) {
      const load = { origin: contender.target.origin, paths, headers: contender.headers, connections };
      await throughput({ ...load, duration: warmup, warmup: 0 });
      const otherBefore = await contender.otherCpu?.();
      const cpuBefore = processCpuSeconds(contender.target.pid);
      const run = await throughput({ ...load, duration, warmup: 0 });
      run.cpuUsPerReq = ((processCpuSeconds(contender.target.pid) - cpuBefore) * 1e6) / Math.max(1, run.total);
      if (contender.otherCpu) run.otherCpuUsPerReq = (((await contender.otherCpu()) - otherBefore) * 1e6) / Math.max(1, run.total);
      runs[index].push(run);
    }
  }
  const medianOf = (list, field) => median(list.map((run) => run[field]));
  return runs.map((list) => ({
    rps: medianOf(list, 'rps'),
    p99: medianOf(list, 'p99'),
    cpuUsPerReq: medianOf(list, 'cpuUsPerReq'),
    otherCpuUsPerReq: list[0]?.otherCpuUsPerReq !== undefined ? medianOf(list, 'otherCpuUsPerReq') : undefined,
    non2xx: list.reduce((sum, run) => sum + run.non2xx, 0),
    errors: list.reduce((sum, run) => sum + run.errors, 0),
    all: list.map((run) => round(run.rps)).join('/'),
  }));
}

/**
 * The show load on servers that start afresh each round: for differences of a few per cent
 * between servers that must be separate processes (a setting read at start), where one
 * process's luck (its heap's and code's layout, where the kernel runs it) moves a ratio as much
 * as the difference asked about. Per round: every contender's server is started
 * (`contender.start()`, answering `{ origin, pid, stop }`), warmed `warmup` s, measured
 * `duration` s each in an order rotated by one per round and then that order reversed (a drift
 * within the round weighs on every contender alike), and stopped. Answers, per contender in
 * order: `ratio`, the median over rounds of its req/s over the first contender's in the same
 * round; `rps` and `cpuUsPerReq` (the server's CPU, every thread, a request), medians over
 * rounds; `threadCpuUsPerReq`, the same by kind of thread (processThreadCpuSeconds), medians; the non-2xx and error sums; `all`, each round's ratio joined by '/'; `ratioQuartiles`, the
 * first and third quartiles of those ratios.
 * @param contenders {{ start: () => Promise<{ origin: string, pid: number, stop: () => Promise<void> }>, headers: object }[]}
 */
export async function freshRoundsShow(contenders, { paths, rounds, connections, duration, warmup }) {
  const perRound = contenders.map(() => []);
  for (let pass = 0; pass < rounds; pass++) {
    const servers = [];
    try {
      for (const contender of contenders) servers.push(await contender.start());
      const loadOf = (index) => ({ origin: servers[index].origin, paths, headers: contenders[index].headers, connections });
      for (const index of servers.keys()) await throughput({ ...loadOf(index), duration: warmup, warmup: 0 });
      const sums = servers.map(() => ({ total: 0, seconds: 0, cpuSeconds: 0, threadCpuSeconds: {}, non2xx: 0, errors: 0 }));
      const order = servers.map((_, index) => (index + pass) % servers.length);
      for (const index of [...order, ...order.toReversed()]) {
        const cpuBefore = processCpuSeconds(servers[index].pid);
        const threadsBefore = processThreadCpuSeconds(servers[index].pid);
        const run = await throughput({ ...loadOf(index), duration, warmup: 0 });
        const sum = sums[index];
        sum.cpuSeconds += processCpuSeconds(servers[index].pid) - cpuBefore;
        for (const [kind, seconds] of Object.entries(processThreadCpuSeconds(servers[index].pid))) {
          sum.threadCpuSeconds[kind] = (sum.threadCpuSeconds[kind] ?? 0) + seconds - (threadsBefore[kind] ?? 0);
        }
        sum.total += run.total;
        sum.seconds += run.duration;
        sum.non2xx += run.non2xx;
        sum.errors += run.errors;
      }
      const rps = sums.map((sum) => sum.total / sum.seconds);
      for (const [index, sum] of sums.entries()) {
        const perRequest = (seconds) => (seconds * 1e6) / Math.max(1, sum.total);
        perRound[index].push({
          ...sum,
          rps: rps[index],
          ratio: rps[index] / rps[0],
          cpuUsPerReq: perRequest(sum.cpuSeconds),
          threadCpuUsPerReq: Object.fromEntries(Object.entries(sum.threadCpuSeconds).map(([kind, seconds]) => [kind, perRequest(seconds)])),
        });
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  }
  const medianOf = (list, field) => median(list.map((round) => round[field]));
  return perRound.map((list) => ({
    ratio: medianOf(list, 'ratio'),
    rps: medianOf(list, 'rps'),
    cpuUsPerReq: medianOf(list, 'cpuUsPerReq'),
    threadCpuUsPerReq: Object.fromEntries(
      [...new Set(list.flatMap((one) => Object.keys(one.threadCpuUsPerReq)))].map((kind) => [
        kind,
        median(list.map((one) => one.threadCpuUsPerReq[kind] ?? 0)),
      ]),
    ),
    non2xx: list.reduce((sum, round) => sum + round.non2xx, 0),
    errors: list.reduce((sum, round) => sum + round.errors, 0),
    all: list.map((one) => round(one.ratio, 3)).join('/'),
    // The middle half of the rounds' ratios: how far one process's luck moves them.
    ratioQuartiles: quartiles(list.map((one) => one.ratio)).map((value) => round(value, 3)),
  }));
}

/** Some show responses must be byte-identical to what the baseline serves. */
export async function checkShowBodies({ base, key, showIds, bodies, sample = 50 }) {
  let contentType;
  for (let i = 0; i < sample; i++) {
    const id = showIds[Math.floor((i * showIds.length) / sample)];
    const res = await request(`${base}/nas_shares/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET /nas_shares/${id} answered ${res.status}: ${res.body}`);
    if (res.body !== bodies.get(id))
      throw new Error(`GET /nas_shares/${id} body differs from the baseline body:\n server:   ${res.body}\n baseline: ${bodies.get(id)}`);
    contentType = res.headers['content-type'];
  }
  return contentType;
}

export const listPath = (total) =>
  `/api/v2/nas_shares?name=${encodeURIComponent('~share-%')}&sort_by=${encodeURIComponent('name:desc|id')}&offset=${Math.floor(total / 2)}&limit=20`;

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
