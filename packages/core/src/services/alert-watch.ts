import type { CoreDeps } from './core-deps.js';
import type { DmsEvent } from '../domain/events.js';
import type { ScheduleRecord, ScheduleRunRecord } from '../ports/schedule-store.js';
import type { AlertService } from './alert-service.js';
import type { SettingsService } from './settings-service.js';
import { auditResource } from './audit-trail.js';
import type { AuditResource } from '../domain/audit-event.js';
import { frequentScheduleHoldSeconds, type AlertSource } from '../domain/alert.js';
import { capacityDefaults } from '../defaults.js';
import { formatBytes } from '../format-bytes.js';
import { capacityFigures } from './share-service.js';
import { effectiveThresholds } from '../domain/nas-share.js';

/** The sources whose resource is a share: a deleted share clears them. */
const shareSources: readonly AlertSource[] = ['share_unreachable', 'scan_failed', 'share_nearly_full', 'share_full_soon'];

/** How often the sweep looks at what no event tells: keys about to expire, the queue, the storage. */
export const alertSweepMs = 60_000;
/** An API key expiring within this many days raises `api_key_expiring`. */
export const keyExpiryWarningDays = 7;

const dayMs = 24 * 3600_000;

/**
 * The alert sources (domain/alert.ts): job outcomes told by events of this process (each
 * replica raises for the jobs it ran), schedule runs told by the scheduler, queue refusals by
 * the engine, and a sweep for conditions no event tells. A source's failure is reported, never
 * thrown into what it watches.
 */
