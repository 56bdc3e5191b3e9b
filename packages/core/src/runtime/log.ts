/**
 * What the core logs through: the slice of a structured logger (pino's shape) that openDms
 * uses. The core depends on no logging library; hosts pass their own.
 */
export interface DmsLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLog: DmsLog = { info: () => {}, warn: () => {}, error: () => {} };
