import { createRequire } from 'node:module';
import { pino, type Logger, type DestinationStream } from 'pino';
import type { PrettyOptions, PrettyStream } from 'pino-pretty';
import { serverDefaults } from '@dms/core';
import { batchedDestination } from './batched-destination.js';
import { TraceFlags, trace } from '@opentelemetry/api';

/** Secrets never reach a log line, whatever a caller passes in. */
export const redactedPaths = [
  'authorization',
  'password',
  'token',
  'api_key',
  // SNMP communities (trap targets, the agent) are passwords on the wire.
  'community',
  '*.authorization',
  '*.password',
  '*.token',
  '*.api_key',
  '*.community',
  'headers.authorization',
  'req.headers.authorization',
  'body.password',
];

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

/**
 * The format without DMS_LOG_FORMAT (docs/decisions/151-log-format-by-terminal.md): `pretty` when
 * the log's stream (standard output) is a terminal, where a person reads it; JSON lines when it is a
 * pipe, a file or journald, where a program does.
 */
export function defaultLogFormat(logsToTerminal: boolean): LogFormat {
  return logsToTerminal ? 'pretty' : serverDefaults.logFormat;
}

/**
 * Most a reader that falls behind (a stalled journald, a full pipe) may leave unwritten
 * before lines are dropped: the event loop never waits on the log's reader.
 */
export const maxUnwrittenLogBytes = 16 * 1024 * 1024;
/**
 * Lines are written once this much waits, or after `writeWithinMs` at the latest: one write
 * (a thread-pool round trip) carries ~20 access lines instead of one each.
 */
const writeAtBytes = 4096;
const writeWithinMs = 100;

/**
 * Standard output, written asynchronously in batches (batched-destination.ts): a line is
 * queued, not written, in the request that logs it, and goes out with the others in one write
 * once 4 KiB wait or 100 ms have passed. A graceful stop (SIGTERM, SIGINT, SIGHUP) waits for what
 * waits within its timeout (flushLogger); at the exit, a crash included, what is left is written if
 * the fd takes it at once, else dropped, counted and said on stderr (issue 40 item 15).
 */
function stdoutDestination(onDrop?: (bytes: number) => void): DestinationStream {
  return batchedDestination({
    fd: 1,
    batchBytes: writeAtBytes,
    withinMs: writeWithinMs,
    maxUnwrittenBytes: maxUnwrittenLogBytes,
    ...(onDrop ? { onDrop } : {}),
  });
}

export interface LoggerOptions {
  /** Told of lines dropped because standard output's reader fell `maxUnwrittenLogBytes` behind. */
  onDrop?: (bytes: number) => void;
  /** Tracing on: every line logged within a traced request or job carries `trace_id` and `span_id`. */
  traced?: boolean;
}

/** The active span's ids, sampled ones only (an unsampled trace leads nowhere in a trace store). */
function traceIds(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return (traceFlags & TraceFlags.SAMPLED) === 0 ? {} : { trace_id: traceId, span_id: spanId };
}

/**
 * pino-pretty, required when a logger is to be pretty, not imported with this module: a service
 * logs JSON lines, and pino-pretty with its dependencies is about 1 MB of heap (decision 188).
 */
function prettyStream(options: PrettyOptions): PrettyStream {
  const { PinoPretty } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return PinoPretty(options);
}

/**
 * JSON lines by default (for journald, Loki, …); `pretty` for a terminal, through pino-pretty
 * as a stream in this thread, so no worker thread and no line is lost at exit.
 */
export function createLogger(
  level: string = serverDefaults.logLevel,
  destination?: DestinationStream,
  format: LogFormat = serverDefaults.logFormat,
  { onDrop, traced = false }: LoggerOptions = {},
): Logger {
  // A mixin only when traced: it sends the access log down pino's own path (see accessLog).
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'dms' }, ...(traced ? { mixin: traceIds } : {}) };
  if (destination) return pino(options, destination);
  return format === 'pretty'
    ? pino(options, prettyStream({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }))
    : pino(options, stdoutDestination(onDrop));
}

/** An access line's fields, in their order on the line. None is a secret: redaction is off for them. */
export interface AccessFields {
  req_id: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** `user:NAME` or `api_key:ID`; left off the line when undefined (no credential, a public path). */
  principal: string | undefined;
}

export type AccessLog = (level: 'info' | 'debug', fields: AccessFields) => void;

const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym, messageKeySym, formattersSym, mixinSym, hooksSym, needsMetadataGsym } = pino.symbols;

/**
 * The access log, one line per request: the very line `logger[level](fields, 'request')` writes,
 * with the logger's level label, time and bindings (read through `pino.symbols`, which pino
 * exposes for integrations), put together here. pino's serialiser looks up a serialiser and a
 * stringifier for each key and redacts by key name, which cost a request more than the line's
 * write. A logger that reshapes its lines (a log formatter, a mixin, a write hook, a stream
 * that wants metadata) keeps pino's own path.
 */
export function accessLog(logger: Logger): AccessLog {
  const plain = logger.child({}, { redact: [] });
  const internals = plain as unknown as Record<symbol, unknown>;
  const stream = internals[streamSym] as DestinationStream & Record<symbol, unknown>;
  const levelLabels = internals[lsCacheSym] as Record<number, string | undefined>;
  const info = levelLabels[plain.levels.values['info'] ?? -1];
  const debug = levelLabels[plain.levels.values['debug'] ?? -1];
  const reshapes =
    (internals[formattersSym] as { log?: unknown }).log !== undefined ||
    Boolean(internals[mixinSym]) ||
    (internals[hooksSym] as { streamWrite?: unknown }).streamWrite !== undefined ||
    stream[needsMetadataGsym] === true ||
    internals[messageKeySym] !== 'msg' ||
    // Custom levels only: no info or debug of pino's own.
    info === undefined ||
    debug === undefined;
  if (reshapes) return (level, fields) => plain[level](fields, 'request');
  const opening = { info, debug };
  const time = internals[timeSym] as () => string;
  const bindings = internals[chindingsSym] as string;
  const end = internals[endSym] as string;
  return (level, { req_id, method, path, status, ms, principal }) => {
    const who = principal === undefined ? '' : `,"principal":${JSON.stringify(principal)}`;
    stream.write(
      `${opening[level]}${time()}${bindings},"req_id":${JSON.stringify(req_id)},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms}${who},"msg":"request"${end}`,
    );
  };
}

export type { Logger };

/**
 * Resolves when every line logged so far is written, or after `timeoutMs`: a stopping service
 * waits for its last lines, but a reader that stopped reading does not hold the exit.
 */
export function flushLogger(logger: Logger, timeoutMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    logger.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
