import type { DmsEvent, DmsEventResource } from '../../domain/events.js';
import { eventObjectOid } from './dms-mib.js';
import { netSnmp, type NetSnmpVarbind } from './net-snmp.js';

/** DmsUtf8String and DisplayString of DMS-MIB hold at most 255 octets. */
const maxOctets = 255;

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

/** The five DMS-MIB event objects, instance .0, in the order of the NOTIFICATION-TYPEs. */
export function eventVarbinds(enterpriseOid: string, event: DmsEvent): NetSnmpVarbind[] {
  const { OctetString, Integer } = netSnmp.ObjectType;
  return [
    { oid: `${eventObjectOid(enterpriseOid, 'dmsEventName')}.0`, type: OctetString, value: utf8Octets(event.name) },
    { oid: `${eventObjectOid(enterpriseOid, 'dmsEventSeverity')}.0`, type: Integer, value: event.severity },
    { oid: `${eventObjectOid(enterpriseOid, 'dmsEventMessage')}.0`, type: OctetString, value: utf8Octets(event.message) },
    {
      oid: `${eventObjectOid(enterpriseOid, 'dmsEventResource')}.0`,
      type: OctetString,
      value: utf8Octets(formatResource(event.resource)),
    },
    { oid: `${eventObjectOid(enterpriseOid, 'dmsEventTimestamp')}.0`, type: OctetString, value: isoTime(event.at) },
  ];
}
