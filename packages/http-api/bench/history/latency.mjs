// Latency of GET loads at a fixed number of connections (autocannon), each answer's time kept
// to the microsecond: autocannon's own percentiles are whole milliseconds, too coarse to compare
// answers of 1-3 ms with each other.
import autocannon from 'autocannon';
import { percentile, processCpuSeconds } from '../lib.mjs';

/**
 * `connections` connections in a closed loop for `duration` s, cycling over `paths`; resolves
 * the times of the 2xx answers (ms, unsorted), and how many answered otherwise or failed.
 */
export function timedLoad({ origin, paths, headers = {}, connections, duration }) {
  let next = 0;
  const times = [];
  let other = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: origin,
        connections,
        duration,
        pipelining: 1,
        headers,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => {
              req.path = paths[next];
              next = next + 1 === paths.length ? 0 : next + 1;
              return req;
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ times, other: other + result.errors + result.timeouts, requests: result.requests.total })),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
      else other += 1;
    });
  });
}

/** p50, p99 and max of answer times (ms). */
export function latencySummary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, n: sorted.length };
}

/**
 * Several loads on one server, alternated round by round (a change in background load hits
 * them all alike): per round and load `warmup` s unmeasured, then `duration` s measured. The
 * times of all rounds are pooled per load. Resolves a summary per load name, with the server's
 * CPU time per answer (`pid`'s user+sys over the measured runs): unlike latency, hardly moved
 * by other work on the machine.
 * @param loads {Record<string, { paths: string[] }>}
 */
export async function alternatedLatency({ origin, pid, headers, loads, connections, rounds, duration, warmup }) {
  const pooled = Object.fromEntries(Object.keys(loads).map((name) => [name, { times: [], other: 0, cpuSeconds: 0, requests: 0 }]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, load] of Object.entries(loads)) {
      if (warmup > 0) await timedLoad({ origin, paths: load.paths, headers, connections, duration: warmup });
      const cpuBefore = processCpuSeconds(pid);
      const run = await timedLoad({ origin, paths: load.paths, headers, connections, duration });
      pooled[name].cpuSeconds += processCpuSeconds(pid) - cpuBefore;
      pooled[name].requests += run.requests;
      pooled[name].times.push(...run.times);
      pooled[name].other += run.other;
    }
  }
  return Object.fromEntries(
    Object.entries(pooled).map(([name, { times, other, cpuSeconds, requests }]) => [
      name,
      { ...latencySummary(times), other, cpuUsPerAnswer: (cpuSeconds * 1e6) / Math.max(1, requests) },
    ]),
  );
}
