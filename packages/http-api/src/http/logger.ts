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
 * JSON lines by default (for journald, Loki, …); `pretty` for a terminal, through pino-pretty
 * as a stream in this thread, so no worker thread and no line is lost at exit.
 */
export function createLogger(level: string = serverDefaults.logLevel, destination?: DestinationStream, format: LogFormat = serverDefaults.logFormat): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'dms' } };
  if (destination) return pino(options, destination);
  return format === 'pretty'
    ? pino(options, pretty({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' }))
    : pino(options);
}

export type { Logger };
