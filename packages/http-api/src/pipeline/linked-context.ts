import type { Context } from '@opentelemetry/api';

/**
 * OpenTelemetry's `Context` as a chain of values, each a link to its parent. The API's own
 * context copies a `Map` for every value set, and V8 promotes what a fresh `Map` holds to the old
 * generation far more often than what a plain object holds: a request's span, put in such a
 * context, outlived the request until a full collection
 * (docs/decisions/197-request-contexts-without-maps.md). A request sets one or two values, so a
 * lookup walks at most a few links before it reaches the context it started from.
 */
export class LinkedContext implements Context {
  private constructor(
    private readonly parent: Context,
    private readonly key: symbol | undefined,
    private readonly value: unknown,
  ) {}

  /** `parent` as it is; what is set on the answer is linked to it. */
  static over(parent: Context): LinkedContext {
    return new LinkedContext(parent, undefined, undefined);
  }

  getValue(key: symbol): unknown {
    return key === this.key ? this.value : this.parent.getValue(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new LinkedContext(this, key, value);
  }

  deleteValue(key: symbol): Context {
    return new LinkedContext(this, key, undefined);
  }
}
