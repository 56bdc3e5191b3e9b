import type { ServerOptions } from 'node:http';
import { httpDefaults } from '@dms/core';

/**
 * What one HTTP listener lets its clients hold (finding 20.14): connections in all and per
 * client address, and how long a request may take to arrive. A connection counts from accept,
 * so one that sends nothing, or its headers a byte at a time, is charged like any other.
 */
export interface HttpLimits {
  /** Open connections in all (DMS_MAX_CONNECTIONS); beyond it a new one is closed at accept. */
  maxConnections: number;
  /**
   * Open connections from one client address (DMS_MAX_CONNECTIONS_PER_ADDRESS), an IPv6
   * client counted by its /64. A trusted proxy's own address carries many clients: it is
   * held to the total only, and should cap its clients itself.
   */
  maxConnectionsPerAddress: number;
  /** From accept (or from a kept-alive request's first byte) to the end of the headers (DMS_HEADERS_TIMEOUT_MS); 408 beyond. */
  headersTimeoutMs: number;
  /** From the same start to the end of the body (DMS_REQUEST_TIMEOUT_MS); 408 beyond. A long poll's wait is after it. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (DMS_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /** DMS_TRUSTED_PROXIES: addresses or CIDR blocks exempt from the per-address cap. */
  trustedProxies: readonly string[];
}

/** For a listener started without limits (the desktop's embedded server, tests): httpDefaults, no trusted proxy. */
export const defaultHttpLimits: HttpLimits = { ...httpDefaults, trustedProxies: [] };

/**
 * How often Node looks for connections past their headers or request timeout. Its default,
 * 30 s, lets a slow-header connection live up to 30 s past its timeout; a tenth of the
 * headers timeout (at most 1 s) bounds that lateness. One check walks only the connections
 * with a request in progress, at most maxConnections.
 */
export function connectionsCheckingIntervalMs(limits: Pick<HttpLimits, 'headersTimeoutMs'>): number {
  return Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 10)));
}

/** The node:http server options these limits set. */
export function httpServerOptions(limits: HttpLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: connectionsCheckingIntervalMs(limits),
  };
}
