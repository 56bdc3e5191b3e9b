import type { JobKind } from '../domain/job.js';
import type { NasRecord } from '../ports/storage.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { ShareConnection } from './share-location.js';
import { activeTraceCarrier, type TraceCarrier } from '../tracing/spans.js';

/** Where a share typed in (not saved) connects: the NAS's type and host, the body's fields and password. */
export type UnsavedLocation = Pick<NasRecord, 'type' | 'host'> & ShareConnection & { password: string | null };

/** A share tested before it is saved: everything the job needs is in its payload, password included. */
export interface UnsavedShare {
  location: UnsavedLocation;
  /** The name the body gave it, for events and logs. */
  label: string;
}

/** A saved share: read again, with its NAS and its sealed password, when the job runs. */
export interface SavedShare {
  shareId: number;
}

/** The share a job runs on. Whether it tests or scans it is the job's own `kind`, in one vocabulary (`JobKind`). */
export type JobShare = UnsavedShare | SavedShare;

/**
 * The payload as it is sealed in storage (it may hold a password). Its `kind` is older than
 * the job's `kind` column and keeps its own words (`share_test_saved`), so that jobs queued by an
 * earlier version, and replicas of one sharing the database, read and write it as before.
 * Nothing outside this file sees those words.
 */
type StoredPayload = (({ kind: 'share_test' } & UnsavedShare) | ({ kind: 'share_test_saved' | 'share_scan' } & SavedShare)) & {
  /** The trace of the request or schedule run that queued it (when traced): the job's span continues it, on any replica. */
  trace?: TraceCarrier;
};

function stored(kind: JobKind, target: JobShare): StoredPayload {
  const trace = activeTraceCarrier();
  const traced = trace === undefined ? {} : { trace };
  if ('shareId' in target) return { kind: kind === 'share_scan' ? 'share_scan' : 'share_test_saved', shareId: target.shareId, ...traced };
  // Only tests run on unsaved shares (JobService); the runner goes by the job's kind anyway.
  return { kind: 'share_test', location: target.location, label: target.label, ...traced };
}

export function sealJobPayload(secrets: SecretBox, kind: JobKind, target: JobShare): string {
  return secrets.seal(JSON.stringify(stored(kind, target)));
}

/** The share a job runs on and the trace it continues. */
export function openSealedJob(secrets: SecretBox, sealed: string): { target: JobShare; trace: TraceCarrier | undefined } {
  const payload = JSON.parse(secrets.open(sealed)) as StoredPayload;
  const target: JobShare = payload.kind === 'share_test' ? { location: payload.location, label: payload.label } : { shareId: payload.shareId };
  return { target, trace: payload.trace };
}

export function openJobPayload(secrets: SecretBox, sealed: string): JobShare {
  return openSealedJob(secrets, sealed).target;
}
