import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { describe, expect, it } from 'vitest';
import { accessLog, createLogger, type AccessFields } from './logger.js';

/** A destination that keeps what it is given. */
function capture() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

const withoutTime = (line: string) => line.replace(/,"time":\d+/, ',"time":0');

const fields: AccessFields[] = [
  { req_id: 'a3f1c2d4-1111-2222-3333-444455556666', method: 'GET', path: '/api/v2/nas_shares/7', status: 200, ms: 1.23, principal: 'api_key:4' },
  {
    req_id: 'given.id:1',
    method: 'PUT',
    path: '/api/v2/nas_shares/"quoted"\\back\u0001slash\u00e9\u{1f600}',
    status: 404,
    ms: 0,
    principal: 'user:Zoë "admin"',
  },
  { req_id: 'x', method: 'OPTIONS', path: '/api/v2', status: 204, ms: 12345.67, principal: undefined },
];

describe('the access log line (issue 27 item 1)', () => {
  it.each(['info', 'debug'] as const)('is, at %s, the very line pino writes for the same fields and message, escapes included', (level) => {
    const ours = capture();
    const pinos = capture();
    const log = accessLog(createLogger('debug', ours));
    const reference = createLogger('debug', pinos).child({}, { redact: [] });
    for (const line of fields) {
      log(level, line);
      reference[level](line, 'request');
    }
    expect(ours.lines.map(withoutTime)).toEqual(pinos.lines.map(withoutTime));
    // And it parses back to the fields, a missing principal left off.
    expect(JSON.parse(ours.lines[2]!)).not.toHaveProperty('principal');
    expect(JSON.parse(ours.lines[1]!).path).toBe(fields[1]!.path);
  });

  it('carries the bindings of a child logger, as pino does', () => {
    const ours = capture();
    const pinos = capture();
    accessLog(createLogger('info', ours).child({ component: 'http' }))('info', fields[0]!);
    createLogger('info', pinos).child({ component: 'http' }).child({}, { redact: [] }).info(fields[0], 'request');
    expect(ours.lines.map(withoutTime)).toEqual(pinos.lines.map(withoutTime));
    expect(JSON.parse(ours.lines[0]!)).toMatchObject({ service: 'dms', component: 'http' });
  });

  it("keeps pino's own path for a logger that reshapes its lines (a mixin)", () => {
    const out = capture();
    accessLog(pino({ level: 'info', mixin: () => ({ extra: 1 }) }, out))('info', fields[0]!);
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ extra: 1, req_id: fields[0]!.req_id, msg: 'request' });
  });
});

describe('log lines within a traced request or job (tracing on)', () => {
  it('carry the trace and span id of a sampled span, nothing otherwise; off, no line carries them', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const traced = capture();
      const untraced = capture();
      const logger = createLogger('info', traced, 'json', { traced: true });
      const plain = createLogger('info', untraced, 'json');
      const sampled = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
      const unsampled = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319d', spanId: 'b7ad6b7169203332', traceFlags: TraceFlags.NONE });
      context.with(trace.setSpan(ROOT_CONTEXT, sampled), () => {
        logger.info({ job: 'x' }, 'job finished');
        accessLog(logger)('info', fields[0]!);
        plain.info('job finished');
      });
      context.with(trace.setSpan(ROOT_CONTEXT, unsampled), () => logger.info('not sampled'));
      logger.info('outside any span');
      const [inJob, inRequest, unsampledLine, outside] = traced.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(inJob).toMatchObject({ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', job: 'x' });
      expect(inRequest).toMatchObject({ trace_id: '0af7651916cd43dd8448eb211c80319c', msg: 'request', req_id: fields[0]!.req_id });
      expect(unsampledLine).not.toHaveProperty('trace_id');
      expect(outside).not.toHaveProperty('trace_id');
      expect(JSON.parse(untraced.lines[0]!)).not.toHaveProperty('trace_id');
    } finally {
      context.disable();
    }
  });
});

describe('the pretty format', () => {
  it('loads pino-pretty when a logger is to be pretty, not before, and writes readable lines (decision 188)', () => {
    const module = fileURLToPath(new URL('./logger.ts', import.meta.url));
    const script = `
      import { createRequire } from 'node:module';
      import { createLogger } from ${JSON.stringify(module)};
      const require = createRequire(${JSON.stringify(module)});
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/pino-pretty/'));
      createLogger('info', { write() {} });
      const before = loaded();
      const logger = createLogger('info', undefined, 'pretty');
      logger.info({ share: 'finance' }, 'hello in a terminal');
      logger.flush();
      console.error(JSON.stringify({ before, after: loaded() }));
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stderr.trim().split('\n').at(-1)!)).toEqual({ before: false, after: true });
    expect(child.stdout).toMatch(/INFO.*hello in a terminal/);
    expect(child.stdout).toMatch(/share: "finance"/);
    expect(child.stdout).not.toContain('{"level"');
  });
});
