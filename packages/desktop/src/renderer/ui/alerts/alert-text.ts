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

/** Where the console shows what an alert is about, when it has a screen for it: a share on the Shares screen. */
export function alertResourceHref(alert: Pick<AlertRow, 'resource'>): string | undefined {
  const resource = alert.resource;
  if (resource?.type !== 'nas_shares' || resource.id === null) return undefined;
  return `#/shares?share=${encodeURIComponent(resource.id)}`;
}

/** "error (4)": a level as traps name it, with its number. */
export function levelText(level: number): string {
  return `${severityName(level)} (${level})`;
}