export class AlertWatch {
  #unsubscribe: (() => void) | undefined;
  #sweep: NodeJS.Timeout | undefined;
  /** Since when the storage failed its check; the alert is written once it can be. */
  #degradedSince: Date | undefined;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: Pick<CoreDeps, 'storage' | 'events' | 'clock'>,
    private readonly alerts: AlertService,
    private readonly settings: SettingsService,
    private readonly onError: (error: unknown) => void = () => {},
    /** The silences' tick: windows moved on, alerts whose silence is over told (docs/decisions/171-silences.md). */
    private readonly reviewSilences: () => Promise<void> = async () => {},
  ) {}

  start(sweepMs = alertSweepMs): void {
    this.#unsubscribe ??= this.deps.events.subscribe((event) => {
      if (event.origin !== 'remote') this.guard(this.onEvent(event));
    });
    if (!this.#sweep) {
      this.#sweep = setInterval(() => this.guard(this.sweep()), sweepMs);
      this.#sweep.unref();
    }
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  /** A schedule's run was claimed: missed occurrences raise `schedule_missed` (saying why), a run on time clears it. */
  scheduleRan(schedule: ScheduleRecord, missed: number, why = 'while dms was not running'): void {
    const resource = auditResource('schedules', schedule.id, schedule.name);
    this.guard(
      missed > 0
        ? this.alerts.sight('schedule_missed', resource, `schedule ${schedule.name} missed ${missed} run(s) ${why}; it ran once`)
        : this.alerts.clear('schedule_missed', resource),
    );
  }

  /** The scheduler disabled a schedule: its creator is gone or may no longer act. */
  scheduleStopped(schedule: ScheduleRecord, reason: string): void {
    const resource = auditResource('schedules', schedule.id, schedule.name);
    this.guard(this.alerts.sight('schedule_stopped', resource, `schedule ${schedule.name} was disabled: ${reason}`));
  }

  /** A schedule was enabled again (by someone who may): its stop is over. */
  scheduleEnabled(schedule: Pick<ScheduleRecord, 'id' | 'name'>): void {
    this.guard(this.alerts.clear('schedule_stopped', auditResource('schedules', schedule.id, schedule.name)));
  }

  /** A run ended: shares it started no job on raise `schedule_run_incomplete`; a whole run clears it. */
  scheduleRunEnded(schedule: ScheduleRecord, run: ScheduleRunRecord): void {
    const resource = auditResource('schedules', schedule.id, schedule.name);
    this.guard(
      run.not_started_count > 0
        ? this.alerts.sight(
            'schedule_run_incomplete',
            resource,
            `schedule ${schedule.name}: its run due at ${run.due_at} started no job on ${run.not_started_count} share(s) (refused for them or gone); ${run.queued_count} queued`,
          )
        : this.alerts.clear('schedule_run_incomplete', resource),
    );
  }

  /**
   * An inform to a trap target was acknowledged (clears `trap_target_unreachable`) or was not,
   * after its retries (raises it); traps are never acknowledged, so they tell nothing.
   */
  informOutcome(target: { id: number; manager: string }, unacknowledged?: Error): void {
    const resource = auditResource('traps', target.id, target.manager);
    this.guard(
      unacknowledged
        ? this.alerts.sight('trap_target_unreachable', resource, `trap target ${target.manager}: ${unacknowledged.message}`)
        : this.alerts.clear('trap_target_unreachable', resource),
    );
  }

  /** The queue bounds refused a job for the whole service. */
  queueRefused(total: number): void {
    this.guard(this.alerts.sight('job_queue_saturated', null, `the job queue is full (${total} unfinished jobs): new tests and scans are refused`));
  }

  /** What the sweep checks, once (tests call it directly). */
  async sweep(): Promise<void> {
    await this.checkStorage();
    if (this.#degradedSince) return;
    await this.checkKeys();
    await this.checkQueue();
    await this.checkDeletedShares();
    await this.alerts.raiseAndClearDue();
    await this.reviewSilences();
  }

  /**
   * After a test or scan read the share's capacity (stored before the job's event is told):
   * `share_nearly_full` at or past `warning_percent`, one level higher from `critical_percent`,
   * cleared below; `share_full_soon` while the forecast is within `days`.
   */
  private async checkCapacity(shareId: number, resource: AuditResource): Promise<void> {
    const record = await this.deps.storage.shares.get(shareId);
    if (!record || record.capacity_bytes === null || record.free_bytes === null) return;
    const { used_percent: used, days_until_full: days } = capacityFigures(record, this.deps.clock().getTime());
    const nearly = await this.alerts.setting('share_nearly_full');
    // The share's own thresholds first (docs/decisions/142-capacity-thresholds-per-share.md).
    const { warning, critical } = effectiveThresholds(record, {
      warning: nearly.warning_percent ?? capacityDefaults.warningPercent,
      critical: nearly.critical_percent ?? capacityDefaults.criticalPercent,
    });
    const free = `${formatBytes(record.free_bytes)} free of ${formatBytes(record.capacity_bytes)}`;
    if (used !== null && used >= warning) {
      const past = used >= critical ? critical : warning;
      await this.alerts.sight('share_nearly_full', resource, `share ${record.name} is ${used} % full (${free}; threshold ${past} %)`, used >= critical ? 1 : 0);
    } else await this.alerts.clear('share_nearly_full', resource);
    const soon = (await this.alerts.setting('share_full_soon')).days ?? capacityDefaults.fullSoonDays;
    if (days !== null && days < soon) {
      await this.alerts.sight('share_full_soon', resource, `share ${record.name} is forecast to be full in ${days} days (${free})`);
    } else await this.alerts.clear('share_full_soon', resource);
  }

  /**
   * `share_unreachable`'s automatic raise_after_seconds (docs/decisions/172-alert-damping.md): 300
   * when the test that failed was started by a schedule running more often than every 5 minutes
   * (its next run due less than 5 minutes after the one that started it), else 0.
   */
  private async automaticUnreachableHold(event: DmsEvent): Promise<number> {
    const scheduleId = event.job?.schedule_id;
    if (scheduleId === null || scheduleId === undefined) return 0;
    const schedule = await this.deps.storage.schedules.get(scheduleId);
    if (!schedule?.last_run_at || !schedule.next_run_at) return 0;
    const intervalMs = Date.parse(schedule.next_run_at) - Date.parse(schedule.last_run_at);
    return intervalMs < frequentScheduleHoldSeconds * 1000 ? frequentScheduleHoldSeconds : 0;
  }

  /** Alerts about a share that was deleted since: cleared at once, and what was held about it dropped (whichever replica deleted it). */
  private async checkDeletedShares(): Promise<void> {
    for (const source of shareSources) {
      for (const alert of [...(await this.alerts.open(source)), ...(await this.alerts.held(source))]) {
        if (alert.resource_type !== 'nas_shares' || alert.resource_id === null) continue;
        if (/^\d{1,15}$/.test(alert.resource_id) && (await this.deps.storage.shares.get(Number(alert.resource_id)))) continue;
        const resource = auditResource('nas_shares', alert.resource_id, alert.resource_name);
        await this.alerts.release(source, resource);
        await this.alerts.clear(source, resource, true);
      }
    }
  }

  private async onEvent(event: DmsEvent): Promise<void> {
    const id = event.resource?.id;
    if (event.resource?.type !== 'nas_share' || id === undefined) return;
    const share = auditResource('nas_shares', id, event.resource.name ?? null);
    switch (event.name) {
      case 'share_test_failed':
        return this.alerts.sight('share_unreachable', share, event.message, 0, await this.automaticUnreachableHold(event));
      case 'share_test_completed':
        await this.alerts.clear('share_unreachable', share);
        return this.checkCapacity(Number(id), share);
      case 'share_scan_failed':
        return this.alerts.sight('scan_failed', share, event.message);
      case 'share_scan_completed':
        await this.alerts.clear('scan_failed', share);
        return this.checkCapacity(Number(id), share);
      default:
    }
  }

  /** The readiness check (/readyz): an alert can be written only once storage answers again, so it is raised then and cleared. */
  private async checkStorage(): Promise<void> {
    try {
      await this.deps.storage.ping();
    } catch (error) {
      this.#degradedSince ??= this.deps.clock();
      // Announced now even if it cannot be stored: the trap goes out through the event bus.
      await this.alerts
        .sight('storage_degraded', null, `storage failed its readiness check: ${error instanceof Error ? error.message : String(error)}`)
        .catch(() => {});
      return;
    }
    if (!this.#degradedSince) return;
    const since = this.#degradedSince.toISOString();
    this.#degradedSince = undefined;
    await this.alerts.sight('storage_degraded', null, `storage failed its readiness check from ${since} until it answered again`);
    await this.alerts.clear('storage_degraded', null);
  }

  private async checkKeys(): Promise<void> {
    const now = this.deps.clock();
    const horizon = new Date(now.getTime() + keyExpiryWarningDays * dayMs);
    const expiring = await this.deps.storage.apiKeys.list({
      limit: 1000,
      offset: 0,
      sort: [{ field: 'expires_at', direction: 'asc', nullable: true }],
      filters: [
        { field: 'expires_at', op: 'gt', values: [now.toISOString()] },
        { field: 'expires_at', op: 'lte', values: [horizon.toISOString()] },
      ],
    });
    const seen = new Set<string>();
    for (const key of expiring.items) {
      seen.add(String(key.id));
      await this.alerts.sight(
        'api_key_expiring',
        auditResource('api_keys', key.id, key.name),
        `API key ${key.name} (…${key.key_last4}) expires at ${key.expires_at}`,
      );
    }
    for (const alert of await this.alerts.open('api_key_expiring')) {
      if (alert.resource_id !== null && !seen.has(alert.resource_id))
        await this.alerts.clear('api_key_expiring', auditResource('api_keys', alert.resource_id, alert.resource_name));
    }
  }

  private async checkQueue(): Promise<void> {
    if ((await this.alerts.open('job_queue_saturated')).length === 0 && (await this.alerts.held('job_queue_saturated')).length === 0) return;
    const { job_queue_max_total: total } = await this.settings.current();
    if ((await this.deps.storage.jobs.countUnfinished()) < total) await this.alerts.clear('job_queue_saturated', null);
  }

  /** Resolves once what the sources were told so far is stored (tests; a stop). */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  private guard(work: Promise<void>): void {
    const tracked = work.catch(this.onError).finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }
}
