import type { Call } from '../call.js';
import type { CallOptions, Capacity, StatisticsReport } from '../types.js';

export interface CapacityOptions extends CallOptions {
  /** The period growth is measured over, in days (the server's default: 30). */
  days?: number;
}

export interface StatisticsResource {
  /** Totals of the latest scans, per NAS and per pool, and their growth over `days`. */
  capacity(options?: CapacityOptions): Promise<Capacity>;
  /** Per share over the last `days` (1-366, the server's default 7): size, free, growth, days until full, top growers, failed tests. JSON; the CSV form is `Accept: text/csv` on GET /statistics/report. */
  report(options?: CapacityOptions): Promise<StatisticsReport>;
}

export function statisticsResource(call: Call): StatisticsResource {
  return {
    capacity: ({ days, signal } = {}) =>
      call('GET', '/statistics/capacity', { query: days === undefined ? {} : { days: String(days) }, signal }) as Promise<Capacity>,
    report: ({ days, signal } = {}) =>
      call('GET', '/statistics/report', { query: days === undefined ? {} : { days: String(days) }, signal }) as Promise<StatisticsReport>,
  };
}
