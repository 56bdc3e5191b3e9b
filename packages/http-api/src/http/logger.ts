import { pino, type Logger, type DestinationStream } from 'pino';
import pretty from 'pino-pretty';
import { serverDefaults } from '@dms/core';

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
 * Standard output as pino's asynchronous sonic-boom: a line is queued, not written, in the
 * request that logs it, and goes out with the others in one write once 4 KiB wait or 100 ms
 * have passed. pino writes what is left synchronously when the process exits (its exit hook)
 * if a crash ends it; a graceful stop (SIGTERM, SIGINT, SIGHUP) waits for it first (flushLogger).
 */
function stdoutDestination(onDrop?: (bytes: number) => void): DestinationStream {
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: writeAtBytes,
    periodicFlush: writeWithinMs,
    maxLength: maxUnwrittenLogBytes,
  });
  if (onDrop) destination.on('drop', (data: string) => onDrop(Buffer.byteLength(data)));
  return destination;
}

export interface LoggerOptions {
  /** Told of lines dropped because standard output's reader fell `maxUnwrittenLogBytes` behind. */
  onDrop?: (bytes: number) => void;
}

/**
 * JSON lines by default (for journald, Loki, …); `pretty` for a terminal, through pino-pretty
 * as a stream in this thread, so no worker thread and no line is lost at exit.
 */
export function createLogger(
  level: string = serverDefaults.logLevel,
  destination?: DestinationStream,
  format: LogFormat = serverDefaults.logFormat,
  { onDrop }: LoggerOptions = {},
): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'dms' } };
  if (destination) return pino(options, destination);
  return format === 'pretty'
    ? pino(options, pretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }))
    : pino(options, stdoutDestination(onDrop));
}

/**
 * The logger of the access log, one line per request: the same destination and level, without
 * redaction. Its lines hold only the fields the observer names (request id, method, path,
 * status, duration, principal), none of them a secret, and redacting by key name cost each
 * request about as much as the rest of its line.
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
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
