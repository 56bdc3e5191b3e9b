import { Counter, Histogram, type Registry } from 'prom-client';
import { channelTypes, finishedJobStatuses, jobKinds } from '@dms/core';
import { notificationAttemptOutcomes, scheduleRunOutcomes, type Activity, type ActivityFeed } from '@dms/core/runtime';
import { boundedLabel } from './bounded-label.js';

/** From a share test's milliseconds to a scan's hours. */
const jobBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 14_400];
/** A driver step: milliseconds up to the driver timeout. */
const stepBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Step names come from the drivers (six today); more distinct ones than this are counted as `other`. */
export const maxStepNames = 16;

/**
 * What this process's job engine, notification dispatcher and scheduler did since it started
 * (`core.activity`): counters and histograms per process, summed over replicas by the query
 * (docs/decisions/180-metrics-per-share-and-activity.md). Every series of a bounded label set is
 * there from the start at 0, so a rate is 0 rather than absent before the first happening.
 */
export function registerActivityMetrics(registry: Registry, feed: Pick<ActivityFeed, 'subscribe'>): () => void {
  const jobDuration = new Histogram({
    name: 'dms_job_duration_seconds',
    help: 'jobs this process ran to their end, from claim to finish, by kind and outcome',
    labelNames: ['kind', 'outcome'],
    buckets: jobBuckets,
    registers: [registry],
  });
  const stepDuration = new Histogram({
    name: 'dms_job_step_duration_seconds',
    help: 'the steps a job reported (a share test: resolve_host, connect, negotiate_protocol, authenticate, open_path, list), skipped ones left out',
    labelNames: ['kind', 'step'],
    buckets: stepBuckets,
    registers: [registry],
  });
  const scanEntries = new Counter({
    name: 'dms_scan_entries_total',
    help: "files and directories this process's scans reached, counted as the scans go",
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'dms_notifications_total',
    help: 'attempts to send a notification, by channel type and what the delivery became (delivered, retrying, failed)',
    labelNames: ['channel_type', 'outcome'],
    registers: [registry],
  });
  const scheduleRuns = new Counter({
    name: 'dms_schedule_runs_total',
    help: 'due schedule runs this process claimed, fired or skipped (its last run still going), and occurrences missed',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const kind of jobKinds) for (const outcome of finishedJobStatuses) jobDuration.zero({ kind, outcome });
  for (const channel_type of channelTypes) for (const outcome of notificationAttemptOutcomes) notifications.inc({ channel_type, outcome }, 0);
  for (const outcome of scheduleRunOutcomes) scheduleRuns.inc({ outcome }, 0);

  const stepName = boundedLabel(maxStepNames);
  const count = (activity: Activity): void => {
    switch (activity.type) {
      case 'job_finished':
        jobDuration.observe({ kind: activity.kind, outcome: activity.outcome }, activity.seconds);
        for (const step of activity.steps) {
          if (step.outcome !== 'skipped') stepDuration.observe({ kind: activity.kind, step: stepName(step.name) }, step.duration_ms / 1000);
        }
        return;
      case 'scan_entries':
        scanEntries.inc(activity.count);
        return;
      case 'notification_attempt':
        notifications.inc({ channel_type: activity.channel_type, outcome: activity.outcome });
        return;
      case 'schedule_runs':
        scheduleRuns.inc({ outcome: activity.outcome }, activity.count);
        return;
    }
  };
  return feed.subscribe(count);
}
