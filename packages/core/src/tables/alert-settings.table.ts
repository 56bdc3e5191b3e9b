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
  /** Null: automatic (docs/decisions/172-alert-damping.md). */
  raise_after_seconds: number | null;
  /** Null on rows saved before migration 0029: 0. */
  clear_after_seconds: number | null;
}
