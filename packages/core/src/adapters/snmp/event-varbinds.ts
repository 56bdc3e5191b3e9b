import type { DmsEvent, DmsEventResource } from '../../domain/events.js';
import { eventObjectOid, notificationObjects, type EventObjectName } from './dms-mib.js';
import { netSnmp, type NetSnmpVarbind } from './net-snmp.js';

/** DmsUtf8String and DisplayString of DMS-MIB hold at most 255 octets. */
const maxOctets = 255;
/** dmsAlertSource is a DisplayString (SIZE (1..64)). */
const maxAlertSourceOctets = 64;

/** UTF-8 bytes of `text`, cut at a character boundary to fit `limit` octets. */
export function utf8Octets(text: string, limit = maxOctets): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // bytes[end] is the first byte left out: if it continues a character, drop that character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** "nas_share 12 (projects)": what an operator reads in a trap log. */
export function formatResource(resource: DmsEventResource | undefined): string {
  if (!resource) return '';
  let text = resource.type;
  if (resource.id !== undefined) text += ` ${resource.id}`;
  if (resource.name !== undefined) text += ` (${resource.name})`;
  return text;
}

function isoTime(at: Date): string {
  // A bad date must not make a trap fail: the event itself matters more than its time.
  return Number.isNaN(at.getTime()) ? new Date().toISOString() : at.toISOString();
}

/** The largest value of Unsigned32, the syntax of dmsAlertId. */
const maxUnsigned32 = 2 ** 32 - 1;

/** The alert an alert notification is about; its absence is a bug of the publisher, not something to send half of. */
function alertOf(event: DmsEvent): NonNullable<DmsEvent['alert']> {
  const { alert } = event;
  if (!alert) throw new Error(`${event.name} event without its alert: its trap would lack dmsAlertSource and dmsAlertId`);
  if (!Number.isInteger(alert.id) || alert.id < 1 || alert.id > maxUnsigned32) throw new Error(`alert id ${alert.id} does not fit dmsAlertId (Unsigned32)`);
  return alert;
}

/**
 * The varbinds (instance .0) of the event's notification, in the order of its OBJECTS in DMS-MIB:
 * the five event objects, then for an alert's raise or clear its source and id. The severity is
 * the event's, which for an alert event is the alert's level.
 */
export function eventVarbinds(enterpriseOid: string, event: DmsEvent): NetSnmpVarbind[] {
  const { OctetString, Integer, Gauge } = netSnmp.ObjectType;
  const value: Record<EventObjectName, () => Omit<NetSnmpVarbind, 'oid'>> = {
    dmsEventName: () => ({ type: OctetString, value: utf8Octets(event.name) }),
    dmsEventSeverity: () => ({ type: Integer, value: event.severity }),
    dmsEventMessage: () => ({ type: OctetString, value: utf8Octets(event.message) }),
    dmsEventResource: () => ({ type: OctetString, value: utf8Octets(formatResource(event.resource)) }),
    dmsEventTimestamp: () => ({ type: OctetString, value: isoTime(event.at) }),
    dmsAlertSource: () => ({ type: OctetString, value: utf8Octets(alertOf(event).source, maxAlertSourceOctets) }),
    // Unsigned32 is Gauge32 on the wire: SNMPv2-SMI gives both the tag [APPLICATION 2]
    dmsAlertId: () => ({ type: Gauge, value: alertOf(event).id }),
  };
  return notificationObjects(event.name).map((name) => ({ oid: `${eventObjectOid(enterpriseOid, name)}.0`, ...value[name]() }));
}
