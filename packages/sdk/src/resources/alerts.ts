import type { Call } from '../call.js';
import type { Alert, AlertCollection, CallOptions, FilterFieldOf, SortFieldOf } from '../types.js';
import { listQuery, pages, type ListOptions } from './crud.js';

/** An alert list filters and sorts on the same attributes; `cleared_at: null` is the open alerts. */
export type AlertListOptions = ListOptions<FilterFieldOf<'listAlerts'>, SortFieldOf<'listAlerts'>>;

/** Conditions dms keeps watch on (GET /alerts): raised when one starts, updated while it lasts, cleared when it ends. */
export interface AlertsResource {
  /** One page of alerts, newest first unless `sortBy` says otherwise, and `count`. */
  list(options?: AlertListOptions): Promise<AlertCollection>;
  /** Every matching alert, page after page (`limit` a request, 100 by default). */
  listAll(options?: AlertListOptions): AsyncIterableIterator<Alert>;
  get(alertId: number, options?: CallOptions): Promise<Alert>;
  /** Marks the alert seen (`dismissed_at`); it still clears by itself when its condition ends. */
  dismiss(alertId: number, options?: CallOptions): Promise<Alert>;
  /** Takes a dismissal back: the alert counts as unseen again. */
  undismiss(alertId: number, options?: CallOptions): Promise<Alert>;
}

export function alertsResource(call: Call): AlertsResource {
  const list = (options: ListOptions<string, string> = {}) =>
    call('GET', '/alerts', { query: listQuery(options), signal: options.signal }) as Promise<AlertCollection>;
  const at = (alertId: number) => ({ alert_id: String(alertId) });
  const dismissed = (alertId: number, value: boolean, options: CallOptions) =>
    call('PUT', '/alerts/{alert_id}', { path: at(alertId), body: { dismissed: value }, signal: options.signal }) as Promise<Alert>;
  return {
    list,
    listAll: (options = {}) => pages<Alert>(list, 'alerts', options),
    get: (alertId, options = {}) => call('GET', '/alerts/{alert_id}', { path: at(alertId), signal: options.signal }) as Promise<Alert>,
    dismiss: (alertId, options = {}) => dismissed(alertId, true, options),
    undismiss: (alertId, options = {}) => dismissed(alertId, false, options),
  };
}
