import type { Outputs } from '../../trpc-client.js';
import { resourceTypeLabel } from '../../labels/history-labels.js';
import { severityName } from '../../labels/snmp-choices.js';

export type AlertRow = Outputs['alerts']['list']['alerts'][number];

/** "Share later": what an alert is about, by its kind and name (or id); '' for the whole service. */
export function alertResource(alert: Pick<AlertRow, 'resource'>): string {
  const resource = alert.resource;
  if (!resource) return '';
  const name = resource.name ?? (resource.id === null ? '' : `#${resource.id}`);
  return `${resourceTypeLabel(resource.type)} ${name}`.trim();
}

/** "error (4)": a level as traps name it, with its number. */
export function levelText(level: number): string {
  return `${severityName(level)} (${level})`;
}
