import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../src/testing/test-app.js';
import { createApp } from '../../src/app.js';
import { createLogger, defaultLogFormat } from '../../src/http/logger.js';
import { readConfig } from '../../src/server/config.js';

function logLines(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger(level, stream), lines };
}

describe('logs for people', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('health, readiness and metrics scrapes are logged at debug, other requests at info', async () => {
    for (const level of ['info', 'debug']) {
      const { logger, lines } = logLines(level);
      const { app } = createApp({ core: t.core, logger });
      await app.request('/healthz');
      await app.request('/readyz');
      await app.request('/metrics', { headers: { authorization: t.basic } });
      await app.request('/api/v2/nas', { headers: { authorization: t.basic } });
      const requests = lines.filter((line) => line['msg'] === 'request').map((line) => `${String(line['level'])} ${String(line['path'])}`);
      expect(requests, level).toEqual(level === 'info' ? ['30 /api/v2/nas'] : ['20 /healthz', '20 /readyz', '20 /metrics', '30 /api/v2/nas']);
    }
  });

  it('process metrics are named dms_process_*, not dms_process_process_*', async () => {
    const text = await (await t.call('GET', '/metrics', { auth: t.basic })).text();
    expect(text).toMatch(/^dms_process_cpu_user_seconds_total /m);
    expect(text).not.toContain('dms_process_process_');
  });

  it('DMS_LOG_LEVEL and DMS_LOG_FORMAT are checked at start, naming the allowed values', () => {
    expect(() => readConfig({ DMS_LOG_LEVEL: 'verbose' })).toThrow(
      "DMS_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'",
    );
    expect(() => readConfig({ DMS_LOG_FORMAT: 'xml' })).toThrow("DMS_LOG_FORMAT must be one of json, pretty, got 'xml'");
    expect(readConfig({ DMS_LOG_LEVEL: 'debug', DMS_LOG_FORMAT: 'pretty' })).toMatchObject({ logLevel: 'debug', logFormat: 'pretty' });
    expect(readConfig({}, false)).toMatchObject({ logLevel: 'info', logFormat: 'json' });
  });

  it('issue 45: unset, DMS_LOG_FORMAT follows whether standard output is a terminal; set, it wins', () => {
    expect(defaultLogFormat(true)).toBe('pretty');
    expect(defaultLogFormat(false)).toBe('json');
    expect(readConfig({}, true).logFormat).toBe('pretty');
    expect(readConfig({}, false).logFormat).toBe('json');
    expect(readConfig({ DMS_LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(readConfig({ DMS_LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
  });
});
