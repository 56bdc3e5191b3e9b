import { DmsNetworkError, DmsRedirectError } from './errors.js';
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
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Redirects followed in a row within the origin, as browsers allow about 20. */
const maxRedirects = 5;

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

interface Attempt {
  method: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal;
}

function locationOf(response: Response, base: string): URL | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * One attempt, following redirects by hand and only within the origin of the first URL
 * (finding 20.12): fetch's own following sends a 307 or 308 request's body, a password in a
 * user or share, to whatever origin the Location names. Answers the final response and its URL.
 */
async function send(fetcher: typeof fetch, url: string, attempt: Attempt): Promise<{ response: Response; url: string }> {
  const origin = new URL(url).origin;
  let { method, body } = attempt;
  const headers = new Headers(attempt.headers);
  let target = url;
  for (let hop = 0; ; hop++) {
    const response = await fetcher(target, { method, headers, body, signal: attempt.signal, redirect: 'manual' });
    // A browser hides a redirect's status and Location from 'manual' (an opaque redirect).
    if (response.type === 'opaqueredirect') throw new DmsRedirectError({ status: 0, method, url: target, location: undefined, reason: 'hidden' });
    const next = redirectStatuses.has(response.status) ? locationOf(response, target) : undefined;
    // Without a usable Location a 3xx is a final answer, as fetch has it.
    if (!next) return { response, url: target };
    await response.body?.cancel().catch(() => undefined);
    if (next.origin !== origin || hop >= maxRedirects) {
      throw new DmsRedirectError({
        status: response.status,
        method,
        url: target,
        location: next.href,
        reason: next.origin !== origin ? 'other_origin' : 'too_many',
      });
    }
    // As fetch does: a 303 (and a 301 or 302 after a POST) is fetched again with GET and no body.
    if ((response.status === 303 && method !== 'GET' && method !== 'HEAD') || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers.delete('content-type');
    }
    target = next.href;
  }
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
        const sent = await send(options.fetch, url, { method, headers, body, signal });
        response = await buffered(sent.response, sent.url);
      } catch (error) {
        release();
        // A network error or this attempt's timeout; the caller's own abort, and a redirect
        // not followed, are final.
        if (userSignal.aborted || error instanceof DmsRedirectError) throw error;
        // fetch rejects with a bare TypeError when no answer came (Node: "fetch failed"; browsers:
        // "Failed to fetch"); a timeout or abort is a DOMException and stays as it is.
        if (attempt >= retries) throw error instanceof TypeError ? new DmsNetworkError({ method, url, cause: error }) : error;
        await sleep(backoff(options.retry as Required<RetryOptions>, attempt), userSignal);
        continue;
      }
      release();
      const delay =
        attempt < retries && transientStatuses.has(response.status) ? retryDelay(response, options.retry as Required<RetryOptions>, attempt) : undefined;
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
