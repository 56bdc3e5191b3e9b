/** The thresholds of share_nearly_full, as the alert watch applies them (docs/decisions/142-capacity-thresholds-per-share.md). */
export interface CapacityThresholds {
  warning: number;
  critical: number;
}

/** The source's defaults, until its settings are read (docs/decisions/129-capacity-alerts.md). */
export const defaultThresholds: CapacityThresholds = { warning: 80, critical: 90 };

/** A share's own thresholds, each falling back to the source's; critical never below warning. */
export function shareThresholds(
  share: { capacity_warning_percent: number | null; capacity_critical_percent: number | null },
  source: CapacityThresholds,
): CapacityThresholds {
  const warning = share.capacity_warning_percent ?? source.warning;
  return { warning, critical: Math.max(warning, share.capacity_critical_percent ?? source.critical) };
}

export type CapacityLevel = 'ok' | 'warning' | 'critical';

/** The colour a usage gets: the alert's own cut-offs, so the bar turns when the alert is raised. */
export function capacityLevel(usedPercent: number, thresholds: CapacityThresholds): CapacityLevel {
  if (usedPercent >= thresholds.critical) return 'critical';
  if (usedPercent >= thresholds.warning) return 'warning';
  return 'ok';
}

/** "full in 12 days", "full within a day": a forecast in words; undefined when there is none. */
export function fullInText(days: number | null): string | undefined {
  if (days === null) return undefined;
  if (days < 1) return 'full within a day';
  const whole = Math.round(days);
  return `full in ${whole.toLocaleString('en')} ${whole === 1 ? 'day' : 'days'}`;
}

/** share_nearly_full's thresholds from its `/alert_settings` row; the defaults when it is not readable. */
export function sourceThresholds(
  settings: { alert_settings: Array<{ source: string; warning_percent?: number; critical_percent?: number }> } | undefined,
): CapacityThresholds {
  const row = settings?.alert_settings.find((setting) => setting.source === 'share_nearly_full');
  return { warning: row?.warning_percent ?? defaultThresholds.warning, critical: row?.critical_percent ?? defaultThresholds.critical };
}
