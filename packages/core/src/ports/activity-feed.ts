import type { FinishedJobStatus, JobKind, StepOutcome } from '../domain/job.js';
import type { DispatchChannelType } from '../domain/notification-channel.js';

/** What an attempt to send a notification ended in (the delivery's outcome after it). */
export const notificationAttemptOutcomes = ['delivered', 'retrying', 'failed'] as const;
export type NotificationAttemptOutcome = (typeof notificationAttemptOutcomes)[number];

/** A due run of a schedule: fired (its jobs started), skipped (its last run's jobs still going), or an occurrence missed. */
export const scheduleRunOutcomes = ['fired', 'skipped', 'missed'] as const;
export type ScheduleRunOutcome = (typeof scheduleRunOutcomes)[number];

/**
 * What this process's job engine, notification dispatcher and scheduler did, as it happens:
 * the figures `/metrics` counts (docs/decisions/180-metrics-per-share-and-activity.md). Each
 * happening is told on the replica where it happened, once.
 */
export type Activity =
  | {
      type: 'job_finished';
      kind: JobKind;
      outcome: FinishedJobStatus;
      /** From the claim to the finish, by the engine's clock. */
      seconds: number;
      /** The steps the driver reported (a share test's: resolve_host, connect, …). */
      steps: readonly StepOutcome[];
    }
  /** Files and directories a scan reached since its last report (counted as the scan goes). */
  | { type: 'scan_entries'; count: number }
  | { type: 'notification_attempt'; channel_type: DispatchChannelType; outcome: NotificationAttemptOutcome }
  | { type: 'schedule_runs'; outcome: ScheduleRunOutcome; count: number };

/** The core tells its activity here; a host (the metrics of `/metrics`) subscribes. */
export interface ActivityFeed {
  /** Tells every subscriber at once; never throws (a subscriber's error is reported apart). */
  report(activity: Activity): void;
  /** Resolves the unsubscribe. */
  subscribe(listener: (activity: Activity) => void): () => void;
}
