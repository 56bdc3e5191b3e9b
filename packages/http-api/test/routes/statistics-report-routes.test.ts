import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportShare, StatisticsReport, TopGrower } from '@dms/core';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { addNas, addShare, expectModelError, readJson, sampleAnalytics, type NasShare } from '../../src/testing/fixtures.js';
import { growerColumns, reportColumns } from '../../src/formats/report-csv.js';

/**
 * GET /statistics/report (issue 43, docs/decisions/157-statistics-report.md) on both adapters:
 * its CSV, read by csv-parse as a spreadsheet would, holds exactly what its JSON holds, hostile
 * share names included; failed tests and growers of the period are counted.
 */

const api = (path: string) => `/api/v2${path}`;
const day = 86_400_000;

/** A share's row of the CSV read back into the JSON's shape. */
function fromCsvRow(row: Record<string, string>): ReportShare {
  const number = (text: string) => (text === '' ? null : Number(text));
  const text = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);
  const growers: TopGrower[] = [];
  for (let index = 0; index * 3 < growerColumns.length; index += 1) {
    const [path, bytes, files] = growerColumns.slice(index * 3, index * 3 + 3).map((column) => row[column]!);
    if (path !== '') growers.push({ path: text(path!), bytes_delta: Number(bytes), files_delta: Number(files) });
  }
  const own = Object.fromEntries(
    reportColumns.map((column) => [column, column === 'name' || column === 'nas_name' ? text(row[column]!) : number(row[column]!)]),
  );
  return { ...own, top_growers: growers } as ReportShare;
}

describe('the period report', () => {
  let t: TestApp;
  let root: string;
  let hostile: NasShare;
  let failing: NasShare;

  async function runTest(share: NasShare): Promise<void> {
    const started = await t.call('PUT', api(`/nas_shares/${share.id}/test`), { auth: t.basic });
    expect(started.status, await started.clone().text()).toBe(202);
    const { job_id: jobId } = await readJson<{ job_id: string }>(started);
    for (;;) {
      const res = await t.call('GET', api(`/jobs/${jobId}?wait=10`), { auth: t.basic });
      if (res.status === 200) return;
      expect(res.status).toBe(202);
    }
  }

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'dms-report-'));
    mkdirSync(join(root, 'data'));
    t = await createTestApp({ localRoots: [root] });
    const nas = await addNas(t, { type: 'local', host: 'localhost', name: 'nas, "quoted"' });
    hostile = await addShare(t, nas, { path: 'data', name: '=HYPERLINK("x"), "quoted"' });
    failing = await addShare(t, nas, { path: 'missing' });
    await addShare(t, nas, { path: 'data', name: 'never-scanned' });
    // A directory's name may hold what names of shares may not: a line break.
    const directory = '/-1 new\nline, "dir"';
    const now = Date.now();
    const scan = (daysAgo: number, bytes: number) => ({
      at: new Date(now - daysAgo * day).toISOString(),
      file_count: 1,
      file_size_sum: bytes,
      duration_ms: 3,
      capacity_bytes: 10_000,
      free_bytes: 4_000,
    });
    await t.storage.shares.recordScan(hostile.id, scan(3, 1_000), sampleAnalytics(1_000, directory));
    await t.storage.shares.recordScan(hostile.id, scan(1, 1_600), sampleAnalytics(1_600, directory));
    await t.engine.start();
    await runTest(failing);
    await runTest(failing);
  });

  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('issue 43: answers per share its size, growth, growers and failed tests of the period', async () => {
    const res = await t.call('GET', api('/statistics/report?days=7'), { auth: t.basic });
    expect(res.status, await res.clone().text()).toBe(200);
    const report = await readJson<StatisticsReport>(res);
    expect(report.period_days).toBe(7);
    expect(report.shares).toHaveLength(3);
    expect(report.shares.find((share) => share.nas_share_id === hostile.id)).toMatchObject({
      name: hostile.name,
      nas_name: 'nas, "quoted"',
      file_size_sum: 1_600,
      capacity_bytes: 10_000,
      used_bytes: 6_000,
      free_bytes: 4_000,
      growth_bytes: 600,
      growth_files: 0,
      failed_tests: 0,
      top_growers: [{ path: '/-1 new\nline, "dir"', bytes_delta: 600, files_delta: 0 }],
    });
    expect(report.shares.find((share) => share.nas_share_id === failing.id)).toMatchObject({ failed_tests: 2, file_count: null, top_growers: null });
  });

  it('issue 43: its RFC 4180 CSV, read by a CSV parser, equals its JSON', async () => {
    const json = await readJson<StatisticsReport>(await t.call('GET', api('/statistics/report?days=30'), { auth: t.basic }));
    const res = await t.call('GET', api('/statistics/report?days=30'), { auth: t.basic, headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="dms-report-30d.csv"');
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    // The formula is shown, not run: its cell starts with a quote mark.
    expect(text).toContain(`"'=HYPERLINK(""x""), ""quoted"""`);
    expect(text).toContain(`"/-1 new\nline, ""dir"""`);
    const rows = parse(text, { columns: true, relax_column_count: false }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([...reportColumns, ...growerColumns]);
    expect(rows.map(fromCsvRow)).toEqual(json.shares.map((share) => ({ ...share, top_growers: share.top_growers ?? [] })));
  });

  it('issue 43: days is 1 to 366; JSON unless text/csv is preferred', async () => {
    await expectModelError(await t.call('GET', api('/statistics/report?days=0'), { auth: t.basic }), 400, 'days');
    await expectModelError(await t.call('GET', api('/statistics/report?days=367'), { auth: t.basic }), 400, 'days');
    await expectModelError(await t.call('GET', api('/statistics/report?period=7'), { auth: t.basic }), 400, 'period');
    const preferred = await t.call('GET', api('/statistics/report'), { auth: t.basic, headers: { Accept: 'application/json;q=0.9, text/csv;q=0.5' } });
    expect(preferred.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await readJson<StatisticsReport>(preferred)).period_days).toBe(7);
    const refused = await t.bearer('nas_shares/show');
    expect((await t.call('GET', api('/statistics/report'), { auth: refused })).status).toBe(403);
  });
});
