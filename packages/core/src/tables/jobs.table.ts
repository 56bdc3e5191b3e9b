import type { Selectable } from 'kysely';
import type { JobKind, StepOutcome } from '../domain/job.js';
import type { JobStatus } from '../domain/job-status.js';
import { columnsOf } from './columns.js';
import type { JsonText } from './json-text.js';

export interface JobTable {
  id: string;
  kind: JobKind;
  status: JobStatus;
  /** The NAS a test was started under (a GET under another NAS is 404). */
  nas_id: number | null;
  share_id: number | null;
  progress: number;
  total: number;
  message: string | null;
  steps: JsonText<StepOutcome[]>;
  /** Sealed JSON of what the job needs (may hold a password); erased when it finishes. */
  payload_enc: string | null;
  result: JsonText<Record<string, number>> | null;
  worker_id: string | null;
  heartbeat_at: string | null;
  /** Who asked for it (`user:ID`, `key:ID`, `system`): bounds and fair claiming go by it. */
  requested_by: string;
  /** Its name as shown: the user's or key's name when it was started, or `scheduler`. */
  requester: string;
  /** The schedule whose run started it; null for a job someone asked for. */
  schedule_id: number | null;
  /**
   * A test of an unsaved share: a keyed digest of who tested which location and credentials
   * (test-fingerprint.ts), so the share saved from it can take it as its first test; null
   * otherwise and once taken.
   */
  test_fingerprint: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const jobColumns = columnsOf<Selectable<JobTable>>({
  id: true,
  kind: true,
  status: true,
  nas_id: true,
  share_id: true,
  progress: true,
  total: true,
  message: true,
  steps: true,
  payload_enc: true,
  result: true,
  worker_id: true,
  heartbeat_at: true,
  requested_by: true,
  requester: true,
  schedule_id: true,
  test_fingerprint: true,
  created_at: true,
  started_at: true,
  finished_at: true,
});
