import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';
import type { TracingEnv } from './tracing.js';

/** The values of `OTEL_TRACES_SAMPLER` the SDK reads from the environment, and what each builds. */
const samplers: Record<string, (ratio: () => number) => Sampler> = {
  always_on: () => new AlwaysOnSampler(),
  always_off: () => new AlwaysOffSampler(),
  traceidratio: (ratio) => new TraceIdRatioBasedSampler(ratio()),
  parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
  parentbased_traceidratio: (ratio) => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) }),
};

export const samplerNames = Object.keys(samplers);

/**
 * The sampler `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` name, built as the SDK builds it
 * from the same variables (the SDK does not export its builder), so that one instance can serve
 * both the request path, which asks it before making any span, and the SDK
 * (docs/decisions/189-sampler-first-request-spans.md). Unset: the SDK's default,
 * `parentbased_always_on`. A name or ratio the SDK would only complain about and replace with a
 * default is refused here, at the start, with what is accepted.
 */
export function samplerFromEnv(env: TracingEnv): Sampler {
  const name = samplerName(env);
  const build = samplers[name];
  if (build === undefined) {
    throw new Error(`OTEL_TRACES_SAMPLER=${name} is not a sampler dms knows; use one of ${samplerNames.join(', ')}`);
  }
  return build(() => samplerRatio(env['OTEL_TRACES_SAMPLER_ARG']));
}

/**
 * The ratio by which the sampler the variables name decides a root span from its trace id alone
 * (`traceidratio`, `parentbased_traceidratio`); undefined for any other sampler.
 */
export function rootTraceIdRatioFromEnv(env: TracingEnv): number | undefined {
  const name = samplerName(env);
  return name === 'traceidratio' || name === 'parentbased_traceidratio' ? samplerRatio(env['OTEL_TRACES_SAMPLER_ARG']) : undefined;
}

function samplerName(env: TracingEnv): string {
  return env['OTEL_TRACES_SAMPLER']?.trim() || 'parentbased_always_on';
}

/** The ratio of a `*traceidratio` sampler: a number from 0 to 1; unset, 1 (the specification's default). */
function samplerRatio(arg: string | undefined): number {
  if (arg === undefined || arg.trim() === '') return 1;
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) {
    throw new Error(`OTEL_TRACES_SAMPLER_ARG=${arg} is not a ratio from 0 to 1`);
  }
  return ratio;
}
