import type { Call } from '../call.js';
import type { AlertSetting, AlertSettingCollection, AlertSettingUpdate, AlertSource, CallOptions } from '../types.js';

/** Whether each alert source raises alerts, and at which level (GET /alert_settings, PUT /alert_settings/{source}). */
export interface AlertSettingsResource {
  /** Every source, with its setting and what it watches. */
  list(options?: CallOptions): Promise<AlertSettingCollection>;
  /** Administrators only. Turning a source off clears its open alerts. */
  update(source: AlertSource, body: AlertSettingUpdate, options?: CallOptions): Promise<AlertSetting>;
}

export function alertSettingsResource(call: Call): AlertSettingsResource {
  return {
    list: (options = {}) => call('GET', '/alert_settings', { signal: options.signal }) as Promise<AlertSettingCollection>,
    update: (source, body, options = {}) =>
      call('PUT', '/alert_settings/{source}', { path: { source }, body, signal: options.signal }) as Promise<AlertSetting>,
  };
}
