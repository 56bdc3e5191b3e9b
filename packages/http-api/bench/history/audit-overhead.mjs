// audit.write_overhead_ratio (issue 22): what recording a change costs the change. A NAS
// comment update as the service wrote it before the audit log (one `nas.update`, its own
// commit) against the same update with its audit event in one transaction (what
// AuditTrail.change does since), each on a database of its own of the same kind (SQLite files
// with the server's settings, or PostgreSQL databases), taking turns. Then the same
// change through the real server, PUT /api/v2/nas/{id}, for the size of the difference next to a
// whole request.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { makeTempDir, percentile, request, round } from '../lib.mjs';
import { runCli, serverEnv, startServer } from '../server.mjs';
import { createBenchDatabase } from '../pg-bench.mjs';
import { commentEvent } from './comment-event.mjs';

export const auditOverheadGoal = 1.15;

const settings = (quick) => ({ blocks: quick ? 3 : 10, turnsPerBlock: quick ? 100 : 300, warmupTurns: 100, httpPuts: quick ? 300 : 1500, httpWarmup: 100 });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A migrated storage holding one NAS: a SQLite file in `dir`, or a PostgreSQL database of its own. */
async function openWithNas(adapter, { dir, pgServerUrl }, label) {
  let storage;
  let database;
  if (adapter === 'sqlite') {
    storage = (await import('@dms/core/sqlite')).openSqliteStorage({ file: join(dir, `${label}.sqlite`) });
  } else {
    database = await createBenchDatabase(pgServerUrl);
    storage = (await import('@dms/core/postgres')).openPostgresStorage({ url: database.url });
  }
  await storage.migrate();
  const nas = await storage.nas.create({ name: `filer-${label}`, host: 'filer.example.com', type: 'nfs_v4', comment: 'c0', price: null });
  return {
    storage,
    nas,
    close: async () => {
      await storage.close();
      await database?.drop();
    },
  };
}

/** The time of one call (ms). */
async function timed(write) {
  const started = performance.now();
  await write();
  return performance.now() - started;
}

/**
 * Storage level: the update alone (`plain`), the same in a transaction of its own with no event
 * (`transaction`: what the transaction costs by itself), and the update with its event in one
 * transaction (`audited`), each on a database of its own. One of each in turn, the order
 * rotating, so that a slow stretch of the machine or of the disk's flushes falls on all alike.
 * Resolves the median time of each (ms) and the audited/plain ratio per block of turns.
 */
async function storageOverhead(adapter, context, config) {
  const dir = adapter === 'sqlite' ? makeTempDir('dms-bench-audit-') : undefined;
  const opened = {};
  try {
    for (const label of ['plain', 'transaction', 'audited']) opened[label] = await openWithNas(adapter, { dir, ...context }, label);
    let comment = 0;
    const update = (stores, nas) => stores.nas.update(nas.id, { comment: `c${++comment}` });
    const writes = {
      plain: () => update(opened.plain.storage, opened.plain.nas),
      transaction: () => opened.transaction.storage.transaction((stores) => update(stores, opened.transaction.nas)),
      audited: () =>
        opened.audited.storage.transaction(async (stores) => {
          const from = `c${comment}`;
          const updated = await update(stores, opened.audited.nas);
          await stores.auditEvents.append(commentEvent(updated, from, updated.comment));
          return updated;
        }),
    };
    const names = Object.keys(writes);
    const times = Object.fromEntries(names.map((name) => [name, []]));
    const blockRatios = [];
    for (let turn = -config.warmupTurns; turn < config.blocks * config.turnsPerBlock; turn++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(((turn + i) % names.length) + names.length) % names.length];
        const started = performance.now();
        await writes[name]();
        if (turn >= 0) times[name].push(performance.now() - started);
      }
      if (turn >= 0 && (turn + 1) % config.turnsPerBlock === 0) {
        const block = (name) => median(times[name].slice(-config.turnsPerBlock));
        blockRatios.push(block('audited') / block('plain'));
      }
    }
    const medians = Object.fromEntries(names.map((name) => [name, median(times[name])]));
    return { ...medians, ratio: medians.audited / medians.plain, blockRatios };
  } finally {
    for (const store of Object.values(opened)) await store.close();
  }
}

