import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activeTraceCarrier, contextOf, inSpan, recordStepSpan } from './spans.js';
import { runSmbclient } from '../adapters/smb/run-smbclient.js';
import { rpcCall } from '../adapters/nfs/rpc-call.js';
import { NetSnmpTrapSender } from '../adapters/snmp/snmp-trap-sender.js';
import { makeEvent } from '../domain/events.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

describe('the core traces through the OpenTelemetry API (an SDK registered, as a host does)', () => {
  it('carries a trace with queued work: a span started from the carrier continues it', async () => {
    let carried: Record<string, string> | undefined;
    await inSpan('request', {}, async () => {
      carried = activeTraceCarrier();
    });
    expect(carried?.['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await inSpan('job', { parent: contextOf(carried) }, async () => {});
    const [request, job] = exporter.getFinishedSpans();
    expect(job!.spanContext().traceId).toBe(request!.spanContext().traceId);
    expect(job!.parentSpanContext?.spanId).toBe(request!.spanContext().spanId);
    // Nothing active: nothing to carry.
    expect(activeTraceCarrier()).toBeUndefined();
  });

  it('records a finished step as a child with its duration and marks a failed one', async () => {
    await inSpan('share_test', {}, async (job) => {
      recordStepSpan(job, { name: 'resolve', outcome: 'ok', duration_ms: 12 }, 1_000_000);
      recordStepSpan(job, { name: 'connect', outcome: 'failed', duration_ms: 30, message: 'refused' }, 1_000_050);
    });
    const [resolve, connect, job] = exporter.getFinishedSpans();
    expect(resolve!.name).toBe('resolve');
    expect(resolve!.parentSpanContext?.spanId).toBe(job!.spanContext().spanId);
    expect(resolve!.duration).toEqual([0, 12_000_000]);
    expect(connect!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'refused' });
  });

  it('ends a span that throws as an error, and throws on', async () => {
    await expect(inSpan('broken', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const [broken] = exporter.getFinishedSpans();
    expect(broken!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(broken!.events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('peer calls are client spans', () => {
  it('an smbclient run, with the server it was for and how it ended', async () => {
    const outcome = await runSmbclient({
      smbclientPath: '/nonexistent/smbclient',
      target: {
        host: 'nas.example',
        port: 445,
        share: 'projects',
        dir: '',
        domain: undefined,
        username: 'u',
        password: null,
        protocol: { label: 'SMB 3', args: [] },
      },
      address: '127.0.0.1',
      files: { dir: '/tmp', authFile: '/tmp/none', configFile: '/tmp/none' },
      command: 'ls',
      signal: new AbortController().signal,
      onLine: () => {},
    });
    expect(outcome.notInstalled).toBe(true);
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('smbclient');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.attributes).toMatchObject({ 'server.address': 'nas.example', 'server.port': 445, 'dms.smb.share': 'projects' });
  });

  it('an RPC call, failed when the peer closes before it answers', async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { Socket } = await import('node:net');
    const socket = new Socket();
    await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
    await expect(rpcCall(socket, { program: 100000, version: 2, procedure: 0 }, 5_000, new AbortController().signal, () => undefined)).rejects.toThrow();
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('rpc 100000/2/0');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.attributes).toMatchObject({ 'rpc.system': 'onc_rpc', 'rpc.service': '100000', 'rpc.method': '0', 'server.port': port });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('an SNMP send, with the manager and the event', async () => {
    const manager = createSocket('udp4');
    await new Promise<void>((resolve) => manager.bind(0, '127.0.0.1', resolve));
    const received = new Promise((resolve) => manager.once('message', resolve));
    const sender = new NetSnmpTrapSender();
    const at = new Date('2026-01-01T00:00:00Z');
    await sender.send({ id: 1, version: 'v2c', manager: `127.0.0.1:${manager.address().port}`, community: 'public' }, makeEvent('share_test_failed', 'x', at));
    await received;
    sender.close();
    manager.close();
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('snmp send');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.attributes).toMatchObject({ 'dms.snmp.version': 'v2c', 'dms.event': 'share_test_failed' });
  });
});
