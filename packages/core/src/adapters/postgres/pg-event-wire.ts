import { z } from 'zod';
import { eventCatalogue, internalEventCatalogue, type DmsEvent, type DmsEventResource, type InternalEvent } from '../../domain/events.js';

/** NOTIFY refuses a payload of 8000 bytes or more; dms events are a few hundred. */
export const maxNotifyPayloadBytes = 7999;

/** What travels in a NOTIFY: the event and the replica that published it. */
export type WireMessage = { from: string } & ({ kind: 'event'; event: DmsEvent } | { kind: 'signal'; event: InternalEvent });

const wireSchema = z.object({
  from: z.string().min(1),
  kind: z.enum(['event', 'signal']),
  event: z.object({
    name: z.string(),
    message: z.string(),
    at: z.iso.datetime(),
    resource: z.object({ type: z.string(), id: z.union([z.number(), z.string()]).optional(), name: z.string().optional() }).optional(),
  }),
});

export function encodeWireMessage(message: WireMessage): string {
  const { name, message: text, at, resource } = message.event;
  return JSON.stringify({ from: message.from, kind: message.kind, event: { name, message: text, at: at.toISOString(), resource } });
}

/**
 * The message, marked remote, or undefined for a payload this version does not know (a
 * newer replica's event during a rolling upgrade is skipped, not delivered half-understood).
 * Severity comes from the local catalogue, never from the wire.
 *
 * So an alert_raised or alert_cleared from another replica arrives at the catalogue's severity
 * and without its `alert` (id, source, level). Nothing needs them here: its trap was sent by the
 * replica that raised it (events/trap-dispatcher.ts skips remote events, and the trap sender
 * refuses an alert event without its alert), and the alert sources act on local events only
 * (services/alert-watch.ts); the alert itself is in the shared storage. A consumer that ever
 * needs a remote alert's level must carry `alert` on the wire first.
 */
export function decodeWireMessage(payload: string): WireMessage | undefined {
  let parsed: z.infer<typeof wireSchema>;
  try {
    parsed = wireSchema.parse(JSON.parse(payload));
  } catch {
    return undefined;
  }
  const { from, kind, event } = parsed;
  const common = { message: event.message, at: new Date(event.at), origin: 'remote' as const };
  const resource = event.resource ? toResource(event.resource) : undefined;
  if (kind === 'event' && Object.hasOwn(eventCatalogue, event.name)) {
    const name = event.name as keyof typeof eventCatalogue;
    return { from, kind, event: { name, severity: eventCatalogue[name].severity, ...common, ...(resource ? { resource } : {}) } };
  }
  if (kind === 'signal' && Object.hasOwn(internalEventCatalogue, event.name)) {
    const name = event.name as keyof typeof internalEventCatalogue;
    return { from, kind, event: { name, severity: internalEventCatalogue[name].severity, ...common, ...(resource ? { resource } : {}) } };
  }
  return undefined;
}

function toResource(wire: { type: string; id?: number | string | undefined; name?: string | undefined }): DmsEventResource {
  const resource: DmsEventResource = { type: wire.type };
  if (wire.id !== undefined) resource.id = wire.id;
  if (wire.name !== undefined) resource.name = wire.name;
  return resource;
}