/** HTTP level on SQLite: sequential PUT /api/v2/nas/{id} comment changes through the real server. */
async function httpPuts(config) {
  const dataDir = makeTempDir('dms-bench-audit-http-');
  const adminPassword = randomBytes(12).toString('hex');
  const cliEnv = serverEnv({ dataDir, adminPassword });
  await runCli(['migrate'], cliEnv);
  const keyOut = await runCli(['apikey', 'create', '--name', 'bench-audit', '--scope', 'nas/update', '--scope', 'nas/show', '--scope', 'nas/create'], cliEnv);
  const headers = { authorization: `Bearer ${keyOut.trim().split('\n').at(-1).trim()}` };
  const server = await startServer({ dataDir, adminPassword, logLevel: 'warn', label: 'audit-put' });
  try {
    const created = await request(`${server.base}/nas`, { method: 'POST', headers, body: { name: 'filer-http', host: 'filer.example.com', type: 'nfs_v4' } });
    if (created.status !== 201) throw new Error(`POST /nas answered ${created.status}: ${created.body}`);
    const url = `${server.base}/nas/${created.json().id}`;
    const times = [];
    for (let i = 0; i < config.httpWarmup + config.httpPuts; i++) {
      const started = performance.now();
      const res = await request(url, { method: 'PUT', headers, body: { comment: `put ${i}` } });
      if (res.status !== 200) throw new Error(`PUT ${url} answered ${res.status}: ${res.body}`);
      if (i >= config.httpWarmup) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { median: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await server.stop();
  }
}

export async function auditOverheadBench({ adapter, pgServerUrl, quick, record, notes, log, targets }) {
  const config = settings(quick);
  const prefix = adapter === 'postgres' ? 'pg.' : '';
  const measured = await storageOverhead(adapter, { pgServerUrl }, config);
  const extraUs = (measured.audited - measured.plain) * 1000;
  record(`${prefix}audit.write_overhead_ratio`, measured.ratio, 'ratio');
  record(`${prefix}audit.write_ms`, measured.plain, 'ms');
  record(`${prefix}audit.write_in_transaction_ms`, measured.transaction, 'ms');
  record(`${prefix}audit.write_with_event_ms`, measured.audited, 'ms');
  record(`${prefix}audit.write_extra_us`, extraUs, 'us');
  targets[`${prefix}audit.write_overhead_ratio`] = { op: '<=', value: auditOverheadGoal };
  const durability = adapter === 'sqlite' ? 'SQLite files in the temp dir, synchronous FULL as the server runs them' : 'PostgreSQL databases of their own';
  let httpNote = '';
  if (adapter === 'sqlite') {
    const put = await httpPuts(config);
    record('audit.put_nas_median_ms', put.median, 'ms');
    record('audit.put_nas_p99_ms', put.p99, 'ms');
    record('audit.put_nas_share_of_event', extraUs / 1000 / put.median, 'ratio');
    httpNote = `; through the server (SQLite, DMS_LOG_LEVEL=warn, so no audit log line is written): ${config.httpPuts} sequential PUT /api/v2/nas/{id} {comment} after ${config.httpWarmup} warm-up, API key, median ${round(put.median, 3)} ms, p99 ${round(put.p99, 3)} ms; audit.put_nas_share_of_event = the event's extra time / that median`;
  }
  notes.push(
    `${prefix}audit.write_overhead_ratio: NAS comment update with its audit event in one transaction (as every change writes it) / the same update alone (as before the audit log), ${durability}, one database each; ${config.blocks * config.turnsPerBlock} turns of one update of each kind (the order rotating) after ${config.warmupTurns} warm-up turns, each update timed; ratio of the medians, ${round(measured.plain, 4)} ms alone, ${round(measured.transaction, 4)} ms alone in a transaction of its own (audit.write_in_transaction_ms: the transaction's share of the cost), ${round(measured.audited, 4)} ms with the event (ratio by block of ${config.turnsPerBlock} turns: ${measured.blockRatios.map((r) => round(r, 2)).join('/')})${httpNote}`,
  );
  log(
    `${prefix}audit: ${round(measured.plain, 4)} ms alone, ${round(measured.transaction, 4)} ms in a transaction, ${round(measured.audited, 4)} ms with the event, ratio ${round(measured.ratio, 3)}`,
  );
}
