import { pino, type Logger, type DestinationStream } from 'pino';

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

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' }, base: { service: 'dms' } };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
