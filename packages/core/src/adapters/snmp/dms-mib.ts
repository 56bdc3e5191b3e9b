/*
 * OIDs of DMS-MIB (packages/core/mib/DMS-MIB.txt), relative to the enterprise arc so a
 * site can move dms under its own arc with DMS_SNMP_ENTERPRISE_OID. mib.test.ts checks
 * these against the MIB file with snmptranslate.
 */
import type { DmsEventName } from '../../domain/events.js';

/** sysObjectID, sysUpTime … of SNMPv2-MIB's system group. */
export const systemOids = {
  sysDescr: '1.3.6.1.2.1.1.1',
  sysObjectID: '1.3.6.1.2.1.1.2',
  sysUpTime: '1.3.6.1.2.1.1.3',
  sysContact: '1.3.6.1.2.1.1.4',
  sysName: '1.3.6.1.2.1.1.5',
  sysLocation: '1.3.6.1.2.1.1.6',
  sysServices: '1.3.6.1.2.1.1.7',
} as const;

/** Sub-identifiers below dmsEventObjects (dms.1.1); each is sent with instance .0. */
export const eventObjectArcs = {
  dmsEventName: 1,
  dmsEventSeverity: 2,
  dmsEventMessage: 3,
  dmsEventResource: 4,
  dmsEventTimestamp: 5,
  dmsAlertSource: 6,
  dmsAlertId: 7,
} as const;

export type EventObjectName = keyof typeof eventObjectArcs;

/** The OBJECTS of every NOTIFICATION-TYPE, in order: the varbinds of every trap. */
export const eventObjects = [
  'dmsEventName',
  'dmsEventSeverity',
  'dmsEventMessage',
  'dmsEventResource',
  'dmsEventTimestamp',
] as const satisfies readonly EventObjectName[];

/** What dmsAlertRaised and dmsAlertCleared carry after the event objects. */
export const alertObjects = ['dmsAlertSource', 'dmsAlertId'] as const satisfies readonly EventObjectName[];

/** The events whose notifications carry alertObjects. */
export const alertNotificationEvents = ['alert_raised', 'alert_cleared'] as const satisfies readonly DmsEventName[];

/** The OBJECTS of the notification of `event`, as DMS-MIB declares them. */
export function notificationObjects(event: DmsEventName): readonly EventObjectName[] {
  return (alertNotificationEvents as readonly DmsEventName[]).includes(event) ? [...eventObjects, ...alertObjects] : eventObjects;
}

/** Sub-identifiers below dmsAgentObjects (dms.1.2). */
export const agentObjectArcs = {
  dmsShareCount: 1,
  dmsJobsQueued: 2,
  dmsJobsWorking: 3,
  dmsJobsCompleted: 4,
  dmsJobsFailed: 5,
} as const;

const oidPattern = /^[0-2](\.(0|[1-9]\d*))+$/;

/** Rejects a malformed DMS_SNMP_ENTERPRISE_OID early rather than sending garbage. */
export function checkEnterpriseOid(oid: string): string {
  const trimmed = oid.trim().replace(/^\./, '');
  if (!oidPattern.test(trimmed)) throw new Error(`invalid SNMP enterprise OID: ${JSON.stringify(oid)}`);
  return trimmed;
}

/** dmsNotifications.N: under { dms 0 } so v1 traps map to it losslessly (RFC 3584). */
export function notificationOid(enterpriseOid: string, notification: number): string {
  return `${enterpriseOid}.0.${notification}`;
}

export function eventObjectOid(enterpriseOid: string, name: EventObjectName): string {
  return `${enterpriseOid}.1.1.${eventObjectArcs[name]}`;
}

export function agentObjectOid(enterpriseOid: string, name: keyof typeof agentObjectArcs): string {
  return `${enterpriseOid}.1.2.${agentObjectArcs[name]}`;
}
