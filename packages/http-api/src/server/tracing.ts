import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { RequestTracer } from '../pipeline/trace-request.js';
import type { RequestSpanRecord } from './request-span.js';

/**
 * OpenTelemetry traces, opt-in with the standard variables (docs/decisions/181-traces.md): on when
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or an `OTEL_TRACES_EXPORTER`
 * other than `none` is set, and `OTEL_SDK_DISABLED` is not `true`. The SDK reads the rest itself
 * (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_PROTOCOL`, headers…), except the sampler, built here
 * from `OTEL_TRACES_SAMPLER[_ARG]` so that requests ask it before making a span
 * (docs/decisions/189-sampler-first-request-spans.md). Off, the SDK is never loaded and the core's
 * spans meet the API's no-op tracer. A sampled request's span is exported by the SDK in a worker
 * thread (docs/decisions/194-request-spans-exported-off-the-loop.md); the core's spans by the SDK here.
 */
export interface Tracing {
  /** Starts the span of each request, given the same sampler as the SDK. */
  requests: RequestTracer;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export type TracingEnv = Readonly<Record<string, string | undefined>>;

/** The SDK's options dms sets besides its sampler and processors: plain data, so a worker can be given them. */
export interface SdkSettings {
  serviceName?: string;
  metricReaders: [];
  logRecordProcessors: [];
  instrumentations: [];
}

export function tracingRequested(env: TracingEnv = process.env): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  const exporters = (env['OTEL_TRACES_EXPORTER'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'none');
  if (env['OTEL_TRACES_EXPORTER'] !== undefined && exporters.length === 0 && env['OTEL_TRACES_EXPORTER'].trim() !== '') return false;
  return exporters.length > 0 || Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']) || Boolean(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
}

/** Starts the SDK (traces only: metrics stay on /metrics, logs on standard output) when asked for. */
export async function startTracing(
  env: TracingEnv = process.env,
  {
    spanProcessors,
    requestSpans,
  }: {
    spanProcessors?: SpanProcessor[];
    /** Where sampled request spans go instead of the export worker (a test's sink). */
    requestSpans?: (record: RequestSpanRecord) => void;
  } = {},
): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const [{ NodeSDK }, { rootTraceIdRatioFromEnv, samplerFromEnv }, { samplerFirstTracer }, { startSpanExportWorker, maxRecordsBehind }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('./trace-sampler.js'),
    import('./request-tracer.js'),
    import('./span-export-worker.js'),
  ]);
  // One sampler for the SDK and the request path, so that both decide alike.
  const sampler = samplerFromEnv(env);
  // What both SDKs, this one and the export worker's, are started with.
  const sdkSettings: SdkSettings = {
    ...(env['OTEL_SERVICE_NAME'] ? {} : { serviceName: 'dms' }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  };
  const sdk = new NodeSDK({
    ...sdkSettings,
    sampler,
    // Where spans go: by default the exporter the variables name, in the SDK's batch processor.
    ...(spanProcessors ? { spanProcessors } : {}),
  });
  sdk.start();
  const exportWorker = requestSpans
    ? undefined
    : startSpanExportWorker(env, sdkSettings, {
        onError: (error) =>
          process.emitWarning(`the trace export worker stopped; request spans are dropped: ${error instanceof Error ? error.message : String(error)}`),
        onFirstDrop: () =>
          process.emitWarning(
            `the trace export worker is ${maxRecordsBehind} request spans behind (the CPU is busy serving); request spans are dropped until it catches up`,
          ),
      });
  // After start: the propagator whose headers a request is looked at for is the SDK's.
  return {
    requests: samplerFirstTracer(sampler, requestSpans ?? ((record) => exportWorker!.ship(record)), rootTraceIdRatioFromEnv(env)),
    shutdown: async () => {
      await Promise.all([exportWorker?.shutdown(), sdk.shutdown()]);
    },
  };
}
