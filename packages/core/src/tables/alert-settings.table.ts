import type { AlertSource } from '../domain/alert.js';
import type { Severity } from '../domain/trap.js';

/** One row per alert source that was set; the capacity sources' thresholds null where not set. */
export interface AlertSettingTable {
  source: AlertSource;
  /** 0 or 1: the record's `enabled` is a boolean. */
  enabled: number;
  level: Severity;
  warning_percent: number | null;
  critical_percent: number | null;
  days: number | null;
}
