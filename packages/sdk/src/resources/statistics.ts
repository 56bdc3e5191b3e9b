import type { Call } from '../call.js';
import type { CallOptions, Capacity } from '../types.js';

export interface CapacityOptions extends CallOptions {
  /** The period growth is measured over, in days (the server's default: 30). */
  days?: number;
}

export interface StatisticsResource {
  /** Totals of the latest scans, per NAS and per pool, and their growth over `days`. */
  capacity(options?: CapacityOptions): Promise<Capacity>;
}

export function statisticsResource(call: Call): StatisticsResource {
  return {
    capacity: ({ days, signal } = {}) =>
      call('GET', '/statistics/capacity', { query: days === undefined ? {} : { days: String(days) }, signal }) as Promise<Capacity>,
  };
}
