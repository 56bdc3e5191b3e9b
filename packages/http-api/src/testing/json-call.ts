/** A JSON answer as the tests of a running server read it. */
export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * `call(method, path, body?)` against a running server's API (`base()` read at each call: the
 * server may start after the caller is made), with the given Authorization header.
 */
export function jsonCaller(base: () => string, authorization: string): (method: string, path: string, body?: unknown) => Promise<JsonAnswer> {
  return async (method, path, body) => {
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}
