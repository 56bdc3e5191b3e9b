import type { AuthProtocol, NotifyType, PrivProtocol, SecurityLevel, severityLevels, Severity, SnmpVersion, TrapVersion } from '@dms/core';

/**
 * The fixed choices of the SNMP forms. The core's value lists cannot be imported here (its index
 * pulls Node modules into the bundle), so they are written again, checked against the core's
 * types: a value added, removed or renamed in the core fails the renderer's type check.
 */

/** docs/api.md#snmp-trap-targets: 1 info … 5 critical; `satisfies` holds each name to the core's literal. */
export const severityNames = { 1: 'info', 2: 'notice', 3: 'warning', 4: 'error', 5: 'critical' } as const satisfies typeof severityLevels;

export const lowestSeverity = 1;
export const highestSeverity = 5;

export function severityName(level: number): string {
  return severityNames[level as Severity] ?? String(level);
}

const snmpVersionLabels = { v1: 'SNMP v1', v2c: 'SNMP v2c' } as const satisfies Record<SnmpVersion, string>;
export const snmpVersionChoices = Object.entries(snmpVersionLabels).map(([value, label]) => ({ value: value as SnmpVersion, label }));

/** A trap target's versions: the agent's and v3 (user-based security, docs/decisions/052-snmp-v3.md). */
const trapVersionLabels = { ...snmpVersionLabels, v3: 'SNMP v3' } as const satisfies Record<TrapVersion, string>;
export const trapVersionChoices = Object.entries(trapVersionLabels).map(([value, label]) => ({ value: value as TrapVersion, label }));

const choicesOf = <V extends string>(labels: Record<V, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value: value as V, label: label as string }));

export const notifyTypeChoices = choicesOf({ trap: 'Trap (not acknowledged)', inform: 'Inform (acknowledged, retried)' } satisfies Record<NotifyType, string>);
export const securityLevelChoices = choicesOf({
  authPriv: 'authPriv: authenticated and encrypted',
  authNoPriv: 'authNoPriv: authenticated, not encrypted',
  noAuthNoPriv: 'noAuthNoPriv: neither',
} satisfies Record<SecurityLevel, string>);
/** The recommended first; SHA-1 is allowed but says it is weak. MD5 is not offered (the core refuses it). */
export const authProtocolChoices = choicesOf({ 'SHA-256': 'SHA-256', 'SHA-512': 'SHA-512', 'SHA-1': 'SHA-1 (weak)' } satisfies Record<AuthProtocol, string>);
/** DES is not offered (the core refuses it). */
export const privProtocolChoices = choicesOf({ 'AES-128': 'AES-128', 'AES-256': 'AES-256' } satisfies Record<PrivProtocol, string>);
