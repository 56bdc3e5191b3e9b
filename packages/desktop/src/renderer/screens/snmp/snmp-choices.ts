import type { severityLevels, Severity, SnmpVersion } from '@dms/core';

/**
 * The fixed choices of the SNMP forms. The core's value lists cannot be imported here (its index
 * pulls Node modules into the bundle), so they are written again, checked against the core's
 * types: a value added, removed or renamed in the core fails the renderer's type check.
 */

/** DESIGN §5.6: 1 info … 5 critical; `satisfies` holds each name to the core's literal. */
export const severityNames = { 1: 'info', 2: 'notice', 3: 'warning', 4: 'error', 5: 'critical' } as const satisfies typeof severityLevels;

export const lowestSeverity = 1;
export const highestSeverity = 5;

export function severityName(level: number): string {
  return severityNames[level as Severity] ?? String(level);
}

const snmpVersionLabels = { v1: 'SNMP v1', v2c: 'SNMP v2c' } as const satisfies Record<SnmpVersion, string>;
export const snmpVersionChoices = Object.entries(snmpVersionLabels).map(([value, label]) => ({ value: value as SnmpVersion, label }));
