import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTools } from '@dms/core/testing';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { addNas, addPool, addShare, joinPool, raiseAlert, readJson, type NasShare } from '../testing/fixtures.js';
import { gzipInPieces } from './gzip-in-pieces.js';

/**
 * Issue 47: Debian's Prometheus scrapes a real dms (SQLite, a `metrics / index` key, the scrape
 * configuration docs/api.md#metrics shows), and every query of the Grafana dashboard
 * (contrib/grafana/dms.json) answers data through Prometheus' HTTP API. Shares are tested,
 * scanned, one fails, one has a forecast and an alert is open, so every series exists.
 */

const tools = requireTools(['prometheus', 'promtool'], 'apt-get install -y prometheus');
const dashboardFile = new URL('../../../../contrib/grafana/dms.json', import.meta.url);
const apiDoc = new URL('../../../../docs/api.md', import.meta.url);
/** Grafana's own interval variable, as Grafana would set it for a 1 s scrape. */
const grafanaVariables: Record<string, string> = { $__rate_interval: '1m', $__interval: '1s' };

interface Panel {
  title?: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

/** Series a second target serves, gzipped in many pieces as a scrape of 10,000 shares is (gzip-in-pieces.ts). */
const piecedSeries = 20_000;

/** Every query of the dashboard, with its panel's title. */
export function dashboardQueries(dashboard: { panels: Panel[] }): Array<{ panel: string; expr: string }> {
  const queries: Array<{ panel: string; expr: string }> = [];
  const visit = (panel: Panel) => {
    for (const target of panel.targets ?? []) queries.push({ panel: panel.title ?? '', expr: target.expr });
    panel.panels?.forEach(visit);
  };
  dashboard.panels.forEach(visit);
  return queries;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!tools.ok)('Prometheus scraping dms, and the Grafana dashboard', () => {
  let t: TestApp;
  let root: string;
  let server: ServerType;
  let prometheus: ChildProcess | undefined;
  let prometheusLog = '';
  let prometheusUrl: string;
  let metricsKey: string;
  let pieced: Server;

  async function runJob(share: NasShare, action: 'test' | 'scan'): Promise<void> {
    const started = await t.call('PUT', `/api/v2/nas_shares/${share.id}/${action}`, { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    while ((await t.call('GET', `/api/v2/jobs/${jobId}?wait=10`, { auth: t.basic })).status !== 200);
  }

  async function query(expr: string): Promise<{ status: string; data?: { result: unknown[] }; error?: string }> {
    const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return (await res.json()) as { status: string; data?: { result: unknown[] }; error?: string };
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-prometheus-'));
    for (const dir of ['a', 'b', 'gone']) mkdirSync(join(root, 'shares', dir), { recursive: true });
    writeFileSync(join(root, 'shares', 'a', 'file.bin'), Buffer.alloc(4096));
    t = await createTestApp({ localRoots: [join(root, 'shares')] });
    const nas = await addNas(t, { type: 'local', host: 'localhost', name: 'nas-prometheus' });
    const pool = await addPool(t, { name: 'pool-prometheus' });
    const a = await addShare(t, nas, { path: 'a', name: 'share-a' });
    const b = await addShare(t, nas, { path: 'b', name: 'share-b' });
    const gone = await addShare(t, nas, { path: 'gone', name: 'share-unreachable' });
    await joinPool(t, pool, [a.id, b.id]);
    await t.engine.start();
    await runJob(a, 'test');
    await runJob(a, 'scan');
    await runJob(b, 'test');
    await runJob(b, 'scan');
    rmSync(join(root, 'shares', 'gone'), { recursive: true });
    await runJob(gone, 'test');
    await t.storage.shares.saveForecast(a.id, {
      samples: 3,
      days: 2,
      growth_bytes_per_day: 1e9,
      full_at: new Date(Date.now() + 40 * 86_400_000).toISOString(),
    });
    await raiseAlert(t, gone);
    metricsKey = await t.bearer('metrics/index');

    const port = await freePort();
    server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port });
    // ~0.8 MB of text in 64 KiB pieces: Prometheus' reader must take them as the one gzip stream they are.
    const piecedText = Buffer.from(Array.from({ length: piecedSeries }, (_, i) => `pieced_series{i="${i}",share="projects-${i % 977}"} ${i}\n`).join(''));
    const piecedBody = await gzipInPieces(piecedText, { level: 2, pieceBytes: 64 * 1024 });
    const piecedPort = await freePort();
    pieced = createHttpServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4', 'Content-Encoding': 'gzip' }).end(piecedBody));
    await new Promise<void>((resolve) => pieced.listen(piecedPort, '127.0.0.1', resolve));
    const promPort = await freePort();
    prometheusUrl = `http://127.0.0.1:${promPort}`;
    // The configuration docs/api.md#metrics shows, with this test's key, port and a 1 s interval.
    const documented = /## Metrics[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readFileSync(apiDoc, 'utf8'))?.[1];
    expect(documented).toContain('type: Bearer');
    const config = join(root, 'prometheus.yml');
    writeFileSync(
      config,
      `global:\n  evaluation_interval: 1s\n${documented!
        .replace('<key>', metricsKey.replace(/^Bearer /, ''))
        .replace('dms.example.net:8080', `127.0.0.1:${port}`)
        .replace('scrape_interval: 30s', 'scrape_interval: 1s')}` +
        `  - job_name: pieced\n    scrape_interval: 1s\n    static_configs:\n      - targets: ['127.0.0.1:${piecedPort}']\n`,
    );
    const checked = spawnSync(tools.paths['promtool']!, ['check', 'config', config], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    prometheus = spawn(
      tools.paths['prometheus']!,
      [`--config.file=${config}`, `--storage.tsdb.path=${join(root, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    // Two scrapes of an up target: rates and derivatives need two samples.
    for (;;) {
      if (prometheus.exitCode !== null) throw new Error(`prometheus exited ${prometheus.exitCode}: ${prometheusLog}`);
      const answer = await query('count_over_time(up{job="dms"}[1m]) >= 2 and up{job="dms"} == 1').catch(() => undefined);
      const piecedUp = await query('up{job="pieced"} == 1').catch(() => undefined);
      if (answer?.status === 'success' && (answer.data?.result.length ?? 0) > 0 && (piecedUp?.data?.result.length ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);

  afterAll(async () => {
    prometheus?.kill('SIGTERM');
    if (prometheus && prometheus.exitCode === null) await new Promise((resolve) => prometheus!.once('exit', resolve));
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await new Promise((resolve) => (pieced ? pieced.close(resolve) : resolve(undefined)));
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('issue 47: Prometheus scrapes /metrics with a bearer metrics / index key, gzipped', async () => {
    const answer = await query('scrape_samples_scraped{job="dms"}');
    expect(answer.status).toBe('success');
    const [sample] = answer.data!.result as Array<{ value: [number, string] }>;
    expect(Number(sample!.value[1])).toBeGreaterThan(100);
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, {
      headers: { authorization: metricsKey, 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });

  it('issue 47: an answer gzipped in pieces (one gzip member) is read whole: every series, every value', async () => {
    const scraped = await query('scrape_samples_scraped{job="pieced"}');
    expect((scraped.data!.result as Array<{ value: [number, string] }>)[0]!.value[1]).toBe(String(piecedSeries));
    const sum = await query('sum(pieced_series)');
    expect((sum.data!.result as Array<{ value: [number, string] }>)[0]!.value[1]).toBe(String((piecedSeries * (piecedSeries - 1)) / 2));
  });

  it('issue 47: every query of the Grafana dashboard answers data', async () => {
    const queries = dashboardQueries(JSON.parse(readFileSync(dashboardFile, 'utf8')) as { panels: Panel[] });
    expect(queries.length).toBeGreaterThanOrEqual(15);
    const empty: string[] = [];
    for (const { panel, expr } of queries) {
      const resolved = Object.entries(grafanaVariables).reduce((text, [name, value]) => text.replaceAll(name, value), expr);
      const answer = await query(resolved);
      expect(answer.status, `${panel}: ${resolved}: ${answer.error ?? ''}`).toBe('success');
      if ((answer.data?.result.length ?? 0) === 0) empty.push(`${panel}: ${resolved}`);
    }
    expect(empty).toEqual([]);
  });

  it('issue 47: promtool check metrics has nothing to say of a scrape', async () => {
    const text = await (await t.call('GET', '/metrics', { auth: metricsKey })).text();
    expect(text).toContain('dms_share_full_timestamp_seconds{');
    const run = spawnSync(tools.paths['promtool']!, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
