import type { JobKind, JobStatus, NasType, Pool } from '@dms/core';

// Types only from the core: the renderer bundle must not pull in the core's runtime. Each table
// is keyed by the core's union, so a type added there fails the renderer's typecheck until it
// has a label here.

export const nasTypeLabels: Record<NasType, string> = {
  local: 'Local directory',
  smb_v1: 'SMB 1',
  smb_v2_1: 'SMB 2.1',
  smb_v3: 'SMB 3',
  nfs_v3: 'NFS v3',
  nfs_v4: 'NFS v4',
  storenext_v5: 'StorNext 5',
};

export const poolTypeLabels: Record<Pool['type'], string> = {
  primary: 'Primary',
  active_archive: 'Active archive',
  offline_archive: 'Offline archive',
  data_exchange: 'Data exchange',
  scratch: 'Scratch',
  data_enrichment: 'Data enrichment',
};

export const poolContentLabels: Record<Pool['content'], string> = {
  nas: 'NAS shares',
  tape: 'Tape',
  cloud: 'Cloud',
};

export const jobKindLabels: Record<JobKind, string> = { share_test: 'Test', share_scan: 'Scan' };

export const jobStatusLabels: Record<JobStatus, string> = { queued: 'queued', working: 'running', completed: 'completed', failed: 'failed' };

const stepLabels: Record<string, string> = {
  resolve_host: 'Resolve host',
  connect: 'Connect',
  negotiate_protocol: 'Negotiate protocol',
  authenticate: 'Authenticate',
  open_path: 'Open path',
  list: 'List entries',
};

/** A driver step as people read it; a step this table does not know yet keeps its own name. */
export function stepLabel(name: string): string {
  return stepLabels[name] ?? name.replaceAll('_', ' ');
}

/** The keys of a label table, in its order, for a select's options. */
export function optionsOf<K extends string>(labels: Record<K, string>): Array<[K, string]> {
  return Object.entries(labels) as Array<[K, string]>;
}
