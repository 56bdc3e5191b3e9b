import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '@dms/core/testing';
import { readConfig } from './config.js';
import { startServer, type RunningServer } from './serve.js';
import { tracingRequested } from './tracing.js';
import { jsonCaller } from '../testing/json-call.js';
import { attribute, otlpReceiver } from '../testing/otlp-receiver.js';

describe('tracing is asked for with the standard OTEL_* variables', () => {
  it('is off without them, on with an OTLP endpoint or an exporter, off when disabled or `none`', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'dms' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });
});

describe('a share test traced end to end: exported over OTLP/HTTP to a receiver', () => {
  let dir: string;
  let server: RunningServer;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  const variables = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_BSP_SCHEDULE_DELAY', 'OTEL_SERVICE_NAME', 'OTEL_TRACES_SAMPLER'];
  const auth = `Basic ${Buffer.from('admin:trace-test-password').toString('base64')}`;
  const call = jsonCaller(() => server.url, auth);

  beforeAll(async () => {
    receiver = await otlpReceiver();
    // The SDK reads its settings from the process environment, as it does for an operator.
    Object.assign(process.env, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_SERVICE_NAME: 'dms-under-test',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    dir = mkdtempSync(join(tmpdir(), 'dms-trace-'));
    mkdirSync(join(dir, 'shares', 'projects'), { recursive: true });
    server = await startServer(readConfig({ DMS_DATA_DIR: dir, DMS_PORT: '0', DMS_ADMIN_PASSWORD: 'trace-test-password', DMS_LOG_LEVEL: 'silent' }));
  });
  afterAll(async () => {
    await server?.stop();
    for (const name of variables) delete process.env[name];
    trace.disable();
    context.disable();
    propagation.disable();
    await new Promise((resolve) => receiver?.server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the request span, the job span under it, and one child per step of the job', async () => {
    expect((await call('POST', '/nas', { name: 'local', host: 'localhost', type: 'local' })).status).toBe(201);
    const started = await call('PUT', '/nas/local/nas_shares/-/test', { name: 'projects', path: 'projects' });
    expect(started.status).toBe(202);
    const jobId = String(started.body['job_id']);
    const done = await call('GET', `/nas/local/nas_shares/-/test?job_id=${jobId}&wait=10`);
    expect(done.body['status']).toBe('completed');
    const steps = (done.body['steps'] as { name: string }[]).map((step) => step.name);
    expect(steps.length).toBeGreaterThan(0);

    const job = (await pollUntil(
      () => receiver.spans.find((span) => span.name === 'share_test' && attribute(span, 'dms.job.id') === jobId),
      (found) => found !== undefined,
      'the job span exported',
    ))!;
    // The request's span ends with its answer, which may come after the job's (both exported in batches).
    const request = await pollUntil(
      () => receiver.spans.find((span) => span.spanId === job.parentSpanId),
      (found) => found !== undefined,
      'the span of the request that queued the job (the job continues its trace)',
      { timeoutMs: 10_000 },
    );
    expect(request!.traceId).toBe(job.traceId);
    expect(request!.kind).toBe(2); // SERVER
    expect(attribute(request!, 'http.request.method')).toBe('PUT');
    expect(attribute(request!, 'http.route')).toBe('/api/v2/nas/:nas_id/nas_shares/-/test');
    expect(attribute(request!, 'http.response.status_code')).toBe(202);
    expect(attribute(job, 'dms.job.kind')).toBe('share_test');
    expect(attribute(job, 'dms.job.outcome')).toBe('completed');

    const children = await pollUntil(
      () => receiver.spans.filter((span) => span.parentSpanId === job.spanId),
      (found) => found.length >= steps.length,
      'a span per step exported',
    );
    expect(children.map((span) => span.name).sort()).toEqual([...steps].sort());
    for (const child of children) {
      expect(child.traceId).toBe(job.traceId);
      expect(attribute(child, 'dms.step.outcome')).toBe('ok');
    }
    expect([...receiver.serviceNames]).toEqual(['dms-under-test']);
  });
});
