import type { Client } from 'openapi-fetch';
import { apiError } from './errors.js';
import type { paths } from './generated/openapi.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallInit {
  /** Values of the path's `{param}`s. */
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** One operation by method and path template (`/nas/{nas_id}`): its body, or a DmsApiError. */
export type Call = (method: Method, path: string, init?: CallInit) => Promise<unknown>;

/** The slice of openapi-fetch's client that takes a path chosen at run time. */
interface UntypedClient {
  request(method: string, url: string, init: object): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}

/**
 * Calls through openapi-fetch by path template. The resources choose the path at run time
 * (a share under a NAS, a pool or neither), which the typed methods cannot express; their
 * signatures carry the document's types instead.
 */
export function caller(client: Client<paths>): Call {
  const untyped = client as unknown as UntypedClient;
  return async (method, path, init = {}) => {
    const { data, error, response } = await untyped.request(method, path, {
      params: { path: init.path, query: init.query },
      body: init.body,
      signal: init.signal,
    });
    if (!response.ok) throw apiError(method, response, error);
    return data;
  };
}
