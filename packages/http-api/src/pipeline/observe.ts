import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/request-header.js';
import type { Metrics } from '../metrics/metrics.js';
import { requestIdOf, startCommonHeaders } from '../http/common-headers.js';

const validRequestId = /^[\w\-.:]{1,255}$/;

export interface Observer {
  /** Gives the request its id (a valid X-Request-Id it came with, else a new one); returns when it started. */
  begin(c: Context<AppEnv>): number;
  /** Counts the answered request and writes its access log line: method, path, status, duration; never headers or bodies. */
  end(c: Context<AppEnv>, route: string, response: Response, started: number): void;
}

export function createObserver(logger: Logger, metrics: Metrics): Observer {
  const logs = logger.isLevelEnabled('info');
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
      metrics.record(c.req.method, route, response.status, ms / 1000);
      if (!logs) return;
      const principal = c.get('principal');
      logger.info(
        {
          req_id: requestIdOf(c),
          method: c.req.method,
          path: c.req.path,
          status: response.status,
          ms: Math.round(ms * 100) / 100,
          ...(principal ? { principal: principal.kind === 'user' ? `user:${principal.username}` : `api_key:${principal.keyId}` } : {}),
        },
        'request',
      );
    },
  };
}
