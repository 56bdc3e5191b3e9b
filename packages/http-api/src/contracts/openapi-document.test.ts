import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate, compileErrors } from '@readme/openapi-parser';
// Through the package's entry, as the SDK build and other consumers import it.
import { alertSources } from '@dms/core';
import { openApiDocument, restOperations } from '../index.js';

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, { examples?: Record<string, unknown> }> };
  'x-codeSamples'?: Array<{ label: string; source: string }>;
  security?: unknown[];
  'x-scope'?: string;
  responses: Record<
    string,
    { headers?: Record<string, { description?: string }>; content?: Record<string, { schema?: { $ref?: string }; examples?: Record<string, unknown> }> }
  >;
}

function operationsOf(document: ReturnType<typeof openApiDocument>): Array<{ key: string; op: Operation }> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })));
}

describe('openApiDocument()', () => {
  // This file never opens storage nor creates a core: the document comes from the operations, no handler called.
  it('builds without a database or a core', () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('2.1.0');
    expect(document.servers).toEqual([{ url: '/api/v2', description: expect.stringContaining('this server') }]);
    expect(operationsOf(document)).toHaveLength(restOperations.length);
  });

  it('validates as OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dms-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(openApiDocument()));
      const result = await validate(file);
      expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
      expect(result.specification).toBe('OpenAPI');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every operation a unique camelCase operationId, each declared by one operation', () => {
    const ids = operationsOf(openApiDocument()).map(({ op }) => op.operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(restOperations.map(({ operationId }) => operationId).sort());
  });

  it('gives every operation an x-scope matching its description, but the public sign-ins, /api_keys/current and the caller’s own TOTP', () => {
    const unscoped: string[] = [];
    for (const { key, op } of operationsOf(openApiDocument())) {
      if (op['x-scope'] === undefined) {
        unscoped.push(key);
        continue;
      }
      expect(op['x-scope'], key).toMatch(/^[a-z_]+\/[a-z_]+$/);
      expect(op.description, key).toMatch(new RegExp(`^Scope: \`${op['x-scope'].replace('/', ' / ')}[ \`]`));
    }
    expect(unscoped.sort()).toEqual([
      'get /api_keys/current',
      'get /auth/oidc/callback',
      'get /auth/oidc/login',
      'get /auth/totp',
      'post /auth/login',
      'post /auth/totp',
      'post /auth/totp/confirm',
      'post /auth/totp/disable',
    ]);
  });

  it('describes every 4xx and 5xx with model_error', () => {
    for (const { key, op } of operationsOf(openApiDocument())) {
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect(
        errors.map(([status]) => status),
        key,
      ).toEqual(expect.arrayContaining(['400', '401', '403', '414', '429', '500', '503']));
      for (const [status, response] of errors) {
        expect(response.content?.['application/json']?.schema?.$ref, `${key} ${status}`).toBe('#/components/schemas/model_error');
      }
    }
  });

  it('gives every operation a description, an @dms/sdk code sample and an example of every body', () => {
    const summaries = new Set<string>();
    for (const { key, op } of operationsOf(openApiDocument())) {
      expect(op.description?.length, key).toBeGreaterThan(20);
      expect(op['x-codeSamples']?.[0]?.label, key).toBe('@dms/sdk');
      expect(op['x-codeSamples']?.[0]?.source, key).toMatch(/from '@dms\/sdk'/);
      if (op.requestBody) expect(Object.keys(op.requestBody.content['application/json']?.examples ?? {}), `${key} request`).not.toHaveLength(0);
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.content) expect(Object.keys(response.content['application/json']?.examples ?? {}), `${key} ${status}`).not.toHaveLength(0);
      }
      // The reference lists operations by summary: two alike could not be told apart.
      expect(summaries.has(`${op.summary}`), key).toBe(false);
      summaries.add(`${op.summary}`);
    }
  });

  // What a handler can answer is probed in test/api-conventions/documented-statuses.test.ts; these are
  // the statuses an operation's shape alone implies, so that no contract has to remember them.
  it("finding 21.8: documents the statuses an operation's shape implies (413 unless GET, 404 with a path parameter, 422 with a body)", () => {
    for (const { key, op } of operationsOf(openApiDocument())) {
      const statuses = Object.keys(op.responses);
      if (!key.startsWith('get ')) expect(statuses, key).toContain('413');
      if (key.includes('{')) expect(statuses, key).toContain('404');
      if (op.requestBody) expect(statuses, key).toContain('422');
    }
  });

  it('finding 21.8: documents the 422 of share test and scan for a host outside share_test_allowed_hosts, and says so', () => {
    const operations = new Map(operationsOf(openApiDocument()).map(({ key, op }) => [key, op]));
    for (const key of [
      'put /nas/{nas_id}/nas_shares/-/test',
      'put /nas_shares/{nas_share_id}/test',
      'put /nas_shares/{nas_share_id}/scan',
      'post /nas',
      'put /nas/{nas_id}',
    ]) {
      const op = operations.get(key);
      expect(Object.keys(op?.responses ?? {}), key).toContain('422');
      expect(op?.description, key).toContain('share_test_allowed_hosts');
    }
  });

  it('documents the 202 of a followed job that still runs, and the 304 of every GET', () => {
    for (const { key, op } of operationsOf(openApiDocument())) {
      if (key.startsWith('get ')) expect(Object.keys(op.responses), key).toContain('304');
      if (key.startsWith('get ') && /\/(test|scan)$|^get \/jobs\/\{job_id\}$/.test(key))
        expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['200', '202']));
    }
  });

  it('documents the Location of every 202 that starts a job (docs/api.md#job-history)', () => {
    const starting = operationsOf(openApiDocument()).filter(({ key, op }) => key.startsWith('put ') && op.responses['202']);
    expect(starting.map(({ key }) => key).sort()).toEqual([
      'put /nas/{nas_id}/nas_shares/-/test',
      'put /nas_shares/{nas_share_id}/scan',
      'put /nas_shares/{nas_share_id}/test',
    ]);
    for (const { key, op } of starting) expect(op.responses['202']?.headers?.['Location']?.description, key).toContain('/api/v2/jobs/{job_id}');
  });

  it('lists the jobs under their own tag and the audit log with the administration, each with its scope', () => {
    const operations = new Map(operationsOf(openApiDocument()).map(({ key, op }) => [key, op as Operation & { tags?: string[] }]));
    expect(operations.get('get /jobs')).toMatchObject({ operationId: 'listJobs', tags: ['jobs'], 'x-scope': 'jobs/index' });
    expect(operations.get('get /jobs/{job_id}')).toMatchObject({ operationId: 'showJob', tags: ['jobs'], 'x-scope': 'jobs/show' });
    expect(operations.get('get /audit_events')).toMatchObject({ operationId: 'listAuditEvents', tags: ['admin'], 'x-scope': 'audit_events/index' });
    expect(operations.get('get /jobs')?.responses['200']?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/job_collection');
    expect(operations.get('get /audit_events')?.responses['200']?.content?.['application/json']?.schema?.$ref).toBe(
      '#/components/schemas/audit_event_collection',
    );
    expect(operations.get('get /audit_events')?.description).toContain('"changed"');
  });

  it('lists the keep-watch operations (issue 23) under their tags, each with its scope', () => {
    const operations = new Map(operationsOf(openApiDocument()).map(({ key, op }) => [key, op as Operation & { tags?: string[] }]));
    const expected: Array<[string, string, string, string]> = [
      ['get /schedules', 'listSchedules', 'schedules', 'schedules/index'],
      ['post /schedules', 'createSchedule', 'schedules', 'schedules/create'],
      ['get /schedules/{schedule_id}', 'showSchedule', 'schedules', 'schedules/show'],
      ['put /schedules/{schedule_id}', 'updateSchedule', 'schedules', 'schedules/update'],
      ['delete /schedules/{schedule_id}', 'deleteSchedule', 'schedules', 'schedules/destroy'],
      ['get /alerts', 'listAlerts', 'alerts', 'alerts/index'],
      ['get /alerts/{alert_id}', 'showAlert', 'alerts', 'alerts/show'],
      ['put /alerts/{alert_id}', 'updateAlert', 'alerts', 'alerts/update'],
      ['get /alert_settings', 'listAlertSettings', 'alerts', 'alert_settings/index'],
      ['put /alert_settings/{source}', 'updateAlertSetting', 'alerts', 'alert_settings/update'],
      ['get /nas_shares/{nas_share_id}/scans', 'listNasShareScans', 'nas_shares', 'nas_shares/show'],
      ['get /statistics/capacity', 'showCapacity', 'statistics', 'statistics/show'],
    ];
    for (const [key, operationId, tag, scope] of expected) expect(operations.get(key), key).toMatchObject({ operationId, tags: [tag], 'x-scope': scope });
    expect(openApiDocument().tags?.map((tag) => tag.name)).toEqual(expect.arrayContaining(['schedules', 'alerts', 'statistics']));
  });

  it('says the rules of the keep-watch operations: RRULE forms, runs, the alert lifecycle and sources, levels, growth', () => {
    const operations = new Map(operationsOf(openApiDocument()).map(({ key, op }) => [key, op]));
    const create = operations.get('post /schedules')?.description ?? '';
    for (const rule of [
      'DTSTART:20261125T120000Z',
      'DTSTART;TZID=Europe/Paris:20261125T120000',
      'SECONDLY',
      'next',
      'missed_count',
      'skipped_count',
      'scheduler',
      '422',
    ])
      expect(create, rule).toContain(rule);
    const alerts = operations.get('get /alerts')?.description ?? '';
    for (const rule of ['raised', 'updated', 'cleared', 'cleared_at=null', '5 critical', 'dmsAlertRaised', ...alertSources])
      expect(alerts, rule).toContain(rule);
    expect(operations.get('put /alerts/{alert_id}')?.description).toContain('{"dismissed": true}');
    expect(operations.get('put /alert_settings/{source}')?.description).toMatch(/^Scope: `alert_settings \/ update`\n\nAdmin only\./);
    expect(operations.get('get /statistics/capacity')?.description).toContain('its latest scan minus its last scan at or before `since`');
  });
});
