import { linkedSignal, sleep } from './signals.js';

export interface RetryOptions {
  /** Further attempts after the first (2). */
  retries?: number;
  /** First backoff delay; it doubles with each attempt, with jitter (250 ms). */
  minDelayMs?: number;
  /** Longest wait before a retry; a longer Retry-After is not waited for, the error is thrown (30 s). */
  maxDelayMs?: number;
}

export interface TransportOptions {
  fetch: typeof fetch;
  retry: Required<RetryOptions> | false;
  timeoutMs: number;
  /** ETag cache of GET answers, or none. */
  cache: EtagCache | undefined;
}

/** Statuses that say "not now" rather than "no": a later attempt may succeed. */
const transientStatuses = new Set([429, 502, 503, 504]);
/** Methods whose repetition does no more than one call: POST is never retried. */
const idempotentMethods = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
const bodylessStatuses = new Set([101, 204, 205, 304]);

interface Cached {
  etag: string;
  body: string;
  headers: Headers;
}

/** GET answers by URL, revalidated with If-None-Match; the oldest entry goes first. */
export class EtagCache {
  readonly #entries = new Map<string, Cached>();
  constructor(private readonly maxEntries: number) {}

  get(url: string): Cached | undefined {
    return this.#entries.get(url);
  }

  set(url: string, entry: Cached | undefined): void {
    this.#entries.delete(url);
    if (!entry) return;
    this.#entries.set(url, entry);
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

function backoff(retry: Required<RetryOptions>, attempt: number): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.minDelayMs * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** How long to wait before retrying this answer; undefined: do not retry it. */
function retryDelay(response: Response, retry: Required<RetryOptions>, attempt: number): number | undefined {
  const header = response.headers.get('retry-after');
  const seconds = header === null ? undefined : /^\d+$/.test(header) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  const delay = Math.max(backoff(retry, attempt), (seconds ?? 0) * 1000);
  return delay > retry.maxDelayMs ? undefined : delay;
}

/** The answer with its body read, so the timeout covers the body and the cache can keep it. */
async function buffered(response: Response, url: string, body?: string): Promise<Response> {
  const text = body ?? (await response.text());
  const copy = new Response(bodylessStatuses.has(response.status) ? null : text, response);
  // A constructed Response has no url; errors name the address they came from.
  Object.defineProperty(copy, 'url', { value: url });
  return copy;
}

/**
 * The fetch that openapi-fetch calls: per-attempt timeout, retries of idempotent calls with
 * exponential backoff and jitter that honour Retry-After, and the optional ETag cache.
 */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const { method, url } = request;
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.text();
    const headers = new Headers(request.headers);
    const cache = method === 'GET' ? options.cache : undefined;
    const cached = cache?.get(url);
    if (cached) headers.set('if-none-match', cached.etag);
    const retries = options.retry && idempotentMethods.has(method) ? options.retry.retries : 0;
    // A job's long poll holds its answer up to `wait` seconds: that is no timeout.
    const timeoutMs = options.timeoutMs + Number(new URL(url).searchParams.get('wait') ?? 0) * 1000;
    // openapi-fetch gives every Request a signal; the user's, when one was passed.
    const userSignal = request.signal;

    for (let attempt = 0; ; attempt++) {
      const { signal, release } = linkedSignal(userSignal, timeoutMs, `${method} ${url}`);
      let response: Response;
      try {
        response = await buffered(await options.fetch(url, { method, headers, body, signal }), url);
      } catch (error) {
        release();
        // A network error or this attempt's timeout; the caller's own abort is final.
        if (attempt >= retries || userSignal.aborted) throw error;
        await sleep(backoff(options.retry as Required<RetryOptions>, attempt), userSignal);
        continue;
      }
      release();
      const delay = attempt < retries && transientStatuses.has(response.status) ? retryDelay(response, options.retry as Required<RetryOptions>, attempt) : undefined;
      if (delay !== undefined) {
        await sleep(delay, userSignal);
        continue;
      }
      if (!cache) return response;
      if (response.status === 304 && cached) {
        // The kept body with this answer's headers (its request id, rate limits).
        const merged = new Headers(cached.headers);
        response.headers.forEach((value, name) => merged.set(name, value));
        return buffered(new Response(cached.body, { status: 200, headers: merged }), url, cached.body);
      }
      const etag = response.headers.get('etag');
      cache.set(url, response.status === 200 && etag ? { etag, body: await response.clone().text(), headers: response.headers } : undefined);
      return response;
    }
  };
}
