import type { Outputs } from '../../trpc-client.js';

export type RestServerStatusView = Outputs['restServer']['status'];

/** The state in a few words, for the overview's fact line and the Settings screen's status line. */
export function restServerSummary(status: RestServerStatusView): string {
  if (status.state === 'running') return `running at ${status.url ?? ''}`;
  if (status.state === 'failed') return `failed: ${status.lastError ?? 'unknown error'}`;
  return 'off';
}
