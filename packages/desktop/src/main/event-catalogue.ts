import { eventCatalogue as catalogue, type DmsEventName } from '@dms/core';

/** One event dms raises, as the Trap targets screen lists it. */
export interface CatalogueEvent {
  name: DmsEventName;
  /** 1 info … 5 critical: the level a trap target's band filters by. */
  level: number;
  description: string;
  /** An alert's raise or clear carries its alert's level instead of `level`. */
  atAlertLevel: boolean;
}

/** The events whose trap carries the alert's own level (core's alertEvent), not the catalogue's. */
const alertEvents: readonly DmsEventName[] = ['alert_raised', 'alert_cleared'];

/** The core's eventCatalogue (domain/events.ts), its one source of truth, as the screen lists it. */
export function eventCatalogue(): Promise<CatalogueEvent[]> {
  return Promise.resolve(
    (Object.entries(catalogue) as Array<[DmsEventName, (typeof catalogue)[DmsEventName]]>).map(([name, entry]) => ({
      name,
      level: entry.severity,
      description: entry.description,
      atAlertLevel: alertEvents.includes(name),
    })),
  );
}
