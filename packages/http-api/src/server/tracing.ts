/**
 * OpenTelemetry traces, opt-in with the standard variables (docs/decisions/181-traces.md): on when
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or an `OTEL_TRACES_EXPORTER`
 * other than `none` is set, and `OTEL_SDK_DISABLED` is not `true`. The SDK reads the rest itself
 * (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_EXPORTER_OTLP_PROTOCOL`, headers…).
 * Off, the SDK is never loaded and the core's spans meet the API's no-op tracer.
 */
export interface Tracing {
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

export type TracingEnv = Readonly<Record<string, string | undefined>>;

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
export async function startTracing(env: TracingEnv = process.env): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    ...(env['OTEL_SERVICE_NAME'] ? {} : { serviceName: 'dms' }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
