import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { Logger } from 'pino';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import type { Metrics } from '../metrics/metrics.js';
import { requestIdOf, startCommonHeaders } from '../http/common-headers.js';
import { accessLog } from '../http/logger.js';

const validRequestId = /^[\w\-.:]{1,255}$/;

/** nginx's "client closed request": no answer reached the client, and the fault was not ours. */
export const clientClosedRequest = 499;

export interface Observer {
  /** Gives the request its id (a valid X-Request-Id it came with, else a new one); returns when it started. */
  begin(c: Context<AppEnv>): number;
  /** Counts the answered request and writes its access log line: method, path, status, duration; never headers or bodies. */
  end(c: Context<AppEnv>, route: string, response: Response, started: number): void;
}

/** Scraped and probed every few seconds: their lines would drown the requests people make. */
const probeRoutes: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export function createObserver(logger: Logger, metrics: Metrics): Observer {
  const logs = logger.isLevelEnabled('info');
  const logsProbes = logger.isLevelEnabled('debug');
  const access = accessLog(logger);
  return {
    begin(c) {
      const started = performance.now();
      const given = requestHeader(c, 'x-request-id');
      const id = given !== undefined && validRequestId.test(given) ? given : randomUUID();
      startCommonHeaders(c, id);
      return started;
    },
    end(c, route, response, started) {
      const ms = performance.now() - started;
      const status = statusToCount(c, response);
      metrics.record(c.req.method, route, status, ms / 1000);
      const probe = probeRoutes.has(route);
      if (probe ? !logsProbes : !logs) return;
      const principal = c.get('principal');
      access(probe ? 'debug' : 'info', {
        req_id: requestIdOf(c)!,
        method: c.req.method,
        path: c.req.path,
        status,
        ms: Math.round(ms * 100) / 100,
        principal: principal === undefined ? undefined : principal.kind === 'user' ? `user:${principal.username}` : `api_key:${principal.keyId}`,
      });
    },
  };
}

/**
 * The status to log and count. An error answer to a client that hung up before its request
 * arrived whole is counted as 499, whatever error the broken read raised on its way: the
 * socket's ECONNRESET must not read as a storage outage (503) or a fault of ours (5xx).
 */
function statusToCount(c: Context<AppEnv>, response: Response): number {
  return response.status >= 400 && clientHungUpMidRequest(c) ? clientClosedRequest : response.status;
}

function clientHungUpMidRequest(c: Context<AppEnv>): boolean {
  // Under @hono/node-server: the socket was torn down before the body ended (a finished
  // body, as with a GET, means any failure came after the request was read).
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) return incoming.destroyed && !incoming.complete;
  // Elsewhere (app.request, other runtimes): the request's own abort signal.
  return c.req.raw.signal.aborted;
}
