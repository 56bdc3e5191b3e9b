import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/** One event dms raises, as the Trap targets screen lists it. */
export interface CatalogueEvent {
  name: string;
  /** 1 info … 5 critical: the level a trap target's band filters by. */
  level: number;
  description: string;
  /** An alert's raise or clear carries its alert's level instead of `level`. */
  atAlertLevel: boolean;
}

const catalogueSchema = z.record(z.string(), z.object({ severity: z.number().int().min(1).max(5), description: z.string() }));

/** The events whose trap carries the alert's own level (core's alertEvent), not the catalogue's. */
const alertEvents: readonly string[] = ['alert_raised', 'alert_cleared'];

let loaded: Promise<CatalogueEvent[]> | undefined;

/**
 * The core's eventCatalogue (domain/events.ts), its one source of truth. @dms/core's index does
 * not export it yet, so it is read from the built module beside the index, and checked: a
 * changed shape fails here, not on the screen. Replace with the index export once there is one.
 */
export function eventCatalogue(): Promise<CatalogueEvent[]> {
  loaded ??= (async () => {
    const index = createRequire(import.meta.url).resolve('@dms/core');
    const events = (await import(pathToFileURL(join(dirname(index), 'domain', 'events.js')).href)) as { eventCatalogue?: unknown };
    return Object.entries(catalogueSchema.parse(events.eventCatalogue)).map(([name, entry]) => ({
      name,
      level: entry.severity,
      description: entry.description,
      atAlertLevel: alertEvents.includes(name),
    }));
  })();
  loaded.catch(() => (loaded = undefined));
  return loaded;
}
